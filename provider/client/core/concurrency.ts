/**
 * The concurrency bound of the transport (the chunked batches of split.ts run under it). Spec 8
 * bounds the concurrent requests of one account (400 shared for historical metrics, 500 for real
 * time), so the bound is per account: every client of the same base URL and client id in this
 * process shares one {@link Semaphore}, and every API family of a client goes through it.
 */

/** A counting semaphore with a FIFO queue; its limit can change while it is in use. */
class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private limitValue: number) {}

  /** How many holders may run at once. */
  get limit(): number {
    return this.limitValue;
  }

  /** Changes the limit; waiting callers start at once if the limit grew. */
  set limit(value: number) {
    this.limitValue = value;
    this.startWaiting();
  }

  /** Holders running now. */
  get running(): number {
    return this.active;
  }

  /**
   * Waits for a slot and returns the function that gives it back (call it exactly once).
   * An aborted `signal` leaves the queue and rejects with the signal's reason.
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    return new Promise((resolve, reject) => {
      const start = () => {
        signal?.removeEventListener("abort", onAbort);
        this.active++;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.active--;
          this.startWaiting();
        });
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(start);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(start);
      this.startWaiting();
    });
  }

  private startWaiting(): void {
    while (this.active < this.limitValue && this.waiting.length > 0) this.waiting.shift()!();
  }
}

interface SharedSemaphore {
  semaphore: Semaphore;
  /** The limit each live client asked for; the semaphore runs at the smallest. */
  limits: number[];
}

const semaphoresByAccount = new Map<string, SharedSemaphore>();

/** A client's share of its account's semaphore; `release()` when the client closes. */
export interface AccountSemaphore {
  semaphore: Semaphore;
  release(): void;
}

/**
 * The semaphore of an account (base URL origin and client id), created on first use. When clients
 * of one account ask for different bounds, the smallest wins: the account's limit is what spec 8
 * protects.
 */
export function accountSemaphore(accountKey: string, maxConcurrency: number): AccountSemaphore {
  let shared = semaphoresByAccount.get(accountKey);
  if (!shared) {
    shared = { semaphore: new Semaphore(maxConcurrency), limits: [] };
    semaphoresByAccount.set(accountKey, shared);
  }
  const entry = shared;
  entry.limits.push(maxConcurrency);
  entry.semaphore.limit = Math.min(...entry.limits);
  let released = false;
  return {
    semaphore: entry.semaphore,
    release() {
      if (released) return;
      released = true;
      entry.limits.splice(entry.limits.indexOf(maxConcurrency), 1);
      if (entry.limits.length === 0) semaphoresByAccount.delete(accountKey);
      else entry.semaphore.limit = Math.min(...entry.limits);
    },
  };
}
