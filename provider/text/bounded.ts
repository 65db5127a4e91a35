import { inertLines, inertText } from "./inert";

/**
 * What a host hands its engine, bounded so that the transport always carries it. Both hosts send a
 * failed call's message, and a partial failure's outputs and reasons, in gRPC trailers: grpc-js on
 * Node 20 delivers a trailer value of 70,000 characters, never one of 75,000, and the connection then
 * answers no later call either (docs/provider-plugins.md "Every answer reaches the engine"). Check and
 * Invoke failures travel in the answer's body, but the engine prints each one: they are bounded
 * alike. Every cut says what it cut. Text is made inert first (./inert.ts), then cut, so the budget
 * counts what is sent; redaction comes before both (provider/client/core/errors.ts, pii/).
 */

/**
 * The budgets, in UTF-8 bytes. The message travels twice in a failed call's trailers (`grpc-message`,
 * percent-encoded: up to 3 characters a byte, and inside `grpc-status-details-bin`, base64: 4 for
 * 3), the reasons and outputs once, in base64: at most 12,000 + 4/3 x (4,000 + 4,000 + 16,000) +
 * a little, about 45,000 characters, far below the 70,000 a trailer value may hold.
 */
export const ENGINE_BUDGET = {
  /** A failed call's message. */
  messageBytes: 4_000,
  /** One reason of a partial failure, one check or invoke failure's reason. */
  reasonBytes: 1_000,
  /** Every reason of a partial failure together. */
  reasonsBytes: 4_000,
  /** A check or invoke failure's property path. */
  pathBytes: 500,
  /** Check or invoke failures of one answer (the rest are counted in a last one). */
  failures: 200,
  /** A partial failure's outputs as a Struct on the wire ({@link propertiesBytes}), which the engine records. */
  propertiesBytes: 16_000,
} as const;

/** Room kept for the note of a cut. */
const NOTE_BYTES = 80;

/** The UTF-8 length of `text` (a lone surrogate counts 3, as the encoder writes U+FFFD). */
function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * The longest beginning of `text` of at most `maxBytes` UTF-8 bytes: never half a character, and
 * never half of an inert escape (`\u20` of `\u200b`).
 */
function beginningOf(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = utf8Length(char);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end).replace(/\\(?:u[0-9a-fA-F]{0,3})?$/, "");
}

/** The longest end of `text` of at most `maxBytes` UTF-8 bytes, never half a character nor half an escape. */
function endOf(text: string, maxBytes: number): string {
  let bytes = 0;
  let start = text.length;
  while (start > 0) {
    const low = text.charCodeAt(start - 1);
    const width = low >= 0xdc00 && low <= 0xdfff && start > 1 && /[\uD800-\uDBFF]/.test(text[start - 2]!) ? 2 : 1;
    const size = utf8Length(text.slice(start - width, start));
    if (bytes + size > maxBytes) break;
    bytes += size;
    start -= width;
  }
  // Inside an escape (`0b` of `\u200b`), the end starts after it.
  const open = /\\(u[0-9a-fA-F]{0,3})?$/.exec(text.slice(0, start));
  if (open !== null) start = Math.min(text.length, start + (open[1] === undefined ? 1 : 5 - open[1].length));
  return text.slice(start);
}

/**
 * `text` when it fits `maxBytes`, else its beginning and its end (where a message usually says what
 * to do) around a note of what was cut: `… [cut: 96,004 characters] …`.
 */
export function boundedText(text: string, maxBytes: number): string {
  if (utf8Length(text) <= maxBytes) return text;
  const room = Math.max(0, maxBytes - NOTE_BYTES);
  const head = beginningOf(text, Math.ceil((room * 2) / 3));
  const tail = endOf(text.slice(head.length), Math.floor(room / 3));
  return `${head}… [cut: ${(text.length - head.length - tail.length).toLocaleString("en-US")} characters] …${tail}`;
}

/**
 * A message for the engine: inert line by line, within {@link ENGINE_BUDGET} `messageBytes`, ending
 * with `suffix` (inert text of the host's own, such as {@link leftOutNote}) whatever was cut before it.
 */
export function engineMessage(text: string, suffix = ""): string {
  return `${boundedText(inertLines(text), ENGINE_BUDGET.messageBytes - utf8Length(suffix))}${suffix}`;
}

/** A reason for the engine (a partial failure's, a check failure's): inert line by line, within `reasonBytes`. */
function engineReason(text: string): string {
  return boundedText(inertLines(text), ENGINE_BUDGET.reasonBytes);
}

/** A property path for the engine: inert, within `pathBytes`, its cut said in the path itself. */
function enginePath(path: string): string {
  return boundedText(inertText(path), ENGINE_BUDGET.pathBytes);
}

/**
 * A partial failure's reasons for the engine ({@link engineReason} each), as many as fit
 * `reasonsBytes` together; the last says how many were left out.
 */
export function engineReasons(reasons: readonly string[]): string[] {
  const kept: string[] = [];
  let bytes = 0;
  for (const [index, reason] of reasons.entries()) {
    const bounded = engineReason(reason);
    const size = utf8Length(bounded);
    if (bytes + size > ENGINE_BUDGET.reasonsBytes - NOTE_BYTES) {
      kept.push(`… and ${reasons.length - index} more`);
      break;
    }
    kept.push(bounded);
    bytes += size;
  }
  return kept;
}

/** A check or invoke failure: where, and what is wrong there. */
export interface EngineFailure {
  property: string;
  reason: string;
}

/**
 * Check or invoke failures for the engine: each path and reason bounded, at most `failures` of
 * them; the last names how many more there are, on the property of the first left out.
 */
export function engineFailures(failures: readonly EngineFailure[]): EngineFailure[] {
  const bounded = (failure: EngineFailure) => ({ property: enginePath(failure.property), reason: engineReason(failure.reason) });
  if (failures.length <= ENGINE_BUDGET.failures) return failures.map(bounded);
  const kept = failures.slice(0, ENGINE_BUDGET.failures - 1).map(bounded);
  const first = failures[ENGINE_BUDGET.failures - 1]!;
  const left = failures.length - kept.length;
  return [...kept, { property: enginePath(first.property), reason: `… and ${left} more failures, not shown: fix these and check again` }];
}

/** The bytes of a protobuf length prefix for `length`. */
function varintBytes(length: number): number {
  let bytes = 1;
  for (let rest = length; rest >= 0x80; rest = Math.floor(rest / 0x80)) bytes++;
  return bytes;
}

/**
 * The size of `value` as the wire writes it, a `google.protobuf.Value` inside a Struct (a number is
 * 9 bytes, a map entry holds its key and value with tags and lengths): what a trailer carries, which
 * JSON's size can underestimate several times over for small numbers. Members that are undefined
 * count as nothing, as JSON leaves them out.
 */
export function structBytes(value: unknown): number {
  const field = (length: number) => 1 + varintBytes(length) + length;
  if (value === undefined) return 0;
  if (value === null || typeof value === "boolean") return 2;
  if (typeof value === "number") return 9;
  if (typeof value === "string") return field(utf8Length(value));
  if (Array.isArray(value)) return field(value.reduce((sum: number, item) => sum + field(structBytes(item ?? null)), 0));
  if (typeof value === "object") return field(propertiesBytes(value as Record<string, unknown>));
  return 2;
}

/** The size of an object's members as a Struct's fields (its map entries): a property bag on the wire. */
export function propertiesBytes(members: Record<string, unknown>): number {
  let bytes = 0;
  for (const [key, member] of Object.entries(members)) {
    if (member === undefined) continue;
    // Each measured once: measuring a member twice per level would cost 2^depth on nested values.
    const keyBytes = utf8Length(key);
    const memberBytes = structBytes(member);
    const entry = 1 + varintBytes(keyBytes) + keyBytes + 1 + varintBytes(memberBytes) + memberBytes;
    bytes += 1 + varintBytes(entry) + entry;
  }
  return bytes;
}

/**
 * A partial failure's outputs for the engine to record, within `propertiesBytes` as a Struct
 * ({@link propertiesBytes}): as they are when they fit, else without their largest top-level
 * properties (never those of `keep`) until they do.
 * A resource's core bounds its own outputs first where it knows what can be left out
 * (saved-filters/saved-filter-set.ts); this is the edge's guarantee for every core. Answers the
 * properties and the names left out.
 */
export function engineProperties(properties: Record<string, unknown>, keep: readonly string[] = []): { properties: Record<string, unknown>; leftOut: string[] } {
  const budget = ENGINE_BUDGET.propertiesBytes;
  let total = propertiesBytes(properties);
  if (total <= budget) return { properties, leftOut: [] };
  const kept = { ...properties };
  const bySize = Object.keys(kept)
    .filter((key) => !keep.includes(key))
    .map((key) => ({ key, bytes: propertiesBytes({ [key]: kept[key] }) }))
    .sort((left, right) => right.bytes - left.bytes);
  const leftOut: string[] = [];
  for (const { key, bytes } of bySize) {
    if (total <= budget) break;
    delete kept[key];
    leftOut.push(key);
    total -= bytes;
  }
  return { properties: kept, leftOut };
}

/** The sentence a message gains when {@link engineProperties} left outputs out. */
export function leftOutNote(leftOut: readonly string[]): string {
  const names = leftOut.map((key) => JSON.stringify(key)).join(", ");
  return `\n(the outputs ${boundedText(inertText(names), 400)} were too large to record with this failure and are left out of the state)`;
}
