import type { InsightsClient } from "../client";
import { coverNames } from "../client/core/listing";
import type { FilterLookupName } from "../client/filters";
import { isConnectionFailure } from "../connection-check/words";
import { mayBeCut } from "../schema/assumptions";
import { LookupUnreadableError, type LookupReader } from "./model/declared";

/**
 * The lookups a preview checks rule values against (docs/api.md 2.7, 4.8), read through an
 * account's client: each lookup once per process and client, however many filters a stack declares,
 * and narrowed where an answer may have been cut (docs/api.md 11.6).
 */

/**
 * Lookup values fetched during this process's run, shared by every check: a preview of many filters
 * reads each lookup once. Kept per client: when the stack config names another account, its new
 * client starts an empty cache.
 */
const lookupCaches = new WeakMap<InsightsClient, Map<string, Promise<ReadonlySet<string>>>>();

/** The values of `lookup`, or of those containing `pattern` when one is given; cached (above). */
function lookupValues(client: InsightsClient, lookup: string, pattern?: string): Promise<ReadonlySet<string>> {
  const lookupCache = lookupCaches.get(client) ?? new Map<string, Promise<ReadonlySet<string>>>();
  lookupCaches.set(client, lookupCache);
  const key = pattern === undefined ? lookup : `${lookup}\u0000${pattern}`;
  const cached = lookupCache.get(key);
  if (cached) return cached;
  const values = client.filters.lookup({ lookup: lookup as FilterLookupName, pattern }).then((list): ReadonlySet<string> => new Set(list));
  // A failed lookup is not cached: the next check tries again.
  values.catch(() => lookupCache.delete(key));
  lookupCache.set(key, values);
  return values;
}

/**
 * The values of `lookup` to check `candidates` against. An answer as long as the cap may have been
 * cut (docs/api.md 11.6): the candidates it does not list are looked up again with `pattern`, as
 * few queries as cover them (client/core/listing.ts `coverNames`: their common beginning, else
 * narrower ones, down to each candidate alone), and the values found are added. A candidate that
 * even its own narrowed answer may have cut is added as it is: nothing shows that the service would
 * refuse it, and the preview refuses only what it can show the service would.
 */
async function valuesToCheck(client: InsightsClient, lookup: string, candidates: ReadonlySet<string>): Promise<ReadonlySet<string>> {
  const values = await lookupValues(client, lookup);
  const unlisted = [...candidates].filter((candidate) => !values.has(candidate));
  if (!mayBeCut(values.size) || unlisted.length === 0) return values;
  const widened = new Set(values);
  const { answers, uncovered } = await coverNames(unlisted, async (pattern) => {
    // No shared beginning: that is the whole lookup, already known to be cut.
    if (pattern === "") return undefined;
    const narrowed = await lookupValues(client, lookup, pattern);
    return mayBeCut(narrowed.size) ? undefined : [...narrowed];
  });
  for (const value of answers.flat()) widened.add(value);
  for (const candidate of uncovered) widened.add(candidate);
  return widened;
}

/**
 * The reader of the lookups of the account `client` gives. A lookup that fails for a reason of the
 * connection (connection-check/words.ts `isConnectionFailure`: credentials, features, an unreachable
 * or failing service) is thrown as it is: the account is at fault, not the rules. Any other failure
 * is the lookup's (model/declared.ts `LookupUnreadableError`), said at the rules.
 */
export function accountLookups(client: () => InsightsClient): LookupReader {
  return {
    async values(lookup, candidates) {
      try {
        return await valuesToCheck(client(), lookup, candidates);
      } catch (error) {
        if (isConnectionFailure(error)) throw error;
        throw new LookupUnreadableError(error instanceof Error ? error.message : String(error), { cause: error });
      }
    },
  };
}
