/**
 * Milliseconds per minute, hour, day and week: the emulator's one set of time constants. The
 * provider has its own (provider/client/core/time-range.ts); the emulator never imports provider code.
 */

/** Milliseconds in a minute. */
export const MINUTE_MS = 60_000;
/** Milliseconds in an hour. */
export const HOUR_MS = 60 * MINUTE_MS;
/** Milliseconds in a day (UTC days: no daylight-saving shifts). */
export const DAY_MS = 24 * HOUR_MS;
/** Milliseconds in a week. */
export const WEEK_MS = 7 * DAY_MS;
