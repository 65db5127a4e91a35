import { z } from "zod";
import { badRequest } from "../http";
import { hashSeed } from "../random";
import { IDENTIFIER_KINDS, viewerOf, type IdentifierKind } from "./identifiers";

/** A PII opt-out request status (spec 2.9, 3.1). */
export type PiiStatus = (typeof PII_STATUSES)[number];

/** The states of a PII opt-out request, in order (docs/api.md 2.9, 3.1). */
export const PII_STATUSES = ["ENQUEUED", "STARTED", "FINISHED"] as const;

/** How long PII opt-out requests take to move through their states (spec 3.1: not shown). */
export interface PiiTiming {
  /** From ENQUEUED to STARTED. */
  startAfterMs: number;
  /** From ENQUEUED to FINISHED. */
  finishAfterMs: number;
}

/**
 * A PII opt-out request as the store keeps it (spec 2.9). The times of its transitions (spec 3.1:
 * "not shown") are fixed at creation from the emulator's `piiTiming`, so the status is a pure
 * function of the clock and an exported state replays the same way.
 *
 * @internal
 */
export const StoredPiiRequest = z.object({
  id: z.string().regex(/^[a-z0-9]+$/),
  identifierKind: z.enum(IDENTIFIER_KINDS),
  /** The identifiers this request processes: the new ones of its POST, in submission order. */
  identifiers: z.array(z.string().min(1)),
  notificationEmails: z.array(z.string()).optional(),
  creator: z.string(),
  createdMs: z.number().int(),
  startedMs: z.number().int(),
  finishedMs: z.number().int(),
  /**
   * A deletion fault that acted on this request (emulator/README.md "Fault rules", PII deletion):
   * the viewers whose data it keeps, and how long after FINISHED the others' data is deleted.
   */
  deletion: z.object({ keptViewers: z.array(z.string()), lagMs: z.number().int().nonnegative() }).optional(),
});
/** A {@link StoredPiiRequest}. */
export interface StoredPiiRequest {
  id: string;
  identifierKind: "viewer" | "user";
  identifiers: string[];
  creator: string;
  createdMs: number;
  startedMs: number;
  finishedMs: number;
  notificationEmails?: string[];
  /** A deletion fault that acted on this request: the viewers whose data it keeps, and how long after FINISHED the others' data is deleted. */
  deletion?: {
    keptViewers: string[];
    lagMs: number;
  };
}

/** @internal The store in a state export (`GET /_emulator/state`); `{}` (an empty store) is accepted too. */
export const PiiStoreSnapshot = z.object({
  /** How many requests were ever created: the counter behind the deterministic ids. */
  sequence: z.number().int().nonnegative().default(0),
  requests: z.array(StoredPiiRequest).default([]),
});
/** A {@link PiiStoreSnapshot}. */
export interface PiiStoreSnapshot {
  sequence: number;
  requests: StoredPiiRequest[];
}

/**
 * A PII deletion fault (emulator/README.md "Fault rules"): the next `times` requests of the account
 * reach FINISHED as usual, but the data of the first `keepViewers` viewers they name is never deleted
 * (and their sessions keep being collected), and the others' is deleted `lagMs` after FINISHED.
 * What a verification of the deletion must notice.
 *
 * @internal
 */
export const PiiDeletionFault = z.strictObject({
  keepViewers: z.number().int().nonnegative().default(0),
  lagMs: z.number().int().nonnegative().default(0),
  times: z.number().int().positive().default(1),
});
/** A {@link PiiDeletionFault}. */
export interface PiiDeletionFault {
  /** How many of the first viewers named keep their data. */
  keepViewers: number;
  /** How long after FINISHED the others' data is deleted, in milliseconds. */
  lagMs: number;
  /** How many of the next requests of the account the fault acts on. */
  times: number;
}

/** What a POST asks for, after the route validated its shape (spec 4.10). */
export interface PiiSubmission {
  /** The `viewer_id` array as given (duplicates included), all of `identifierKind`. */
  identifiers: readonly string[];
  identifierKind: IdentifierKind;
  notificationEmails?: readonly string[];
  creator: string;
  nowMs: number;
  timing: PiiTiming;
  /** Seed and account of the deterministic id (emulator seed, client id). */
  seed: number;
  accountId: string;
}

/** The outcome of a POST (spec 2.9): the new request and its `created` and `ignored` counts. */
export interface PiiSubmissionResult {
  request: StoredPiiRequest;
  created: number;
  ignored: number;
}

/** Which requests `GET /pii-opt-out` lists (spec 4.10). */
export interface PiiListQuery {
  nowMs: number;
  statuses?: ReadonlySet<PiiStatus>;
  /** Creation range, [fromMs, toMs). */
  createdFromMs?: number;
  createdToMs?: number;
  limit: number;
  /** Oldest first, as the alternate dialect lists (emulator/README.md "Dialects"); else newest first. */
  oldestFirst?: boolean;
}

/** What the opt-out requests naming one viewer mean for its sessions (spec 3.1, 8). */
interface ViewerOptOut {
  /**
   * When collection stopped: the creation of the first request that names the viewer (spec 8:
   * "collection stops at once after an opt-out request"). Sessions starting from then on are never recorded.
   */
  stopMs: number;
  /** When the viewer's data is deleted: the earliest FINISHED time of those requests (spec 3.1). */
  deleteMs: number;
}

/** An e-mail "sent" when a request with `@notification_email` reached FINISHED (spec 3.1, 6). */
export interface SentNotification {
  request: StoredPiiRequest;
  sentMs: number;
}

/**
 * PII opt-out requests of one account (spec 2.9, 3.1, 4.10, 5.4: every account has its own
 * requests and its own record of submitted identifiers).
 */
export class PiiStore {
  private requests: StoredPiiRequest[] = [];
  private sequence = 0;
  /** Every identifier any request of this account carries: what "previously submitted" means. */
  private submitted = new Set<string>();
  /** The opt-out of every viewer a request names, kept up to date by {@link add}. */
  private optOuts = new Map<string, ViewerOptOut>();
  /** Deletion faults waiting for the next requests, in order. */
  private deletionFaults: PiiDeletionFault[] = [];

  /** Adds a deletion fault for the next requests (see {@link PiiDeletionFault}); returns those waiting. */
  addDeletionFault(fault: PiiDeletionFault): PiiDeletionFault[] {
    this.deletionFaults.push({ ...fault });
    return this.listDeletionFaults();
  }

  /** The deletion faults still waiting for a request. */
  listDeletionFaults(): PiiDeletionFault[] {
    return this.deletionFaults.map((fault) => ({ ...fault }));
  }

  /**
   * Creates a request from the new identifiers of a submission (spec 3.1, 4.10). An identifier
   * submitted before by this account, or repeated inside the same body, is ignored and counted,
   * so `created + ignored` is always the length of the submitted array. When nothing is new the
   * POST is rejected with 400 `all_identifiers_previously_submitted` and no state changes.
   */
  submit(submission: PiiSubmission): PiiSubmissionResult {
    const fresh: string[] = [];
    const seen = new Set<string>();
    for (const identifier of submission.identifiers) {
      if (!this.submitted.has(identifier) && !seen.has(identifier)) fresh.push(identifier);
      seen.add(identifier);
    }
    if (fresh.length === 0) {
      throw badRequest(
        `every identifier of this request was submitted before by this account (spec 4.10: ` +
          `previously submitted identifiers are ignored, and a request with nothing new is rejected)`,
        "viewer_id",
        "all_identifiers_previously_submitted",
      );
    }
    const { nowMs, timing } = submission;
    const finishedMs = nowMs + timing.finishAfterMs;
    const request: StoredPiiRequest = {
      id: this.nextId(submission.seed, submission.accountId),
      identifierKind: submission.identifierKind,
      identifiers: fresh,
      ...(submission.notificationEmails ? { notificationEmails: [...submission.notificationEmails] } : {}),
      creator: submission.creator,
      createdMs: nowMs,
      // A STARTED phase that would begin at or after FINISHED is skipped (spec 3.1 allows ENQUEUED -> FINISHED).
      startedMs: Math.min(nowMs + timing.startAfterMs, finishedMs),
      finishedMs,
      ...this.takeDeletionFault(fresh, submission.identifierKind),
    };
    this.add(request);
    return { request, created: fresh.length, ignored: submission.identifiers.length - fresh.length };
  }

  /** One request by id, or undefined. */
  get(id: string): StoredPiiRequest | undefined {
    return this.requests.find((request) => request.id === id);
  }

  /** Requests matching `query`, newest first (emulator's choice; ties by creation order), or oldest first. */
  list(query: PiiListQuery): StoredPiiRequest[] {
    const matches: StoredPiiRequest[] = [];
    for (let index = this.requests.length - 1; index >= 0; index--) {
      const request = this.requests[index]!;
      if (query.createdFromMs !== undefined && request.createdMs < query.createdFromMs) continue;
      if (query.createdToMs !== undefined && request.createdMs >= query.createdToMs) continue;
      if (query.statuses && !query.statuses.has(piiStatusAt(request, query.nowMs).status)) continue;
      matches.push(request);
    }
    const direction = query.oldestFirst ? 1 : -1;
    return (query.oldestFirst ? matches.reverse() : matches).sort((left, right) => (left.createdMs - right.createdMs) * direction).slice(0, query.limit);
  }

  /** Whether any request names a viewer: without one, every session exists (the common case). */
  hasOptOuts(): boolean {
    return this.optOuts.size > 0;
  }

  /**
   * Whether a session of `viewerId` that started at `startMs` exists at `nowMs`: not once the
   * viewer's data is deleted (a request FINISHED, spec 3.1), and not when it started after
   * collection stopped (spec 8), even before the request FINISHES. Called for every session the
   * sessions, metrics and alert endpoints read: one map lookup.
   */
  keepsSession(viewerId: string, startMs: number, nowMs: number): boolean {
    const optOut = this.optOuts.get(viewerId);
    if (optOut === undefined) return true;
    if (optOut.deleteMs <= nowMs) return false;
    return optOut.stopMs > nowMs || startMs < optOut.stopMs;
  }

  /** Notification e-mails sent by `nowMs` (spec 6): one per FINISHED request with addresses, in finishing order. */
  sentNotifications(nowMs: number): SentNotification[] {
    return this.requests
      .filter((request) => request.finishedMs <= nowMs && (request.notificationEmails?.length ?? 0) > 0)
      .sort((left, right) => left.finishedMs - right.finishedMs)
      .map((request) => ({ request, sentMs: request.finishedMs }));
  }

  /** The store's state for export. */
  export(): PiiStoreSnapshot {
    return { sequence: this.sequence, requests: this.requests.map((request) => structuredClone(request)) };
  }

  /** Replaces the store's state from an export; 400 when the snapshot is not one. */
  import(snapshot: unknown): void {
    const parsed = PiiStoreSnapshot.safeParse(snapshot ?? {});
    if (!parsed.success) throw badRequest(`invalid PII opt-out state: ${z.prettifyError(parsed.error)}`, "pii");
    this.requests = [];
    this.submitted.clear();
    this.optOuts.clear();
    this.sequence = parsed.data.sequence;
    for (const request of parsed.data.requests) this.add(request);
  }

  private add(request: StoredPiiRequest): void {
    this.requests.push(request);
    for (const identifier of request.identifiers) {
      this.submitted.add(identifier);
      const viewer = viewerOf(identifier, request.identifierKind);
      if (viewer === undefined) continue;
      const known = this.optOuts.get(viewer);
      // A viewer a deletion fault keeps: this request neither stops collection nor deletes anything.
      const kept = request.deletion?.keptViewers.includes(viewer) ?? false;
      this.optOuts.set(viewer, {
        stopMs: Math.min(known?.stopMs ?? Infinity, kept ? Infinity : request.createdMs),
        deleteMs: Math.min(known?.deleteMs ?? Infinity, kept ? Infinity : request.finishedMs + (request.deletion?.lagMs ?? 0)),
      });
    }
  }

  /** The `deletion` of a new request naming `identifiers`, from the first waiting deletion fault. */
  private takeDeletionFault(identifiers: readonly string[], kind: IdentifierKind): Pick<StoredPiiRequest, "deletion"> {
    const fault = this.deletionFaults[0];
    if (fault === undefined) return {};
    fault.times--;
    if (fault.times === 0) this.deletionFaults.shift();
    const viewers = identifiers.map((identifier) => viewerOf(identifier, kind)).filter((viewer): viewer is string => viewer !== undefined);
    return { deletion: { keptViewers: viewers.slice(0, fault.keepViewers), lagMs: fault.lagMs } };
  }

  /**
   * An alphanumeric id (spec 2.9) that depends only on the seed, the account and how many requests
   * the account created before, so a replayed scenario gets the same ids.
   */
  private nextId(seed: number, accountId: string): string {
    for (;;) {
      this.sequence++;
      const id = [1, 2]
        .map((part) => hashSeed(seed, accountId, "pii-opt-out", this.sequence, part).toString(36).padStart(7, "0"))
        .join("");
      if (!this.get(id)) return id;
    }
  }
}

/** The status of a request at `nowMs` and when it was last updated (spec 2.9 `updated_at`). */
export function piiStatusAt(request: StoredPiiRequest, nowMs: number): { status: PiiStatus; updatedMs: number } {
  if (nowMs >= request.finishedMs) return { status: "FINISHED", updatedMs: request.finishedMs };
  if (nowMs >= request.startedMs) return { status: "STARTED", updatedMs: request.startedMs };
  return { status: "ENQUEUED", updatedMs: request.createdMs };
}
