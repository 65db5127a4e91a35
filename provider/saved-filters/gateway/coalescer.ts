import { InsightsError } from "../../client/core/errors";

/**
 * Coalescing of single operations into bulk calls. The engine drives many resources of one stack
 * concurrently through one process, at most `--parallel` at once (docs/dynamic-providers.md "The
 * life of a dynamic resource"), and the API takes up to 100 filters per call (docs/api.md 4.8, 8):
 * items that arrive together are gathered into batches of at most `size`, and each caller gets its
 * own item's result. A batch is sent as soon as no more calls can join it ({@link EngineCalls}: every
 * engine call in flight waits in a batch, and there are as many as there ever were at once), else
 * when full, or after a short quiet window (the bound: nothing waits for a call that never comes).
 * Nothing here knows what an item is (docs/api.md 11.10).
 */

/** Tuning of a {@link Coalescer}. */
export interface BatchOptions {
  /** Items per bulk call, 1 to 100 (docs/api.md 4.8). 1 turns batching off: one request per item. */
  size: number;
  /** Unless no more calls can join it, a batch is sent once no call has joined it for this long (milliseconds). */
  windowMs: number;
  /** ... or at the latest this long after its first call joined, however busy (milliseconds). */
  maxWaitMs: number;
}

/**
 * The engine calls a gateway serves, shared by its coalescers: how many are in flight, the most
 * that were in flight at once, and how many callers wait in an open batch. The engine sends at
 * most `--parallel` calls at once and waits for each answer before it sends the next of that slot,
 * so once every call in flight waits in a batch and there are as many as the most ever seen at
 * once, no other call can join before one is answered: the batches are sent at once. When some
 * calls are still on their way (a group of a round that fell out of step, its request in flight),
 * the quiet window is extended (up to the bound) so that they catch up and the groups share bulk
 * calls again, one per round. The most at once
 * counts only calls that were in flight when one of them ended, so the first burst, whose size
 * nothing tells yet, and a burst larger than any before wait for the quiet window; and it counts
 * only from 2, since one call at a time tells nothing of the engine's parallelism (a later burst
 * would be sent one call at a time).
 */
export class EngineCalls {
  private inFlight = 0;
  private mostAtOnce = 0;
  private waiting = 0;
  private readonly flushers = new Set<() => void>();

  /** Serves one engine call: counted in flight while `work` runs. */
  async serve<Result>(work: () => Promise<Result>): Promise<Result> {
    this.inFlight++;
    try {
      return await work();
    } finally {
      this.mostAtOnce = Math.max(this.mostAtOnce, this.inFlight);
      this.inFlight--;
    }
  }

  /** Registers how a coalescer sends its open batches. */
  register(flushAll: () => void): void {
    this.flushers.add(flushAll);
  }

  /** A caller joined an open batch: when no more can join, every coalescer sends its batches. */
  joined(): void {
    this.waiting++;
    if (this.isFull()) for (const flushAll of this.flushers) flushAll();
  }

  /** `count` callers left their batch (it was sent). */
  left(count: number): void {
    this.waiting -= count;
  }

  /**
   * True when the engine can send no other call and some of those in flight do not wait in a batch
   * yet: a group of a round on its way from a request of its own, whose calls come back to join.
   */
  othersOnTheirWay(): boolean {
    return this.mostAtOnce >= 2 && this.inFlight === this.mostAtOnce && this.waiting < this.inFlight;
  }

  /**
   * True when no more calls can join a batch: every call in flight waits in one, and there are as
   * many as the most ever at once (more says the engine runs more at once than seen yet: nothing is told).
   */
  private isFull(): boolean {
    return this.mostAtOnce >= 2 && this.inFlight === this.mostAtOnce && this.waiting >= this.inFlight;
  }
}

/**
 * When the waits of a {@link Coalescer} end: injectable, so that a test decides when a batch is sent
 * (or flushes it) instead of depending on a timer's timing.
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

/** A caller waiting for the outcome of its item. */
interface Waiter<Result> {
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/** One item of a batch and every caller waiting for it (callers of a shared key wait together). */
export class Entry<Item, Result> {
  private readonly waiters: Array<Waiter<Result>> = [];
  private settled = false;

  constructor(
    /** The item the callers asked for. */
    readonly item: Item,
  ) {}

  /** Adds a caller to the ones this entry answers. */
  wait(waiter: Waiter<Result>): void {
    this.waiters.push(waiter);
  }

  /** Answers every caller with `result` (only the first settlement counts). */
  resolve(result: Result): void {
    if (this.settled) return;
    this.settled = true;
    for (const waiter of this.waiters) waiter.resolve(result);
  }

  /** Fails every caller with `error` (only the first settlement counts). */
  reject(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    for (const waiter of this.waiters) waiter.reject(error);
  }
}

/** Sends one batch and settles every entry of it. */
export type BatchSender<Item, Result> = (entries: Array<Entry<Item, Result>>) => Promise<void>;

/**
 * How items with the same key are batched: one entry shared by its callers (two reads of one id), or
 * never in one batch (two changes of one id: docs/api.md 4.8 does not say what they would mean).
 */
export type SameKey = "share" | "separate";

/** A batch being filled: its entries, its pending send and when it opened. */
interface OpenBatch<Item, Result> {
  entries: Array<Entry<Item, Result>>;
  keys: Map<string, Entry<Item, Result>>;
  openedAt: number;
  /** Callers that joined with {@link Coalescer.add} (counted as waiting by {@link EngineCalls}). */
  joined: number;
  /** Cancels the pending send of the quiet window, if one is scheduled. */
  cancel: (() => void) | undefined;
}

/**
 * Coalesces items into batches of at most `size`: a batch is sent when no more calls can join
 * (`calls`), when full, when no item joined it for `windowMs`, or `maxWaitMs` after it opened.
 */
export class Coalescer<Item, Result> {
  private readonly open: Array<OpenBatch<Item, Result>> = [];

  constructor(
    private readonly options: BatchOptions,
    private readonly scheduler: BatchScheduler,
    private readonly send: BatchSender<Item, Result>,
    private readonly keyOf?: { key: (item: Item) => string; sameKey: SameKey },
    private readonly calls: EngineCalls = new EngineCalls(),
  ) {
    calls.register(() => this.flushAll());
  }

  /** Sends every open batch now. */
  flushAll(): void {
    for (const batch of [...this.open]) this.flush(batch);
  }

  /**
   * Queues `item` and answers its result once its batch is sent: as soon as no more calls can join
   * it, when full, else after the wait window, so that the concurrent calls of other resources can
   * join it. `counted` says that an engine call waits for it alone (an item among many of one call,
   * such as a SavedFilterSet's, is not counted: more of that call's items may follow).
   */
  add(item: Item, counted = true): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      const { batch, joined } = this.enqueue(item, { resolve, reject });
      if (!this.open.includes(batch)) return;
      // An item that joined a queued entry leaves that batch's window as it was.
      if (!joined) this.schedule(batch);
      if (!counted) return;
      batch.joined++;
      this.calls.joined();
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
      shared.entry.wait(waiter);
      return { batch: shared.batch, joined: true };
    }
    const batch = this.batchFor(key);
    const entry = new Entry<Item, Result>(item);
    entry.wait(waiter);
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
    const batch: OpenBatch<Item, Result> = { entries: [], keys: new Map(), openedAt: this.scheduler.now(), joined: 0, cancel: undefined };
    this.open.push(batch);
    return batch;
  }

  /** (Re)starts the quiet window, never beyond `maxWaitMs` after the batch opened. */
  private schedule(batch: OpenBatch<Item, Result>): void {
    batch.cancel?.();
    const left = Math.max(0, batch.openedAt + this.options.maxWaitMs - this.scheduler.now());
    batch.cancel = this.scheduler.after(Math.min(this.options.windowMs, left), () => {
      // Calls of the engine still on their way will join: the window is extended, up to maxWaitMs.
      if (left > this.options.windowMs && this.calls.othersOnTheirWay()) this.schedule(batch);
      else this.flush(batch);
    });
  }

  private flush(batch: OpenBatch<Item, Result>): void {
    batch.cancel?.();
    batch.cancel = undefined;
    const index = this.open.indexOf(batch);
    if (index < 0) return;
    this.open.splice(index, 1);
    this.calls.left(batch.joined);
    const { entries } = batch;
    // Whatever the sender leaves unsettled (a bug, or an error it did not expect) fails, never hangs.
    this.send(entries).then(
      () => entries.forEach((entry) => entry.reject(new InsightsError("batch: no answer for this item"))),
      (error: unknown) => entries.forEach((entry) => entry.reject(error)),
    );
  }
}

/** Splits `entries` in two halves and sends both (to find the item a refused call is about). */
export async function sendHalves<Item, Result>(entries: Array<Entry<Item, Result>>, send: BatchSender<Item, Result>): Promise<void> {
  const middle = Math.ceil(entries.length / 2);
  await Promise.all([send(entries.slice(0, middle)), send(entries.slice(middle))]);
}
