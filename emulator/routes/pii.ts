import { alternateLocalTime, listing, truncationMarker, type Dialect } from "../dialect";
import { valueAt } from "../filters/body-errors";
import { QueryReader } from "../query";
import { badRequest, isJsonObject, notFound } from "../http";
import { identifierKind, type IdentifierKind } from "../pii/identifiers";
import { PII_STATUSES, piiStatusAt, type StoredPiiRequest } from "../pii/store";
import { describeChoices } from "../text/suggest";
import type { RequestContext, Router } from "../router";
import { epochOfDay } from "../time-range";
import { DAY_MS } from "../time";

/** Most identifiers per request (spec 4.10, 8). */
export const MAX_IDENTIFIERS_PER_REQUEST = 100;
/** Most requests `GET /pii-opt-out` lists; also its default (docs/api.md 10.1: result sets are capped at 500). */
export const MAX_LISTED_REQUESTS = 500;

const PATH = "/pii-opt-out";
const LIST_PARAMETERS = ["limit", "start", "end", "status"] as const;

/** The fields of a POST body (docs/api.md 4.10); any other is a 400 with a "did you mean" (our choice). */
const SUBMISSION_FIELDS = ["viewer_id", "@notification_email"];

/** A valid POST body. */
interface Submission {
  viewer_id: string[];
  "@notification_email"?: string[];
}

/** What the emulator takes for an e-mail address: something@domain.tld, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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

/**
 * POST /pii-opt-out: 201 `{id, created, ignored}` (spec 2.9, 4.10; `ignored` per docs/api.md 10.3;
 * `skipped` in the alternate dialect, emulator/README.md "Dialects").
 */
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
  const ignoredName = account.dialect === "standard" ? "ignored" : "skipped";
  return { status: 201, body: { id: result.request.id, created: result.created, [ignoredName]: result.ignored } };
}

/**
 * GET /pii-opt-out: `{requests}` newest first, 200 (spec 7 also names 201 for PII reads: 200 chosen),
 * `truncated: true` when cut at the limit; the alternate dialect answers the bare array with 201,
 * oldest first (so its cut keeps the oldest).
 */
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
  const found = context.account.pii.list({
    nowMs: context.nowMs,
    limit: limit + 1,
    oldestFirst: context.account.dialect === "alternate",
    ...(statuses ? { statuses } : {}),
    ...(createdFromMs === undefined ? {} : { createdFromMs }),
    ...(createdToMs === undefined ? {} : { createdToMs }),
  });
  const dialect = context.account.dialect;
  const requests = found.slice(0, limit).map((request) => renderListed(request, context.nowMs, dialect));
  return { status: readStatus(dialect), body: listing(dialect, "requests", requests, truncationMarker(dialect, requests.length, found.length)) };
}

/** GET /pii-opt-out?id=X: the request, 200, or 404 (spec 4.10). */
function getOne(context: RequestContext, id: string) {
  const combined = LIST_PARAMETERS.find((name) => context.query.has(name));
  if (combined) throw badRequest(`"id" reads one request and cannot be combined with "${combined}"`, combined);
  const request = context.account.pii.get(id);
  if (!request) throw notFound(`no PII opt-out request with id "${id}" in this account`, "id");
  const { status, updatedMs } = piiStatusAt(request, context.nowMs);
  const dialect = context.account.dialect;
  const body = {
    id: request.id,
    status,
    creator: request.creator,
    created_at: piiTime(request.createdMs, dialect),
    updated_at: piiTime(updatedMs, dialect),
    identifiers: { viewer_id: [...request.identifiers] },
    ...emailsOf(request),
  };
  return { status: readStatus(dialect), body };
}

/** A list item: id, status, @notification_email, created_at, identifiers (spec 4.10). */
function renderListed(request: StoredPiiRequest, nowMs: number, dialect: Dialect) {
  return {
    id: request.id,
    status: piiStatusAt(request, nowMs).status,
    ...emailsOf(request),
    created_at: piiTime(request.createdMs, dialect),
    identifiers: { viewer_id: [...request.identifiers] },
  };
}

/** The status of a PII read: 200, or 201 in the alternate dialect (spec 7: the PII docs name 201 for retrieval). */
function readStatus(dialect: Dialect): number {
  return dialect === "standard" ? 200 : 201;
}

/**
 * `created_at` and `updated_at` (spec 2.9: "for example in UTC or a local zone"): ISO 8601 in UTC
 * with milliseconds, or in the alternate dialect the same instant at a fixed offset of -05:00.
 */
function piiTime(epochMs: number, dialect: Dialect): string {
  return dialect === "standard" ? new Date(epochMs).toISOString() : alternateLocalTime(epochMs);
}

function emailsOf(request: StoredPiiRequest): { "@notification_email"?: string[] } {
  return request.notificationEmails ? { "@notification_email": [...request.notificationEmails] } : {};
}

/** Validates the POST body; a 400 names the field at fault and why. */
function parseSubmission(body: unknown): Submission {
  if (!isJsonObject(body)) {
    throw badRequest(`the body must be a JSON object such as {"viewer_id": ["viewer-000123"]} (spec 4.10)`, "body");
  }
  // An unknown field first: `{"viewer_idd": [...]}` is a typo, not a missing viewer_id.
  const unknown = Object.keys(body).find((key) => !SUBMISSION_FIELDS.includes(key));
  if (unknown !== undefined) {
    throw badRequest(`unknown body field "${unknown}"; ${describeChoices(unknown, SUBMISSION_FIELDS, "fields")}`, unknown);
  }
  const identifiers = body["viewer_id"];
  if (!Array.isArray(identifiers) || identifiers.length === 0) {
    throw badRequest(`"viewer_id" must be an array of 1 to ${MAX_IDENTIFIERS_PER_REQUEST} viewer ids or user ids`, "viewer_id");
  }
  if (identifiers.length > MAX_IDENTIFIERS_PER_REQUEST) {
    throw badRequest(
      `at most ${MAX_IDENTIFIERS_PER_REQUEST} identifiers per request (spec 8); this one has ${identifiers.length}: ` +
        "split it into several requests",
      "viewer_id",
    );
  }
  const badIdentifier = identifiers.findIndex((identifier) => typeof identifier !== "string" || identifier.length === 0);
  if (badIdentifier >= 0) throw badRequest(`"viewer_id[${badIdentifier}]" must be a non-empty string`, "viewer_id");
  const submission: Submission = { viewer_id: identifiers as string[] };
  const emails = body["@notification_email"];
  if (emails === undefined) return submission;
  const field = "@notification_email";
  if (!Array.isArray(emails)) throw badRequest(`"${field}" must be an array of e-mail addresses`, field);
  const badEmail = emails.findIndex((email) => typeof email !== "string" || !EMAIL.test(email));
  if (badEmail >= 0) {
    throw badRequest(`"${field}[${badEmail}]" must be an e-mail address, got ${JSON.stringify(valueAt(body, [field, badEmail]))}`, field);
  }
  return { ...submission, [field]: emails as string[] };
}

/** A `YYYY-MM-DD` day (spec 4.10) as the epoch ms of its UTC midnight; 400 otherwise. */
function parseDay(text: string, parameter: string): number {
  const epochMs = epochOfDay(text);
  if (epochMs === undefined) {
    throw badRequest(`"${parameter}" must be a date in YYYY-MM-DD form (spec 4.10), got "${text}"`, parameter);
  }
  return epochMs;
}
