import { isIP } from "node:net";
import { z } from "zod";
import { DiscoveryList, type Session, SessionDimensionList, SessionList, SESSION_FILTER_NAMES, ViewerSummary } from "../schema";
import { declareShape } from "../schema/meta";
import { QueryFamily } from "./core/family";
import type { QueryParams, Requester } from "./core/request";
import { dedupeBy, fetchHalving, halveInterval } from "./core/split";
import { DAY_MS, HOUR_MS, type Interval, type RangePolicy, rangeQuery, resolveRange, timeRange, timeRangeAt } from "./core/time-range";
import type { CallOptions } from "./core/transport";
import { filterMembers, filterQuery, NoParams, parseParams, zFilters, zInteger, zText } from "./core/validation";
import type * as params from "./params";

/** Spec 4.3, 8: sessions per viewer-sessions response. */
export const SESSIONS_PER_RESPONSE = 500;
/** Spec 4.2, 8: the sample-session `limit` range. */
export const SAMPLE_LIMIT = {
  /** The smallest `limit` of a sample: 1 (spec 8). */
  min: 1,
  /** The largest `limit` of a sample: 500 (spec 8). */
  max: 500,
} as const;

/** docs/api.md 10.5: the sample-session window is at most 3 hours and starts within the last 31 days. */
const SAMPLE_POLICY: RangePolicy<"explicit"> = {
  family: "sample sessions",
  formats: ["explicit"],
  maxDurationMs: 3 * HOUR_MS,
  maxAgeMs: 31 * DAY_MS,
};
/**
 * Spec 4.3: days or a start/end pair; default the last day; `days` counts back from now. The 30-day
 * retention of spec 8 is not enforced here: it can be 90 days by arrangement, so the service decides.
 */
const VIEWER_POLICY: RangePolicy = { family: "viewer sessions", formats: ["explicit", "lastDays"], daysAnchor: "now" };
const VIEWER_DEFAULT_RANGE_MS = DAY_MS;
/** Viewer-session ranges are split down to one second, finer than any session's start time matters. */
const VIEWER_SPLIT_GRID = { stepMs: 1000, originMs: 0 };

const BASE = "/insights/3.0/sessions";

/** Arguments of the sample-session endpoints (spec 4.2). */
export type SampleSessionParams = params.SampleSessionParams;
/** Whose sessions: exactly one of a viewer id or a viewer IP address (spec 4.3, 4.4). */
export type ViewerIdentity = params.ViewerIdentity;
/** Arguments of the viewer-summary endpoint (spec 4.4). */
export type ViewerSummaryParams = params.ViewerSummaryParams;
/** Arguments of the viewer-sessions endpoint (spec 4.3). */
export type ViewerSessionParams = params.ViewerSessionParams;

/** Options of a {@link SessionsApi}. */
export interface SessionsApiOptions {
  /** The client's clock, epoch ms; used for the recency limit of sample sessions and to split ranges. */
  now?: () => number;
}

/**
 * What was given in place of a viewer's id or IP address, without repeating it: a near miss of an
 * identifier is personal data too, and an error message reaches logs and terminals.
 */
function describePersonal(given: unknown): string {
  if (given === undefined || given === null) return String(given);
  if (given === "") return "an empty string";
  return `${typeof given === "string" ? "a string that is not one" : `a ${Array.isArray(given) ? "list" : typeof given}`} (not repeated: personal data)`;
}

/** Why what was given is not a viewer IP address. */
const notAnAddress = (issue: { input?: unknown }) => `must be an IPv4 or IPv6 address (spec 4.3), got ${describePersonal(issue.input)}`;

/** The viewer whose sessions are asked for, by id or by IP address: personal data. */
const VIEWER = {
  viewerId: zText((given) => `must be a non-empty string, got ${describePersonal(given)}`).meta({ description: "The viewer's id.", secret: true }),
  viewerIp: z
    .string({ error: notAnAddress })
    .refine((address) => isIP(address) !== 0, { error: notAnAddress })
    .meta({ description: "The viewer's IP address, IPv4 or IPv6.", secret: true }),
};
/** The member of the other identity, which an identity leaves out. */
const notWith = (identity: string) => z.never().optional().describe(`Not with ${identity}: exactly one of them (spec 4.3, 4.4).`);

/** @internal The schema of {@link ViewerIdentity}, for the generated interfaces. */
export const ViewerIdentity = z
  .union([z.object({ viewerId: VIEWER.viewerId, viewerIp: notWith("`viewerId`") }), z.object({ viewerIp: VIEWER.viewerIp, viewerId: notWith("`viewerIp`") })])
  .describe("Whose sessions: exactly one of a viewer id or a viewer IP address (spec 4.3, 4.4).");

/** The viewer id or IP address of an identity's query: what no error of the call may show. */
function personalOf(identity: QueryParams): string[] {
  return Object.values(identity).filter((value): value is string => typeof value === "string");
}

/** Exactly one of viewer id and viewer IP (spec 4.3, 4.4), as query parameters. */
function identityQuery(parsed: { viewerId?: string | undefined; viewerIp?: string | undefined }, context: z.RefinementCtx): QueryParams {
  const { viewerId, viewerIp } = parsed;
  if ((viewerId === undefined) === (viewerIp === undefined)) {
    context.addIssue({ code: "custom", path: ["viewerId"], message: "give exactly one of viewerId or viewerIp (spec 4.3, 4.4)" });
  }
  return viewerId === undefined ? { viewer_ip: viewerIp } : { viewer_id: viewerId };
}

/**
 * @internal
 * The zod schemas of the params of the sessions family (spec 4.2 to 4.4): what each method checks
 * before any request, by the family's clock `now` (the recency limit of sample sessions).
 */
export function sessionParamSchemas(now: () => number) {
  const viewerMembers = {
    viewerId: VIEWER.viewerId.optional(),
    viewerIp: VIEWER.viewerIp.optional(),
    range: timeRange(VIEWER_POLICY).optional().describe("Default: the last day (spec 4.3)."),
  };
  const ViewerSummaryParams = declareShape(
    z.strictObject(viewerMembers).transform((parsed, context) => ({ identity: identityQuery(parsed, context), range: parsed.range })),
    { input: z.intersection(ViewerIdentity, z.object({ range: viewerMembers.range })) },
  ).describe("Arguments of the viewer-summary endpoint (spec 4.4).");
  const limit = zInteger(1, Number.MAX_SAFE_INTEGER)
    .optional()
    .describe(
      "The most sessions to return, the newest first; default all in the range. Each request asks for 500, the cap (spec 4.3): an answer below it holds all of its range, so the newest `limit` are known whatever order the service lists them in; a full one is split (spec 4.3).",
    );
  return {
    SampleSessionParams: z
      .strictObject({
        range: timeRangeAt(SAMPLE_POLICY, now).optional().describe("Default: the latest 3 hours before the request (spec 4.2). At most 3 hours, within the last 31 days."),
        limit: zInteger(SAMPLE_LIMIT.min, SAMPLE_LIMIT.max).optional().describe("1 to 500, default 50 (spec 4.2)."),
        ...filterMembers(zFilters(SESSION_FILTER_NAMES, "SessionFilters")),
      })
      .transform((parsed, context): QueryParams => ({
        ...(parsed.range === undefined ? {} : rangeQuery(parsed.range.range)),
        ...(parsed.limit === undefined ? {} : { limit: parsed.limit }),
        ...filterQuery(parsed, context),
      }))
      .describe("Arguments of the sample-session endpoints (spec 4.2)."),
    ViewerSummaryParams,
    ViewerSessionParams: declareShape(
      z.strictObject({ ...viewerMembers, limit }).transform((parsed, context) => ({ identity: identityQuery(parsed, context), range: parsed.range, limit: parsed.limit })),
      { input: z.intersection(ViewerSummaryParams, z.object({ limit })) },
    ).describe("Arguments of the viewer-sessions endpoint (spec 4.3)."),
  };
}

/**
 * The sessions API family (spec 4.2 to 4.5): sample content and ad sessions with their filters,
 * the sessions and summary of one viewer, and the lookups. Viewer sessions are capped at 500 per
 * response (spec 4.3, 8); the client fetches more by splitting the time range, as the spec advises.
 */
export class SessionsApi extends QueryFamily {
  private readonly now: () => number;
  private readonly params: ReturnType<typeof sessionParamSchemas>;

  /** Built by {@link InsightsClient} on its transport and clock; `client.sessions` is this family. */
  constructor(requester: Requester, options: SessionsApiOptions = {}) {
    super(requester);
    this.now = options.now ?? Date.now;
    this.params = sessionParamSchemas(this.now);
  }

  /**
   * Samples of ended content sessions (spec 4.2 `GET /insights/3.0/sessions/content`), newest start
   * first. When more sessions match than `limit`, which ones the sample keeps is the service's choice.
   */
  async listContent(params: SampleSessionParams = {}, requestOptions?: CallOptions): Promise<SessionList> {
    return inNewestFirstOrder(await this.get(`${BASE}/content`, parseParams(this.params.SampleSessionParams, params), SessionList, requestOptions));
  }

  /** Samples of ended ad sessions (spec 4.2 `GET /insights/3.0/sessions/ad`; needs ad insights), as {@link listContent}. */
  async listAd(params: SampleSessionParams = {}, requestOptions?: CallOptions): Promise<SessionList> {
    return inNewestFirstOrder(await this.get(`${BASE}/ad`, parseParams(this.params.SampleSessionParams, params), SessionList, requestOptions));
  }

  /**
   * The content sessions of one viewer, ended and ongoing (spec 4.3 `GET .../content/viewer`),
   * newest start first. Whenever an answer holds the maximum of 500 sessions, its range is split in
   * two and both halves are fetched (in parallel, recursively); sessions are de-duplicated by
   * `svc_session_id`. With a `limit`, the newest `limit` sessions: the newer half of a full range is
   * fetched first, the older only for what it lacks.
   */
  async listViewer(params: ViewerSessionParams, requestOptions?: CallOptions): Promise<SessionList> {
    return this.viewerSessions(`${BASE}/content/viewer`, params, requestOptions);
  }

  /**
   * The ad sessions of one viewer (`GET .../ad/viewer`: an example of spec 4.3 shows the path,
   * nothing more; the emulator answers it like the content endpoint), split as {@link listViewer}.
   */
  async listAdViewer(params: ViewerSessionParams, requestOptions?: CallOptions): Promise<SessionList> {
    return this.viewerSessions(`${BASE}/ad/viewer`, params, requestOptions);
  }

  /** Summary metrics of one viewer (spec 4.4 `GET .../content/viewer/summary`, 2.3). */
  async viewerSummary(params: ViewerSummaryParams, requestOptions?: CallOptions): Promise<ViewerSummary> {
    const { identity, range } = parseParams(this.params.ViewerSummaryParams, params);
    return this.get(`${BASE}/content/viewer/summary`, { ...identity, ...(range === undefined ? {} : rangeQuery(range)) }, ViewerSummary, requestOptions, personalOf(identity));
  }

  /** The dimension lookup: the filters the account can use (spec 4.5, 2.5). */
  async dimensions(params: Record<string, never> = {}, requestOptions?: CallOptions): Promise<SessionDimensionList> {
    parseParams(NoParams, params);
    return this.get(`${BASE}/_meta/references/dimensions`, {}, SessionDimensionList, requestOptions);
  }

  /** The resource paths available to the account, with prerequisites (spec 4.5 discovery). */
  async discovery(params: Record<string, never> = {}, requestOptions?: CallOptions): Promise<DiscoveryList> {
    parseParams(NoParams, params);
    return this.get(`${BASE}/_meta/references/endpoints`, {}, DiscoveryList, requestOptions);
  }

  private async viewerSessions(path: string, params: ViewerSessionParams, requestOptions: CallOptions | undefined): Promise<SessionList> {
    const { identity, range, limit } = parseParams(this.params.ViewerSessionParams, params);
    const relativeQuery = range ? rangeQuery(range) : {};
    const nowMs = this.now();
    const interval = range ? resolveRange(range, nowMs, VIEWER_POLICY.daysAnchor) : { startMs: nowMs - VIEWER_DEFAULT_RANGE_MS, endMs: nowMs };
    // Always the cap: which sessions a smaller `limit` keeps is the service's order, which is not shown.
    const fetchPart = (query: QueryParams) => this.get(path, { ...identity, ...query, limit: SESSIONS_PER_RESPONSE }, SessionList, requestOptions, personalOf(identity));
    const isFull = (result: SessionList) => {
      const full = result.sessions.length >= SESSIONS_PER_RESPONSE;
      if (full) this.logSplit(path, `answer at the cap of ${SESSIONS_PER_RESPONSE} sessions (spec 8): fetched again as two halves`, 2, requestOptions);
      return full;
    };
    // The range as given first (`days` is resolved by the service); split only if it is full.
    const first = () => fetchPart(relativeQuery);
    if (limit !== undefined) return { sessions: await newestSessions(interval, limit, { fetch: (part) => fetchPart(rangeQuery(part)), isFull }, first) };
    const merged = await fetchHalving(
      interval,
      {
        grid: VIEWER_SPLIT_GRID,
        fetch: (part) => fetchPart(rangeQuery(part)),
        merge: (parts) => ({ sessions: dedupeBy(parts.flatMap((part) => part.sessions), (session) => session.svc_session_id) }),
        halveOnResult: isFull,
      },
      first,
    );
    return { sessions: [...merged.sessions].sort(newestFirst) };
  }
}

/**
 * Newest start first, then by session id: the order of every list of sessions the client answers,
 * whatever order the service answered in (schema/assumptions.ts `SESSION_AND_ALERT_ORDER_RULE`).
 */
function newestFirst(left: Session, right: Session): number {
  return right.timestamps.start.epoch_ms - left.timestamps.start.epoch_ms || (left.session_id < right.session_id ? -1 : left.session_id > right.session_id ? 1 : 0);
}

/** A session list in {@link newestFirst} order. */
function inNewestFirstOrder(list: SessionList): SessionList {
  return { ...list, sessions: [...list.sessions].sort(newestFirst) };
}

/**
 * The newest `want` sessions of `interval`, whatever order the service answers in. An answer below
 * the cap holds every session of its range; a full one may hold any of them, so its range is halved
 * (down to the split grid) and the newer half is listed first, the older half only for what the newer
 * one lacks: a viewer's latest sessions cost as many requests as it takes to reach a part below the
 * cap, never a listing of the whole range.
 */
async function newestSessions(
  interval: Interval,
  want: number,
  plan: { fetch(part: Interval): Promise<SessionList>; isFull(result: SessionList): boolean },
  first?: () => Promise<SessionList>,
): Promise<Session[]> {
  const answer = await (first ?? (() => plan.fetch(interval)))();
  const halves = plan.isFull(answer) ? halveInterval(interval, VIEWER_SPLIT_GRID) : undefined;
  if (!halves) return [...answer.sessions].sort(newestFirst).slice(0, want);
  const newer = await newestSessions(halves[1], want, plan);
  if (newer.length >= want) return newer;
  return [...newer, ...(await newestSessions(halves[0], want - newer.length, plan))];
}
