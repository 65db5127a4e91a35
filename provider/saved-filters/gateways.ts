import { FILTERS_PER_CALL, type SavedFilter, type SavedFilterInput } from "../schema";
import { accountKey, outcomeWait, report, sharedClient } from "../accounts/runtime";
import { SettingsError } from "../client";
import { isDeclaredFilter } from "./model/state";
import type { BatchOptions } from "./gateway/coalescer";
import { FilterGateway } from "./gateway/filter-gateway";

/**
 * One saved-filter gateway per account in this process, shared by every SavedFilter and
 * SavedFilterSet of that account, so a bulk call never carries filters of two accounts and the ids
 * a gateway claims are those of its own account. Tuned by the environment (the host inherits the
 * engine's).
 */

/** Environment variables that tune the gateways' batching. */
export const BATCH_ENV = {
  size: "INSIGHTS_BATCH_SIZE",
  windowMs: "INSIGHTS_BATCH_WINDOW_MS",
  maxWaitMs: "INSIGHTS_BATCH_MAX_WAIT_MS",
} as const;

/** Reads {@link BatchOptions} from the environment ({@link BATCH_ENV}); refuses values out of range. */
export function batchOptionsFromEnvironment(env: Readonly<Record<string, string | undefined>> = process.env): Partial<BatchOptions> {
  const options: Partial<BatchOptions> = {};
  const read = (name: keyof typeof BATCH_ENV, minimum: number, maximum: number): number | undefined => {
    const text = env[BATCH_ENV[name]];
    if (text === undefined || text.trim() === "") return undefined;
    const value = Number(text);
    if (!Number.isInteger(value) || value < minimum || value > maximum) {
      throw new SettingsError(name, `${BATCH_ENV[name]} must be an integer from ${minimum} to ${maximum}, got ${JSON.stringify(text)}`);
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

/** The gateways of this process, by account key (accounts/runtime.ts `accountKey`). */
const gateways = new Map<string, FilterGateway>();

/**
 * The gateway of one account: `account` names an account of `insights:accounts`, undefined is the
 * stack's default settings. It sends through this process's client of that account.
 */
export function sharedFilterGateway(account?: string): FilterGateway {
  const key = accountKey(account);
  let gateway = gateways.get(key);
  if (gateway === undefined) {
    gateway = new FilterGateway(() => sharedClient(account).filters, { ...batchOptionsFromEnvironment(), isDeclared: isDeclaredFilter, outcomeWait, report });
    gateways.set(key, gateway);
  }
  return gateway;
}

/**
 * Claims `ids` in the gateway of `account` ({@link FilterGateway.claim}), as `diff` does for every
 * filter the stack holds. Settings that cannot be resolved claim nothing: no create can run
 * without them either, and a preview's diff must not need them.
 */
export function claimFilters(account: string | undefined, ids: Iterable<string>): void {
  let gateway: FilterGateway;
  try {
    gateway = sharedFilterGateway(account);
  } catch {
    return;
  }
  for (const id of ids) gateway.claim(id);
}
