import { mayBeCut, RESULT_CAP } from "../../schema/assumptions";
import { InsightsError } from "./errors";

/**
 * Listings that are never silently cut. The service caps result sets at 500 with no pagination and
 * no marker of a cut answer (docs/api.md 10.1), so an answer with as many items as the cap may be
 * missing some. Such a listing is asked again as narrower listings that together cover the same
 * items (two halves of a creation range, each value of a flag or a status), recursively, until every
 * part is below the cap; when a part cannot be narrowed further the listing fails with an
 * {@link IncompleteListingError} instead of answering part of the items as if it were all
 * (docs/api.md 11.6).
 */

/** A listing stayed at the service's cap however it was narrowed: some items may be missing. */
export class IncompleteListingError extends InsightsError {
  /** The message names the listing and its narrowest query, and says how to narrow it further. */
  constructor(
    /** What was listed, for example `saved filters named "x"`. */
    readonly listing: string,
    /** The narrowest query that still came back with the cap, as a person would write it. */
    readonly narrowest: string,
    /** The cap of one answer (docs/api.md 10.1). */
    readonly cap: number,
  ) {
    super(
      `the listing of ${listing} may be incomplete: ${narrowest} still answers ${cap} items, the service's cap (docs/api.md 10.1), ` +
        "and cannot be narrowed further; narrow the query (for example by creator, category or creation date)",
    );
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), listing: this.listing, narrowest: this.narrowest, cap: this.cap };
  }
}

/** How one kind of listing is narrowed. */
export interface Narrowing<Query, Item> {
  /** What is listed, for messages. */
  what: string;
  /** Sends one listing. */
  fetch(query: Query): Promise<Item[]>;
  /**
   * Narrower queries that together cover exactly the items of `query` (no item in two of them), or
   * undefined when `query` cannot be narrowed.
   */
  split(query: Query): Query[] | undefined;
  /** A stable key of an item (its id), to check that the parts cover what the whole showed. */
  keyOf(item: Item): string;
  /** `query` as a person would write it. */
  describe(query: Query): string;
  /** The order of a joined listing (one answer's order is kept as it came). */
  order?(left: Item, right: Item): number;
}

/**
 * Lists `query` completely: the answer as it came when it is below the cap, else the parts of
 * {@link Narrowing.split} listed completely in turn (in parallel; the transport bounds them), joined.
 * The parts must show every item the whole showed: when one is missing the narrowing did not cover
 * the query (an item without the flag it was split on, say) and the listing is reported incomplete.
 */
export async function listCompletely<Query, Item>(query: Query, narrowing: Narrowing<Query, Item>, cap: number = RESULT_CAP): Promise<Item[]> {
  const whole = await narrowing.fetch(query);
  if (!mayBeCut(whole.length, cap)) return whole;
  const parts = narrowing.split(query);
  if (parts === undefined) throw new IncompleteListingError(narrowing.what, narrowing.describe(query), cap);
  const joined = (await Promise.all(parts.map((part) => listCompletely(part, narrowing, cap)))).flat();
  const keys = new Set(joined.map((item) => narrowing.keyOf(item)));
  if (whole.some((item) => !keys.has(narrowing.keyOf(item)))) {
    throw new IncompleteListingError(narrowing.what, `${narrowing.describe(query)} (its narrower listings miss items it showed)`, cap);
  }
  return narrowing.order === undefined ? joined : joined.sort(narrowing.order);
}

/** A calendar day (YYYY-MM-DD) as a day number since 1970-01-01, and back. */
export function dayNumber(day: string): number {
  return Math.floor(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
}

/** The calendar day (YYYY-MM-DD) of a day number. */
export function dayOf(number: number): string {
  return new Date(number * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The longest text every one of `names` begins with ("" when they share none), never half of a
 * character outside the Basic Multilingual Plane (a lone surrogate is no text).
 */
function commonBeginning(names: readonly string[]): string {
  let beginning = names[0] ?? "";
  for (const name of names) {
    let length = 0;
    while (length < beginning.length && length < name.length && beginning[length] === name[length]) length++;
    beginning = beginning.slice(0, length);
  }
  return /[\uD800-\uDBFF]$/.test(beginning) ? beginning.slice(0, -1) : beginning;
}

/**
 * Answers of a text query (a filter listing's `name`, a lookup's `pattern`) that together cover
 * every one of `names`, from as few queries as it takes: every request counts in the address's
 * budget of 3000 per 5 minutes (docs/api.md 10.1). Each query is a beginning the names it covers
 * share, in their own case, so a service that matches a substring or only a beginning, ignoring
 * case or not, answers them all (schema/assumptions.ts `TEXT_SEARCH_RULE`); the caller compares
 * what comes back exactly. The names' common beginning is asked
 * first (`""`, everything, when they share none); when its answer may have been cut (`query`
 * answers undefined), that beginning is added to `cut` and not asked again, and the names, in
 * order, are covered in two halves, each by its own longer beginning, down to one name asked alone.
 * Answers the answers, and the names whose own answer may have been cut.
 */
export async function coverNames<Item>(
  names: readonly string[],
  query: (substring: string) => Promise<Item[] | undefined>,
  cut: Set<string> = new Set(),
): Promise<{ answers: Item[][]; uncovered: string[] }> {
  const covered: { answers: Item[][]; uncovered: string[] } = { answers: [], uncovered: [] };
  const cover = async (sorted: readonly string[]): Promise<void> => {
    if (sorted.length === 1) {
      const answer = await query(sorted[0]!);
      if (answer === undefined) covered.uncovered.push(sorted[0]!);
      else covered.answers.push(answer);
      return;
    }
    const beginning = commonBeginning(sorted);
    if (!cut.has(beginning)) {
      const answer = await query(beginning);
      if (answer !== undefined) {
        covered.answers.push(answer);
        return;
      }
      cut.add(beginning);
    }
    const middle = sorted.length >> 1;
    await Promise.all([cover(sorted.slice(0, middle)), cover(sorted.slice(middle))]);
  };
  if (names.length > 0) await cover([...new Set(names)].sort());
  return covered;
}

/**
 * Ids in ascending order: numerically when both are digits (the service's ids, docs/api.md 2.7),
 * exactly beyond 2^53 (`9` before `10`, `012` after `11`), else as text; the order of a listing's
 * items and of the filters `pulumi-insights import` writes.
 */
export function compareIds(left: string, right: string): number {
  const numeric = /^\d+$/;
  if (numeric.test(left) && numeric.test(right)) {
    const [a, b] = [left.replace(/^0+(?=\d)/, ""), right.replace(/^0+(?=\d)/, "")];
    if (a.length !== b.length) return a.length - b.length;
    if (a !== b) return a < b ? -1 : 1;
  }
  return left < right ? -1 : left > right ? 1 : 0;
}
