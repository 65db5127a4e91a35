import { z } from "zod";
import { PiiOptOutSubmission, type PiiOptOutRequest, type PiiOptOutSubmitResponse } from "../../provider/schema/pii";
import { isoDate } from "../../provider/schema/common";
import { PII_STATUSES } from "../../provider/schema/names";
import { describeChoices } from "../../provider/schema/suggest";
import { isJsonObject } from "../../provider/schema";
import { valueAt } from "../filters/body-errors";
import { QueryReader } from "../query";
import { badRequest, notFound } from "../http";
import { identifierKind, type IdentifierKind } from "../pii/identifiers";
import { piiStatusAt, type StoredPiiRequest } from "../pii/store";
import type { RequestContext, Router } from "../router";
import { epochOfDay } from "../time-range";
import { DAY_MS } from "../time";

/** Most identifiers per request (spec 4.10, 8). */
export const MAX_IDENTIFIERS_PER_REQUEST = 100;
/** Most requests `GET /pii-opt-out` lists; also its default (docs/api.md 10.1: result sets are capped at 500). */
export const MAX_LISTED_REQUESTS = 500;

const PATH = "/pii-opt-out";
const LIST_PARAMETERS = ["limit", "start", "end", "status"] as const;

/** The POST body, strict: an unknown field is a 400 with a "did you mean" (emulator's choice). */
const Submission = z.strictObject(PiiOptOutSubmission.shape);
const SUBMISSION_FIELDS = Object.keys(PiiOptOutSubmission.shape);

/**
 * Routes of the PII opt-out API (spec 4.10): POST a request, list requests, read one by id.
 * Every account has its own requests (spec 5.4: another account's credentials do not block a
 * submission; the emulator processes every request).
 */
export function register(router: Router): void {
  router.on("POST", PATH, submit);
  router.get(PATH, (context) => {
    const reader = new QueryReader(context.query, ["id", ...LIST_PARAMETERS], `GET ${PATH}`);
    const id = reader.string("id");
    return id === undefined ? list(context, reader) : getOne(context, id);
  });
}

/** POST /pii-opt-out: 201 `{id, created, ignored}` (spec 2.9, 4.10; `ignored` per docs/api.md 10.3). */
function submit(context: RequestContext) {
  new QueryReader(context.query, [], `POST ${PATH}`);
  const submission = parseSubmission(context.body);
  const kinds = submission.viewer_id.map(identifierKind);
  if (new Set(kinds).size > 1) {
    const example = (kind: IdentifierKind) => `"${submission.viewer_id[kinds.indexOf(kind)]}"`;
    throw badRequest(
      `"viewer_id" mixes viewer ids (such as ${example("viewer")}) and user ids (such as ${example("user")}); ` +
        `spec 4.10: the identifiers of one request are all viewer ids or all user ids: send two requests`,
      "viewer_id",
      "mixed_identifier_kinds",
    );
  }
  const { account, emulator, nowMs } = context;
  const result = account.pii.submit({
    identifiers: submission.viewer_id,
    identifierKind: kinds[0]!,
    ...(submission["@notification_email"] ? { notificationEmails: submission["@notification_email"] } : {}),
    creator: account.config.userName,
    nowMs,
    timing: emulator.piiTiming,
    seed: emulator.seed,
    accountId: account.config.clientId,
  });
  const body: PiiOptOutSubmitResponse = { id: result.request.id, created: result.created, ignored: result.ignored };
  return { status: 201, body };
}

/** GET /pii-opt-out: `{requests}` newest first, 200 (spec 7 also names 201 for PII reads: 200 chosen). */
function list(context: RequestContext, reader: QueryReader) {
  const limit = reader.integer("limit", 1, MAX_LISTED_REQUESTS) ?? MAX_LISTED_REQUESTS;
  const start = reader.string("start");
  const end = reader.string("end");
  const createdFromMs = start === undefined ? undefined : parseDay(start, "start");
  // `end` is a day and inclusive: requests created at any time that day are listed.
  const createdToMs = end === undefined ? undefined : parseDay(end, "end") + DAY_MS;
  if (createdFromMs !== undefined && createdToMs !== undefined && createdFromMs >= createdToMs) {
    throw badRequest(`"start" (${start}) must not be after "end" (${end})`, "start");
  }
  const statuses = reader.choices("status", PII_STATUSES, "statuses");
  const requests = context.account.pii.list({
    nowMs: context.nowMs,
    limit,
    ...(statuses ? { statuses } : {}),
    ...(createdFromMs === undefined ? {} : { createdFromMs }),
    ...(createdToMs === undefined ? {} : { createdToMs }),
  });
  return { body: { requests: requests.map((request) => renderListed(request, context.nowMs)) } };
}

/** GET /pii-opt-out?id=X: the request, 200, or 404 (spec 4.10). */
function getOne(context: RequestContext, id: string) {
  const combined = LIST_PARAMETERS.find((name) => context.query.has(name));
  if (combined) throw badRequest(`"id" reads one request and cannot be combined with "${combined}"`, combined);
  const request = context.account.pii.get(id);
  if (!request) throw notFound(`no PII opt-out request with id "${id}" in this account`, "id");
  const { status, updatedMs } = piiStatusAt(request, context.nowMs);
  const body: PiiOptOutRequest = {
    id: request.id,
    status,
    creator: request.creator,
    created_at: isoDate(request.createdMs),
    updated_at: isoDate(updatedMs),
    identifiers: { viewer_id: [...request.identifiers] },
    ...emailsOf(request),
  };
  return { body };
}

/** A list item: id, status, @notification_email, created_at, identifiers (spec 4.10). */
function renderListed(request: StoredPiiRequest, nowMs: number): PiiOptOutRequest {
  return {
    id: request.id,
    status: piiStatusAt(request, nowMs).status,
    ...emailsOf(request),
    created_at: isoDate(request.createdMs),
    identifiers: { viewer_id: [...request.identifiers] },
  };
}

function emailsOf(request: StoredPiiRequest): { "@notification_email"?: string[] } {
  return request.notificationEmails ? { "@notification_email": [...request.notificationEmails] } : {};
}

/** Validates the POST body; a 400 names the field at fault and why. */
function parseSubmission(body: unknown): PiiOptOutSubmission {
  if (!isJsonObject(body)) {
    throw badRequest(`the body must be a JSON object such as {"viewer_id": ["viewer-000123"]} (spec 4.10)`, "body");
  }
  const parsed = Submission.safeParse(body);
  if (parsed.success) return parsed.data;
  // An unknown field first: `{"viewer_idd": [...]}` is a typo, not a missing viewer_id.
  const issue = parsed.error.issues.find((candidate) => candidate.code === "unrecognized_keys") ?? parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? "body");
  const at = issue.path.length > 1 ? `${field}[${String(issue.path[1])}]` : field;
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0]!;
    throw badRequest(`unknown body field "${key}"; ${describeChoices(key, SUBMISSION_FIELDS, "fields")}`, key);
  }
  if (field === "viewer_id" && issue.path.length === 1) {
    const given = body["viewer_id"];
    if (issue.code === "too_big") {
      throw badRequest(
        `at most ${MAX_IDENTIFIERS_PER_REQUEST} identifiers per request (spec 8); this one has ` +
          `${Array.isArray(given) ? given.length : "more"}: split it into several requests`,
        "viewer_id",
      );
    }
    throw badRequest(`"viewer_id" must be an array of 1 to ${MAX_IDENTIFIERS_PER_REQUEST} viewer ids or user ids`, "viewer_id");
  }
  if (field === "viewer_id") throw badRequest(`"${at}" must be a non-empty string`, "viewer_id");
  if (issue.path.length > 1) {
    throw badRequest(`"${at}" must be an e-mail address, got ${JSON.stringify(valueAt(body, issue.path))}`, field);
  }
  throw badRequest(`"${field}" must be an array of e-mail addresses`, field);
}

/** A `YYYY-MM-DD` day (spec 4.10) as the epoch ms of its UTC midnight; 400 otherwise. */
function parseDay(text: string, parameter: string): number {
  const epochMs = epochOfDay(text);
  if (epochMs === undefined) {
    throw badRequest(`"${parameter}" must be a date in YYYY-MM-DD form (spec 4.10), got "${text}"`, parameter);
  }
  return epochMs;
}
