import { HttpError } from "../http";

/**
 * The metrics response-size limit (docs/api.md 7, 8, 10.4): a body over 5,700,000 bytes is answered
 * 413. Responses are bounded from below and above before they are built (a body of zeros is the
 * smallest it can be; every value field adds at most a few characters), so the emulator never
 * builds a body of hundreds of megabytes to find out; only when the bounds straddle the limit is the
 * built body measured exactly.
 */
export const RESPONSE_SIZE_LIMIT = 5_700_000;

/** At most this many more characters than "0" for one value field (for example "-12345678901.2345"). */
export const EXTRA_CHARACTERS_PER_FIELD = 20;

/** Byte bounds of a body not built yet. */
export interface SizeBounds {
  lower: number;
  upper: number;
}

/** Bytes of a value as JSON, plus one for the comma that separates it from its neighbour. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value)) + 1;
}

/** Throws 413 when even the smallest possible body is over the limit. */
export function refuseIfSurelyTooLarge(bounds: SizeBounds): void {
  if (bounds.lower > RESPONSE_SIZE_LIMIT) throw tooLarge(`at least ${bounds.lower}`);
}

/** Throws 413 when the built body is over the limit (measured only when the bounds straddle it). */
export function refuseIfTooLarge(bounds: SizeBounds, body: unknown): void {
  refuseIfSurelyTooLarge(bounds);
  if (bounds.upper <= RESPONSE_SIZE_LIMIT) return;
  const bytes = Buffer.byteLength(JSON.stringify(body));
  if (bytes > RESPONSE_SIZE_LIMIT) throw tooLarge(String(bytes));
}

function tooLarge(bytes: string): HttpError {
  return new HttpError(
    413,
    "response_too_large",
    `the response would be ${bytes} bytes, over the limit of ${RESPONSE_SIZE_LIMIT} bytes (spec 8): ` +
      "ask for a shorter range, a coarser granularity, fewer metrics or a smaller group-by limit",
  );
}
