import { isIP } from "node:net";
import { describeValue, SettingsError } from "./errors";
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
  /** Retry policy (see retry.ts); every field optional. */
  retry?: Partial<RetryOptions>;
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
  timeoutMs: 30_000,
  // Spec 8 allows hundreds of concurrent requests per account, but the global limit of 3000 requests
  // per 5 minutes per IP (docs/api.md 10.1) makes a small bound the polite default.
  maxConcurrency: 8,
  retry: DEFAULT_RETRY_OPTIONS,
} satisfies Required<Pick<InsightsClientOptions, "timeoutMs" | "maxConcurrency">> & { retry: RetryOptions };

/** The environment variables read when an option is not given. */
export const SETTINGS_ENV = {
  baseUrl: "INSIGHTS_BASE_URL",
  clientId: "INSIGHTS_CLIENT_ID",
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
  retry: RetryOptions;
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
  const retry: RetryOptions = { ...DEFAULT_CLIENT_OPTIONS.retry, ...options.retry };
  requirePositive("timeoutMs", timeoutMs);
  requirePositive("maxConcurrency", maxConcurrency, true);
  requirePositive("retry.maxRetries", retry.maxRetries, true, true);
  requirePositive("retry.baseDelayMs", retry.baseDelayMs, false, true);
  requirePositive("retry.maxDelayMs", retry.maxDelayMs, false, true);
  requirePositive("retry.budgetMs", retry.budgetMs, false, true);
  return { baseUrl, credentials, timeoutMs, maxConcurrency, retry };
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

/** localhost, 127.0.0.0/8 and ::1: the hosts whose traffic never leaves the machine. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (host === "localhost" || host === "::1") return true;
  return isIP(host) === 4 && host.startsWith("127.");
}
