/**
 * The typed client of the Insights API on its own, usable without Pulumi: `InsightsClient`, its
 * families' parameter and answer types, and the error hierarchy (`InsightsError` and subclasses).
 *
 * @module pulumi-insights/client
 */
import { AlertsApi } from "./alerts";
import { FiltersApi } from "./filters";
import { MetricsApi } from "./metrics";
import { PiiApi } from "./pii";
import { SessionsApi } from "./sessions";
import { resolveSettings, type InsightsClientOptions } from "./core/settings";
import { Transport } from "./core/transport";

/**
 * The typed client of the Insights API (spec section 4). Every family has the same method shape,
 * `client.family.method(params, options?)`, with typed arguments checked before sending and answers
 * parsed with the schemas of provider/schema. All families share one transport: one keep-alive
 * pool, one concurrency bound per account, one retry policy.
 *
 * @example
 * const client = new InsightsClient({ baseUrl: "https://api.example.com", clientId, clientSecret });
 * try {
 *   const filters = await client.filters.list({ enabled: true });
 * } finally {
 *   await client.close();
 * }
 */
export class InsightsClient {
  /** Sample sessions, viewer sessions and lookups (spec 4.2 to 4.5). */
  readonly sessions: SessionsApi;
  /** Historical metrics (spec 4.6). */
  readonly metrics: MetricsApi<false>;
  /** Real-time metrics (spec 4.6, 8: at most 15 minutes, not older than 15 minutes). */
  readonly realTimeMetrics: MetricsApi<true>;
  /** AI alerts (spec 4.9). */
  readonly alerts: AlertsApi;
  /** Saved-filter management (spec 4.8). */
  readonly filters: FiltersApi;
  /** PII opt-out requests (spec 4.10). */
  readonly pii: PiiApi;
  readonly #transport: Transport;

  /**
   * Reads the settings from `options`, else from `INSIGHTS_BASE_URL`, `INSIGHTS_CLIENT_ID` and
   * `INSIGHTS_CLIENT_SECRET`; throws a `SettingsError` when one is missing or not acceptable.
   */
  constructor(options: InsightsClientOptions = {}) {
    this.#transport = new Transport(resolveSettings(options));
    const clock = options.now === undefined ? {} : { now: options.now };
    this.sessions = new SessionsApi(this.#transport, clock);
    this.metrics = new MetricsApi<false>(this.#transport, { realTime: false, ...clock });
    this.realTimeMetrics = new MetricsApi<true>(this.#transport, { realTime: true, ...clock });
    this.alerts = new AlertsApi(this.#transport);
    this.filters = new FiltersApi(this.#transport);
    this.pii = new PiiApi(this.#transport, clock);
  }

  /** Closes the connection pool after in-flight requests end; later calls throw. */
  close(): Promise<void> {
    return this.#transport.close();
  }

  /** Base URL and client id, never the secret. */
  toJSON(): {
    /** The base URL the client sends its requests to. */
    baseUrl: string;
    /** The client id of the account, the user of HTTP Basic (docs/api.md 5). */
    clientId: string;
  } {
    return this.#transport.toJSON();
  }
}

export * from "./alerts";
export * from "./metrics";
export * from "./metric-results";
export * from "./sessions";
export { PartialFailureError } from "./core/split";
export { IncompleteListingError } from "./core/listing";
export {
  AbortError,
  ApiError,
  ArgumentError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InsightsError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  RedirectError,
  RequestError,
  ResponseTooLargeError,
  ResponseValidationError,
  SettingsError,
  TimeoutError,
  UnprocessableEntityError,
  type ApiErrorDetails,
  type HttpMethod,
  type RequestDescription,
} from "./core/errors";
export * from "./filters";
export * from "./pii";
export type { QueryParams, QueryValue, Requester, RequestOptions } from "./core/request";
export type { DateInput, ExplicitRange, LastDaysRange, LastMinutesRange, TimeRange } from "./core/time-range";
export type {
  AcceptedMetricName,
  ErrorFilterName,
  FilterArguments,
  FilterValue,
  GroupByName,
  MetricFilterName,
  MetricFilters,
  SessionFilterName,
  SessionFilters,
  TagFilters,
} from "./core/validation";
export { DEFAULT_RETRY_OPTIONS, type RetryOptions } from "./core/retry";
export { DEFAULT_RATE_BUDGET, type RateBudgetOptions } from "./core/rate-budget";
export { LOG_ENV, type InsightsLogger, type LogDetails, type LogLevel } from "./core/logging";
export { DEFAULT_CLIENT_OPTIONS, MAX_RESPONSE_BYTES_LIMIT, SETTINGS_ENV, type InsightsClientOptions } from "./core/settings";
export type { CallOptions } from "./core/transport";
