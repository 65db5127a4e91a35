/**
 * Small pieces of the wire format the emulator writes (docs/api.md 2.2, 2.4, 2.8), its own code.
 */

/** A time as `{epoch_ms, iso_date}` (docs/api.md 2.2, 2.4). */
export interface WireTimestamp {
  epoch_ms: number;
  iso_date: string;
}

/** A time as `{epoch_sec, iso_date}` (docs/api.md 2.8: alert timelines). */
export interface WireAlertTimestamp {
  epoch_sec: number;
  iso_date: string;
}

/** ISO 8601 in UTC with milliseconds, as every `iso_date` of the emulator. */
export function isoUtc(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/** `{epoch_ms, iso_date}` of a time in epoch milliseconds (whole milliseconds). */
export function wireTimestamp(epochMs: number): WireTimestamp {
  const whole = Math.trunc(epochMs);
  return { epoch_ms: whole, iso_date: isoUtc(whole) };
}

/** `{epoch_sec, iso_date}` of a time, cut to the second. */
export function wireAlertTimestamp(epochMs: number): WireAlertTimestamp {
  const seconds = Math.floor(epochMs / 1000);
  return { epoch_sec: seconds, iso_date: isoUtc(seconds * 1000) };
}
