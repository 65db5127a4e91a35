import { z } from "zod";
import {
  CalendarDate,
  PII_IDENTIFIERS_PER_REQUEST,
  PII_STATUSES,
  PiiOptOutRequest,
  PiiOptOutRequestList,
  PiiOptOutSubmission,
  PiiOptOutSubmitResponse,
} from "../schema";
import type { Requester } from "./core/request";
import type { CallOptions } from "./core/transport";
import type * as params from "./params";
import { parseParams, zChoice } from "./core/validation";

// Part of the client's API under its earlier name: the provider batches submissions with it.

const PII_OPT_OUT = "/pii-opt-out";

/** @internal The zod schema of {@link PiiSubmitArguments}, which checks it before sending. */
export const PiiSubmitArguments = z.strictObject({
  /** Viewer ids or user ids, all of one kind (spec 4.10); sent as `viewer_id`. */
  identifiers: z
    .array(z.string().min(1))
    .min(1, { message: "give at least one viewer id or user id" })
    .max(PII_IDENTIFIERS_PER_REQUEST, {
      error: (issue) =>
        `at most ${PII_IDENTIFIERS_PER_REQUEST} identifiers per request (spec 4.10), got ${(issue.input as readonly string[]).length}: split them into several submissions`,
    }),
  /** Addresses to notify when the request is FINISHED (spec 6); sent as `@notification_email`. */
  notificationEmails: z.array(z.email()).optional(),
});
/** The params of {@link PiiApi.submit}. */
export type PiiSubmitArguments = params.PiiSubmitArguments;

/** @internal The zod schema of {@link PiiListQuery}, which checks it before sending. */
export const PiiListQuery = z
  .strictObject({
    /** At most this many requests. */
    limit: z.number().int().positive().optional(),
    /** Created on or after this day (YYYY-MM-DD). */
    start: CalendarDate.optional(),
    /** Created on or before this day (YYYY-MM-DD). */
    end: CalendarDate.optional(),
    /** Only requests in these states (sent comma-separated). */
    status: z.array(zChoice(PII_STATUSES, "statuses")).min(1).optional(),
  })
  .refine((query) => query.start === undefined || query.end === undefined || query.start <= query.end, {
    message: "end is before start: give a creation range whose end is on or after its start",
    path: ["end"],
  });
/** The params of {@link PiiApi.list}. */
export type PiiListQuery = params.PiiListQuery;

/** @internal The zod schema of {@link PiiGetParams}, which checks it before sending. */
export const PiiGetParams = z.strictObject({
  /** The id of the opt-out request, as {@link PiiApi.submit} answered it. */
  id: z.string().min(1),
});
/** The params of {@link PiiApi.get}. */
export type PiiGetParams = params.PiiGetParams;

/**
 * The PII opt-out family (spec 4.10): submit deletion requests for viewer or user ids and read their
 * state (spec 3.1: ENQUEUED, STARTED, FINISHED). Every method takes one params object, then the
 * per-call options, like the query families.
 */
export class PiiApi {
  constructor(private readonly requester: Requester) {}

  /**
   * Submits one opt-out request of at most 100 identifiers and answers its id, how many identifiers
   * it created and how many were ignored as submitted before (docs/api.md 2.9, 10.3: `ignored`).
   * POST is retried only after a 429 (nothing was applied): after another failure, `list` shows
   * whether the request was made.
   */
  async submit(params: PiiSubmitArguments, options: CallOptions = {}): Promise<PiiOptOutSubmitResponse> {
    const checked = parseParams(PiiSubmitArguments, params);
    const body: PiiOptOutSubmission = {
      viewer_id: checked.identifiers,
      ...(checked.notificationEmails === undefined ? {} : { "@notification_email": checked.notificationEmails }),
    };
    return this.requester.request({ method: "POST", path: PII_OPT_OUT, body, ...options }, PiiOptOutSubmitResponse);
  }

  /** Lists opt-out requests matching `query` (all without one). */
  async list(query: PiiListQuery = {}, options: CallOptions = {}): Promise<PiiOptOutRequest[]> {
    const checked = parseParams(PiiListQuery, query);
    const answer = await this.requester.request(
      {
        method: "GET",
        path: PII_OPT_OUT,
        query: { limit: checked.limit, start: checked.start, end: checked.end, status: checked.status?.join(",") },
        ...options,
      },
      PiiOptOutRequestList,
    );
    return answer.requests;
  }

  /**
   * One opt-out request with its state; an unknown id is a `NotFoundError`.
   *
   * @example
   * const { status } = await client.pii.get({ id: request.id });
   */
  async get(params: PiiGetParams, options: CallOptions = {}): Promise<PiiOptOutRequest> {
    const { id } = parseParams(PiiGetParams, params);
    return this.requester.request({ method: "GET", path: PII_OPT_OUT, query: { id }, ...options }, PiiOptOutRequest);
  }
}
