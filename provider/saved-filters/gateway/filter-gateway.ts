import { isRefusalStatus } from "../../schema/assumptions";
import { ApiError, ArgumentError, PayloadTooLargeError } from "../../client/core/errors";
import type { OutcomeWait } from "../../client/core/outcome";
import { isOutcomeUnknown } from "../../client/core/retry";
import type { FiltersApi } from "../../client/filters";
import { FILTERS_PER_CALL, type SavedFilter, type SavedFilterInput, type SavedFilterUpdate } from "../../schema";
import { AccountView, type CallKind } from "./account-view";
import { Coalescer, EngineCalls, sendHalves, TIMER_SCHEDULER, type BatchOptions, type BatchScheduler, type Entry, type SameKey } from "./coalescer";
import { LostCreates, type CreateItem } from "./lost-creates";
import { isolateRefusal, isRefusal } from "./refusals";

/**
 * The saved-filter gateway of one account: reads, creates, updates and deletes of one filter each,
 * answered per caller while the requests carry up to 100 filters (docs/api.md 4.8, 8). Single calls
 * are coalesced (coalescer.ts), sent as soon as no more of the engine's calls can join; the
 * engine's reads are served from one listing of the account per run, and what a lost create made
 * is looked for in that run's listings (account-view.ts, docs/api.md 11.10); a refused bulk call
 * fails only the item it is about (refusals.ts), and a create whose outcome is unknown is never
 * posted again (lost-creates.ts). It performs what the reconciler planned and judges nothing about
 * what a filter should be: that judgement is given to it ({@link FilterGatewayOptions.isDeclared}).
 */

/**
 * Defaults of {@link BatchOptions}. The engine's concurrent calls reach the host in bursts paced by
 * HTTP/2 flow control (each call carries the `__provider` text), a few milliseconds apart: the
 * window only bounds a batch that is not sent as soon as no more calls can join it (the first
 * burst of a run, the last calls of one).
 */
export const DEFAULT_BATCH_OPTIONS = { size: FILTERS_PER_CALL, windowMs: 20, maxWaitMs: 200 } satisfies BatchOptions;

/** What a {@link FilterGateway} is made with, besides its account's filters API. */
export interface FilterGatewayOptions extends Partial<BatchOptions> {
  /** Whether `filter`, as listed, is the filter `input` declares: how a lost create's filter is recognised. */
  isDeclared: (filter: SavedFilter, input: SavedFilterInput) => boolean;
  /** How long to watch the account after an unknown outcome. */
  outcomeWait: () => OutcomeWait;
  /** Prints a line the user sees (an adoption of what a lost create made); default: none. */
  report?: (line: string) => void;
  /** When the batching waits end (default: Node's timers). */
  scheduler?: BatchScheduler;
}

/** The gateway of one account: batched reads, creates, updates and deletes of saved filters. */
export class FilterGateway {
  private readonly reads: Coalescer<string, SavedFilter | undefined>;
  private readonly creates: Coalescer<CreateItem, SavedFilter>;
  private readonly updates: Coalescer<SavedFilterUpdate, void>;
  private readonly deletes: Coalescer<string, void>;
  /** Ids held by resources of the stack, as far as this process has seen (see {@link claim}). */
  private readonly claimed = new Set<string>();
  private readonly lostCreates: LostCreates;
  /** The engine calls being served, shared by the coalescers: when no more can join a batch. */
  private readonly calls = new EngineCalls();
  /** The account as this run has seen it (docs/api.md 11.10); replaced when a run ends. */
  private view: AccountView;
  /** Whether runs keep listings: batching off (a size of 1) sends one request per item, listings included. */
  private readonly listings: boolean;

  constructor(
    private readonly filters: () => FiltersApi,
    options: FilterGatewayOptions,
  ) {
    const { isDeclared, outcomeWait, report = () => undefined, scheduler = TIMER_SCHEDULER, ...batching } = options;
    const settings = { ...DEFAULT_BATCH_OPTIONS, ...batching } satisfies BatchOptions;
    this.listings = settings.size > 1;
    this.view = new AccountView(filters);
    this.lostCreates = new LostCreates({
      named: (names, fresh) => this.view.named(names, { fresh: fresh || !this.listings }),
      forget: () => this.startRun(),
      isDeclared,
      isClaimed: (id) => this.claimed.has(id),
      claim: (id) => this.claim(id),
      report,
      outcomeWait,
    });
    const byId = (sameKey: SameKey) => ({ key: (id: string) => id, sameKey });
    this.reads = new Coalescer(settings, scheduler, (entries) => this.sendReads(entries), byId("share"), this.calls);
    this.creates = new Coalescer(settings, scheduler, (entries) => this.sendCreates(entries), undefined, this.calls);
    // Docs/api.md 4.8 does not say what two changes of one id in one PUT mean (the emulator refuses it).
    this.updates = new Coalescer(settings, scheduler, (entries) => this.sendUpdates(entries), { key: (change) => String(change.id), sameKey: "separate" }, this.calls);
    this.deletes = new Coalescer(settings, scheduler, (entries) => this.sendDeletes(entries), byId("share"), this.calls);
  }

  /**
   * Serves one call of the engine (a resource's create, read, update or delete): counted while it
   * runs, so that its batches are sent as soon as no more calls can join them (coalescer.ts `EngineCalls`).
   */
  serve<Result>(work: () => Promise<Result>): Promise<Result> {
    return this.calls.serve(work);
  }

  /**
   * The filter with this id as the account holds it now, or undefined when it has none (one
   * `GET ?id=a,b,c` per batch); `now` for one of many reads of one engine call (a SavedFilterSet's).
   */
  read(id: string, sending: "join" | "now" = "join"): Promise<SavedFilter | undefined> {
    this.claim(id);
    return this.reads.add(id, sending === "join");
  }

  /** {@link read} of every id a caller already knows (a SavedFilterSet), sent at once: one result per id. */
  readAll(ids: readonly string[]): Array<Promise<SavedFilter | undefined>> {
    for (const id of ids) this.claim(id);
    return this.reads.addAll(ids);
  }

  /**
   * The filter `id` for the engine's read of a refresh: served from this run's listing of the
   * account (the first read lists it); one it does not show is looked for by its recorded `name`
   * when that listing was cut, and read by id before it is reported deleted (account-view.ts).
   */
  async readCurrent(id: string, name: string | undefined): Promise<SavedFilter | undefined> {
    this.touch("read", [id]);
    this.claim(id);
    if (!this.listings) return this.reads.add(id);
    return (await this.view.sighting(id, name)) ?? this.reads.add(id);
  }

  /**
   * The filters `ids` for an engine call that knows them all (a SavedFilterSet's refresh, adoptions):
   * those this run's listings show as listed, the others by id, joined with other resources'
   * reads (`join`) or sent at once (`now`); no listing is made for them. The caller records its
   * call about them ({@link touch}) first.
   */
  readKnown(ids: readonly string[], sending: "join" | "now"): Array<Promise<SavedFilter | undefined>> {
    for (const id of ids) this.claim(id);
    const view = this.view;
    const answered = (async () => {
      const listed = this.listings ? await view.sightings(ids) : ids.map(() => undefined);
      const missing = ids.filter((_, index) => listed[index] === undefined);
      const read = sending === "now" ? this.reads.addAll(missing) : missing.map((id) => this.reads.add(id));
      const byId = new Map(missing.map((id, index) => [id, read[index]!]));
      return ids.map((id, index) => (listed[index] === undefined ? byId.get(id)! : Promise.resolve(listed[index])));
    })();
    return ids.map((_, index) => answered.then((results) => results[index]!));
  }

  /**
   * Records an engine call of `kind` about the filters `ids` (its reads, updates, deletes and
   * adoptions; the filters its creates make are recorded when made); a call of the other kind, or a
   * second call about one of them, starts another run: it belongs to another command
   * (account-view.ts `touch`).
   */
  touch(kind: CallKind, ids: readonly string[]): void {
    if (!this.view.touch(kind, ids)) {
      this.startRun();
      this.view.touch(kind, ids);
    }
  }

  /** Ends this run: what it listed is forgotten, the next call that needs a listing lists again. */
  private startRun(): void {
    this.view = new AccountView(this.filters);
  }

  /**
   * Creates the filter (one POST per batch; answers come back in input order). A 429 is waited out
   * by the client's retry policy (client/core/retry.ts). When the outcome of a POST is unknown, it
   * is never posted again in this operation (no idempotency key exists, docs/api.md 10.1): the
   * account is watched for the filters it made, and a filter not seen within the bound fails with
   * an `UnknownOutcomeError`. With `findEarlier`, a filter an earlier operation may have made (its
   * outcome was unknown) is looked for first and adopted instead of creating another.
   */
  create(input: SavedFilterInput, { findEarlier = false }: { findEarlier?: boolean } = {}): Promise<SavedFilter> {
    return this.creates.add({ input, findEarlier });
  }

  /** {@link create} of every filter a caller already knows, sent at once: one result per filter. */
  createAll(creates: ReadonlyArray<{ input: SavedFilterInput; findEarlier: boolean }>): Array<Promise<SavedFilter>> {
    return this.creates.addAll(creates.map(({ input, findEarlier }) => ({ input, findEarlier })));
  }

  /**
   * Merges the change into its filter (one PUT per batch; an id appears once per PUT); `now` for one
   * of many changes of one engine call (a SavedFilterSet's).
   */
  update(change: SavedFilterUpdate, sending: "join" | "now" = "join"): Promise<void> {
    this.claim(String(change.id));
    return this.updates.add(change, sending === "join");
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
   * filter of a lost answer. Every id the gateway reads, updates, deletes or creates is claimed; the
   * hosts claim the ids of their `diff` calls too (the engine diffs every resource it keeps).
   */
  claim(id: string): void {
    this.claimed.add(id);
  }

  private async sendReads(entries: Array<Entry<string, SavedFilter | undefined>>): Promise<void> {
    try {
      const found = new Map((await this.filters().list({ ids: entries.map((entry) => entry.item) })).map((filter) => [filter.id, filter]));
      for (const entry of entries) {
        const filter = found.get(entry.item);
        // A filter gone from the account is held by no resource any more.
        if (filter === undefined) {
          this.claimed.delete(entry.item);
          this.view.gone(entry.item);
        } else this.view.saw(filter);
        entry.resolve(filter);
      }
    } catch (error) {
      // A malformed id, or an answer too large for one call (docs/api.md 8): halves find or avoid it.
      const splittable = isRefusal(error) || error instanceof PayloadTooLargeError;
      if (splittable && entries.length > 1) return sendHalves(entries, (half) => this.sendReads(half));
      for (const entry of entries) entry.reject(error);
    }
  }

  /**
   * Adopts what earlier operations made for the entries that ask for it, then POSTs the rest; the
   * listing tells a later watch which filters existed before the POST. The listing is this run's
   * (account-view.ts): one listing of the names' common beginning serves every later batch it covers.
   */
  private async sendCreates(entries: Array<Entry<CreateItem, SavedFilter>>): Promise<void> {
    const looking = entries.filter((entry) => entry.item.findEarlier);
    let toPost = entries.filter((entry) => !entry.item.findEarlier);
    if (looking.length > 0) {
      try {
        const { missing, listed } = await this.lostCreates.adoptMade(looking, "found the filter an earlier attempt made", { fresh: false });
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
      this.touch("change", created.map((filter) => filter.id));
      entries.forEach((entry, index) => {
        this.claim(created[index]!.id);
        this.view.made(created[index]!);
        entry.resolve(created[index]!);
      });
    } catch (error) {
      if (isRefusal(error)) return isolateRefusal(entries, error, (rest) => this.postCreates(rest));
      if (isOutcomeUnknown(error)) return this.lostCreates.awaitUnknown(entries, error);
      for (const entry of entries) entry.reject(error);
    }
  }

  /** A deleted filter is held by no resource any more. */
  private settleDeleted(entry: Entry<string, void>): void {
    this.claimed.delete(entry.item);
    this.view.gone(entry.item);
    entry.resolve();
  }

  /** A write failed: when its outcome is unknown, the account may change behind this run, which ends. */
  private failed(entries: ReadonlyArray<Entry<unknown, unknown>>, error: unknown): void {
    if (isOutcomeUnknown(error)) this.startRun();
    for (const entry of entries) entry.reject(error);
  }

  private async sendUpdates(entries: Array<Entry<SavedFilterUpdate, void>>): Promise<void> {
    try {
      await this.filters().update({ changes: entries.map((entry) => entry.item) });
      for (const entry of entries) {
        this.view.changed(entry.item);
        entry.resolve();
      }
    } catch (error) {
      if (isRefusal(error)) return isolateRefusal(entries, error, (rest) => this.sendUpdates(rest));
      this.failed(entries, error);
    }
  }

  /**
   * A refused DELETE (any refusal status, 404 included: the service's answer to an unknown id is not
   * shown, docs/api.md 10.2) is followed by a read: filters already gone count as deleted and the
   * others are deleted again; a refusal about something else is split until it stands alone
   * (provider/schema/assumptions.ts `UNKNOWN_FILTER_ID_RULE`: no code is read).
   */
  private async sendDeletes(entries: Array<Entry<string, void>>): Promise<void> {
    try {
      await this.filters().delete({ ids: entries.map((entry) => entry.item) });
      for (const entry of entries) this.settleDeleted(entry);
    } catch (error) {
      if (error instanceof ArgumentError && entries.length > 1) return sendHalves(entries, (half) => this.sendDeletes(half));
      if (!(error instanceof ApiError && isRefusalStatus(error))) return this.failed(entries, error);
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
