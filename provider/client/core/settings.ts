import { isIP } from "node:net";
import { describeValue, SettingsError } from "./errors";
import { filteredLogger, isLogger, isLogLevel, LOG_ENV, STDERR_LOGGER, type InsightsLogger, type LogLevel } from "./logging";
import { DEFAULT_RATE_BUDGET, type RateBudgetOptions } from "./rate-budget";
import { DEFAULT_RETRY_OPTIONS, type RetryOptions } from "./retry";

/**
 * Options of an `InsightsClient`. The base URL and the credentials come from these options, else
 * from the environment (`INSIGHTS_BASE_URL`, `INSIGHTS_CLIENT_ID`, `INSIGHTS_CLIENT_SECRET`).
 */
export interface InsightsClientOptions {
  /** Base URL of the API (spec section 4: paths are relative to it). HTTPS unless the host is loopback. */
  baseUrl?: string;
  /** API client id (spec 5). */
  clientId?: string;
  /** API client secret (spec 5). Never printed, logged or put into an error. */
  clientSecret?: string;
  /** Timeout of one attempt (until the whole answer is read), in milliseconds. Default 30 s. */
  timeoutMs?: number;
  /** Requests of this account that may be in flight at once (spec 8). Default 8. */
  maxConcurrency?: number;
  /**
   * The largest answer the client reads, in bytes (a whole number up to {@link MAX_RESPONSE_BYTES_LIMIT}).
   * A successful answer past it ends the attempt with a `ResponseTooLargeError`, counted while the
   * body arrives, so a call never holds more than about this much of an answer. Default 6,000,000: a
   * little over the 5,700,000 bytes past which the service refuses an answer with a 413 (spec 8,
   * docs/api.md 11.7). Error answers are read up to 64 KiB whatever this is.
   */
  maxResponseBytes?: number;
  /** Retry policy (see retry.ts); every field optional. */
  retry?: Partial<RetryOptions>;
  /**
   * The rate budgets the client paces itself within (rate-budget.ts), shared by every client of the
   * process; every field optional, default the service's (docs/api.md 8, 10.1). `false` turns
   * pacing off: requests are sent at once and a 429 is met with a wait after it. Pacing waits use
   * `retry.now` and `retry.sleep`.
   */
  rateBudget?: Partial<RateBudgetOptions> | false;
  /**
   * Where retries, waits, splits and caps are reported (logging.ts). Default: none, unless the
   * environment variable `INSIGHTS_LOG` is `debug`, `info` or `warn`, which writes to stderr.
   */
  logger?: InsightsLogger;
  /** The least severe level that reaches the logger. Default `INSIGHTS_LOG`, else `info`. */
  logLevel?: LogLevel;
  /**
   * The client's clock in epoch milliseconds, for the recency limits of spec 8 and for splitting
   * relative ranges. Default `Date.now`; point it at an emulator's controlled clock in tests.
   */
  now?: () => number;
  /** Environment to read settings from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Defaults of the tunable options. */
export const DEFAULT_CLIENT_OPTIONS = {
  /** 30 s for one attempt, until the whole answer is read. */
  timeoutMs: 30_000,
  /**
   * 8 requests of an account in flight at once: spec 8 allows hundreds, but the limit of 3000
   * requests per 5 minutes per client address (docs/api.md 10.1) makes a small bound the polite default.
   */
  maxConcurrency: 8,
  /**
   * 6,000,000 bytes: the service refuses an answer over 5,700,000 bytes with a 413 (spec 8), so no
   * valid answer is larger; the margin leaves room for a service that counts a little differently
   * (docs/api.md 11.7).
   */
  maxResponseBytes: 6_000_000,
  /** The retry policy's defaults, {@link DEFAULT_RETRY_OPTIONS}. */
  retry: DEFAULT_RETRY_OPTIONS,
  /** The service's budgets, {@link DEFAULT_RATE_BUDGET}. */
  rateBudget: DEFAULT_RATE_BUDGET,
} satisfies Required<Pick<InsightsClientOptions, "timeoutMs" | "maxConcurrency" | "maxResponseBytes">> & { retry: RetryOptions; rateBudget: RateBudgetOptions };

/**
 * The largest `maxResponseBytes` accepted: an answer is decoded into one string, and V8's strings
 * hold at most about 2^29 characters (536,870,888).
 */
export const MAX_RESPONSE_BYTES_LIMIT = 500_000_000;

/** The environment variables read when an option is not given. */
export const SETTINGS_ENV = {
  /** `INSIGHTS_BASE_URL`: the base URL of the API, when the `baseUrl` option is not given. */
  baseUrl: "INSIGHTS_BASE_URL",
  /** `INSIGHTS_CLIENT_ID`: the client id of the account, when the `clientId` option is not given. */
  clientId: "INSIGHTS_CLIENT_ID",
  /** `INSIGHTS_CLIENT_SECRET`: the client secret of the account, when the `clientSecret` option is not given. */
  clientSecret: "INSIGHTS_CLIENT_SECRET",
} as const;

/**
 * The HTTP Basic credentials (docs/api.md 5, 10.1). The header value lives in an ECMAScript private
 * field, which neither `util.inspect` nor `JSON.stringify` nor an enumeration can reach.
 */
class Credentials {
  readonly #authorization: string;

  constructor(
    /** The client id (not secret: it names the account in logs and in the emulator's journal). */
    readonly clientId: string,
    clientSecret: string,
  ) {
    this.#authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`, "utf8").toString("base64")}`;
  }

  /** The `Authorization` header value. */
  authorizationHeader(): string {
    return this.#authorization;
  }

  /** Serialises without the secret. */
  toJSON(): { clientId: string } {
    return { clientId: this.clientId };
  }
}

/** Resolved settings of a client. */
export interface ClientSettings {
  /** The base URL; request paths are appended to its path. */
  baseUrl: URL;
  credentials: Credentials;
  timeoutMs: number;
  maxConcurrency: number;
  /** The largest successful answer read, in bytes. */
  maxResponseBytes: number;
  retry: RetryOptions;
  /** The pacing budgets, or false when pacing is off. */
  rateBudget: RateBudgetOptions | false;
  /** The logger, filtered to the log level (a logger that drops everything when logging is off). */
  logger: InsightsLogger;
}

/** Merges options, environment and defaults, and checks them; throws {@link SettingsError}. */
export function resolveSettings(options: InsightsClientOptions = {}): ClientSettings {
  const env = options.env ?? process.env;
  const setting = (name: keyof typeof SETTINGS_ENV): string => {
    const value = options[name] ?? env[SETTINGS_ENV[name]];
    if (value === undefined || value.trim() === "") {
      throw new SettingsError(name, `missing ${name}: pass the \`${name}\` option or set the environment variable ${SETTINGS_ENV[name]}`);
    }
    return value.trim();
  };
  const baseUrl = parseBaseUrl(setting("baseUrl"));
  const clientId = setting("clientId");
  if (clientId.includes(":")) {
    // HTTP Basic joins id and secret with ":" (spec 5), so an id with ":" cannot be sent.
    throw new SettingsError("clientId", "clientId must not contain ':' (HTTP Basic separates the id from the secret with it)");
  }
  const credentials = new Credentials(clientId, setting("clientSecret"));
  const timeoutMs = options.timeoutMs ?? DEFAULT_CLIENT_OPTIONS.timeoutMs;
  const maxConcurrency = options.maxConcurrency ?? DEFAULT_CLIENT_OPTIONS.maxConcurrency;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_CLIENT_OPTIONS.maxResponseBytes;
  const retry: RetryOptions = { ...DEFAULT_CLIENT_OPTIONS.retry, ...options.retry };
  requirePositive("timeoutMs", timeoutMs);
  requirePositive("maxConcurrency", maxConcurrency, true);
  requirePositive("maxResponseBytes", maxResponseBytes, true);
  if (maxResponseBytes > MAX_RESPONSE_BYTES_LIMIT) {
    throw new SettingsError("maxResponseBytes", `maxResponseBytes must be at most ${MAX_RESPONSE_BYTES_LIMIT}, got ${describeValue(maxResponseBytes)}`);
  }
  requirePositive("retry.maxRetries", retry.maxRetries, true, true);
  requirePositive("retry.baseDelayMs", retry.baseDelayMs, false, true);
  requirePositive("retry.maxDelayMs", retry.maxDelayMs, false, true);
  requirePositive("retry.budgetMs", retry.budgetMs, false, true);
  requirePositive("retry.rateLimitWaitMs", retry.rateLimitWaitMs, false, true);
  const rateBudget = resolveRateBudget(options, env);
  if (rateBudget !== false) {
    requirePositive("rateBudget.requestsPerFiveMinutes", rateBudget.requestsPerFiveMinutes, true);
    requirePositive("rateBudget.historicalMetricsPerMinute", rateBudget.historicalMetricsPerMinute, true);
    requirePositive("rateBudget.realTimeMetricsPerMinute", rateBudget.realTimeMetricsPerMinute, true);
    requirePositive("rateBudget.marginMs", rateBudget.marginMs, false, true);
  }
  return { baseUrl, credentials, timeoutMs, maxConcurrency, maxResponseBytes, retry, rateBudget, logger: resolveLogger(options, env) };
}

/** The environment variable that turns pacing off for every client that is not given `rateBudget`: `off`. */
export const RATE_BUDGET_ENV = "INSIGHTS_RATE_BUDGET";

/** The pacing budgets: the options' over the defaults, or false when the options or `INSIGHTS_RATE_BUDGET=off` turn pacing off. */
function resolveRateBudget(options: InsightsClientOptions, env: Readonly<Record<string, string | undefined>>): RateBudgetOptions | false {
  if (options.rateBudget === false) return false;
  const fromEnv = env[RATE_BUDGET_ENV]?.trim().toLowerCase();
  if (options.rateBudget === undefined && fromEnv !== undefined && fromEnv !== "") {
    if (fromEnv === "off") return false;
    if (fromEnv !== "on") throw new SettingsError("rateBudget", `the environment variable ${RATE_BUDGET_ENV} must be on or off, got ${describeValue(fromEnv)}`);
  }
  return { ...DEFAULT_CLIENT_OPTIONS.rateBudget, ...options.rateBudget };
}

/** The client's logger: the given one (or stderr when `INSIGHTS_LOG` asks), filtered to the level. */
function resolveLogger(options: InsightsClientOptions, env: Readonly<Record<string, string | undefined>>): InsightsLogger {
  const fromEnv = env[LOG_ENV]?.trim().toLowerCase();
  if (fromEnv !== undefined && fromEnv !== "" && !isLogLevel(fromEnv)) {
    throw new SettingsError("logLevel", `the environment variable ${LOG_ENV} must be debug, info, warn or off, got ${describeValue(fromEnv)}`);
  }
  if (options.logLevel !== undefined && !isLogLevel(options.logLevel)) {
    throw new SettingsError("logLevel", `logLevel must be debug, info, warn or off, got ${describeValue(options.logLevel)}`);
  }
  if (options.logger !== undefined && !isLogger(options.logger)) {
    throw new SettingsError("logger", `logger must be an object with debug, info and warn methods, got ${describeValue(options.logger)}`);
  }
  const level = options.logLevel ?? (isLogLevel(fromEnv) ? fromEnv : undefined);
  if (options.logger !== undefined) return filteredLogger(options.logger, level ?? "info");
  return filteredLogger(STDERR_LOGGER, level ?? "off");
}

function requirePositive(option: string, value: number, integer = false, zeroAllowed = false): void {
  const valid = Number.isFinite(value) && (zeroAllowed ? value >= 0 : value > 0) && (!integer || Number.isInteger(value));
  if (!valid) {
    const kind = `${zeroAllowed ? "non-negative" : "positive"} ${integer ? "integer" : "number"}`;
    throw new SettingsError(option, `${option} must be a ${kind}, got ${describeValue(value)}`);
  }
}

/** Parses the base URL and requires HTTPS except for loopback hosts (credentials travel in every request). */
function parseBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The text is not echoed: a mistyped setting could hold anything, secrets included.
    throw new SettingsError("baseUrl", `baseUrl (or ${SETTINGS_ENV.baseUrl}) is not an absolute URL such as https://api.example.com`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new SettingsError("baseUrl", "baseUrl must not contain user information: pass clientId and clientSecret instead");
  }
  if (url.search !== "" || url.hash !== "") {
    throw new SettingsError("baseUrl", "baseUrl must not contain a query or a fragment");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new SettingsError("baseUrl", `baseUrl must use https (got ${url.protocol.replace(/:$/, "")})`);
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw new SettingsError(
      "baseUrl",
      `baseUrl ${url.origin} uses plain HTTP: HTTPS is required except for loopback hosts (localhost, 127.0.0.0/8, ::1), because credentials travel with every request`,
    );
  }
  return url;
}

/**
 * @internal
 * localhost, 127.0.0.0/8 and ::1: the hosts whose traffic never leaves the machine (also where a
 * refused connection means an emulator not started: connection-check/words.ts).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (host === "localhost" || host === "::1") return true;
  return isIP(host) === 4 && host.startsWith("127.");
}
