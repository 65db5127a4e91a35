/**
 * What the client reports about the time it spends: each retry, each wait (rate budget, Retry-After,
 * the service's advised wait after a 429), each split of a query and each cap of a listing, with its
 * reason and duration. A logger is any object with `debug`, `info` and `warn` (console, pino and
 * winston loggers fit); messages never hold the secret, a query string or personal data.
 */
import { inertText } from "../../text/inert";

/** Levels from the most to the least detailed; `off` logs nothing. */
export type LogLevel = "debug" | "info" | "warn" | "off";

/** Where the client's log lines go. */
export interface InsightsLogger {
  /**
   * Short waits (under a second) and other detail.
   *
   * @param message - The line for people; it never holds a secret, a query string or personal data.
   */
  debug(message: string, details?: LogDetails): void;
  /**
   * Retries, splits and waits of a second or more: why a call takes long.
   *
   * @param message - The line for people; it never holds a secret, a query string or personal data.
   */
  info(message: string, details?: LogDetails): void;
  /**
   * A call that gives up after retrying.
   *
   * @param message - The line for people; it never holds a secret, a query string or personal data.
   */
  warn(message: string, details?: LogDetails): void;
}

/** The structured part of a log line. */
export interface LogDetails {
  /** What happened: a retry, a wait before sending, a split of a query, a cap of a listing, or giving up. */
  event: "retry" | "wait" | "split" | "cap" | "give-up";
  /** Why, in a few words (for example `rate budget "historical metrics" (400 a minute) spent`). */
  reason: string;
  /** How long the client waits, in milliseconds, when it waits. */
  durationMs?: number;
  /** The request concerned: method and path (never the query). */
  request?: string;
  /**
   * For a give-up: what the last attempt met, in the same words for every request that met it
   * (`connection failed (ECONNREFUSED: ...)`, `HTTP 503`), so that a log can say one cause once.
   */
  failure?: string;
}

/** The environment variable that turns logging on without code: `debug`, `info` or `warn`. */
export const LOG_ENV = "INSIGHTS_LOG";

/** A wait at least this long is logged at `info`; shorter ones at `debug`, so a burst stays readable. */
export const NOTABLE_WAIT_MS = 1_000;

const LEVEL_RANK: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, off: 3 };

/**
 * Writes `[insights] message` lines to stderr: the logger of `INSIGHTS_LOG` when no logger is given.
 * Each message is one line made inert (provider/text/inert.ts), whatever a reason quoted from the
 * service holds.
 */
export const STDERR_LOGGER: InsightsLogger = {
  debug: (message) => void process.stderr.write(`[insights] debug: ${inertText(message)}\n`),
  info: (message) => void process.stderr.write(`[insights] ${inertText(message)}\n`),
  warn: (message) => void process.stderr.write(`[insights] warning: ${inertText(message)}\n`),
};

/** The logger a client uses: `logger` filtered to `level` (nothing below it reaches the logger). */
export function filteredLogger(logger: InsightsLogger, level: LogLevel): InsightsLogger {
  const enabled = (wanted: LogLevel) => LEVEL_RANK[wanted] >= LEVEL_RANK[level] && level !== "off";
  return {
    debug: (message, details) => (enabled("debug") ? logger.debug(message, details) : undefined),
    info: (message, details) => (enabled("info") ? logger.info(message, details) : undefined),
    warn: (message, details) => (enabled("warn") ? logger.warn(message, details) : undefined),
  };
}

/** True when `text` names a level. */
export function isLogLevel(text: unknown): text is LogLevel {
  return typeof text === "string" && Object.hasOwn(LEVEL_RANK, text);
}

/** A duration as people read it: `850 ms`, `12 s`, `1 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1_000);
  if (seconds < 60) return `${seconds} s`;
  const rest = seconds % 60;
  return `${Math.floor(seconds / 60)} min${rest === 0 ? "" : ` ${rest} s`}`;
}

/** Logs a wait: at info when it is {@link NOTABLE_WAIT_MS} or longer, else at debug. */
export function logWait(logger: InsightsLogger, request: string, reason: string, durationMs: number): void {
  const message = `${request}: ${reason}, waiting ${formatDuration(durationMs)}`;
  const details: LogDetails = { event: "wait", reason, durationMs, request };
  if (durationMs >= NOTABLE_WAIT_MS) logger.info(message, details);
  else logger.debug(message, details);
}

/** True when `value` can serve as an {@link InsightsLogger}. */
export function isLogger(value: unknown): value is InsightsLogger {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate["debug"] === "function" && typeof candidate["info"] === "function" && typeof candidate["warn"] === "function";
}
