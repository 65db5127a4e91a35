/**
 * The client's pacing: it waits before sending rather than being refused. The service allows 3000
 * requests per 5 minutes per client address, and 400 historical-metric and 500 real-time-metric
 * requests a minute per account (docs/api.md 8, 10.1); its 429 carries no Retry-After and asks for
 * a wait of more than a minute, so discovering a budget by meeting it costs a minute. Each budget is
 * a sliding window shared by every client of this process (module state: the dynamic-provider
 * host's resources and a program's data sources share it). A request is sent only when it fits in
 * every budget that applies, and counts from the moment it is sent until its answer arrives, then
 * from the answer's arrival: the service counts a request when it arrives, which lies between the
 * two, so a window that starts at the answer never starts before the service's.
 */

/** The budgets of the client's pacing (every field optional in the client's options). */
export interface RateBudgetOptions {
  /** Requests of this process to one service address per 5 minutes (docs/api.md 10.1). Default 3000. */
  requestsPerFiveMinutes: number;
  /** Historical-metric requests per account a minute (docs/api.md 8). Default 400. */
  historicalMetricsPerMinute: number;
  /** Real-time-metric requests per account a minute (docs/api.md 8). Default 500. */
  realTimeMetricsPerMinute: number;
  /**
   * Kept between the answer to a request and the request it makes room for, against a service whose
   * clock runs slightly fast. Default 250 ms (under 0.5% of a one-minute window).
   */
  marginMs: number;
}

/** Defaults of {@link RateBudgetOptions}: the service's budgets. */
export const DEFAULT_RATE_BUDGET = {
  /** 3000 requests per 5 minutes from one client address, the service's limit (docs/api.md 10.1). */
  requestsPerFiveMinutes: 3000,
  /** 400 historical-metric requests a minute per account, the service's limit (docs/api.md 8). */
  historicalMetricsPerMinute: 400,
  /** 500 real-time-metric requests a minute per account, the service's limit (docs/api.md 8). */
  realTimeMetricsPerMinute: 500,
  /** 250 ms kept after an answer before the request it makes room for. */
  marginMs: 250,
} satisfies RateBudgetOptions;

const MINUTE_MS = 60_000;

/** One request's place in a budget: when it was sent, then when its answer arrived. */
interface Slot {
  atMs: number;
}

/** One sliding window: at most `limit` requests in any `windowMs`. */
class SlidingBudget {
  /** The requests counted, by time, ascending. */
  private readonly slots: Slot[] = [];
  /** Nothing is sent before this time (set after a 429 whose wait covers this budget). */
  private blockedUntil = 0;

  constructor(
    /** How the budget is named in log lines, for example `historical metrics (400 a minute)`. */
    readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly marginMs: number,
  ) {}

  /** The earliest time at or after `nowMs` when one more request fits, as far as is known now. */
  earliest(nowMs: number): number {
    while (this.slots.length > 0 && this.slots[0]!.atMs <= nowMs - this.windowMs) this.slots.shift();
    let at = Math.max(nowMs, this.blockedUntil);
    if (this.slots.length >= this.limit) at = Math.max(at, this.slots[this.slots.length - this.limit]!.atMs + this.windowMs + this.marginMs);
    return at;
  }

  /** Counts a request sent at `atMs`. */
  take(atMs: number): Slot {
    const slot = { atMs };
    this.slots.push(slot);
    this.moveUp(this.slots.length - 1);
    return slot;
  }

  /** Moves a request's time to the arrival of its answer (later than its sending), keeping the order. */
  answered(slot: Slot, atMs: number): void {
    if (atMs <= slot.atMs) return;
    slot.atMs = atMs;
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.moveUp(index);
  }

  /** Holds every request of this budget until `untilMs`. */
  block(untilMs: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, untilMs);
  }

  /** Restores the order after the slot at `index` got a later time. */
  private moveUp(index: number): void {
    const slot = this.slots[index]!;
    while (index + 1 < this.slots.length && this.slots[index + 1]!.atMs < slot.atMs) {
      this.slots[index] = this.slots[index + 1]!;
      this.slots[++index] = slot;
    }
    while (index > 0 && this.slots[index - 1]!.atMs > slot.atMs) {
      this.slots[index] = this.slots[index - 1]!;
      this.slots[--index] = slot;
    }
  }
}

const budgets = new Map<string, SlidingBudget>();

function budgetFor(key: string, name: string, limit: number, windowMs: number, marginMs: number): SlidingBudget {
  // The limits are part of the key: clients configured differently do not change each other's budget.
  const fullKey = `${key} ${limit}/${windowMs}`;
  let budget = budgets.get(fullKey);
  if (!budget) {
    budget = new SlidingBudget(name, limit, windowMs, marginMs);
    budgets.set(fullKey, budget);
  }
  return budget;
}

/** When a request may be sent, and the budget that makes it wait until then. */
export interface Earliest {
  atMs: number;
  /** The budget that makes the request wait, when it waits (for the log). */
  reason?: string;
}

/** A request counted in its budgets; `answered` when its answer (or failure) arrives. */
export interface CountedRequest {
  answered(atMs: number): void;
}

/** The pacing of one client: the shared budgets of its address and account. */
export class Pacer {
  constructor(
    /** The service's address (base URL origin): the per-address budget's key. */
    private readonly address: string,
    /** The account (base URL and client id): the key of the per-account budgets. */
    private readonly account: string,
    private readonly options: RateBudgetOptions,
  ) {}

  /** The budgets a request counts against: the address's, and its metric family's if any. */
  private budgetsOf(path: string): SlidingBudget[] {
    const { requestsPerFiveMinutes, historicalMetricsPerMinute, realTimeMetricsPerMinute, marginMs } = this.options;
    const applicable = [budgetFor(`address ${this.address}`, `requests per address (${requestsPerFiveMinutes} per 5 minutes)`, requestsPerFiveMinutes, 5 * MINUTE_MS, marginMs)];
    if (path.startsWith("/insights/3.0/metrics/")) {
      applicable.push(budgetFor(`historical ${this.account}`, `historical metrics (${historicalMetricsPerMinute} a minute)`, historicalMetricsPerMinute, MINUTE_MS, marginMs));
    } else if (path.startsWith("/insights/3.0/real-time-metrics/")) {
      applicable.push(budgetFor(`real-time ${this.account}`, `real-time metrics (${realTimeMetricsPerMinute} a minute)`, realTimeMetricsPerMinute, MINUTE_MS, marginMs));
    }
    return applicable;
  }

  /** When a request of `path` fits in every budget that applies, as far as is known at `nowMs`. */
  earliest(path: string, nowMs: number): Earliest {
    let atMs = nowMs;
    let reason: string | undefined;
    for (const budget of this.budgetsOf(path)) {
      const earliest = budget.earliest(nowMs);
      if (earliest > atMs) {
        atMs = earliest;
        reason = `rate budget ${budget.name}`;
      }
    }
    return reason === undefined ? { atMs } : { atMs, reason };
  }

  /**
   * Counts a request of `path` sent at `nowMs` in its budgets (call it when {@link earliest} allows,
   * in the same tick, so no other request takes the room in between).
   */
  take(path: string, nowMs: number): CountedRequest {
    const slots = this.budgetsOf(path).map((budget) => [budget, budget.take(nowMs)] as const);
    return {
      answered(atMs) {
        for (const [budget, slot] of slots) budget.answered(slot, atMs);
      },
    };
  }

  /**
   * After a 429: holds the narrowest budget of `path` (its metric family's, else the address's)
   * until `untilMs`, so every call of the process waits instead of meeting the same refusal (the
   * service counts per address and account, not per call; its 429 does not say which budget).
   */
  block(path: string, untilMs: number): void {
    this.budgetsOf(path).at(-1)!.block(untilMs);
  }
}
