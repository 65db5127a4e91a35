import { dimensionLayers, layeredDimensions, type DimensionLayer } from "./dimensions";
import { customTagsOf, type Viewer, type ViewerDevice } from "./population";
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
type SessionOutcome = Omit<
  SessionRecord,
  "kind" | "viewerId" | "clientId" | "sessionId" | "dimensions" | "customTags" | "ip" | "ipv6" | "contentSessionId"
>;

/**
 * Small sets of objects that compact sessions refer to by number, each given its number on first
 * use. The last item is remembered: most columns repeat one value for long runs (no ad layer and no
 * error code for almost every content session).
 */
export class ReferenceTable<T> {
  readonly items: T[] = [];
  private readonly codes = new Map<T, number>();
  private lastItem: T | undefined;
  private lastCode = -1;

  /** Items by their JSON text, for items made in another thread ({@link codeOfEqual}); filled on first need. */
  private readonly texts = new Map<string | undefined, number>();
  private textsIndexed = 0;

  /** The number of `item`, given on its first use. */
  codeOf(item: T): number {
    if (item === this.lastItem && this.lastCode >= 0) return this.lastCode;
    let code = this.codes.get(item);
    if (code === undefined) {
      code = this.items.length;
      this.items.push(item);
      this.codes.set(item, code);
    }
    this.lastItem = item;
    this.lastCode = code;
    return code;
  }

  /**
   * The number of an item equal to `item` (the same JSON text), given to `item` if there is none:
   * for a copy made in a generation worker (world/generation-pool.ts), which is equal to one made
   * here but not the same object.
   */
  codeOfEqual(item: T): number {
    for (; this.textsIndexed < this.items.length; this.textsIndexed++) {
      this.texts.set(JSON.stringify(this.items[this.textsIndexed]), this.textsIndexed);
    }
    const text = JSON.stringify(item);
    const found = this.texts.get(text);
    if (found !== undefined) return found;
    return this.codeOf(item);
  }
}

/** The columns whose numbers are given in order of first use, so differ between threads. */
const TABLE_COLUMNS = ["contents", "ads", "adBreaks", "adRequests", "specialContentIds", "errorCodes"] as const;
type TableColumn = (typeof TABLE_COLUMNS)[number];

/** What a generation worker's tables gained since its last answer: their new items, in order. */
export interface TablesDelta {
  items: Record<TableColumn, unknown[]>;
  deliveries: Array<[number, DimensionLayer]>;
}

/** How far a worker's tables have been sent ({@link CompactTables.deltaSince}). */
export type TablesMark = Record<TableColumn, number> & { deliveries: number };

/** More than the special content ids there can be (world/generate.ts: 9,000 events and a few premieres). */
const SPECIAL_CODES = 16_384;

/**
 * The tables of one world (world/index.ts makes one per account). Each column has its own small
 * table: the profile of a year's generation showed lookups in large tables (every layer in one, a
 * custom-tag set per device and sports event, some 300,000 a year) costing more than drawing the
 * session. Custom tags are not kept: they follow from the device and the special content id and are
 * made when read ({@link customTagsAt}).
 */
export class CompactTables {
  /** Every device of the population, at its `index`. */
  readonly devices: readonly ViewerDevice[];
  readonly contents = new ReferenceTable<DimensionLayer>();
  /** Delivery layers at the generator's number for them (world/generate.ts `deliveryLayer`). */
  readonly deliveries: DimensionLayer[] = [];
  readonly ads = new ReferenceTable<DimensionLayer>();
  readonly adBreaks = new ReferenceTable<DimensionLayer>();
  readonly adRequests = new ReferenceTable<DimensionLayer>();
  readonly specialContentIds = new ReferenceTable<string | undefined>();
  readonly errorCodes = new ReferenceTable<string | undefined>();
  /** Custom-tag sets made when read, by device and special content id (one object for each). */
  private readonly tags = new Map<number, Readonly<Record<string, string>>>();
  /** The delivery numbers in the order they were first used. */
  private readonly deliveryOrder: number[] = [];

  /** `population` in viewer-number order: viewer n is at n - 1. */
  constructor(readonly population: readonly Viewer[]) {
    this.devices = population.flatMap((viewer) => viewer.devices);
    this.devices.forEach((device, index) => {
      // A programming error in world/population.ts: devices are numbered in population order.
      if (device.index !== index) throw new Error("compact tables: device indexes out of population order");
    });
  }

  /** Keeps a new delivery layer at its number. */
  addDelivery(code: number, layer: DimensionLayer): void {
    this.deliveries[code] = Object.freeze(layer);
    this.deliveryOrder.push(code);
  }

  /** A mark of how far these tables are, to send only what comes after it. */
  mark(): TablesMark {
    return {
      contents: this.contents.items.length, ads: this.ads.items.length, adBreaks: this.adBreaks.items.length,
      adRequests: this.adRequests.items.length, specialContentIds: this.specialContentIds.items.length,
      errorCodes: this.errorCodes.items.length, deliveries: this.deliveryOrder.length,
    };
  }

  /** What these tables gained since `mark` (a generation worker's answer). */
  deltaSince(mark: TablesMark): TablesDelta {
    const items = {} as Record<TableColumn, unknown[]>;
    for (const column of TABLE_COLUMNS) items[column] = (this[column].items as unknown[]).slice(mark[column]);
    const deliveries = this.deliveryOrder.slice(mark.deliveries).map((code): [number, DimensionLayer] => [code, this.deliveries[code]!]);
    return { items, deliveries };
  }

  /**
   * Takes in what a worker's tables gained: each new item gets its number here, and `translation`
   * (kept per worker, from the worker's numbers to these) grows with it.
   */
  adopt(delta: TablesDelta, translation: Record<TableColumn, number[]>): void {
    for (const column of TABLE_COLUMNS) {
      const table = this[column] as ReferenceTable<unknown>;
      for (const item of delta.items[column]) {
        translation[column].push(table.codeOfEqual(item !== null && typeof item === "object" ? Object.freeze(item) : item));
      }
    }
    for (const [code, layer] of delta.deliveries) {
      if (this.deliveries[code] === undefined) this.addDelivery(code, layer);
    }
  }

  /** The custom tags of a session of this viewer's device and special content id. */
  customTagsAt(viewer: Viewer, deviceCode: number, specialCode: number): Readonly<Record<string, string>> {
    const key = deviceCode * SPECIAL_CODES + specialCode;
    let tags = this.tags.get(key);
    if (tags === undefined) {
      tags = customTagsOf(viewer, this.devices[deviceCode]!, this.specialContentIds.items[specialCode]);
      this.tags.set(key, tags);
    }
    return tags;
  }
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
const CODE = { viewer: 0, device: 1, content: 2, delivery: 3, ad: 4, adBreak: 5, ads: 6, specialContentId: 7, errorCode: 8 } as const;
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

const NO_LAYER: DimensionLayer = Object.freeze({});

/**
 * A session as the generator makes it: who played it (by number), its dimension layers and how it
 * went. The generator keeps one per kind and writes each session into it, and
 * {@link CompactSessionsBuilder.add} copies it into the columns, so making a session allocates no
 * object (the profile of a cold year showed the collector at a tenth of the generator's time when
 * each session had its own outcome and parts). Every field is set here, so every draft has one shape.
 */
export class SessionDraft implements SessionOutcome {
  /** The viewer's position in the population (viewer number - 1). */
  viewerIndex = 0;
  /** The device's `index` (world/population.ts). */
  deviceIndex = 0;
  /** The session's dimension layers (world/dimensions.ts `LAYER_KEYS`). */
  device = NO_LAYER;
  content = NO_LAYER;
  delivery = NO_LAYER;
  ad = NO_LAYER;
  adBreak = NO_LAYER;
  ads = NO_LAYER;
  /** The number of the delivery layer in {@link CompactTables.deliveries}. */
  deliveryCode = 0;
  /** The custom tag specialContentId, if the session has one. */
  specialContentId: string | undefined = undefined;
  /** A 52-bit integer (the id is its decimal text, world/sampling.ts `bigId`). */
  sessionId = 0;
  /** Ad sessions: the content session's id number; NaN for a content session. */
  contentSessionId = Number.NaN;
  startMs = 0;
  endMs = 0;
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
}

/** Sessions a builder has room for before it first grows (an hour has about 60 to 300 of a kind). */
const FIRST_CAPACITY = 512;

/**
 * Collects the sessions of one hour and kind as the generator makes them, in any order. A generator
 * keeps one per kind and uses it hour after hour ({@link build} empties it): its columns are typed
 * arrays that grow and stay, so an hour leaves no arrays behind for the collector (the profile of a
 * cold year showed the arrays of one builder per hour, and the collections of the old space they
 * brought on, among the main thread's largest costs).
 */
export class CompactSessionsBuilder {
  private numbers = new Float64Array(FIRST_CAPACITY * NUMBER_STRIDE);
  private codes = new Uint32Array(FIRST_CAPACITY * CODE_STRIDE);
  private flags = new Uint8Array(FIRST_CAPACITY);
  /** The sort keys and the order of {@link build}, kept like the columns. */
  private keys = new Float64Array(FIRST_CAPACITY);
  private order = new Uint32Array(FIRST_CAPACITY);
  private added = 0;

  constructor(readonly kind: SessionKind, readonly tables: CompactTables) {}

  /** How many sessions have been added since the last {@link build} or {@link clear}. */
  get count(): number {
    return this.added;
  }

  /** Forgets the sessions added (an hour whose generation failed half-way leaves none behind). */
  clear(): void {
    this.added = 0;
  }

  private grow(): void {
    const capacity = this.flags.length * 2;
    const grown = <T extends Float64Array | Uint32Array | Uint8Array>(array: T, stride: number, make: (length: number) => T): T => {
      const larger = make(capacity * stride);
      larger.set(array);
      return larger;
    };
    this.numbers = grown(this.numbers, NUMBER_STRIDE, (length) => new Float64Array(length));
    this.codes = grown(this.codes, CODE_STRIDE, (length) => new Uint32Array(length));
    this.flags = grown(this.flags, 1, (length) => new Uint8Array(length));
    this.keys = new Float64Array(capacity);
    this.order = new Uint32Array(capacity);
  }

  /** Copies the draft's session into the columns (the draft can be written again at once). */
  add(draft: SessionDraft): void {
    if (this.added === this.flags.length) this.grow();
    const tables = this.tables;
    const numbers = this.numbers;
    const codes = this.codes;
    // Field by field in the order of NUMBER_FIELDS and CODE: a loop over the names read each by a
    // computed key, which the profile of a cold year showed at a tenth of the main thread's time.
    const number = this.added * NUMBER_STRIDE;
    numbers[number] = draft.startMs;
    numbers[number + 1] = draft.endMs;
    numbers[number + 2] = draft.videoStartTimeMs;
    numbers[number + 3] = draft.videoRestartTimeMs;
    numbers[number + 4] = draft.playingTimeMs;
    numbers[number + 5] = draft.rebufferingTimeMs;
    numbers[number + 6] = draft.connectionInducedRebufferingTimeMs;
    numbers[number + 7] = draft.pausedTimeMs;
    numbers[number + 8] = draft.averageBitrateBps;
    numbers[number + 9] = draft.averageFramerateFps;
    numbers[number + 10] = draft.bitrateSwitches;
    numbers[number + 11] = draft.percentageComplete;
    numbers[number + 12] = draft.contentLengthMs;
    numbers[number + SESSION_ID] = draft.sessionId;
    numbers[number + CONTENT_SESSION_ID] = draft.contentSessionId;
    const code = this.added * CODE_STRIDE;
    codes[code + CODE.viewer] = draft.viewerIndex;
    codes[code + CODE.device] = draft.deviceIndex;
    codes[code + CODE.content] = tables.contents.codeOf(draft.content);
    codes[code + CODE.delivery] = draft.deliveryCode;
    codes[code + CODE.ad] = tables.ads.codeOf(draft.ad);
    codes[code + CODE.adBreak] = tables.adBreaks.codeOf(draft.adBreak);
    codes[code + CODE.ads] = tables.adRequests.codeOf(draft.ads);
    codes[code + CODE.specialContentId] = tables.specialContentIds.codeOf(draft.specialContentId);
    codes[code + CODE.errorCode] = tables.errorCodes.codeOf(draft.errorCode);
    this.flags[this.added] =
      (draft.exitBeforeVideoStart ? FLAG_BITS.exitBeforeVideoStart : 0) | (draft.hasPreRoll ? FLAG_BITS.hasPreRoll : 0)
        | (failureCode(draft.videoStartFailure) << FLAG_BITS.startFailureShift)
        | (failureCode(draft.videoPlaybackFailure) << FLAG_BITS.playbackFailureShift);
    this.added++;
  }

  /**
   * The sessions sorted by start, then by session id compared as text (the order the records were
   * always sorted in, so every answer lists and aggregates them in the same order), written into
   * `buffer` at `offsets` ({@link buildHour}); the builder is empty afterwards. The starts are
   * sorted as numbers with the position in their low bits (a typed array's own sort, no function
   * per comparison: the profile of a year's generation showed the sort among the hot lines); the
   * rare sessions of the same millisecond are then put in session-id order.
   */
  build(buffer: ArrayBuffer, offsets: { numbers: number; codes: number; flags: number }): CompactSessions {
    const count = this.added;
    const { numbers, codes, flags } = this;
    const order = sortedPositions(numbers, count, this.keys, this.order);
    const sortedNumbers = new Float64Array(buffer, offsets.numbers, count * NUMBER_STRIDE);
    const sortedCodes = new Uint32Array(buffer, offsets.codes, count * CODE_STRIDE);
    const sortedFlags = new Uint8Array(buffer, offsets.flags, count);
    for (let to = 0; to < count; to++) {
      const from = order[to]!;
      for (let field = 0; field < NUMBER_STRIDE; field++) sortedNumbers[to * NUMBER_STRIDE + field] = numbers[from * NUMBER_STRIDE + field]!;
      for (let field = 0; field < CODE_STRIDE; field++) sortedCodes[to * CODE_STRIDE + field] = codes[from * CODE_STRIDE + field]!;
      sortedFlags[to] = flags[from]!;
    }
    this.added = 0;
    return { kind: this.kind, count, numbers: sortedNumbers, codes: sortedCodes, flags: sortedFlags };
  }
}

/**
 * The hour of these sessions, the columns of both kinds in one buffer: one allocation an hour
 * rather than six (the profile of a cold year showed the allocation of each buffer, memory outside
 * the heap, among the main thread's costs), and a generation worker moves one buffer an hour
 * instead of six (world/generation-worker.ts).
 */
export function buildHour(content: CompactSessionsBuilder, ad: CompactSessionsBuilder): CompactHour {
  // Counted before building: a builder is empty once built.
  const contents = content.count;
  const sessions = contents + ad.count;
  // Numbers first (8-byte aligned at 0), then the codes (4-byte aligned after them), then the flags.
  const codesAt = sessions * NUMBER_STRIDE * Float64Array.BYTES_PER_ELEMENT;
  const flagsAt = codesAt + sessions * CODE_STRIDE * Uint32Array.BYTES_PER_ELEMENT;
  const buffer = new ArrayBuffer(flagsAt + sessions);
  const contentSessions = content.build(buffer, { numbers: 0, codes: codesAt, flags: flagsAt });
  const adSessions = ad.build(buffer, {
    numbers: contents * NUMBER_STRIDE * Float64Array.BYTES_PER_ELEMENT,
    codes: codesAt + contents * CODE_STRIDE * Uint32Array.BYTES_PER_ELEMENT,
    flags: flagsAt + contents,
  });
  return { content: contentSessions, ad: adSessions };
}

/** Positions below this fit in the low bits of a sort key. */
const POSITIONS = 4096;

/**
 * The positions of the sessions in (start, session id as text) order, in `order` (or a new array
 * where the keys would not be exact); `keys` is room for the sort keys.
 */
function sortedPositions(numbers: Float64Array, count: number, keys: Float64Array, order: Uint32Array): ArrayLike<number> {
  const startOf = (position: number) => numbers[position * NUMBER_STRIDE]!;
  const idTextOf = (position: number) => String(numbers[position * NUMBER_STRIDE + SESSION_ID]);
  const byStartThenId = (left: number, right: number) => startOf(left) - startOf(right) || (idTextOf(left) < idTextOf(right) ? -1 : 1);
  let first = Infinity;
  let last = -Infinity;
  let whole = true;
  for (let position = 0; position < count; position++) {
    const start = startOf(position);
    first = Math.min(first, start);
    last = Math.max(last, start);
    whole &&= Number.isInteger(start);
  }
  // Keys are exact integers while the starts are whole milliseconds spanning under 2^53 / 4096 ms.
  if (count >= POSITIONS || !whole || (count > 0 && (last - first + 1) * POSITIONS > Number.MAX_SAFE_INTEGER)) {
    return Array.from({ length: count }, (_, position) => position).sort(byStartThenId);
  }
  const sorted = keys.subarray(0, count);
  for (let position = 0; position < count; position++) sorted[position] = (startOf(position) - first) * POSITIONS + position;
  sorted.sort();
  for (let at = 0; at < count; at++) order[at] = sorted[at]! % POSITIONS;
  // Sessions of the same millisecond: by session id, as text.
  for (let at = 0; at < count;) {
    let end = at + 1;
    while (end < count && startOf(order[end]!) === startOf(order[at]!)) end++;
    if (end - at > 1) order.subarray(at, end).sort(byStartThenId);
    at = end;
  }
  return order;
}

/** The code positions of the columns of {@link TABLE_COLUMNS}. */
const TABLE_COLUMN_CODES: ReadonlyArray<[TableColumn, number]> = [
  ["contents", CODE.content], ["ads", CODE.ad], ["adBreaks", CODE.adBreak], ["adRequests", CODE.ads],
  ["specialContentIds", CODE.specialContentId], ["errorCodes", CODE.errorCode],
];

/** A translation of a worker's table numbers, empty at first ({@link CompactTables.adopt}). */
export function emptyTranslation(): Record<TableColumn, number[]> {
  return { contents: [], ads: [], adBreaks: [], adRequests: [], specialContentIds: [], errorCodes: [] };
}

/**
 * Sessions a worker generated, with its table numbers turned into these tables' numbers (viewers,
 * devices and deliveries are numbered the same in every thread). The arrays are changed in place.
 */
export function translated(compact: CompactSessions, translation: Record<TableColumn, number[]>): CompactSessions {
  const { codes, count } = compact;
  for (const [column, position] of TABLE_COLUMN_CODES) {
    const to = translation[column];
    for (let index = 0; index < count; index++) {
      const at = index * CODE_STRIDE + position;
      codes[at] = to[codes[at]!]!;
    }
  }
  return compact;
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
  for (let index = 0; index < compact.count; index++) {
    const base = index * NUMBER_STRIDE;
    const code = index * CODE_STRIDE;
    const flag = flags[index]!;
    const viewer = tables.population[codes[code + CODE.viewer]!]!;
    const device = tables.devices[codes[code + CODE.device]!]!;
    records[index] = {
      kind,
      viewerId: viewer.viewerId,
      clientId: device.clientId,
      sessionId: String(numbers[base + SESSION_ID]),
      startMs: numbers[base]!,
      endMs: numbers[base + 1]!,
      dimensions: layeredDimensions(dimensionLayers(
        device.dimensions, tables.contents.items[codes[code + CODE.content]!]!, tables.deliveries[codes[code + CODE.delivery]!]!,
        tables.ads.items[codes[code + CODE.ad]!]!, tables.adBreaks.items[codes[code + CODE.adBreak]!]!,
        tables.adRequests.items[codes[code + CODE.ads]!]!,
      )),
      customTags: tables.customTagsAt(viewer, codes[code + CODE.device]!, codes[code + CODE.specialContentId]!),
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
 * without a record, a dimension view or an id string per session. Loading a session only points the
 * cursor at it; each field is read from the columns when asked for (a metric reads a few of them).
 * Its values are those of the session last loaded: read them before the next load and keep nothing
 * (not the cursor, not its `dimensions`).
 */
export class CompactCursor implements SessionRecord {
  private compact: CompactSessions | undefined;
  private numbers: Float64Array = new Float64Array(0);
  private codes: Uint32Array = new Uint32Array(0);
  private flag = 0;
  /** Where the loaded session's numbers and codes start. */
  private base = 0;
  private code = 0;
  /** The layers the view reads, set for the loaded session when its dimensions are first read. */
  private readonly layers = dimensionLayers({}, {}, {}, {}, {}, {});
  private readonly view = layeredDimensions(this.layers);
  private layersLoaded = false;

  constructor(private readonly tables: CompactTables) {}

  /** Makes this the record of session `index` of `compact`. */
  load(compact: CompactSessions, index: number): this {
    if (compact !== this.compact) {
      this.compact = compact;
      this.numbers = compact.numbers;
      this.codes = compact.codes;
    }
    this.flag = compact.flags[index]!;
    this.base = index * NUMBER_STRIDE;
    this.code = index * CODE_STRIDE;
    this.layersLoaded = false;
    return this;
  }

  private get viewer(): Viewer {
    return this.tables.population[this.codes[this.code + CODE.viewer]!]!;
  }

  private get device(): ViewerDevice {
    return this.tables.devices[this.codes[this.code + CODE.device]!]!;
  }

  get kind(): SessionKind {
    return this.compact!.kind;
  }

  get viewerId(): string {
    return this.viewer.viewerId;
  }

  get clientId(): string {
    return this.device.clientId;
  }

  get sessionId(): string {
    return String(this.numbers[this.base + SESSION_ID]);
  }

  get startMs(): number {
    return this.numbers[this.base]!;
  }

  get endMs(): number {
    return this.numbers[this.base + 1]!;
  }

  get dimensions(): Readonly<Record<string, string>> {
    if (!this.layersLoaded) {
      const { codes, code, tables, layers } = this;
      layers.device = this.device.dimensions;
      layers.content = tables.contents.items[codes[code + CODE.content]!]!;
      layers.delivery = tables.deliveries[codes[code + CODE.delivery]!]!;
      layers.ad = tables.ads.items[codes[code + CODE.ad]!]!;
      layers.adBreak = tables.adBreaks.items[codes[code + CODE.adBreak]!]!;
      layers.ads = tables.adRequests.items[codes[code + CODE.ads]!]!;
      this.layersLoaded = true;
    }
    return this.view;
  }

  get customTags(): Readonly<Record<string, string>> {
    return this.tables.customTagsAt(this.viewer, this.codes[this.code + CODE.device]!, this.codes[this.code + CODE.specialContentId]!);
  }

  get ip(): string {
    return this.viewer.ip;
  }

  get ipv6(): string | null {
    return this.viewer.ipv6;
  }

  get exitBeforeVideoStart(): boolean {
    return (this.flag & FLAG_BITS.exitBeforeVideoStart) !== 0;
  }

  get videoStartFailure(): SessionRecord["videoStartFailure"] {
    return FAILURES[(this.flag >> FLAG_BITS.startFailureShift) & 3];
  }

  get videoPlaybackFailure(): SessionRecord["videoPlaybackFailure"] {
    return FAILURES[(this.flag >> FLAG_BITS.playbackFailureShift) & 3];
  }

  get errorCode(): string | undefined {
    return this.tables.errorCodes.items[this.codes[this.code + CODE.errorCode]!];
  }

  get hasPreRoll(): boolean {
    return (this.flag & FLAG_BITS.hasPreRoll) !== 0;
  }

  get contentSessionId(): string | undefined {
    return idText(this.numbers[this.base + CONTENT_SESSION_ID]!);
  }

  get videoStartTimeMs(): number {
    return this.numbers[this.base + 2]!;
  }

  get videoRestartTimeMs(): number {
    return this.numbers[this.base + 3]!;
  }

  get playingTimeMs(): number {
    return this.numbers[this.base + 4]!;
  }

  get rebufferingTimeMs(): number {
    return this.numbers[this.base + 5]!;
  }

  get connectionInducedRebufferingTimeMs(): number {
    return this.numbers[this.base + 6]!;
  }

  get pausedTimeMs(): number {
    return this.numbers[this.base + 7]!;
  }

  get averageBitrateBps(): number {
    return this.numbers[this.base + 8]!;
  }

  get averageFramerateFps(): number {
    return this.numbers[this.base + 9]!;
  }

  get bitrateSwitches(): number {
    return this.numbers[this.base + 10]!;
  }

  get percentageComplete(): number {
    return this.numbers[this.base + 11]!;
  }

  get contentLengthMs(): number {
    return this.numbers[this.base + 12]!;
  }
}
