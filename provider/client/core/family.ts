import type { z } from "zod";
import type { QueryParams, Requester } from "./request";
import type { CallOptions } from "./transport";

/**
 * Base of the read-only query families (sessions, metrics, alerts: spec 4.2 to 4.9, all GET): one
 * way to send a checked query through the shared transport with the caller's per-call options.
 */
export abstract class QueryFamily {
  constructor(protected readonly requester: Requester) {}

  /**
   * Reports that one call became `parts` requests (`reason` says which limit made it so), through the
   * call's logger, else the client's: a user sees why a call sent more than one request.
   */
  protected logSplit(path: string, reason: string, parts: number, requestOptions: CallOptions | undefined): void {
    if (parts <= 1) return;
    const logger = requestOptions?.logger ?? this.requester.logger;
    logger?.info(`GET ${path}: ${reason}, split into ${parts} requests`, { event: "split", reason, request: `GET ${path}` });
  }

  /** @internal Sends `GET path?query` and parses the answer with `schema`. */
  protected get<Schema extends z.ZodType>(path: string, query: QueryParams, schema: Schema, requestOptions: CallOptions | undefined): Promise<z.infer<Schema>> {
    return this.requester.request({ method: "GET", path, query, ...requestOptions }, schema);
  }
}
