import type { HourSessions } from "./generate";
import type { SessionRecord } from "./types";

/**
 * Sessions of one hour in a compact, columnar form, for hours kept beyond the recent window
 * (world/index.ts). A generated record costs about 490 bytes, mostly its own object and a boxed
 * heap number per numeric field; here the numbers of a whole hour share one Float64Array, the
 * flags one Uint8Array, and every string or view a record refers to is kept by reference: shared
 * with the generator's caches, or (session ids, dimension views) the record's own. About 300 bytes
 * a session, some 0.06 MB an hour. The session ids stay strings and the views stay built: the
 * profile of a warm year read showed turning a 16-digit number back into text and rebuilding a
 * view costing more than the rest of the record together. {@link expandSessions} gives back
 * records equal to the generated ones, field for field and in the same key order, so answers built
 * from either are the same bytes.
 */
export interface CompactSessions {
  readonly count: number;
  /** {@link NUMBER_FIELDS} of each session, one stride per session. */
  readonly numbers: Float64Array;
  /** {@link FLAG_BITS} of each session. */
  readonly flags: Uint8Array;
  readonly viewerIds: readonly string[];
  readonly clientIds: readonly string[];
  readonly sessionIds: readonly string[];
  readonly contentSessionIds: ReadonlyArray<string | undefined>;
  readonly dimensions: ReadonlyArray<SessionRecord["dimensions"]>;
  readonly customTags: ReadonlyArray<SessionRecord["customTags"]>;
  readonly ips: readonly string[];
  readonly ipv6s: ReadonlyArray<string | null>;
  readonly errorCodes: ReadonlyArray<string | undefined>;
}

/** One hour of both kinds in the compact form. */
export interface CompactHour {
  content: CompactSessions;
  ad: CompactSessions;
}

/** The numeric fields of a record, in the order of a stride. */
const NUMBER_FIELDS = [
  "startMs", "endMs", "videoStartTimeMs", "videoRestartTimeMs", "playingTimeMs", "rebufferingTimeMs",
  "connectionInducedRebufferingTimeMs", "pausedTimeMs", "averageBitrateBps", "averageFramerateFps", "bitrateSwitches",
  "percentageComplete", "contentLengthMs",
] as const satisfies ReadonlyArray<keyof SessionRecord>;
const STRIDE = NUMBER_FIELDS.length;

/** Bits of the flag byte: two booleans and the two failure kinds (0 none, 1 business, 2 tech). */
const FLAG_BITS = { exitBeforeVideoStart: 1, hasPreRoll: 2, startFailureShift: 2, playbackFailureShift: 4 } as const;
const FAILURES = [undefined, "business", "tech"] as const;

function failureCode(failure: SessionRecord["videoStartFailure"]): number {
  return failure === undefined ? 0 : failure === "business" ? 1 : 2;
}

/** The compact form of `records` (see {@link CompactSessions}). */
export function compactSessions(records: readonly SessionRecord[]): CompactSessions {
  const count = records.length;
  const numbers = new Float64Array(count * STRIDE);
  const flags = new Uint8Array(count);
  const viewerIds: string[] = new Array(count);
  const clientIds: string[] = new Array(count);
  const sessionIds: string[] = new Array(count);
  const contentSessionIds: Array<string | undefined> = new Array(count);
  const dimensions: Array<SessionRecord["dimensions"]> = new Array(count);
  const customTags: Array<SessionRecord["customTags"]> = new Array(count);
  const ips: string[] = new Array(count);
  const ipv6s: Array<string | null> = new Array(count);
  const errorCodes: Array<string | undefined> = new Array(count);
  records.forEach((record, index) => {
    const base = index * STRIDE;
    for (let field = 0; field < STRIDE; field++) numbers[base + field] = record[NUMBER_FIELDS[field]!];
    flags[index] = (record.exitBeforeVideoStart ? FLAG_BITS.exitBeforeVideoStart : 0) | (record.hasPreRoll ? FLAG_BITS.hasPreRoll : 0)
      | (failureCode(record.videoStartFailure) << FLAG_BITS.startFailureShift)
      | (failureCode(record.videoPlaybackFailure) << FLAG_BITS.playbackFailureShift);
    viewerIds[index] = record.viewerId;
    clientIds[index] = record.clientId;
    sessionIds[index] = record.sessionId;
    contentSessionIds[index] = record.contentSessionId;
    dimensions[index] = record.dimensions;
    customTags[index] = record.customTags;
    ips[index] = record.ip;
    ipv6s[index] = record.ipv6;
    errorCodes[index] = record.errorCode;
  });
  return { count, numbers, flags, viewerIds, clientIds, sessionIds, contentSessionIds, dimensions, customTags, ips, ipv6s, errorCodes };
}

/**
 * The records of a compact list, as the generator made them: every field written in one literal in
 * the order of world/generate.ts `recordOf`, so they share its hidden class and its key order.
 */
export function expandSessions(kind: SessionRecord["kind"], compact: CompactSessions): SessionRecord[] {
  const records: SessionRecord[] = new Array(compact.count);
  const { numbers, flags } = compact;
  for (let index = 0; index < compact.count; index++) {
    const base = index * STRIDE;
    const flag = flags[index]!;
    records[index] = {
      kind,
      viewerId: compact.viewerIds[index]!,
      clientId: compact.clientIds[index]!,
      sessionId: compact.sessionIds[index]!,
      startMs: numbers[base]!,
      endMs: numbers[base + 1]!,
      dimensions: compact.dimensions[index]!,
      customTags: compact.customTags[index]!,
      ip: compact.ips[index]!,
      ipv6: compact.ipv6s[index]!,
      exitBeforeVideoStart: (flag & FLAG_BITS.exitBeforeVideoStart) !== 0,
      videoStartFailure: FAILURES[(flag >> FLAG_BITS.startFailureShift) & 3],
      videoPlaybackFailure: FAILURES[(flag >> FLAG_BITS.playbackFailureShift) & 3],
      errorCode: compact.errorCodes[index],
      hasPreRoll: (flag & FLAG_BITS.hasPreRoll) !== 0,
      contentSessionId: compact.contentSessionIds[index],
      videoStartTimeMs: numbers[base + 2]!,
      videoRestartTimeMs: numbers[base + 3]!,
      playingTimeMs: numbers[base + 4]!,
      rebufferingTimeMs: numbers[base + 5]!,
      connectionInducedRebufferingTimeMs: numbers[base + 6]!,
      pausedTimeMs: numbers[base + 7]!,
      averageBitrateBps: numbers[base + 8]!,
      averageFramerateFps: numbers[base + 9]!,
      bitrateSwitches: numbers[base + 10]!,
      percentageComplete: numbers[base + 11]!,
      contentLengthMs: numbers[base + 12]!,
    };
  }
  return records;
}

/** The compact form of an hour. */
export function compactHour(hour: HourSessions): CompactHour {
  return { content: compactSessions(hour.content), ad: compactSessions(hour.ad) };
}
