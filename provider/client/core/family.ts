import type { z } from "zod";
import type { QueryParams, Requester } from "./request";
import type { CallOptions } from "./transport";

/**
 * Base of the read-only query families (sessions, metrics, alerts: spec 4.2 to 4.9, all GET): one
 * way to send a checked query through the shared transport with the caller's per-call options.
 */
export abstract class QueryFamily {
  constructor(protected readonly requester: Requester) {}

  /** Sends `GET path?query` and parses the answer with `schema`. */
  protected get<Schema extends z.ZodType>(path: string, query: QueryParams, schema: Schema, requestOptions: CallOptions | undefined): Promise<z.infer<Schema>> {
    return this.requester.request({ method: "GET", path, query, ...requestOptions }, schema);
  }
}
