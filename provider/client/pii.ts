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
import { ignoredCount, LISTING_LIMIT, PII_DAYS_AHEAD, PII_EARLIEST_DAY, RESULT_CAP } from "../schema/assumptions";
import { dayNumber, dayOf, listCompletely, type Narrowing } from "./core/listing";
import type { Requester } from "./core/request";
import type { CallOptions } from "./core/transport";
import type * as params from "./params";
import { parseParams, zChoice } from "./core/validation";

// Part of the client's API under its earlier name: the provider batches submissions with it.

const PII_OPT_OUT = "/pii-opt-out";

/** @internal The zod schema of {@link PiiSubmitArguments}, which checks it before sending. */
export const PiiSubmitArguments = z
  .strictObject({
    identifiers: z
      .array(z.string().min(1))
      .min(1, { message: "give at least one viewer id or user id" })
      .max(PII_IDENTIFIERS_PER_REQUEST, {
        error: (issue) =>
          `at most ${PII_IDENTIFIERS_PER_REQUEST} identifiers per request (spec 4.10), got ${(issue.input as readonly string[]).length}: split them into several submissions`,
      })
      .meta({ description: "Viewer ids or user ids, all of one kind (spec 4.10); sent as `viewer_id`.", secret: true }),
    notificationEmails: z
      .array(z.email())
      .optional()
      .meta({ description: "Addresses to notify when the request is FINISHED (spec 6); sent as `@notification_email`.", secret: true }),
  })
  .describe("What {@link PiiApi.submit} takes (spec 4.10), in the client's camelCase.");
/** The params of {@link PiiApi.submit}. */
export type PiiSubmitArguments = params.PiiSubmitArguments;

/** @internal The zod schema of {@link PiiListQuery}, which checks it before sending. */
export const PiiListQuery = z
  .strictObject({
    limit: z.number().int().positive().optional().describe("At most this many requests."),
    start: CalendarDate.optional().describe("Created on or after this day (YYYY-MM-DD)."),
    end: CalendarDate.optional().describe("Created on or before this day (YYYY-MM-DD)."),
    status: z.array(zChoice(PII_STATUSES, "statuses")).min(1).optional().describe("Only requests in these states (sent comma-separated)."),
  })
  .refine((query) => query.start === undefined || query.end === undefined || query.start <= query.end, {
    message: "end is before start: give a creation range whose end is on or after its start",
    path: ["end"],
  })
  .describe("The query of {@link PiiApi.list} (spec 4.10).");
/** The params of {@link PiiApi.list}. */
export type PiiListQuery = params.PiiListQuery;

/** @internal The zod schema of {@link PiiGetParams}, which checks it before sending. */
export const PiiGetParams = z
  .strictObject({ id: z.string().min(1).describe("The id of the opt-out request, as {@link PiiApi.submit} answered it.") })
  .describe("The params of {@link PiiApi.get}.");
/** The params of {@link PiiApi.get}. */
export type PiiGetParams = params.PiiGetParams;

/**
 * The PII opt-out family (spec 4.10): submit deletion requests for viewer or user ids and read their
 * state (spec 3.1: ENQUEUED, STARTED, FINISHED). Every method takes one params object, then the
 * per-call options, like the query families.
 */
export class PiiApi {
  private readonly now: () => number;

  /**
   * Built by {@link InsightsClient} on its transport and clock; `client.pii` is this family.
   *
   * @param options - The client's clock.
   */
  constructor(
    private readonly requester: Requester,
    options: {
      /** The client's clock, epoch milliseconds (default `Date.now`): it bounds the creation range of a complete listing. */
      now?: () => number;
    } = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Submits one opt-out request of at most 100 identifiers and answers its id, how many identifiers
   * it created and how many were ignored as submitted before (docs/api.md 2.9, 10.3: read as
   * `ignored`, else counted as what was sent and not created; provider/schema/assumptions.ts).
   * POST is retried only after a 429 (nothing was applied): after another failure, `list` shows
   * whether the request was made.
   */
  async submit(params: PiiSubmitArguments, options: CallOptions = {}): Promise<PiiOptOutSubmitResponse> {
    const checked = parseParams(PiiSubmitArguments, params);
    const body: PiiOptOutSubmission = {
      viewer_id: checked.identifiers,
      ...(checked.notificationEmails === undefined ? {} : { "@notification_email": checked.notificationEmails }),
    };
    // The identifiers and addresses sent are what no error of the call may show (request.ts `personal`).
    const personal = [...checked.identifiers, ...(checked.notificationEmails ?? [])];
    const answer = await this.requester.request({ method: "POST", path: PII_OPT_OUT, body, ...options, personal }, PiiOptOutSubmitResponse);
    return { id: answer.id, created: answer.created, ignored: ignoredCount(answer, checked.identifiers.length) };
  }

  /**
   * Lists opt-out requests matching `query` (all without one). Without a `limit` (or with one above
   * the service's cap of 500, docs/api.md 10.1) the listing is complete: an answer that reaches the
   * cap is asked again in halves of its creation range, down to single days and then per status,
   * and an `IncompleteListingError` is thrown when one day and status still reach the cap.
   */
  async list(query: PiiListQuery = {}, options: CallOptions = {}): Promise<PiiOptOutRequest[]> {
    const checked = parseParams(PiiListQuery, query);
    type Checked = typeof checked;
    const fetch = async (part: Checked): Promise<PiiOptOutRequest[]> => {
      const answer = await this.requester.request(
        {
          method: "GET",
          path: PII_OPT_OUT,
          query: { limit: part.limit ?? LISTING_LIMIT, start: part.start, end: part.end, status: part.status?.join(",") },
          ...options,
        },
        PiiOptOutRequestList,
      );
      return answer.requests;
    };
    if (checked.limit !== undefined && checked.limit <= RESULT_CAP) return fetch(checked);
    const whole = { ...checked, limit: undefined };
    const narrowing: Narrowing<Checked, PiiOptOutRequest> = {
      what: "PII opt-out requests",
      fetch,
      split: (part) => this.narrower(part),
      keyOf: (request) => request.id,
      // Newest first, as one answer of the emulator lists them.
      order: (a, b) => (Date.parse(b.created_at ?? "") || 0) - (Date.parse(a.created_at ?? "") || 0),
      describe: (part) => `GET ${PII_OPT_OUT} ${[`start=${part.start ?? "(none)"}`, `end=${part.end ?? "(none)"}`, ...(part.status ? [`status=${part.status.join(",")}`] : [])].join(" ")}`,
    };
    const listed = await listCompletely(whole, narrowing);
    return checked.limit === undefined ? listed : listed.slice(0, checked.limit);
  }

  /**
   * The narrower listings of `query` (docs/api.md 4.10: `start`, `end` days of creation, `status`):
   * two halves of its creation range, else one per status of a single day, else none.
   */
  private narrower<Query extends { start?: string | undefined; end?: string | undefined; status?: Array<(typeof PII_STATUSES)[number]> | undefined }>(query: Query): Query[] | undefined {
    const first = dayNumber(query.start ?? PII_EARLIEST_DAY);
    const last = query.end === undefined ? Math.floor(this.now() / 86_400_000) + PII_DAYS_AHEAD : dayNumber(query.end);
    if (last > first) {
      const middle = Math.floor((first + last) / 2);
      return [
        { ...query, start: dayOf(first), end: dayOf(middle) },
        { ...query, start: dayOf(middle + 1), end: dayOf(last) },
      ];
    }
    const statuses = query.status ?? PII_STATUSES;
    if (statuses.length > 1) return statuses.map((status) => ({ ...query, start: dayOf(first), end: dayOf(last), status: [status] }));
    return undefined;
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
