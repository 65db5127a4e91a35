import { z } from "zod";
import { PII_STATUSES } from "../schema";
import type * as records from "../schema/resource-records";

/**
 * What a PiiOptOutRequest resource knows about its opt-out requests, as kept in its outputs: the
 * requests that process its identifiers and how far the submission got. It holds counts and request
 * ids only, never an identifier, so it can be printed and stored in plain text.
 */

/** @internal One opt-out request that processes some of the resource's identifiers (spec 2.9, 3.1). */
export const TrackedRequest = z
  .object({
    id: z.string().min(1).describe("The service's request id."),
    status: z.enum(PII_STATUSES).describe("Its state when last read (spec 3.1)."),
    origin: z
      .enum(["submitted", "adopted"])
      .describe("`submitted`: made by this resource's POST. `adopted`: made earlier (by another resource, the console or a previous run) for identifiers the service reported as previously submitted."),
    identifiers: z.number().int().nonnegative().describe("How many of this resource's identifiers the request processes."),
    created: z.number().int().nonnegative().optional().describe("The POST answer's `created` count (spec 2.9); submitted requests only."),
    ignored: z.number().int().nonnegative().optional().describe("The POST answer's `ignored` count (docs/api.md 10.3); submitted requests only."),
    createdAt: z.string().optional().describe("When the service created it (spec 2.9 `created_at`), once read."),
    finishedAt: z.string().optional().describe("When it became FINISHED (spec 2.9 `updated_at`), once read."),
  })
  .describe("One opt-out request that processes some of a resource's identifiers (spec 2.9, 3.1).");
/** A {@link TrackedRequest} (provider/schema/resource-records.ts, written from it). */
export type TrackedRequest = records.TrackedRequest;

/** @internal The progress of a resource's submission, as stored in its outputs. */
export const SubmissionProgress = z.object({
  requests: z.array(TrackedRequest).default([]),
  /** Batches of at most 100 identifiers (spec 4.10, 8) already handled, in their fixed order. */
  batchesSubmitted: z.number().int().nonnegative().default(0),
});
/** A {@link SubmissionProgress}. */
export interface SubmissionProgress {
  /** The requests that process this resource's identifiers. */
  requests: TrackedRequest[];
  /** Batches of at most 100 identifiers (spec 4.10, 8) already handled, in their fixed order. */
  batchesSubmitted: number;
}

/**
 * @internal
 * The resource's overall status: `SUBMITTING` while batches remain, else the least advanced state
 * of its requests (spec 3.1), or `UNTRACKED` when no request can be followed (every identifier was
 * submitted before, by requests the list no longer reaches).
 */
export const OverallStatus = z
  .enum(["SUBMITTING", ...PII_STATUSES, "UNTRACKED"])
  .describe("The least advanced status of the requests, or SUBMITTING while batches remain, or UNTRACKED when no request can be followed.");
/** An {@link OverallStatus} (provider/schema/resource-records.ts, written from it). */
export type OverallStatus = records.OverallStatus;

/** See {@link OverallStatus}. */
export function overallStatus(progress: SubmissionProgress, batchCount: number): OverallStatus {
  if (progress.batchesSubmitted < batchCount) return "SUBMITTING";
  if (progress.requests.length === 0) return "UNTRACKED";
  const least = Math.min(...progress.requests.map((request) => PII_STATUSES.indexOf(request.status)));
  return PII_STATUSES[least]!;
}

/** True when nothing is left to wait for: every batch is handled and every request FINISHED. */
export function isSettled(progress: SubmissionProgress, batchCount: number): boolean {
  const status = overallStatus(progress, batchCount);
  return status === "FINISHED" || status === "UNTRACKED";
}

/** `3 requests: 1 ENQUEUED, 2 STARTED` (for progress lines; no identifier in it). */
export function describeStatuses(requests: readonly TrackedRequest[]): string {
  const counts = PII_STATUSES.map((status) => [status, requests.filter((request) => request.status === status).length] as const)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${status}`);
  return `${requests.length} request${requests.length === 1 ? "" : "s"}: ${counts.join(", ") || "none"}`;
}

/** `abc (ENQUEUED), def (FINISHED)`, or `none`: request ids are not personal data. */
export function describeRequests(requests: readonly TrackedRequest[]): string {
  return requests.map((request) => `${request.id} (${request.status})`).join(", ") || "none";
}

/**
 * How many of the resource's identifiers no tracked request accounts for: identifiers the service
 * reported as previously submitted whose earlier request the list did not show (docs/api.md 10.1: result
 * sets are capped at 500).
 */
export function untrackedIdentifiers(progress: SubmissionProgress, identifierCount: number, batchCount: number): number {
  if (progress.batchesSubmitted < batchCount) return 0;
  const tracked = progress.requests.reduce((sum, request) => sum + request.identifiers, 0);
  return Math.max(0, identifierCount - tracked);
}
