import type { z } from "zod";
import type { InsightsLogger } from "./logging";

/** A query-string value; arrays repeat the key (spec 4.6: repeat a key for OR, no comma lists). */
export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;

/** Query parameters of a request; undefined values are left out. */
export type QueryParams = Readonly<Record<string, QueryValue>>;

/** One API request as the API families describe it to the transport. */
export interface RequestOptions {
  /** The HTTP method (spec section 4): GET reads, POST creates, PUT updates, DELETE deletes. */
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path relative to the base URL, starting with `/` (spec section 4). */
  path: string;
  /** The query string's parameters, encoded by the transport; an array repeats its key (spec 4.6). */
  query?: QueryParams;
  /** JSON body of POST and PUT. */
  body?: unknown;
  /** Per-request timeout in milliseconds; overrides the client's default. */
  timeoutMs?: number;
  /** Cancels the request (and its retries). */
  signal?: AbortSignal;
  /** Retries after the first attempt for this call; overrides the client's `retry.maxRetries`. */
  maxRetries?: number;
  /** Where this call's retries and waits are reported; overrides the client's logger. */
  logger?: InsightsLogger;
  /**
   * The personal data the request carries (viewer ids, e-mail addresses): a service may echo it in
   * an error, from which the transport removes it before anything reads the answer (errors.ts `redact`).
   */
  personal?: readonly string[];
}

/**
 * What every API family needs from the transport: send one request (with auth, retries, the
 * concurrency bound and timeouts applied) and parse the answer with a zod schema.
 */
export interface Requester {
  /** Where the families report what they do on the caller's behalf (splits of a query, caps of a listing). */
  readonly logger?: InsightsLogger;
  /** @internal Sends the request described by `options` and answers its body parsed with `schema`. */
  request<Schema extends z.ZodType>(options: RequestOptions, schema: Schema): Promise<z.infer<Schema>>;
}
