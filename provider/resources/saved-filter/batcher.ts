import { isRefusalStatus } from "../../client/assumptions";
import { ApiError, ArgumentError, PayloadTooLargeError } from "../../client/core/errors";
import type { FiltersApi } from "../../client/filters";
import { coverNames, IncompleteListingError } from "../../client/core/listing";
import { FILTERS_PER_CALL } from "../../schema";
import { isOutcomeUnknown } from "../../client/core/retry";
import type { SavedFilter, SavedFilterInput, SavedFilterUpdate } from "../../schema";
import { accountKey, report, sharedClient } from "../../host/runtime";
import { hostOutcomeWait, UnknownOutcomeError, watchAccount, type OutcomeWait } from "../../host/unknown-outcome";
import { plannedChanges, stateOf } from "./spec";

/**
 * The host's request batcher for saved filters. The engine drives dynamic resources concurrently
 * through one host process (docs/dynamic-providers.md "The life of a dynamic resource"), and the
 * API takes up to 100 filters per call (spec 4.8, 8): concurrent reads, creates, updates and
 * deletes are coalesced into bulk calls of at most 100 during a short wait window, and each answer
 * is split back per caller. A refused bulk call is taken apart so that a failure reaches only the
 * caller whose filter caused it.
 */

/** Tuning of a {@link FilterBatcher}. */
export interface BatchOptions {
  /** Filters per bulk call, 1 to 100 (spec 4.8). 1 turns batching off: one request per filter. */
  size: number;
  /** A batch is sent once no call has joined it for this long (milliseconds). */
  windowMs: number;
  /** ... or at the latest this long after its first call joined, however busy (milliseconds). */
  maxWaitMs: number;
}

/**
 * Defaults of {@link BatchOptions}. The engine's concurrent calls reach the host in bursts paced by
 * HTTP/2 flow control (each call carries the `__provider` text), a few milliseconds apart.
 */
export const DEFAULT_BATCH_OPTIONS = { size: FILTERS_PER_CALL, windowMs: 20, maxWaitMs: 200 } satisfies BatchOptions;

/** Environment variables that tune the host's batcher (the host inherits the engine's environment). */
export const BATCH_ENV = {
  size: "INSIGHTS_BATCH_SIZE",
  windowMs: "INSIGHTS_BATCH_WINDOW_MS",
  maxWaitMs: "INSIGHTS_BATCH_MAX_WAIT_MS",
} as const;

/**
 * One filter of a refused bulk call, with the path inside that filter the refusal named (for
 * example `rules.rules[0].field`, from the call's `[3].rules.rules[0].field`) and its reason.
 */
export class FilterItemError extends Error {
  constructor(
    /** Where in the filter the problem is ("" when the refusal named no place inside it). */
    readonly path: string,
    /** What is wrong there. */
    readonly reason: string,
    cause: Error,
  ) {
    super(path === "" ? reason : `${path}: ${reason}`, { cause });
    this.name = "FilterItemError";
  }
}

/**
 * True for a refusal of the whole call because of what it carried (nothing was applied): the
 * client's own validation, or a 4xx the service answered (provider/client/assumptions.ts
 * `isRefusalStatus`: the statuses of refusals are mostly not shown, docs/api.md 7).
 */
function isRefusal(error: unknown): error is ApiError | ArgumentError {
  return error instanceof ArgumentError || (error instanceof ApiError && isRefusalStatus(error));
}

/**
 * The item a refusal names and the error for that item alone: the service's 400 names it in
 * `parameter` (`[3].rules.rules[0].field`), the client's own validation in `path`
 * (`inputs[3].rules...`); undefined when it names no item.
 */
function refusedItem(error: ApiError | ArgumentError): { index: number; error: FilterItemError } | undefined {
  const where = error instanceof ArgumentError ? error.path : (error.parameter ?? "");
  const match = /^[A-Za-z]*\[(\d+)\]\.?/.exec(where);
  if (!match) return undefined;
  const detail = error instanceof ArgumentError ? error.reason : (error.detail ?? error.message);
  const reason = detail.startsWith(`${where}: `) ? detail.slice(where.length + 2) : detail;
  return { index: Number(match[1]), error: new FilterItemError(where.slice(match[0].length), reason, error) };
}

/** One create: the filter, and whether an earlier operation may have made it already. */
interface CreateItem {
  input: SavedFilterInput;
  findEarlier: boolean;
  /** The ids of the filters with this name the account held before the POST, when they were listed. */
  seenBefore?: ReadonlySet<string>;
}

/** A caller waiting for the outcome of its item. */
interface Waiter<Result> {
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/** One item of a batch and every caller waiting for it (callers of a shared key wait together). */
class Entry<Item, Result> {
  readonly waiters: Array<Waiter<Result>> = [];
  private settled = false;

  constructor(readonly item: Item) {}

  resolve(result: Result): void {
    if (this.settled) return;
    this.settled = true;
    for (const waiter of this.waiters) waiter.resolve(result);
  }

  reject(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    for (const waiter of this.waiters) waiter.reject(error);
  }
}

/** Sends one batch and settles every entry of it. */
type BatchSender<Item, Result> = (entries: Array<Entry<Item, Result>>) => Promise<void>;

/** How items with the same key are batched: one entry shared by its callers, or never in one batch. */
type SameKey = "share" | "separate";

/** A batch being filled: its entries, its pending send and when it opened. */
interface OpenBatch<Item, Result> {
  entries: Array<Entry<Item, Result>>;
  keys: Map<string, Entry<Item, Result>>;
  openedAt: number;
  /** Cancels the pending send of the quiet window, if one is scheduled. */
  cancel: (() => void) | undefined;
}

/**
 * When the batcher's waits end: injectable, so that a test decides when a batch is sent (or calls
 * {@link FilterBatcher.flush}) instead of depending on a timer's timing.
 */
export interface BatchScheduler {
  /** Current time in milliseconds. */
  now(): number;
  /** Runs `task` once `ms` milliseconds have passed; answers a function that cancels it. */
  after(ms: number, task: () => void): () => void;
}

/**
 * Node's timers. When a timer fires, the task waits for the event loop's next check phase: calls
 * that arrived while the process was busy (a timer that fires late fires before pending I/O is
 * read) join the batch first.
 */
export const TIMER_SCHEDULER: BatchScheduler = {
  now: () => Date.now(),
  after(ms, task) {
    let cancelled = false;
    const timer = setTimeout(() => setImmediate(() => cancelled || task()), ms);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  },
};

/**
 * Coalesces items into batches of at most `size`: a batch is sent when full, when no item joined it
 * for `windowMs`, or `maxWaitMs` after it opened.
 */
class Coalescer<Item, Result> {
  private readonly open: Array<OpenBatch<Item, Result>> = [];

  constructor(
    private readonly options: BatchOptions,
    private readonly scheduler: BatchScheduler,
    private readonly send: BatchSender<Item, Result>,
    private readonly keyOf?: { key: (item: Item) => string; sameKey: SameKey },
  ) {}

  /** Sends every open batch now. */
  flushAll(): void {
    for (const batch of [...this.open]) this.flush(batch);
  }

  /**
   * Queues `item` and answers its result once its batch is sent: when full, else after the wait
   * window, so that the concurrent calls of other resources can join it.
   */
  add(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      const { batch, joined } = this.enqueue(item, { resolve, reject });
      // An item that joined a queued entry leaves that batch's window as it was.
      if (!joined && this.open.includes(batch)) this.schedule(batch);
    });
  }

  /**
   * Queues every item of a batch the caller already knows and sends the batches they are in at once,
   * without waiting for the window; answers one result per item, in order.
   */
  addAll(items: readonly Item[]): Array<Promise<Result>> {
    const touched = new Set<OpenBatch<Item, Result>>();
    const results = items.map(
      (item) =>
        new Promise<Result>((resolve, reject) => {
          touched.add(this.enqueue(item, { resolve, reject }).batch);
        }),
    );
    for (const batch of touched) this.flush(batch);
    return results;
  }

  /**
   * Puts `item` in an open batch (or, for a shared key already queued, adds the waiter to its entry)
   * and sends the batch when it is full. Answers the batch that holds the item, and whether the item
   * joined an entry queued before.
   */
  private enqueue(item: Item, waiter: Waiter<Result>): { batch: OpenBatch<Item, Result>; joined: boolean } {
    const key = this.keyOf?.key(item);
    const shared = key !== undefined && this.keyOf?.sameKey === "share" ? this.findShared(key) : undefined;
    if (shared) {
      shared.entry.waiters.push(waiter);
      return { batch: shared.batch, joined: true };
    }
    const batch = this.batchFor(key);
    const entry = new Entry<Item, Result>(item);
    entry.waiters.push(waiter);
    batch.entries.push(entry);
    if (key !== undefined) batch.keys.set(key, entry);
    if (batch.entries.length >= this.options.size) this.flush(batch);
    return { batch, joined: false };
  }

  /** The open batch holding the entry of `key`, and that entry. */
  private findShared(key: string): { batch: OpenBatch<Item, Result>; entry: Entry<Item, Result> } | undefined {
    for (const batch of this.open) {
      const entry = batch.keys.get(key);
      if (entry) return { batch, entry };
    }
    return undefined;
  }

  /** The first open batch with room (and, for separate keys, without `key`), or a new one. */
  private batchFor(key: string | undefined): OpenBatch<Item, Result> {
    const fits = (batch: OpenBatch<Item, Result>) =>
      batch.entries.length < this.options.size && (key === undefined || !batch.keys.has(key));
    const found = this.open.find(fits);
    if (found) return found;
    const batch: OpenBatch<Item, Result> = { entries: [], keys: new Map(), openedAt: this.scheduler.now(), cancel: undefined };
    this.open.push(batch);
    return batch;
  }

  /** (Re)starts the quiet window, never beyond `maxWaitMs` after the batch opened. */
  private schedule(batch: OpenBatch<Item, Result>): void {
    batch.cancel?.();
    const left = Math.max(0, batch.openedAt + this.options.maxWaitMs - this.scheduler.now());
    batch.cancel = this.scheduler.after(Math.min(this.options.windowMs, left), () => this.flush(batch));
  }

  private flush(batch: OpenBatch<Item, Result>): void {
    batch.cancel?.();
    batch.cancel = undefined;
    const index = this.open.indexOf(batch);
    if (index < 0) return;
    this.open.splice(index, 1);
    const { entries } = batch;
    // Whatever the sender leaves unsettled (a bug, or an error it did not expect) fails, never hangs.
    this.send(entries).then(
      () => entries.forEach((entry) => entry.reject(new Error("saved-filter batch: no answer for this filter"))),
      (error: unknown) => entries.forEach((entry) => entry.reject(error)),
    );
  }
}

/** Splits `entries` in two halves and sends both (to find the item a refused call is about). */
async function sendHalves<Item, Result>(entries: Array<Entry<Item, Result>>, send: BatchSender<Item, Result>): Promise<void> {
  const middle = Math.ceil(entries.length / 2);
  await Promise.all([send(entries.slice(0, middle)), send(entries.slice(middle))]);
}

/**
 * Attributes a 400 to the item that caused it: the item the `parameter` index names fails with its
 * own path and the others are sent again (the emulator's bulk calls are all-or-nothing, so nothing
 * of the refused call was applied); without an index the call is split in halves until the bad
 * item stands alone.
 */
async function isolateRefusal<Item, Result>(
  entries: Array<Entry<Item, Result>>,
  error: ApiError | ArgumentError,
  send: BatchSender<Item, Result>,
): Promise<void> {
  const refused = refusedItem(error);
  if (refused !== undefined && refused.index < entries.length) {
    entries[refused.index]!.reject(refused.error);
    const others = entries.filter((_, position) => position !== refused.index);
    if (others.length > 0) await send(others);
    return;
  }
  if (entries.length > 1) return sendHalves(entries, send);
  entries[0]!.reject(soleItemError(error));
}

/**
 * The refusal of a call that carried one item, as that item's error: the service's explanation
 * without the request line, and the place inside the item when the explanation starts with it
 * (`[0].subcategory: ...`; a body that names no parameter, docs/api.md 7, often says it there).
 */
function soleItemError(error: ApiError | ArgumentError): FilterItemError | ApiError | ArgumentError {
  if (error instanceof ArgumentError || error.detail === undefined) return error;
  const match = /^\[0\]\.?([^:\s]*): (.*)$/s.exec(error.detail);
  return match ? new FilterItemError(match[1]!, match[2]!, error) : new FilterItemError("", error.detail, error);
}

/**
 * The batcher: `read`, `create`, `update` and `delete` of one filter each, answered per caller while
 * the requests carry up to {@link BatchOptions.size} filters.
 */
export class FilterBatcher {
  private readonly reads: Coalescer<string, SavedFilter | undefined>;
  private readonly creates: Coalescer<CreateItem, SavedFilter>;
  /** Ids held by resources of the stack, as far as this host has seen (see {@link claim}). */
  private readonly claimed = new Set<string>();
  /**
   * Name queries (`""` for the whole account) whose complete listing failed at the service's cap:
   * {@link listNamed} no longer tries them, it lists narrower ones at once.
   */
  private readonly tooBroad = new Set<string>();
  private readonly outcomeWait: () => OutcomeWait;
  private readonly updates: Coalescer<SavedFilterUpdate, void>;
  private readonly deletes: Coalescer<string, void>;

  constructor(
    private readonly filters: () => FiltersApi,
    options: Partial<BatchOptions> & { outcomeWait?: () => OutcomeWait; scheduler?: BatchScheduler } = {},
  ) {
    const { outcomeWait = hostOutcomeWait, scheduler = TIMER_SCHEDULER, ...batching } = options;
    const settings = { ...DEFAULT_BATCH_OPTIONS, ...batching } satisfies BatchOptions;
    this.outcomeWait = outcomeWait;
    const byId = (sameKey: SameKey) => ({ key: (id: string) => id, sameKey });
    this.reads = new Coalescer(settings, scheduler, (entries) => this.sendReads(entries), byId("share"));
    this.creates = new Coalescer(settings, scheduler, (entries) => this.sendCreates(entries));
    // Spec 4.8 does not say what two changes of one id in one PUT mean (the emulator refuses it).
    this.updates = new Coalescer(settings, scheduler, (entries) => this.sendUpdates(entries), { key: (change) => String(change.id), sameKey: "separate" });
    this.deletes = new Coalescer(settings, scheduler, (entries) => this.sendDeletes(entries), byId("share"));
  }

  /** The filter with this id, or undefined when the account has none (one `GET ?id=a,b,c` per batch). */
  read(id: string): Promise<SavedFilter | undefined> {
    this.claim(id);
    return this.reads.add(id);
  }

  /** {@link read} of every id a caller already knows (a SavedFilterSet), sent at once: one result per id. */
  readAll(ids: readonly string[]): Array<Promise<SavedFilter | undefined>> {
    for (const id of ids) this.claim(id);
    return this.reads.addAll(ids);
  }

  /**
   * Creates the filter (one POST per batch; answers come back in input order). A 429 is waited out
   * by the client's retry policy (client/core/retry.ts). When the outcome of a POST is unknown, it
   * is never posted again in this operation (no idempotency key exists, docs/api.md 10.1): the
   * account is watched for the filters it made, and a filter not seen within the bound fails with
   * an {@link UnknownOutcomeError}. With `findEarlier`, a filter an earlier operation may have made
   * (its outcome was unknown) is looked for first and adopted instead of creating another.
   */
  create(input: SavedFilterInput, { findEarlier = false }: { findEarlier?: boolean } = {}): Promise<SavedFilter> {
    return this.creates.add({ input, findEarlier });
  }

  /** {@link create} of every filter a caller already knows, sent at once: one result per filter. */
  createAll(creates: ReadonlyArray<{ input: SavedFilterInput; findEarlier: boolean }>): Array<Promise<SavedFilter>> {
    return this.creates.addAll(creates.map(({ input, findEarlier }) => ({ input, findEarlier })));
  }

  /** Merges the change into its filter (one PUT per batch; an id appears once per PUT). */
  update(change: SavedFilterUpdate): Promise<void> {
    this.claim(String(change.id));
    return this.updates.add(change);
  }

  /** {@link update} with every change a caller already knows, sent at once: one result per change. */
  updateAll(changes: readonly SavedFilterUpdate[]): Array<Promise<void>> {
    for (const change of changes) this.claim(String(change.id));
    return this.updates.addAll(changes);
  }

  /** Deletes the filter; one that is already gone counts as deleted (one `DELETE ?id=...` per batch). */
  delete(id: string): Promise<void> {
    this.claim(id);
    return this.deletes.add(id);
  }

  /** {@link delete} of every id a caller already knows, sent at once: one result per id. */
  deleteAll(ids: readonly string[]): Array<Promise<void>> {
    for (const id of ids) this.claim(id);
    return this.deletes.addAll(ids);
  }

  /** Sends every queued read, create, update and delete now, without waiting for the quiet window. */
  flush(): void {
    for (const coalescer of [this.reads, this.creates, this.updates, this.deletes]) coalescer.flushAll();
  }

  /**
   * Records that a resource of the stack holds filter `id`, so that no create adopts it as the
   * filter of a lost answer. Every id the host reads, updates, deletes or creates is claimed; the
   * providers claim the ids of their `diff` calls too (the engine diffs every resource it keeps).
   */
  claim(id: string): void {
    this.claimed.add(id);
  }

  private async sendReads(entries: Array<Entry<string, SavedFilter | undefined>>): Promise<void> {
    try {
      const found = new Map((await this.filters().list({ ids: entries.map((entry) => entry.item) })).map((filter) => [filter.id, filter]));
      for (const entry of entries) {
        // A filter gone from the account is held by no resource any more.
        if (!found.has(entry.item)) this.claimed.delete(entry.item);
        entry.resolve(found.get(entry.item));
      }
    } catch (error) {
      // A malformed id, or an answer too large for one call (spec 8): halves find or avoid it.
      const splittable = isRefusal(error) || error instanceof PayloadTooLargeError;
      if (splittable && entries.length > 1) return sendHalves(entries, (half) => this.sendReads(half));
      for (const entry of entries) entry.reject(error);
    }
  }

  /**
   * Adopts what earlier operations made for the entries that ask for it, then POSTs the rest; the
   * listing tells a later watch which filters existed before the POST.
   */
  private async sendCreates(entries: Array<Entry<CreateItem, SavedFilter>>): Promise<void> {
    const looking = entries.filter((entry) => entry.item.findEarlier);
    let toPost = entries.filter((entry) => !entry.item.findEarlier);
    if (looking.length > 0) {
      try {
        const { missing, listed } = await this.adoptMade(looking, "found the filter an earlier attempt made");
        for (const entry of missing) {
          entry.item.seenBefore = new Set(listed.filter((filter) => filter.name === entry.item.input.name).map((filter) => filter.id));
        }
        toPost = [...toPost, ...missing];
      } catch (error) {
        // Without knowing what the account holds, posting could make a second filter.
        for (const entry of looking) entry.reject(error);
      }
    }
    if (toPost.length > 0) await this.postCreates(toPost);
  }

  /** POSTs one batch; an unknown outcome is watched for, never posted again. */
  private async postCreates(entries: Array<Entry<CreateItem, SavedFilter>>): Promise<void> {
    try {
      const created = await this.filters().create({ filters: entries.map((entry) => entry.item.input) });
      entries.forEach((entry, index) => {
        this.claim(created[index]!.id);
        entry.resolve(created[index]!);
      });
    } catch (error) {
      if (isRefusal(error)) return isolateRefusal(entries, error, (rest) => this.postCreates(rest));
      if (isOutcomeUnknown(error)) return this.awaitUnknownCreates(entries, error);
      for (const entry of entries) entry.reject(error);
    }
  }

  /**
   * After a POST without a usable answer: the account is watched (bounded) for the filters it made;
   * each found one settles its caller, the others fail with an {@link UnknownOutcomeError}. Nothing
   * is posted again: a late write would make a second filter.
   */
  private async awaitUnknownCreates(entries: Array<Entry<CreateItem, SavedFilter>>, cause: unknown): Promise<void> {
    const wait = this.outcomeWait();
    let pending = entries;
    await watchAccount(wait, async () => {
      pending = (await this.adoptMade(pending, "the create answer was lost; found the filter it made")).missing;
      return pending.length === 0;
    });
    const next = "looks for the filter by its name and declared content and adopts it if it was made, else creates it";
    for (const entry of pending) {
      entry.reject(new UnknownOutcomeError(`the create of saved filter "${entry.item.input.name}"`, wait.waitMs, next, cause));
    }
  }

  /**
   * Settles each entry whose filter the account holds: exact name and every declared property equal
   * (defaults filled in), the newest first, each found filter given to one caller only, and not held
   * by another resource: when the filters of that name were listed before the POST, any filter not
   * among them is the POST's; otherwise none that a resource of the stack holds ({@link claim}).
   * Answers the entries not found and the listing. One listing per name, each complete
   * (docs/api.md 11.6: a listing cut at the cap is narrowed, never taken as all there is), and the
   * name query matches substrings, so the exact name is compared here.
   */
  private async adoptMade(
    entries: Array<Entry<CreateItem, SavedFilter>>,
    found: string,
  ): Promise<{ missing: Array<Entry<CreateItem, SavedFilter>>; listed: SavedFilter[] }> {
    const names = [...new Set(entries.map((entry) => entry.item.input.name))];
    const listed = (await this.listNamed(names)).sort((a, b) => Number(b.id) - Number(a.id));
    const taken = new Set<string>();
    const missing: Array<Entry<CreateItem, SavedFilter>> = [];
    for (const entry of entries) {
      const { input, seenBefore } = entry.item;
      const free = (id: string) => !taken.has(id) && (seenBefore === undefined ? !this.claimed.has(id) : !seenBefore.has(id));
      const match = listed.find((filter) => free(filter.id) && filter.name === input.name && plannedChanges(stateOf(filter), input).length === 0);
      if (match === undefined) {
        missing.push(entry);
        continue;
      }
      taken.add(match.id);
      this.claim(match.id);
      report(`saved filter "${input.name}": ${found} (id ${match.id}); it is adopted, not created again`);
      entry.resolve(match);
    }
    return { missing, listed };
  }

  /**
   * Every filter whose name is one of `names` (and possibly others), from as few requests as it
   * takes (client/core/listing.ts `coverNames`; the `name` query matches substrings): a watch after
   * an unknown outcome lists again every few hundred milliseconds. A query whose listing cannot be
   * made complete (docs/api.md 11.6) is not tried again by this batcher ({@link tooBroad}); in an
   * account of a thousand alike filters ("Episode 1" to "Episode 1000"), the names of a batch take a
   * few listings instead of one each. A name whose own listing cannot be made complete fails it.
   */
  private async listNamed(names: readonly string[]): Promise<SavedFilter[]> {
    const cutBy = new Map<string, IncompleteListingError>();
    const { answers, uncovered } = await coverNames(names, async (name) => {
      try {
        return await this.filters().list(name === "" ? {} : { name });
      } catch (error) {
        if (!(error instanceof IncompleteListingError)) throw error;
        cutBy.set(name, error);
        return undefined;
      }
    }, this.tooBroad);
    // A name whose own listing stays at the cap: what it holds cannot be known.
    if (uncovered.length > 0) throw cutBy.get(uncovered[0]!)!;
    return [...new Map(answers.flat().map((filter) => [filter.id, filter])).values()];
  }

  /** A deleted filter is held by no resource any more. */
  private settleDeleted(entry: Entry<string, void>): void {
    this.claimed.delete(entry.item);
    entry.resolve();
  }

  private async sendUpdates(entries: Array<Entry<SavedFilterUpdate, void>>): Promise<void> {
    try {
      await this.filters().update({ changes: entries.map((entry) => entry.item) });
      for (const entry of entries) entry.resolve();
    } catch (error) {
      if (isRefusal(error)) return isolateRefusal(entries, error, (rest) => this.sendUpdates(rest));
      for (const entry of entries) entry.reject(error);
    }
  }

  /**
   * A refused DELETE (any refusal status, 404 included: the service's answer to an unknown id is not
   * shown, docs/api.md 10.2) is followed by a read: filters already gone count as deleted and the
   * others are deleted again; a refusal about something else is split until it stands alone
   * (provider/client/assumptions.ts `UNKNOWN_FILTER_ID_RULE`: no code is read).
   */
  private async sendDeletes(entries: Array<Entry<string, void>>): Promise<void> {
    try {
      await this.filters().delete({ ids: entries.map((entry) => entry.item) });
      for (const entry of entries) this.settleDeleted(entry);
    } catch (error) {
      if (error instanceof ArgumentError && entries.length > 1) return sendHalves(entries, (half) => this.sendDeletes(half));
      if (!(error instanceof ApiError && isRefusalStatus(error))) {
        for (const entry of entries) entry.reject(error);
        return;
      }
      let present: Set<string>;
      try {
        present = new Set((await this.filters().list({ ids: entries.map((entry) => entry.item) })).map((filter) => filter.id));
      } catch {
        for (const entry of entries) entry.reject(error);
        return;
      }
      const remaining = entries.filter((entry) => present.has(entry.item));
      for (const entry of entries) if (!present.has(entry.item)) this.settleDeleted(entry);
      if (remaining.length === 0) return;
      if (remaining.length < entries.length) return this.sendDeletes(remaining);
      if (remaining.length > 1) return sendHalves(remaining, (half) => this.sendDeletes(half));
      remaining[0]!.reject(error);
    }
  }
}

/** Reads {@link BatchOptions} from the environment ({@link BATCH_ENV}); refuses values out of range. */
export function batchOptionsFromEnvironment(env: Readonly<Record<string, string | undefined>> = process.env): Partial<BatchOptions> {
  const options: Partial<BatchOptions> = {};
  const read = (name: keyof typeof BATCH_ENV, minimum: number, maximum: number): number | undefined => {
    const text = env[BATCH_ENV[name]];
    if (text === undefined || text.trim() === "") return undefined;
    const value = Number(text);
    if (!Number.isInteger(value) || value < minimum || value > maximum) {
      throw new Error(`${BATCH_ENV[name]} must be an integer from ${minimum} to ${maximum}, got ${JSON.stringify(text)}`);
    }
    return value;
  };
  const size = read("size", 1, FILTERS_PER_CALL);
  const windowMs = read("windowMs", 0, 10_000);
  const maxWaitMs = read("maxWaitMs", 0, 10_000);
  if (size !== undefined) options.size = size;
  if (windowMs !== undefined) options.windowMs = windowMs;
  if (maxWaitMs !== undefined) options.maxWaitMs = maxWaitMs;
  return options;
}

/** The host's batchers, one per account (runtime.ts `accountKey`). */
const batchers = new Map<string, FilterBatcher>();

/**
 * The host's batcher of one account, shared by every SavedFilter and SavedFilterSet of that account
 * the host serves: `account` names an account of `insights:accounts`, undefined is the stack's
 * default settings. One batcher per account, so a bulk call never carries filters of two accounts
 * and the ids a batcher claims are those of its own account. It sends through the host's client of
 * that account (runtime.ts).
 */
export function sharedFilterBatcher(account?: string): FilterBatcher {
  const key = accountKey(account);
  let batcher = batchers.get(key);
  if (batcher === undefined) {
    batcher = new FilterBatcher(() => sharedClient(account).filters, batchOptionsFromEnvironment());
    batchers.set(key, batcher);
  }
  return batcher;
}

/**
 * Claims `ids` in the batcher of `account` ({@link FilterBatcher.claim}), as `diff` does for every
 * filter the stack holds. Settings that cannot be resolved claim nothing: no create can run
 * without them either, and a preview's diff must not need them.
 */
export function claimFilters(account: string | undefined, ids: Iterable<string>): void {
  let batcher: FilterBatcher;
  try {
    batcher = sharedFilterBatcher(account);
  } catch {
    return;
  }
  for (const id of ids) batcher.claim(id);
}
