import { coverNames, IncompleteListingError } from "../../client/core/listing";
import type { FiltersApi } from "../../client/filters";
import { mayBeCut, RESULT_CAP } from "../../schema/assumptions";
import type { SavedFilter, SavedFilterUpdate } from "../../schema";

/**
 * The saved filters of one account as one run of this process has seen them (docs/api.md 11.10):
 * what its listings showed, kept current by this process's own writes. The engine's reads of a
 * refresh are served from one listing of the account, and the lookups for what a lost create made
 * from listings by name that the run keeps, instead of one listing per batch. A run ends (the
 * gateway starts another view) at the first sign that the account may have changed behind it: a
 * write whose outcome is unknown, or an engine call that belongs to another command (the engine
 * starts a host per command; tests drive several commands through one).
 */

/** What an engine call does: read the account (a refresh) or change it (an up, a destroy). */
export type CallKind = "read" | "change";

/** Every beginning of `name` in order of length, never ending in half of a character outside the BMP. */
function beginningsOf(name: string): string[] {
  const beginnings: string[] = [];
  for (let length = 1; length <= name.length; length++) {
    if (/[\uD800-\uDBFF]/.test(name[length - 1]!) && length < name.length) continue;
    beginnings.push(name.slice(0, length));
  }
  return beginnings;
}

/** Whether a complete listing of the names containing `query` shows every filter named `name`. */
function shows(query: string, name: string): boolean {
  // The query is asked in the name's own case and is its beginning: every reading of `name` finds it (schema/assumptions.ts TEXT_SEARCH_RULE).
  return name.startsWith(query);
}

/** What one run knows of an account's saved filters. */
export class AccountView {
  /** Each filter as last listed, or as this process wrote it since. */
  private readonly known = new Map<string, SavedFilter>();
  /** Name beginnings ("" for the whole account) whose listing this run holds complete. */
  private readonly complete = new Set<string>();
  /** Listings in flight: complete ones ({@link listComplete}) and single requests ({@link listOnce}), by name beginning. */
  private readonly pending = new Map<string, { query: string; promise: Promise<void> }>();
  /** Beginnings whose complete listing failed at the service's cap however narrowed (not asked again). */
  private readonly tooBroad = new Set<string>();
  /** Beginnings whose one answer reached the cap (the engine's reads ask longer ones). */
  private readonly atCap = new Set<string>();
  /** The one listing of the whole account the engine's reads are served from, once asked. */
  private whole: Promise<void> | undefined;
  /** What the engine's calls of this run do, once one came. */
  private kind: CallKind | undefined;
  /** Ids an engine call of this run was about. */
  private readonly touched = new Set<string>();
  /** Filters this process created in this run: a listing that began before one was made does not show it. */
  private readonly created = new Set<string>();

  constructor(private readonly filters: () => FiltersApi) {}

  /**
   * Records an engine call of `kind` about the filters `ids`; false when it cannot be of this run's
   * command: the engine's calls of one command are all reads (a refresh) or all changes (an up, a
   * destroy), each about a filter once, so a call of the other kind, or a second call about one
   * filter, belongs to another command, and the caller starts a new run.
   */
  touch(kind: CallKind, ids: readonly string[]): boolean {
    if ((this.kind !== undefined && this.kind !== kind) || ids.some((id) => this.touched.has(id))) return false;
    this.kind = kind;
    for (const id of ids) this.touched.add(id);
    return true;
  }

  /**
   * The filter `id` for the engine's read, as this run's listings show it: the first read lists the
   * whole account once (one request: a listing at the cap is used for what it shows, docs/api.md
   * 11.6); a filter not in it is looked for by its recorded `name` ({@link listByName}) when that
   * listing was cut. Undefined when no listing shows it: the caller reads it by id before it reports
   * it deleted (the listing may have failed, or the filter been renamed).
   */
  async sighting(id: string, name: string | undefined): Promise<SavedFilter | undefined> {
    this.whole ??= this.listOnce("");
    await this.whole;
    const listed = this.known.get(id);
    if (listed !== undefined || name === undefined || !this.atCap.has("") || this.showsAll(name)) return listed;
    await this.listByName(name);
    return this.known.get(id);
  }

  /**
   * The filters `ids` as far as this run has listed them, without asking the account: a caller
   * that knows its whole batch reads the others by id (one request per 100 ids, what a listing
   * would cost too).
   */
  async sightings(ids: readonly string[]): Promise<Array<SavedFilter | undefined>> {
    // The listing's failure is its own (listOnce): what it did not show is read by id.
    await this.whole;
    return ids.map((id) => this.known.get(id));
  }

  /**
   * Every filter named one of `names` the account holds, from this run's complete listings by name
   * (docs/api.md 11.2): a beginning of every name already listed complete is not asked again; the
   * others are listed as {@link coverNames} covers them. `fresh` lists them again whatever this run
   * holds (the watch after an unknown outcome). Throws when a name's own listing stays at the cap.
   */
  async named(names: readonly string[], { fresh }: { fresh: boolean }): Promise<SavedFilter[]> {
    const wanted = new Set(names);
    const cutBy = new Map<string, IncompleteListingError>();
    const { uncovered } = await coverNames(names, async (beginning) => {
      const covered = fresh ? false : this.covered(beginning);
      if (covered === true || (covered !== false && (await covered))) return [];
      try {
        await this.listComplete(beginning);
        return [];
      } catch (error) {
        if (!(error instanceof IncompleteListingError)) throw error;
        cutBy.set(beginning, error);
        return undefined;
      }
    }, this.tooBroad);
    // A name whose own listing stays at the cap: what it holds cannot be known.
    if (uncovered.length > 0) throw cutBy.get(uncovered[0]!)!;
    return [...this.known.values()].filter((filter) => wanted.has(filter.name));
  }

  /** A filter this process created: the run holds it as answered. */
  made(filter: SavedFilter): void {
    this.created.add(filter.id);
    this.known.set(filter.id, filter);
  }

  /** A filter this process read by id: the run holds it as answered. */
  saw(filter: SavedFilter): void {
    this.known.set(filter.id, filter);
  }

  /** A change this process applied: merged into what the run holds (PUT merges, docs/api.md 4.8). */
  changed(change: SavedFilterUpdate): void {
    const id = String(change.id);
    const current = this.known.get(id);
    if (current === undefined) return;
    const merged: Record<string, unknown> = { ...current };
    for (const [property, value] of Object.entries(change)) {
      if (property === "id") continue;
      if (value === null) delete merged[property];
      else merged[property] = value;
    }
    this.known.set(id, merged as unknown as SavedFilter);
  }

  /** A filter this process deleted, or found gone. */
  gone(id: string): void {
    this.created.delete(id);
    this.known.delete(id);
  }

  /**
   * Whether a complete listing of this run shows every filter whose name begins with `beginning`,
   * after the listings in flight that would show them: decided at once when none is in flight, so a
   * caller that then lists is in flight before the next caller asks.
   */
  private covered(beginning: string): boolean | Promise<boolean> {
    const awaited = new Set<Promise<void>>();
    const decide = (): boolean | Promise<boolean> => {
      if (this.showsAll(beginning)) return true;
      // A listing in flight that would show them: wait for it (it may come back cut, or fail).
      const inFlight = [...this.pending.values()].find(({ query, promise }) => shows(query, beginning) && !awaited.has(promise));
      if (inFlight === undefined) return false;
      awaited.add(inFlight.promise);
      return inFlight.promise.catch(() => undefined).then(decide);
    };
    return decide();
  }

  /** Whether a complete listing of this run shows every filter named `name`. */
  private showsAll(name: string): boolean {
    return [...this.complete].some((query) => shows(query, name));
  }

  /** Lists the filters whose name contains `beginning` ("" every filter) completely, narrowed as the client narrows a listing at the cap. */
  private listComplete(beginning: string): Promise<void> {
    return this.listing("complete", beginning, async () => {
      const listed = await this.filters().list(beginning === "" ? {} : { name: beginning });
      this.took(beginning, listed, true);
    });
  }

  /** One request for the filters whose name contains `beginning` ("" every filter): complete below the cap, evidence of what it shows at it. */
  private listOnce(beginning: string): Promise<void> {
    return this.listing("once", beginning, async () => {
      const listed = await this.filters().list({ ...(beginning === "" ? {} : { name: beginning }), limit: RESULT_CAP });
      const cut = mayBeCut(listed.length);
      if (cut) this.atCap.add(beginning);
      this.took(beginning, listed, !cut);
    }).catch(() => undefined);
  }

  /** Runs the listing of `beginning` once for every caller that asks for it while it is in flight. */
  private listing(kind: "complete" | "once", beginning: string, list: () => Promise<void>): Promise<void> {
    const key = `${kind}:${beginning}`;
    const inFlight = this.pending.get(key);
    if (inFlight !== undefined) return inFlight.promise;
    const promise = list().finally(() => {
      if (this.pending.get(key)?.promise === promise) this.pending.delete(key);
    });
    this.pending.set(key, { query: beginning, promise });
    return promise;
  }

  /** Takes a listing's answer: what it shows, and, complete, that what it does not show under `beginning` is gone. */
  private took(beginning: string, listed: readonly SavedFilter[], complete: boolean): void {
    const ids = new Set(listed.map((filter) => filter.id));
    if (complete) {
      for (const [id, filter] of this.known) if (!ids.has(id) && !this.created.has(id) && shows(beginning, filter.name)) this.known.delete(id);
      this.complete.add(beginning);
    }
    for (const filter of listed) this.known.set(filter.id, filter);
  }

  /**
   * Lists, in one request, the filters whose name contains the shortest beginning of `name` whose
   * answer should stay below the cap: longer than every beginning whose answer reached it, and
   * found in fewer than half the cap of the names this run has seen. In an account of a thousand
   * "Episode N" filters, "Episode 5" lists the hundred the engine reads next.
   */
  private async listByName(name: string): Promise<void> {
    const seen = [...this.known.values()].map((filter) => filter.name.toLowerCase());
    const beginning = beginningsOf(name).find((candidate) => {
      if ([...this.atCap].some((query) => query.startsWith(candidate))) return false;
      const lower = candidate.toLowerCase();
      return seen.filter((known) => known.includes(lower)).length < RESULT_CAP / 2;
    });
    if (beginning !== undefined) await this.listOnce(beginning);
  }
}
