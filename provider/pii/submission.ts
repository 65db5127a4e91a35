import { isRefusalStatus } from "../schema/assumptions";
import type { PiiApi } from "../client/pii";
import { PII_IDENTIFIERS_PER_REQUEST } from "../schema";
import { isOutcomeUnknown } from "../client/core/retry";
import { chunk } from "../client/core/split";
import type { PiiOptOutRequest } from "../schema";
import type { SubmissionProgress, TrackedRequest } from "./progress";
import { UnknownOutcomeError, watchAccount, type OutcomeWait } from "../client/core/outcome";

/**
 * Submits a resource's identifiers as opt-out requests of at most 100 (spec 4.10, 8) so that nothing
 * is lost and nothing is sent twice without need:
 * - identifiers the service reports as previously submitted (`ignored`, docs/api.md 10.3) are counted, and
 *   the earlier requests that process them are found in the list and followed ("adopted");
 * - a POST refused because every identifier was submitted before (docs/api.md 3.1; its status and
 *   body are not shown) adopts those earlier requests instead of failing. It is recognised without
 *   reading a code (provider/schema/assumptions.ts `ALL_PREVIOUSLY_SUBMITTED_RULE`): any refusal of
 *   a POST is followed by a complete listing, and when that shows every identifier of the POST in an
 *   earlier request, those are adopted; otherwise the refusal is reported as it came;
 * - a POST whose outcome is unknown (timeout, reset after the server committed, a 5xx: see
 *   `isOutcomeUnknown`) is never sent again in the same operation: the list is watched for the
 *   request it made (client/core/outcome.ts), and otherwise the batch fails and the next run
 *   submits it again. The API has no idempotency key (docs/api.md 10.1), and the client retries a
 *   POST only after a 429.
 * Progress is recorded batch by batch in {@link SubmissionProgress}, so a run that fails half-way
 * resumes at the first batch not handled.
 */

/** The identifiers in fixed batches of at most 100: sorted, so a reordered list gives the same batches. */
export function batchesOf(identifiers: readonly string[]): string[][] {
  return chunk([...new Set(identifiers)].sort(), PII_IDENTIFIERS_PER_REQUEST);
}

/** What a submission needs from its resource. */
export interface SubmissionContext {
  pii: PiiApi;
  /** Every identifier of the resource, for counting what an adopted request processes for it. */
  identifiers: ReadonlySet<string>;
  notificationEmails?: readonly string[];
  /** Prints a progress line (never an identifier or address). */
  report(line: string): void;
  /** How long an unknown outcome is watched for (client/core/outcome.ts). */
  outcomeWait: OutcomeWait;
}

/** A list answer, indexed by identifier (each identifier is in at most one request, spec 4.10). */
interface Listing {
  byIdentifier: Map<string, PiiOptOutRequest>;
  requestIds: Set<string>;
  /** How many POSTs this submission had sent when the list was read. */
  postsBefore: number;
}

/** Submits the batches a resource has not handled yet, recording each in `progress` as it goes. */
export class Submission {
  private listing: Listing | undefined;
  private posts = 0;

  constructor(
    private readonly context: SubmissionContext,
    private readonly progress: SubmissionProgress,
  ) {}

  /** Handles every batch from `progress.batchesSubmitted` on. */
  async submitRemaining(batches: readonly (readonly string[])[]): Promise<void> {
    for (let index = this.progress.batchesSubmitted; index < batches.length; index++) {
      await this.submitBatch(batches[index]!, `batch ${index + 1}/${batches.length}`);
      this.progress.batchesSubmitted = index + 1;
    }
  }

  private async submitBatch(batch: readonly string[], name: string): Promise<void> {
    const { pii, notificationEmails, report } = this.context;
    let answer;
    try {
      this.posts++;
      answer = await pii.submit({
        identifiers: [...batch],
        ...(notificationEmails === undefined ? {} : { notificationEmails: [...notificationEmails] }),
      });
    } catch (error) {
      if (isRefusalStatus(error)) {
        const adopted = await this.adoptIfAllPreviouslySubmitted(batch, error);
        report(`${name}: all ${batch.length} identifiers were submitted before; following ${adopted.length} earlier request(s): ${adopted.join(", ")}`);
        return;
      }
      if (!isOutcomeUnknown(error)) throw error;
      return this.awaitUnknownSubmission(batch, name, error);
    }
    this.track({ id: answer.id, status: "ENQUEUED", origin: "submitted", identifiers: answer.created, created: answer.created, ignored: answer.ignored });
    const adopted = answer.ignored > 0 ? await this.adopt(batch, answer.ignored) : [];
    report(
      `${name}: request ${answer.id} created for ${answer.created} identifier(s), ${answer.ignored} previously submitted` +
        (adopted.length > 0 ? ` (following earlier request(s) ${adopted.join(", ")})` : ""),
    );
  }

  /**
   * After a POST without a usable answer: the account's requests are watched (bounded) until every
   * identifier of the batch is covered, and nothing is sent again in this operation (a late write
   * would make a second request). Otherwise the batch fails with an {@link UnknownOutcomeError}; the
   * next run submits it again, and identifiers the late request holds are then answered as
   * previously submitted and that request is followed.
   */
  private async awaitUnknownSubmission(batch: readonly string[], name: string, cause: unknown): Promise<void> {
    const { report } = this.context;
    const wait = this.context.outcomeWait;
    report(`${name}: the outcome of the submission is unknown (${cause instanceof Error ? cause.message : String(cause)}); watching the account's requests, nothing is sent again`);
    const previous = this.listing;
    let listing: Listing | undefined;
    const covered = await watchAccount(wait, async () => {
      listing = await this.refreshListing();
      return batch.every((identifier) => listing!.byIdentifier.has(identifier));
    });
    if (!covered || listing === undefined) {
      const next = "submits the batch again: the identifiers a late request holds are then answered as previously submitted and that request is followed";
      throw new UnknownOutcomeError(`the submission of ${name}`, wait.waitMs, next, cause);
    }
    this.recordReconciled(batch, listing, previous);
    report(`${name}: the lost submission had been made; nothing is sent again`);
  }

  /**
   * After a refused POST: a complete listing that shows every identifier of `batch` in an earlier
   * request means they were all submitted before (docs/api.md 3.1), and those requests are followed;
   * anything else rethrows the refusal.
   */
  private async adoptIfAllPreviouslySubmitted(batch: readonly string[], refusal: unknown): Promise<string[]> {
    let listing: Listing;
    try {
      listing = await this.refreshListing();
    } catch {
      throw refusal;
    }
    if (batch.some((identifier) => !listing.byIdentifier.has(identifier))) throw refusal;
    return this.adopt(batch, batch.length);
  }

  /**
   * Follows the earlier requests that process `identifiers` (previously submitted ones), and returns
   * their ids. `expected` is how many should be found: when a list read before the latest POST finds
   * fewer, the list is read again (another resource may have submitted them meanwhile).
   */
  private async adopt(identifiers: readonly string[], expected: number): Promise<string[]> {
    let listing = this.listing ?? (await this.refreshListing());
    const covering = (from: Listing) => identifiers.map((identifier) => this.earlierRequestFor(from, identifier)).filter((request) => request !== undefined);
    let found = covering(listing);
    if (found.length < expected && listing.postsBefore < this.posts) {
      listing = await this.refreshListing();
      found = covering(listing);
    }
    const adopted = [...new Map(found.map((request) => [request.id, request])).values()];
    for (const request of adopted) this.adoptRequest(request);
    return adopted.map((request) => request.id);
  }

  /** The request that processes `identifier`, unless it is one this resource submitted. */
  private earlierRequestFor(listing: Listing, identifier: string): PiiOptOutRequest | undefined {
    const request = listing.byIdentifier.get(identifier);
    const tracked = request && this.progress.requests.find((known) => known.id === request.id);
    return tracked?.origin === "submitted" ? undefined : request;
  }

  /**
   * After a lost answer, every identifier of the batch is covered: the newest covering request that
   * the list did not show before, and that holds nothing but identifiers of this batch, is the one the
   * lost POST made; the others are earlier requests.
   */
  private recordReconciled(batch: readonly string[], listing: Listing, previous: Listing | undefined): void {
    const inBatch = new Set(batch);
    const covering = [...new Map(batch.map((identifier) => listing.byIdentifier.get(identifier)!).map((request) => [request.id, request])).values()];
    const made = covering
      .filter((request) => !previous?.requestIds.has(request.id) && !this.progress.requests.some((known) => known.id === request.id))
      .filter((request) => request.identifiers.viewer_id.every((identifier) => inBatch.has(identifier)))
      .sort((a, b) => (Date.parse(b.created_at ?? "") || 0) - (Date.parse(a.created_at ?? "") || 0))[0];
    if (made) {
      const created = made.identifiers.viewer_id.length;
      this.track({ id: made.id, status: made.status, origin: "submitted", identifiers: created, created, ignored: batch.length - created });
    }
    for (const request of covering) if (request !== made) this.adoptRequest(request);
  }

  /** Tracks an earlier request, counting how many of the resource's identifiers it processes. */
  private adoptRequest(request: PiiOptOutRequest): void {
    const identifiers = request.identifiers.viewer_id.filter((identifier) => this.context.identifiers.has(identifier)).length;
    this.track({ id: request.id, status: request.status, origin: "adopted", identifiers });
  }

  /** Adds a request, or updates an adopted one (never the record of a submitted one). */
  private track(request: TrackedRequest): void {
    const index = this.progress.requests.findIndex((known) => known.id === request.id);
    if (index === -1) this.progress.requests.push(request);
    else if (this.progress.requests[index]!.origin === "adopted") this.progress.requests[index] = request;
  }

  private async refreshListing(): Promise<Listing> {
    // Complete (client/core/listing.ts): never concluded from a listing cut at the service's cap.
    const requests = await this.context.pii.list();
    const byIdentifier = new Map<string, PiiOptOutRequest>();
    const newestFirst = [...requests].sort((a, b) => (Date.parse(b.created_at ?? "") || 0) - (Date.parse(a.created_at ?? "") || 0));
    for (const request of newestFirst) {
      // Should an identifier appear twice, the newest request wins (the answer's order is not relied on).
      for (const identifier of request.identifiers.viewer_id) if (!byIdentifier.has(identifier)) byIdentifier.set(identifier, request);
    }
    this.listing = { byIdentifier, requestIds: new Set(requests.map((request) => request.id)), postsBefore: this.posts };
    return this.listing;
  }
}
