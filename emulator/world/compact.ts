import { dimensionLayers, layeredDimensions, type DimensionLayer, type SessionLayers } from "./dimensions";
import type { Viewer, ViewerDevice } from "./population";
import type { SessionKind, SessionRecord } from "./types";

/**
 * The form every generated hour is kept in: the sessions of one hour and kind as columns of numbers
 * (typed arrays, outside the JavaScript heap), each object a session refers to (viewer, device,
 * dimension layer, custom tags, error code) by its number in a table of the world. About 160 bytes a
 * session, none of them objects the garbage collector has to trace: a year of an account (some 1.8
 * million sessions) is about 300 MB.
 *
 * Two ways to read it: {@link expandSessions} builds {@link SessionRecord} objects, field for field
 * and in the key order the records always had, for the endpoints that hand records out (the
 * sessions endpoints, the recent hours of world/index.ts); {@link CompactCursor} is one record
 * object moved from session to session, for a pass that reads each session once and keeps nothing
 * of it (the metrics' aggregation), so a year is read without building a record per session.
 */

/** How a session went: the fields of a record that are not who played it or where. */
export type SessionOutcome = Omit<
  SessionRecord,
  "kind" | "viewerId" | "clientId" | "sessionId" | "dimensions" | "customTags" | "ip" | "ipv6" | "contentSessionId"
>;

/** The objects of a world that compact sessions refer to by number, each given its number once. */
export class ReferenceTable<T> {
  readonly items: T[] = [];
  private readonly codes = new Map<T, number>();

  /** The number of `item`, given on its first use. */
  codeOf(item: T): number {
    let code = this.codes.get(item);
    if (code === undefined) {
      code = this.items.length;
      this.items.push(item);
      this.codes.set(item, code);
    }
    return code;
  }
}

/** The tables of one world (world/index.ts makes one per account). */
export class CompactTables {
  readonly devices = new ReferenceTable<ViewerDevice>();
  readonly layers = new ReferenceTable<DimensionLayer>();
  readonly customTags = new ReferenceTable<Readonly<Record<string, string>>>();
  readonly errorCodes = new ReferenceTable<string | undefined>();

  /** `population` in viewer-number order: viewer n is at n - 1. */
  constructor(readonly population: readonly Viewer[]) {}
}

/** The numeric fields of a session, in the order of a stride of {@link CompactSessions.numbers}. */
const NUMBER_FIELDS = [
  "startMs", "endMs", "videoStartTimeMs", "videoRestartTimeMs", "playingTimeMs", "rebufferingTimeMs",
  "connectionInducedRebufferingTimeMs", "pausedTimeMs", "averageBitrateBps", "averageFramerateFps", "bitrateSwitches",
  "percentageComplete", "contentLengthMs",
] as const satisfies ReadonlyArray<keyof SessionOutcome>;
/** The session id and the content session id (NaN for none) follow the fields above. */
const SESSION_ID = NUMBER_FIELDS.length;
const CONTENT_SESSION_ID = SESSION_ID + 1;
const NUMBER_STRIDE = CONTENT_SESSION_ID + 1;

/** Positions in a stride of {@link CompactSessions.codes}. */
const CODE = { viewer: 0, device: 1, content: 2, delivery: 3, ad: 4, adBreak: 5, ads: 6, customTags: 7, errorCode: 8 } as const;
const CODE_STRIDE = 9;

/** Bits of the flag byte: two booleans and the two failure kinds (0 none, 1 business, 2 tech). */
const FLAG_BITS = { exitBeforeVideoStart: 1, hasPreRoll: 2, startFailureShift: 2, playbackFailureShift: 4 } as const;
const FAILURES = [undefined, "business", "tech"] as const;

function failureCode(failure: SessionRecord["videoStartFailure"]): number {
  return failure === undefined ? 0 : failure === "business" ? 1 : 2;
}

/** The sessions of one hour and kind, sorted by start (then session id, as text). */
export interface CompactSessions {
  readonly kind: SessionKind;
  readonly count: number;
  /** {@link NUMBER_FIELDS}, the session id and the content session id of each session. */
  readonly numbers: Float64Array;
  /** The table numbers of each session's references ({@link CODE}). */
  readonly codes: Uint32Array;
  /** {@link FLAG_BITS} of each session. */
  readonly flags: Uint8Array;
}

/** One hour of both kinds. */
export interface CompactHour {
  content: CompactSessions;
  ad: CompactSessions;
}

/** Who played a session, where, and how it went, as the generator knows them. */
export interface SessionParts {
  viewer: Viewer;
  device: ViewerDevice;
  layers: SessionLayers;
  customTags: Readonly<Record<string, string>>;
  /** A 52-bit integer (the id is its decimal text, world/sampling.ts `bigId`). */
  sessionId: number;
  /** Ad sessions: the content session's id number. */
  contentSessionId: number | undefined;
  outcome: SessionOutcome;
}

/** Collects the sessions of one hour and kind as the generator makes them, in any order. */
export class CompactSessionsBuilder {
  private readonly numbers: number[] = [];
  private readonly codes: number[] = [];
  private readonly flags: number[] = [];

  constructor(private readonly kind: SessionKind, private readonly tables: CompactTables) {}

  add(parts: SessionParts): void {
    const { outcome, layers } = parts;
    const tables = this.tables;
    for (const field of NUMBER_FIELDS) this.numbers.push(outcome[field]);
    this.numbers.push(parts.sessionId, parts.contentSessionId ?? Number.NaN);
    this.codes.push(
      parts.viewer.number - 1,
      tables.devices.codeOf(parts.device),
      tables.layers.codeOf(layers.content),
      tables.layers.codeOf(layers.delivery),
      tables.layers.codeOf(layers.ad),
      tables.layers.codeOf(layers.adBreak),
      tables.layers.codeOf(layers.ads),
      tables.customTags.codeOf(parts.customTags),
      tables.errorCodes.codeOf(outcome.errorCode),
    );
    this.flags.push(
      (outcome.exitBeforeVideoStart ? FLAG_BITS.exitBeforeVideoStart : 0) | (outcome.hasPreRoll ? FLAG_BITS.hasPreRoll : 0)
        | (failureCode(outcome.videoStartFailure) << FLAG_BITS.startFailureShift)
        | (failureCode(outcome.videoPlaybackFailure) << FLAG_BITS.playbackFailureShift),
    );
  }

  /**
   * The sessions sorted by start, then by session id compared as text (the order the records were
   * always sorted in, so every answer lists and aggregates them in the same order).
   */
  build(): CompactSessions {
    const count = this.flags.length;
    const { numbers, codes, flags } = this;
    const order = Array.from({ length: count }, (_, index) => index);
    order.sort((left, right) => {
      const byStart = numbers[left * NUMBER_STRIDE]! - numbers[right * NUMBER_STRIDE]!;
      if (byStart !== 0) return byStart;
      return String(numbers[left * NUMBER_STRIDE + SESSION_ID]) < String(numbers[right * NUMBER_STRIDE + SESSION_ID]) ? -1 : 1;
    });
    const sortedNumbers = new Float64Array(count * NUMBER_STRIDE);
    const sortedCodes = new Uint32Array(count * CODE_STRIDE);
    const sortedFlags = new Uint8Array(count);
    order.forEach((from, to) => {
      for (let field = 0; field < NUMBER_STRIDE; field++) sortedNumbers[to * NUMBER_STRIDE + field] = numbers[from * NUMBER_STRIDE + field]!;
      for (let field = 0; field < CODE_STRIDE; field++) sortedCodes[to * CODE_STRIDE + field] = codes[from * CODE_STRIDE + field]!;
      sortedFlags[to] = flags[from]!;
    });
    return { kind: this.kind, count, numbers: sortedNumbers, codes: sortedCodes, flags: sortedFlags };
  }
}

/** The start of session `index`, without reading the rest of it. */
export function startOf(compact: CompactSessions, index: number): number {
  return compact.numbers[index * NUMBER_STRIDE]!;
}

/** The session id of a number: its decimal text, as the generator's `bigId` always wrote it. */
function idText(id: number): string | undefined {
  return Number.isNaN(id) ? undefined : String(id);
}

/**
 * The records of a compact list: every field written in one literal, in one order, so records share
 * one hidden class (fast property reads in every scan) and list their keys in that order.
 */
export function expandSessions(compact: CompactSessions, tables: CompactTables): SessionRecord[] {
  const records: SessionRecord[] = new Array(compact.count);
  const { numbers, codes, flags, kind } = compact;
  const layers = tables.layers.items;
  for (let index = 0; index < compact.count; index++) {
    const base = index * NUMBER_STRIDE;
    const code = index * CODE_STRIDE;
    const flag = flags[index]!;
    const viewer = tables.population[codes[code + CODE.viewer]!]!;
    const device = tables.devices.items[codes[code + CODE.device]!]!;
    records[index] = {
      kind,
      viewerId: viewer.viewerId,
      clientId: device.clientId,
      sessionId: String(numbers[base + SESSION_ID]),
      startMs: numbers[base]!,
      endMs: numbers[base + 1]!,
      dimensions: layeredDimensions(dimensionLayers(
        device.dimensions, layers[codes[code + CODE.content]!]!, layers[codes[code + CODE.delivery]!]!,
        layers[codes[code + CODE.ad]!]!, layers[codes[code + CODE.adBreak]!]!, layers[codes[code + CODE.ads]!]!,
      )),
      customTags: tables.customTags.items[codes[code + CODE.customTags]!]!,
      ip: viewer.ip,
      ipv6: viewer.ipv6,
      exitBeforeVideoStart: (flag & FLAG_BITS.exitBeforeVideoStart) !== 0,
      videoStartFailure: FAILURES[(flag >> FLAG_BITS.startFailureShift) & 3],
      videoPlaybackFailure: FAILURES[(flag >> FLAG_BITS.playbackFailureShift) & 3],
      errorCode: tables.errorCodes.items[codes[code + CODE.errorCode]!],
      hasPreRoll: (flag & FLAG_BITS.hasPreRoll) !== 0,
      contentSessionId: idText(numbers[base + CONTENT_SESSION_ID]!),
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

/**
 * One record moved over compact sessions ({@link load}): a pass reads a year of sessions through it
 * without a record, a dimension view or an id string per session. Its values are those of the
 * session last loaded: read them before the next load and keep nothing (not the cursor, not its
 * `dimensions`). The session ids are made from their numbers only when read.
 */
export class CompactCursor implements SessionRecord {
  kind: SessionKind = "content";
  viewerId = "";
  clientId = "";
  startMs = 0;
  endMs = 0;
  private readonly layers = dimensionLayers({}, {}, {}, {}, {}, {});
  readonly dimensions = layeredDimensions(this.layers);
  customTags: Readonly<Record<string, string>> = {};
  ip = "";
  ipv6: string | null = null;
  exitBeforeVideoStart = false;
  videoStartFailure: SessionRecord["videoStartFailure"] = undefined;
  videoPlaybackFailure: SessionRecord["videoPlaybackFailure"] = undefined;
  errorCode: string | undefined = undefined;
  hasPreRoll = false;
  videoStartTimeMs = 0;
  videoRestartTimeMs = 0;
  playingTimeMs = 0;
  rebufferingTimeMs = 0;
  connectionInducedRebufferingTimeMs = 0;
  pausedTimeMs = 0;
  averageBitrateBps = 0;
  averageFramerateFps = 0;
  bitrateSwitches = 0;
  percentageComplete = 0;
  contentLengthMs = 0;
  private sessionIdNumber = 0;
  private contentSessionIdNumber = Number.NaN;

  constructor(private readonly tables: CompactTables) {}

  get sessionId(): string {
    return String(this.sessionIdNumber);
  }

  get contentSessionId(): string | undefined {
    return idText(this.contentSessionIdNumber);
  }

  /** Makes this the record of session `index` of `compact`. */
  load(compact: CompactSessions, index: number): this {
    const { numbers, codes, flags } = compact;
    const { tables, layers } = this;
    const base = index * NUMBER_STRIDE;
    const code = index * CODE_STRIDE;
    const flag = flags[index]!;
    const viewer = tables.population[codes[code + CODE.viewer]!]!;
    const device = tables.devices.items[codes[code + CODE.device]!]!;
    const table = tables.layers.items;
    this.kind = compact.kind;
    this.viewerId = viewer.viewerId;
    this.clientId = device.clientId;
    this.startMs = numbers[base]!;
    this.endMs = numbers[base + 1]!;
    layers.device = device.dimensions;
    layers.content = table[codes[code + CODE.content]!]!;
    layers.delivery = table[codes[code + CODE.delivery]!]!;
    layers.ad = table[codes[code + CODE.ad]!]!;
    layers.adBreak = table[codes[code + CODE.adBreak]!]!;
    layers.ads = table[codes[code + CODE.ads]!]!;
    this.customTags = tables.customTags.items[codes[code + CODE.customTags]!]!;
    this.ip = viewer.ip;
    this.ipv6 = viewer.ipv6;
    this.exitBeforeVideoStart = (flag & FLAG_BITS.exitBeforeVideoStart) !== 0;
    this.videoStartFailure = FAILURES[(flag >> FLAG_BITS.startFailureShift) & 3];
    this.videoPlaybackFailure = FAILURES[(flag >> FLAG_BITS.playbackFailureShift) & 3];
    this.errorCode = tables.errorCodes.items[codes[code + CODE.errorCode]!];
    this.hasPreRoll = (flag & FLAG_BITS.hasPreRoll) !== 0;
    this.sessionIdNumber = numbers[base + SESSION_ID]!;
    this.contentSessionIdNumber = numbers[base + CONTENT_SESSION_ID]!;
    this.videoStartTimeMs = numbers[base + 2]!;
    this.videoRestartTimeMs = numbers[base + 3]!;
    this.playingTimeMs = numbers[base + 4]!;
    this.rebufferingTimeMs = numbers[base + 5]!;
    this.connectionInducedRebufferingTimeMs = numbers[base + 6]!;
    this.pausedTimeMs = numbers[base + 7]!;
    this.averageBitrateBps = numbers[base + 8]!;
    this.averageFramerateFps = numbers[base + 9]!;
    this.bitrateSwitches = numbers[base + 10]!;
    this.percentageComplete = numbers[base + 11]!;
    this.contentLengthMs = numbers[base + 12]!;
    return this;
  }
}
