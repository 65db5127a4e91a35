import { setTimeout as sleep } from "node:timers/promises";
import { InsightsError, NotFoundError } from "../client/core/errors";
import type { PiiApi } from "../client/pii";
import { MINUTE_MS } from "../client/core/time-range";
import { describeStatuses, isSettled, type SubmissionProgress } from "./progress";

/**
 * Waiting for opt-out requests to reach FINISHED (spec 3.1). The engine passes no timeout to a
 * dynamic provider (docs/dynamic-providers.md rule 9), so the resource's own inputs bound the wait.
 */

/** Waits grow by this factor after each poll (capped backoff)... */
const BACKOFF_GROWTH = 1.5;
/** ...up to this multiple of the poll interval. */
const BACKOFF_CAP_FACTOR = 8;
/** A progress line is printed when a status changes, and at least this often while waiting. */
const HEARTBEAT_MS = MINUTE_MS;

/** How to wait. */
export interface WaitOptions {
  timeoutMs: number;
  pollIntervalMs: number;
  /** Prints a progress line (the engine shows the host's stdout as info). */
  report(line: string): void;
}

/** The wait ended before every request was FINISHED; the requests stay tracked. */
export class WaitTimeoutError extends InsightsError {
  constructor(readonly waitedMs: number, readonly statuses: string) {
    super(`not FINISHED after waiting ${formatElapsed(waitedMs)} (${statuses})`);
  }
}

/** `4.2s` below a minute, `12m 5s` above. */
export function formatElapsed(milliseconds: number): string {
  if (milliseconds < MINUTE_MS) return `${(milliseconds / 1000).toFixed(1)}s`;
  const seconds = Math.round(milliseconds / 1000);
  return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}

/**
 * Reads the state of every tracked request that is not FINISHED yet (spec 4.10, `?id=`). A request
 * the service no longer knows keeps its last state, and `report` says so.
 */
export async function refreshStatuses(pii: PiiApi, progress: SubmissionProgress, report: (line: string) => void): Promise<void> {
  await Promise.all(
    progress.requests
      .filter((request) => request.status !== "FINISHED")
      .map(async (request) => {
        try {
          const answer = await pii.get({ id: request.id });
          request.status = answer.status;
          // The times the receipt shows (provider/pii/receipt.ts).
          if (answer.created_at !== undefined) request.createdAt = answer.created_at;
          if (answer.status === "FINISHED" && answer.updated_at !== undefined) request.finishedAt = answer.updated_at;
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
          report(`request ${request.id} is not known to the service any more; its last known state is ${request.status}`);
        }
      }),
  );
}

/**
 * Polls until every request is FINISHED, with capped backoff from `pollIntervalMs`, printing a line
 * with the statuses and the elapsed time whenever they change; throws {@link WaitTimeoutError} when
 * `timeoutMs` has passed. The last poll happens at the deadline, never after it.
 */
export async function waitUntilFinished(pii: PiiApi, progress: SubmissionProgress, batchCount: number, options: WaitOptions): Promise<void> {
  const startedMs = Date.now();
  const deadlineMs = startedMs + options.timeoutMs;
  const capMs = options.pollIntervalMs * BACKOFF_CAP_FACTOR;
  let delayMs = options.pollIntervalMs;
  let lastLine = "";
  let lastLineMs = startedMs;
  for (;;) {
    await refreshStatuses(pii, progress, options.report);
    const nowMs = Date.now();
    const statuses = describeStatuses(progress.requests);
    if (isSettled(progress, batchCount)) {
      options.report(`${statuses}; done after ${formatElapsed(nowMs - startedMs)}`);
      return;
    }
    if (statuses !== lastLine || nowMs - lastLineMs >= HEARTBEAT_MS) {
      options.report(`waiting for FINISHED: ${statuses} (elapsed ${formatElapsed(nowMs - startedMs)})`);
      lastLine = statuses;
      lastLineMs = nowMs;
    }
    const remainingMs = deadlineMs - nowMs;
    if (remainingMs <= 0) throw new WaitTimeoutError(nowMs - startedMs, statuses);
    await sleep(Math.min(delayMs, remainingMs));
    delayMs = Math.min(delayMs * BACKOFF_GROWTH, capMs);
  }
}
