import type { InsightsClient } from "../client";
import { PII_EARLIEST_DAY } from "../schema/assumptions";
import { isRetryable } from "../client/core/retry";
import { probeFailureWords, type AccountInMessages } from "./words";

/**
 * The preview's check of an account's connection (docs/configuration.md "What a preview checks of each account",
 * docs/api.md 11.8): before a resource is checked against an account, one cheap read per need proves
 * that the client's settings are acceptable (the base-URL policy, refused before any request), that
 * the API is reachable, that it accepts the credentials and that the account has the part of the API
 * the resource needs. Each read is made once per client and need, however many resources ask: a
 * host serves a whole stack with one client per account, so a stack of 1000 filters costs one
 * request per account. It knows no host: the hosts call it (accounts/binding.ts) with
 * an account's client, and so can any other.
 */

/** What a resource needs of its account, each proven by one read ({@link PROBES}). */
export type AccountNeed = "bulkFilters" | "piiOptOut" | "deletionCheck";

/** A viewer id no viewer has: the check of the viewer module asks for its sessions, so it reads nobody's data. */
export const PROBE_VIEWER_ID = "pulumi-insights-connection-check";

/**
 * The cheapest read that proves each need, with the credentials (401, docs/api.md 5.5, 7):
 * - bulk filters: `GET /bulk_filters/fields`, the 28 field names (docs/api.md 4.8): no filter of the
 *   account is read, and every bulk-filter endpoint is behind the feature (docs/api.md 1);
 * - PII opt-out: `GET /pii-opt-out` for requests created on the first day a listing covers
 *   (docs/api.md 11.6), at most one: it lists none, so no identifier is read;
 * - the deletion check of `verifyDeletion`: the viewer module it reads with (docs/api.md 4.3;
 *   pii/verification.ts), by the sessions of {@link PROBE_VIEWER_ID} over
 *   one day, at most one.
 * Each is a GET, retried as every idempotent read is (client/core/retry.ts).
 */
const PROBES: Record<AccountNeed, (client: InsightsClient) => Promise<unknown>> = {
  bulkFilters: (client) => client.filters.fields(),
  piiOptOut: (client) => client.pii.list({ start: PII_EARLIEST_DAY, end: PII_EARLIEST_DAY, limit: 1 }),
  deletionCheck: (client) => client.sessions.listViewer({ viewerId: PROBE_VIEWER_ID, range: { lastDays: 1 }, limit: 1 }),
};

/** A probe's outcome: passed, or the error it met. */
type ProbeOutcome = { passed: true } | { passed: false; error: unknown };

/**
 * The outcomes of each client's probes, by need. A probe in flight is shared by every check that
 * asks meanwhile. A passed probe and a refusal (401, 403, a setting, any answer not worth asking
 * again) are kept for the client's life: the host replaces its clients when the settings change
 * (accounts/runtime.ts). A failure that may pass (a 5xx, a 429, a timeout, an unreachable API: what the
 * client would retry) is forgotten once met, so the next check asks again.
 */
const outcomes = new WeakMap<InsightsClient, Map<AccountNeed, Promise<ProbeOutcome>>>();

function probe(client: InsightsClient, need: AccountNeed): Promise<ProbeOutcome> {
  let byNeed = outcomes.get(client);
  if (byNeed === undefined) {
    byNeed = new Map();
    outcomes.set(client, byNeed);
  }
  const known = byNeed.get(need);
  if (known !== undefined) return known;
  const outcome = PROBES[need](client).then(
    (): ProbeOutcome => ({ passed: true }),
    (error: unknown): ProbeOutcome => {
      if (isRetryable(error)) byNeed.delete(need);
      return { passed: false, error };
    },
  );
  byNeed.set(need, outcome);
  return outcome;
}

/**
 * Checks the connection of `account` for `needs`, in order, and answers the words of the first
 * failure (words.ts `probeFailureWords`), or undefined when every need is met. `client` gives the
 * account's client; a client it cannot make (a base URL over plain HTTP to a host that is not
 * loopback, for example) fails at once, before any request.
 */
export async function checkConnection(client: () => InsightsClient, account: AccountInMessages, needs: readonly AccountNeed[]): Promise<string | undefined> {
  let resolved: InsightsClient;
  try {
    resolved = client();
  } catch (error) {
    return probeFailureWords(error, account);
  }
  for (const need of needs) {
    const outcome = await probe(resolved, need);
    if (!outcome.passed) return probeFailureWords(outcome.error, account, need);
  }
  return undefined;
}
