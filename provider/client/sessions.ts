import { isIP } from "node:net";
import { DiscoveryList, type Session, SessionDimensionList, SessionList, SESSION_FILTER_NAMES, ViewerSummary } from "../schema";
import { ArgumentError, describeValue } from "./core/errors";
import { QueryFamily } from "./core/family";
import type { QueryParams, Requester } from "./core/request";
import { dedupeBy, fetchHalving } from "./core/split";
import {
  checkRangeLimits,
  checkTimeRange,
  DAY_MS,
  type ExplicitRange,
  HOUR_MS,
  type LastDaysRange,
  type RangePolicy,
  rangeQuery,
  resolveRange,
} from "./core/time-range";
import type { CallOptions } from "./core/transport";
import { checkFilterArguments, checkInteger, checkKnownKeys, type FilterArguments, type SessionFilters } from "./core/validation";

/** Spec 4.3, 8: sessions per viewer-sessions response. */
export const SESSIONS_PER_RESPONSE = 500;
/** Spec 4.2, 8: the sample-session `limit` range. */
export const SAMPLE_LIMIT = { min: 1, max: 500 } as const;

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
const VIEWER_SPLIT_FLOOR_MS = 1000;

const BASE = "/insights/3.0/sessions";

/** Arguments of the sample-session endpoints (spec 4.2). */
export interface SampleSessionParams extends FilterArguments<SessionFilters> {
  /** Default: the latest 3 hours before the request (spec 4.2). At most 3 hours, within the last 31 days. */
  range?: ExplicitRange;
  /** 1 to 500, default 50 (spec 4.2). */
  limit?: number;
}

/** Whose sessions: exactly one of a viewer id or a viewer IP address (spec 4.3, 4.4). */
export type ViewerIdentity = { viewerId: string; viewerIp?: never } | { viewerIp: string; viewerId?: never };

/** Arguments of the viewer-summary endpoint (spec 4.4). */
export type ViewerSummaryParams = ViewerIdentity & {
  /** Default: the last day (spec 4.3). */
  range?: ExplicitRange | LastDaysRange;
};

/** Arguments of the viewer-sessions endpoint (spec 4.3). */
export type ViewerSessionParams = ViewerSummaryParams & {
  /**
   * Most sessions to return; default all in the range. Up to 500 is one request; more (or all) are
   * fetched by splitting the range (spec 4.3).
   */
  limit?: number;
};

/** Options of a {@link SessionsApi}. */
export interface SessionsApiOptions {
  /** The client's clock, epoch ms; used for the recency limit of sample sessions and to split ranges. */
  now?: () => number;
}

const SAMPLE_KEYS = ["range", "limit", "filters", "tags", "filterId"];
const VIEWER_KEYS = ["viewerId", "viewerIp", "range"];

/**
 * The sessions API family (spec 4.2 to 4.5): sample content and ad sessions with their filters,
 * the sessions and summary of one viewer, and the lookups. Viewer sessions are capped at 500 per
 * response (spec 4.3, 8); the client fetches more by splitting the time range, as the spec advises.
 */
export class SessionsApi extends QueryFamily {
  private readonly now: () => number;

  constructor(requester: Requester, options: SessionsApiOptions = {}) {
    super(requester);
    this.now = options.now ?? Date.now;
  }

  /** Samples of ended content sessions (spec 4.2 `GET /insights/3.0/sessions/content`). */
  async listContent(params: SampleSessionParams = {}, requestOptions?: CallOptions): Promise<SessionList> {
    return this.get(`${BASE}/content`, this.sampleQuery(params), SessionList, requestOptions);
  }

  /** Samples of ended ad sessions (spec 4.2 `GET /insights/3.0/sessions/ad`; needs ad insights). */
  async listAd(params: SampleSessionParams = {}, requestOptions?: CallOptions): Promise<SessionList> {
    return this.get(`${BASE}/ad`, this.sampleQuery(params), SessionList, requestOptions);
  }

  /**
   * The content sessions of one viewer, ended and ongoing (spec 4.3 `GET .../content/viewer`),
   * newest start first. Whenever an answer holds the maximum of 500 sessions, its range is split in
   * two and both halves are fetched (in parallel, recursively); sessions are de-duplicated by
   * `svc_session_id`.
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
    checkKnownKeys(params, VIEWER_KEYS);
    const identity = checkViewerIdentity(params);
    const range = params.range === undefined ? {} : rangeQuery(checkTimeRange(params.range, VIEWER_POLICY));
    return this.get(`${BASE}/content/viewer/summary`, { ...identity, ...range }, ViewerSummary, requestOptions);
  }

  /** The dimension lookup: the filters the account can use (spec 4.5, 2.5). */
  async dimensions(params: Record<string, never> = {}, requestOptions?: CallOptions): Promise<SessionDimensionList> {
    checkKnownKeys(params, []);
    return this.get(`${BASE}/_meta/references/dimensions`, {}, SessionDimensionList, requestOptions);
  }

  /** The resource paths available to the account, with prerequisites (spec 4.5 discovery). */
  async discovery(params: Record<string, never> = {}, requestOptions?: CallOptions): Promise<DiscoveryList> {
    checkKnownKeys(params, []);
    return this.get(`${BASE}/_meta/references/endpoints`, {}, DiscoveryList, requestOptions);
  }

  private async viewerSessions(path: string, params: ViewerSessionParams, requestOptions: CallOptions | undefined): Promise<SessionList> {
    checkKnownKeys(params, [...VIEWER_KEYS, "limit"]);
    const identity = checkViewerIdentity(params);
    const limit = params.limit === undefined ? undefined : checkInteger(params.limit, 1, Number.MAX_SAFE_INTEGER, "limit");
    const range = params.range === undefined ? undefined : checkTimeRange(params.range, VIEWER_POLICY);
    const relativeQuery = range ? rangeQuery(range) : {};
    if (limit !== undefined && limit <= SESSIONS_PER_RESPONSE) {
      return this.get(path, { ...identity, ...relativeQuery, limit }, SessionList, requestOptions);
    }
    const nowMs = this.now();
    const interval = range ? resolveRange(range, nowMs, VIEWER_POLICY.daysAnchor) : { startMs: nowMs - VIEWER_DEFAULT_RANGE_MS, endMs: nowMs };
    const fetchPart = (query: QueryParams) => this.get(path, { ...identity, ...query, limit: SESSIONS_PER_RESPONSE }, SessionList, requestOptions);
    const merged = await fetchHalving(
      interval,
      {
        grid: { stepMs: VIEWER_SPLIT_FLOOR_MS, originMs: 0 },
        fetch: (part) => fetchPart(rangeQuery(part)),
        merge: (parts) => ({ sessions: dedupeBy(parts.flatMap((part) => part.sessions), (session) => session.svc_session_id) }),
        halveOnResult: (result) => {
          const full = result.sessions.length >= SESSIONS_PER_RESPONSE;
          if (full) this.logSplit(path, `answer at the cap of ${SESSIONS_PER_RESPONSE} sessions (spec 8): fetched again as two halves`, 2, requestOptions);
          return full;
        },
      },
      // The range as given first (`days` is resolved by the service); split only if it is full.
      () => fetchPart(relativeQuery),
    );
    const sessions = [...merged.sessions].sort(newestFirst);
    return { sessions: limit === undefined ? sessions : sessions.slice(0, limit) };
  }

  /** Checks sample-session arguments (docs/api.md 4.2, 10.5) and builds the query. */
  private sampleQuery(params: SampleSessionParams): QueryParams {
    checkKnownKeys(params, SAMPLE_KEYS);
    let range: QueryParams = {};
    if (params.range !== undefined) {
      const checked = checkTimeRange(params.range, SAMPLE_POLICY);
      checkRangeLimits(checked, this.now(), SAMPLE_POLICY);
      range = rangeQuery(checked);
    }
    return {
      ...range,
      ...(params.limit === undefined ? {} : { limit: checkInteger(params.limit, SAMPLE_LIMIT.min, SAMPLE_LIMIT.max, "limit") }),
      ...checkFilterArguments(params, SESSION_FILTER_NAMES),
    };
  }
}

/** Exactly one of viewer id and viewer IP (spec 4.3, 4.4), as query parameters. */
function checkViewerIdentity(params: { viewerId?: unknown; viewerIp?: unknown }): QueryParams {
  const { viewerId, viewerIp } = params;
  if ((viewerId === undefined) === (viewerIp === undefined)) {
    throw new ArgumentError("viewerId", "give exactly one of viewerId or viewerIp (spec 4.3, 4.4)");
  }
  if (viewerId !== undefined) {
    if (typeof viewerId !== "string" || viewerId.length === 0) throw new ArgumentError("viewerId", `must be a non-empty string, got ${describeValue(viewerId)}`);
    return { viewer_id: viewerId };
  }
  if (typeof viewerIp !== "string" || isIP(viewerIp) === 0) {
    throw new ArgumentError("viewerIp", `must be an IPv4 or IPv6 address (spec 4.3), got ${describeValue(viewerIp)}`);
  }
  return { viewer_ip: viewerIp };
}

/** Newest start first, as one answer is ordered, so a split answer reads like an unsplit one. */
function newestFirst(left: Session, right: Session): number {
  return right.timestamps.start.epoch_ms - left.timestamps.start.epoch_ms || (left.session_id < right.session_id ? -1 : left.session_id > right.session_id ? 1 : 0);
}
