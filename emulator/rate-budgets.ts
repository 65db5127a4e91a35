import { z } from "zod";

/** At most `limit` requests in any window of `windowMs` milliseconds of the emulator's clock. */
export interface RateBudget {
  limit: number;
  windowMs: number;
}

/**
 * The budgets the emulator enforces, each a sliding window (docs/api.md 11.4: every request costs 1,
 * the cost of applied filters is not modelled). `false` lifts one budget.
 */
export interface RateBudgetSettings {
  /** Every API request from one client address (docs/api.md 10.1): 3000 per 5 minutes. */
  perAddress: RateBudget | false;
  /** Historical-metric requests of one account (docs/api.md 8): 400 a minute. */
  historicalMetrics: RateBudget | false;
  /** Real-time-metric requests of one account (docs/api.md 8): 500 a minute. */
  realTimeMetrics: RateBudget | false;
}

/** The service's budgets, as docs/api.md 8 and 10.1 state them. */
export const SERVICE_RATE_BUDGETS: RateBudgetSettings = {
  perAddress: { limit: 3000, windowMs: 5 * 60_000 },
  historicalMetrics: { limit: 400, windowMs: 60_000 },
  realTimeMetrics: { limit: 500, windowMs: 60_000 },
};

/** How each budget is named in a 429's message. */
const BUDGET_NAMES: Readonly<Record<keyof RateBudgetSettings, string>> = {
  perAddress: "requests per client address",
  historicalMetrics: "historical-metric requests per account",
  realTimeMetrics: "real-time-metric requests per account",
};

/** The budget family of an API path: the metric families of docs/api.md 8, or none. */
function metricFamily(path: string): "historicalMetrics" | "realTimeMetrics" | undefined {
  if (path === "/insights/3.0/metrics" || path.startsWith("/insights/3.0/metrics/")) return "historicalMetrics";
  if (path === "/insights/3.0/real-time-metrics" || path.startsWith("/insights/3.0/real-time-metrics/")) return "realTimeMetrics";
  return undefined;
}

/** The times of the requests a budget admitted, oldest first. */
class SlidingWindow {
  private times: number[] = [];

  /** Requests admitted in the window that ends at `nowMs`. Times after `nowMs` (the clock was set back) are forgotten. */
  count(nowMs: number, windowMs: number): number {
    let first = 0;
    while (first < this.times.length && this.times[first]! <= nowMs - windowMs) first++;
    if (first > 0) this.times.splice(0, first);
    while (this.times.length > 0 && this.times[this.times.length - 1]! > nowMs) this.times.pop();
    return this.times.length;
  }

  take(nowMs: number): void {
    this.times.push(nowMs);
  }
}

/** Why a request was refused: the budget it would exceed. */
export interface BudgetRefusal {
  budget: keyof RateBudgetSettings;
  limit: number;
  windowMs: number;
  /** Human-readable, for the 429's message. */
  message: string;
}

/**
 * The rate budgets of one emulator: a sliding window per client address and per account and metric
 * family, on the emulator's clock, so a test passes a minute by advancing the clock. A refused
 * request is not counted (it cost the service nothing); an admitted one counts against every budget
 * that applies to it.
 */
export class RateBudgets {
  private windows = new Map<string, SlidingWindow>();

  constructor(private current: RateBudgetSettings | false) {}

  /** The settings in force, or false when every budget is lifted. */
  get settings(): RateBudgetSettings | false {
    return this.current;
  }

  /** Replaces the settings; the counted requests are kept. */
  configure(settings: RateBudgetSettings | false): void {
    this.current = settings;
  }

  /** Forgets every counted request (the clock was restarted). */
  reset(): void {
    this.windows.clear();
  }

  /**
   * Counts one API request against its budgets, or answers the budget it would exceed (and counts
   * nothing). `account` is the authenticated client id, if any.
   */
  admit(address: string, account: string | undefined, path: string, nowMs: number): BudgetRefusal | undefined {
    const settings = this.current;
    if (settings === false) return undefined;
    const applicable: Array<[keyof RateBudgetSettings, string, RateBudget]> = [];
    if (settings.perAddress !== false) applicable.push(["perAddress", `address ${address}`, settings.perAddress]);
    const family = metricFamily(path);
    const familyBudget = family === undefined ? false : settings[family];
    if (family !== undefined && account !== undefined && familyBudget !== false) applicable.push([family, `${family} ${account}`, familyBudget]);
    const windows = applicable.map(([budget, key, limits]) => {
      let window = this.windows.get(key);
      if (!window) {
        window = new SlidingWindow();
        this.windows.set(key, window);
      }
      return { budget, window, limits };
    });
    for (const { budget, window, limits } of windows) {
      if (window.count(nowMs, limits.windowMs) >= limits.limit) {
        const per = limits.windowMs % 60_000 === 0 ? `${limits.windowMs / 60_000} min` : `${limits.windowMs} ms`;
        return {
          budget,
          limit: limits.limit,
          windowMs: limits.windowMs,
          message: `rate limit exceeded: ${limits.limit} ${BUDGET_NAMES[budget]} per ${per}; wait more than a minute before trying again`,
        };
      }
    }
    for (const { window } of windows) window.take(nowMs);
    return undefined;
  }
}

const BudgetInput = z.union([z.literal(false), z.object({ limit: z.number().int().positive(), windowMs: z.number().int().positive() }).strict()]);

/** @internal The body of `POST /_emulator/rate-budgets`: `false` lifts all budgets, `true` restores the service's. */
export const RateBudgetInput = z.union([
  z.boolean(),
  z
    .object({
      perAddress: BudgetInput.optional(),
      historicalMetrics: BudgetInput.optional(),
      realTimeMetrics: BudgetInput.optional(),
    })
    .strict(),
]);

/** @internal The settings an input asks for; object inputs change only the budgets they name. */
export function rateBudgetsFrom(input: z.infer<typeof RateBudgetInput> | Partial<RateBudgetSettings>, current: RateBudgetSettings | false): RateBudgetSettings | false {
  if (input === false) return false;
  if (input === true) return SERVICE_RATE_BUDGETS;
  return { ...(current === false ? SERVICE_RATE_BUDGETS : current), ...input };
}
