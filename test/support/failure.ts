import { expect } from "vitest";

/** The error `attempt` rejects with; the test fails if it resolves instead. */
export function failure(attempt: Promise<unknown>): Promise<unknown> {
  return attempt.then(() => expect.fail("expected a failure, but the call succeeded"), (error: unknown) => error);
}
