import { InsightsError } from "./errors";

/**
 * What a caller does when it cannot know whether its write was applied: a timeout, a connection
 * reset after sending, a 5xx, a success whose answer could not be read (too large, or not its
 * schema) or a redirect other than 307 and 308 to a POST (retry.ts `isOutcomeUnknown`). The API has
 * no idempotency key (docs/api.md 10.1), so sending the write again could apply it twice. The
 * caller instead watches the account for the earlier attempt for a bounded time
 * ({@link watchAccount}), and otherwise fails with {@link UnknownOutcomeError}, saying what the
 * next run does about it. The saved-filter gateway and the PII submission both recover this way.
 */

/** The clock an outcome is waited for with: injectable, so tests never depend on timers. */
export interface OutcomeClock {
  /** Current time in milliseconds. */
  now(): number;
  /** Resolves after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
}

/** The real clock. */
export const REAL_CLOCK: OutcomeClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** How long to watch the account after an unknown outcome, and with which clock. */
export interface OutcomeWait {
  /** The bound, in milliseconds (`insights:unknownOutcomeWaitMs`). */
  waitMs: number;
  /** The clock the bound is measured with. */
  clock: OutcomeClock;
}

/** The pause between two looks at the account: a tenth of the bound, from 50 ms to 2 s. */
export function pollIntervalMs(waitMs: number): number {
  return Math.min(2_000, Math.max(50, Math.round(waitMs / 10)));
}

/**
 * Calls `look` until it answers true or `wait.waitMs` has passed since the first call (always at
 * least one look, and one more at the bound). A failed look counts as "not yet". Answers whether
 * `look` answered true.
 */
export async function watchAccount(wait: OutcomeWait, look: () => Promise<boolean>): Promise<boolean> {
  const { clock, waitMs } = wait;
  const deadline = clock.now() + waitMs;
  const interval = pollIntervalMs(waitMs);
  for (;;) {
    const seen = await look().catch(() => false);
    if (seen) return true;
    const left = deadline - clock.now();
    if (left <= 0) return false;
    await clock.sleep(Math.min(interval, left));
  }
}

/**
 * A write whose outcome stayed unknown: no answer came, the account did not show it within the
 * bound, and it was not sent again. The message says what the next `pulumi up` does.
 */
export class UnknownOutcomeError extends InsightsError {
  constructor(
    /** What was written, for the message: `the create of saved filter "x"`. */
    what: string,
    waitMs: number,
    /** What the next run does: `looks for the filter by name and content and adopts it, or creates it`. */
    nextRun: string,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `the outcome of ${what} is unknown (${reason}); the account did not show it within ${waitMs} ms ` +
        `(insights:unknownOutcomeWaitMs) and it was not sent again: the next \`pulumi up\` ${nextRun}`,
      { cause },
    );
  }
}
