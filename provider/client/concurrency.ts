import { InsightsError } from "./errors";
import { chunk } from "./split";

/**
 * The concurrency bound of the transport and the chunked batches built on it. Spec 8 bounds the
 * concurrent requests of one account (400 shared for historical metrics, 500 for real time), so the
 * bound is per account: every client of the same base URL and client id in this process shares one
 * {@link Semaphore}, and every API family of a client goes through it.
 */

/** A counting semaphore with a FIFO queue; its limit can change while it is in use. */
export class Semaphore {
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

/**
 * Some chunks of a batch failed after others were applied. `completed` holds the results of the
 * chunks that succeeded (in input order), `failures` the error of each chunk that did not, and
 * `cause` the first of them.
 */
export class PartialFailureError<Result> extends InsightsError {
  constructor(
    /** Results of the chunks that succeeded, flattened in input order. */
    readonly completed: readonly Result[],
    /** The errors of the failed chunks, with the index of the chunk each belongs to. */
    readonly failures: ReadonlyArray<{ chunk: number; error: unknown }>,
    chunkCount: number,
  ) {
    const first = failures[0]?.error;
    super(
      `${failures.length} of ${chunkCount} chunks failed (the other chunks were applied): ${first instanceof Error ? first.message : String(first)}`,
      { cause: first },
    );
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      completed: this.completed.length,
      failures: this.failures.map(({ chunk, error }) => ({ chunk, error: error instanceof InsightsError ? error.toJSON() : String(error) })),
    };
  }
}

/**
 * Sends every chunk at once (the transport's semaphore bounds how many run) and flattens the results
 * in input order. When every chunk fails, the first error is thrown as is; when only some fail, a
 * {@link PartialFailureError} says which results were applied so the caller can reconcile.
 */
export async function sendChunks<Item, Result>(
  items: readonly Item[],
  size: number,
  send: (chunk: Item[]) => Promise<readonly Result[]>,
): Promise<Result[]> {
  const chunks = chunk(items, size);
  const outcomes = await Promise.allSettled(chunks.map(send));
  const completed: Result[] = [];
  const failures: Array<{ chunk: number; error: unknown }> = [];
  outcomes.forEach((outcome, index) => {
    if (outcome.status === "fulfilled") completed.push(...outcome.value);
    else failures.push({ chunk: index, error: outcome.reason });
  });
  if (failures.length === 0) return completed;
  if (failures.length === chunks.length) throw failures[0]!.error;
  throw new PartialFailureError(completed, failures, chunks.length);
}
