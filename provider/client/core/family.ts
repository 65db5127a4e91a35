import type { z } from "zod";
import type { QueryParams, Requester } from "./request";
import type { CallOptions } from "./transport";

/**
 * Base of the read-only query families (sessions, metrics, alerts: spec 4.2 to 4.9, all GET): one
 * way to send a checked query through the shared transport with the caller's per-call options.
 */
export abstract class QueryFamily {
  /** A family is built by {@link InsightsClient}, which gives every family its one transport. */
  constructor(
    /** The transport every request of the family goes through (the client's: one pool, one rate budget). */
    protected readonly requester: Requester,
  ) {}

  /**
   * Reports that one call became `parts` requests (`reason` says which limit made it so), through the
   * call's logger, else the client's: a user sees why a call sent more than one request.
   *
   * @param path - The endpoint called, without the query (it can carry viewer ids).
   * @param reason - The limit that split the call, in a few words.
   * @param parts - How many requests the call became; 1 reports nothing.
   * @param requestOptions - The call's options, whose `logger` comes before the client's.
   */
  protected logSplit(path: string, reason: string, parts: number, requestOptions: CallOptions | undefined): void {
    if (parts <= 1) return;
    const logger = requestOptions?.logger ?? this.requester.logger;
    logger?.info(`GET ${path}: ${reason}, split into ${parts} requests`, { event: "split", reason, request: `GET ${path}` });
  }

  /**
   * @internal Sends `GET path?query` and parses the answer with `schema`; `personal` is the personal
   * data the query carries, which no error of the call may show (request.ts `personal`).
   */
  protected get<Schema extends z.ZodType>(path: string, query: QueryParams, schema: Schema, requestOptions: CallOptions | undefined, personal?: readonly string[]): Promise<z.infer<Schema>> {
    return this.requester.request({ method: "GET", path, query, ...requestOptions, ...(personal === undefined ? {} : { personal }) }, schema);
  }
}
