import { UnknownOutcomeError, watchAccount, type OutcomeWait } from "../../client/core/outcome";
import type { SavedFilter, SavedFilterInput } from "../../schema";
import type { Entry } from "./coalescer";

/**
 * Recovery of creates whose outcome is unknown (client/core/outcome.ts). A POST without a usable
 * answer is never sent again in the same operation; the account is watched for the filters it made
 * instead, and a later operation that may repeat an earlier lost create looks for its filter first,
 * in the listings of the run (account-view.ts: the run lists again after an unknown outcome).
 * A listed filter counts as made by a create when the caller's judgement says it is the declared
 * filter (exact name and declared content: the reconciler's model decides, this file never
 * interprets a filter) and no resource holds it.
 */

/** One create: the filter, and whether an earlier operation may have made it already. */
export interface CreateItem {
  /** The filter to create. */
  input: SavedFilterInput;
  /** True when an earlier operation may have made it: it is looked for before posting. */
  findEarlier: boolean;
  /** The ids of the filters with this name the account held before the POST, when they were listed. */
  seenBefore?: ReadonlySet<string>;
}

/** What the recovery needs from its gateway. */
export interface LostCreateContext {
  /**
   * Every filter named one of `names` the account holds (and possibly others), from the run's
   * complete listings; `fresh` lists them again whatever the run holds.
   */
  named: (names: readonly string[], fresh: boolean) => Promise<SavedFilter[]>;
  /** Ends the run: the account may change behind it (a write whose outcome is unknown may still land). */
  forget: () => void;
  /** Whether `filter`, as listed, is the filter `input` declares (the reconciler's judgement). */
  isDeclared: (filter: SavedFilter, input: SavedFilterInput) => boolean;
  /** Whether a resource of the stack holds the filter `id` (as far as this process has seen). */
  isClaimed: (id: string) => boolean;
  /** Records that the filter `id` is now held. */
  claim: (id: string) => void;
  /** Prints a line the user sees. */
  report: (line: string) => void;
  /** How long to watch the account after an unknown outcome. */
  outcomeWait: () => OutcomeWait;
}

/** Finds what lost creates made, and gives each found filter to one caller. */
export class LostCreates {
  constructor(private readonly context: LostCreateContext) {}

  /**
   * After a POST without a usable answer: the account is watched (bounded) for the filters it made,
   * listed again at each look; each found one settles its caller, the others fail with an
   * {@link UnknownOutcomeError}. Nothing is posted again: a late write would make a second filter.
   * The run ends before the watch and, when a filter stays unseen, after it: its write may still
   * land, and the next lookup lists again.
   */
  async awaitUnknown(entries: Array<Entry<CreateItem, SavedFilter>>, cause: unknown): Promise<void> {
    this.context.forget();
    const wait = this.context.outcomeWait();
    let pending = entries;
    await watchAccount(wait, async () => {
      pending = (await this.adoptMade(pending, "the create answer was lost; found the filter it made", { fresh: true })).missing;
      return pending.length === 0;
    });
    if (pending.length > 0) this.context.forget();
    const next = "looks for the filter by its name and declared content and adopts it if it was made, else creates it";
    for (const entry of pending) {
      entry.reject(new UnknownOutcomeError(`the create of saved filter "${entry.item.input.name}"`, wait.waitMs, next, cause));
    }
  }

  /**
   * Settles each entry whose filter the account holds: the declared filter, the newest first, each
   * found filter given to one caller only, and not held by another resource: when the filters of
   * that name were listed before the POST, any filter not among them is the POST's; otherwise none
   * that a resource of the stack holds. Answers the entries not found and the listing. Listings are
   * complete (docs/api.md 11.6: a listing cut at the cap is narrowed, never taken as all there is),
   * and the name query matches substrings, so the judgement compares the exact name. `fresh` lists
   * again whatever the run holds.
   */
  async adoptMade(
    entries: Array<Entry<CreateItem, SavedFilter>>,
    found: string,
    { fresh }: { fresh: boolean },
  ): Promise<{ missing: Array<Entry<CreateItem, SavedFilter>>; listed: SavedFilter[] }> {
    const { isDeclared, isClaimed, claim, report } = this.context;
    const names = [...new Set(entries.map((entry) => entry.item.input.name))];
    const listed = (await this.context.named(names, fresh)).sort((a, b) => Number(b.id) - Number(a.id));
    const taken = new Set<string>();
    const missing: Array<Entry<CreateItem, SavedFilter>> = [];
    for (const entry of entries) {
      const { input, seenBefore } = entry.item;
      const free = (id: string) => !taken.has(id) && (seenBefore === undefined ? !isClaimed(id) : !seenBefore.has(id));
      const match = listed.find((filter) => free(filter.id) && isDeclared(filter, input));
      if (match === undefined) {
        missing.push(entry);
        continue;
      }
      taken.add(match.id);
      claim(match.id);
      report(`saved filter "${input.name}": ${found} (id ${match.id}); it is adopted, not created again`);
      entry.resolve(match);
    }
    return { missing, listed };
  }
}
