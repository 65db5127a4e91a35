import { isIP } from "node:net";
import { ERROR_FILTER_NAMES, SESSION_BOOLEAN_FILTER_NAMES, SESSION_DIMENSION_FILTER_NAMES } from "../contract/dimensions";
import type {
  DiscoveryBody as DiscoveryList, SessionDimensionListBody as SessionDimensionList, SessionListBody as SessionList,
  ViewerSummaryBody as ViewerSummary,
} from "../contract/sessions";
import type { AccountState } from "../accounts";
import { QueryReader } from "../query";
import { badRequest, featureDisabled } from "../http";
import { describeDimension } from "../metrics/catalog";
import { parseQueryFilters } from "../metrics/filtering";
import { DEFAULT_KPI_SET } from "../metrics/kpis";
import { ongoingCount, ratioMaxima, summarizeViewer } from "../metrics/viewer-summary";
import type { RequestContext, Router } from "../router";
import { enforceRangeLimits, parseTimeRange, TIME_RANGE_PARAMETERS, type TimeRange } from "../time-range";
import { renderSession, type SessionKind, type SessionRecord } from "../world";
import { HOUR_MS, DAY_MS } from "../time";
import { byTime } from "../dialect";

/**
 * The sessions API (spec 4.2-4.5, 7, 8; docs/api.md 10.5). Choices where the spec is silent:
 * - Sample sessions are the ended sessions that started in the range, newest start first (oldest
 *   first in the alternate dialect, emulator/dialect.ts `byTime`).
 * - Viewer sessions (ended and ongoing) are in the same order, so the 500 cap keeps the latest (the
 *   earliest in the alternate dialect); the default limit is 500. viewer_id and viewer_ip together
 *   must both match.
 * - `/sessions/ad/viewer` (an example of spec 4.3) answers the viewer's ad sessions like the content
 *   endpoint; it needs the viewer module and ad insights.
 * - Discovery lives at `/insights/3.0/sessions/_meta/references/endpoints`.
 */

const BASE = "/insights/3.0/sessions";

/** Sample sessions: the window is at most 3 hours and starts within the last 31 days (docs/api.md 10.5). */
const SAMPLE_WINDOW_MS = 3 * HOUR_MS;
const SAMPLE_MAX_AGE_MS = 31 * DAY_MS;
/** Sample limit: 1 to 500, default 50 (spec 4.2, 8). */
const SAMPLE_LIMIT = { default: 50, max: 500 };
/** Viewer endpoints: default range 1 day (spec 4.3), retention 30 days (spec 8), at most 500 sessions. */
const VIEWER_DEFAULT_RANGE_MS = DAY_MS;
const VIEWER_RETENTION_MS = 30 * DAY_MS;
const VIEWER_LIMIT = { default: 500, max: 500 };

const LIMIT = "limit";
const VIEWER_ID = "viewer_id";
const VIEWER_IP = "viewer_ip";

/** Routes of the sessions API family. */
export function register(router: Router): void {
  router.get(`${BASE}/content`, (context) => ({ body: sampleSessions("content", context) }));
  router.get(`${BASE}/ad`, (context) => ({ body: sampleSessions("ad", context) }));
  router.get(`${BASE}/content/viewer`, (context) => ({ body: viewerSessions("content", context) }));
  router.get(`${BASE}/ad/viewer`, (context) => ({ body: viewerSessions("ad", context) }));
  router.get(`${BASE}/content/viewer/summary`, (context) => ({ body: viewerSummary(context) }));
  router.get(`${BASE}/_meta/references/dimensions`, (context) => ({ status: 200, body: dimensionLookup(context) }));
  router.get(`${BASE}/_meta/references/endpoints`, (context) => ({ body: discovery(context) }));
}

/** Ad sessions need ad insights (spec 4.2). */
function requireAdInsights(account: AccountState, path: string): void {
  if (!account.config.features.adInsights) {
    throw featureDisabled("adInsights", `${path} needs ad insights, which this account does not have enabled (spec 4.2)`);
  }
}

/** Viewer endpoints need the viewer-module API (spec 4.3). */
function requireViewerModule(account: AccountState, path: string): void {
  if (!account.config.features.viewerModule) {
    throw featureDisabled("viewerModule", `${path} needs the viewer-module API, which this account does not have enabled (spec 4.3)`);
  }
}

function render(sessions: readonly SessionRecord[], context: RequestContext): SessionList {
  const options = { viewerModule: context.account.config.features.viewerModule };
  return { sessions: sessions.map((session) => renderSession(session, context.nowMs, options)) };
}

/** Sessions by start in the account's dialect (newest first, or oldest first), ties by session id. */
function sessionOrder(context: RequestContext): (a: SessionRecord, b: SessionRecord) => number {
  const byStart = byTime(context.account.dialect);
  return (a, b) => byStart(a.startMs, b.startMs) || (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0);
}

/**
 * GET /sessions/content and /sessions/ad (spec 4.2): ended sessions that started in the range (no
 * `days`; default the 3 hours before now), dimension, tag and saved-filter filters, newest first
 * (oldest first in the alternate dialect).
 */
function sampleSessions(kind: SessionKind, context: RequestContext): SessionList {
  if (kind === "ad") requireAdInsights(context.account, context.path);
  const { query, nowMs } = context;
  // Dimension and tag filters are open-ended (and may repeat): parseQueryFilters reads them.
  const reader = new QueryReader(query, [LIMIT, ...TIME_RANGE_PARAMETERS], `GET ${context.path}`, { openEnded: true });
  const range = parseTimeRange(query, nowMs, { defaultDurationMs: SAMPLE_WINDOW_MS });
  enforceRangeLimits(range, nowMs, { maxDurationMs: SAMPLE_WINDOW_MS, maxAgeMs: SAMPLE_MAX_AGE_MS, label: "sample sessions" });
  const limit = reader.integer(LIMIT, 1, SAMPLE_LIMIT.max) ?? SAMPLE_LIMIT.default;
  const { predicate } = parseQueryFilters(context, "sessions", new Set([LIMIT]));
  const sessions = context.account
    .sessions(kind, range.fromMs, range.toMs, nowMs)
    .filter((session) => session.endMs <= nowMs && predicate(session))
    .sort(sessionOrder(context))
    .slice(0, limit);
  return render(sessions, context);
}

/** Who a viewer request is about: a viewer id, an IP address, or both. */
interface ViewerQuery {
  viewerId?: string;
  viewerIp?: string;
}

/** Reads viewer_id / viewer_ip: at least one; with `exactlyOne`, not both (spec 4.3, 4.4). */
function readViewer(reader: QueryReader, exactlyOne: boolean): ViewerQuery {
  const viewerId = reader.string(VIEWER_ID);
  const viewerIp = reader.string(VIEWER_IP);
  if (viewerId === undefined && viewerIp === undefined) {
    throw badRequest(`give "${VIEWER_ID}" or "${VIEWER_IP}" (spec 4.3)`, VIEWER_ID);
  }
  if (exactlyOne && viewerId !== undefined && viewerIp !== undefined) {
    throw badRequest(`give exactly one of "${VIEWER_ID}" or "${VIEWER_IP}", not both (spec 4.4)`, VIEWER_IP);
  }
  if (viewerId !== undefined && viewerId.trim() === "") throw badRequest(`"${VIEWER_ID}" must not be empty`, VIEWER_ID);
  if (viewerIp !== undefined && isIP(viewerIp) === 0) {
    throw badRequest(`"${VIEWER_IP}" must be an IPv4 or IPv6 address, got "${viewerIp}"`, VIEWER_IP);
  }
  return { ...(viewerId === undefined ? {} : { viewerId }), ...(viewerIp === undefined ? {} : { viewerIp }) };
}

function matchesViewer(viewer: ViewerQuery): (session: SessionRecord) => boolean {
  const ip = viewer.viewerIp?.toLowerCase();
  return (session) =>
    (viewer.viewerId === undefined || session.viewerId === viewer.viewerId) &&
    (ip === undefined || session.ip === ip || session.ipv6 === ip);
}

/** The time range of the viewer endpoints: `days` or a start/end pair, default 1 day, retention 30 days. */
function viewerRange(context: RequestContext): TimeRange {
  const range = parseTimeRange(context.query, context.nowMs, {
    allowDays: true, defaultDurationMs: VIEWER_DEFAULT_RANGE_MS, daysAnchor: "now",
  });
  enforceRangeLimits(range, context.nowMs, { maxAgeMs: VIEWER_RETENTION_MS, label: "viewer data (retention)" });
  return range;
}

/**
 * The viewer's sessions of `kind` in the range that exist at now (ended and ongoing), in start order:
 * through the world's index by viewer (an address belongs to its viewer's sessions), else a scan.
 */
function sessionsOfViewer(kind: SessionKind, viewer: ViewerQuery, range: TimeRange, context: RequestContext): SessionRecord[] {
  const { account, nowMs } = context;
  const viewerIds = viewer.viewerId !== undefined ? [viewer.viewerId] : account.world.viewerIdsWithAddress(viewer.viewerIp!.toLowerCase());
  if (viewerIds.length === 0) return [];
  if (viewerIds.length > 1) return account.sessions(kind, range.fromMs, range.toMs, nowMs).filter(matchesViewer(viewer));
  return account.sessionsOfViewer(kind, viewerIds[0]!, range.fromMs, range.toMs, nowMs).filter(matchesViewer(viewer));
}

/** GET /sessions/content/viewer and /sessions/ad/viewer (spec 4.3). */
function viewerSessions(kind: SessionKind, context: RequestContext): SessionList {
  requireViewerModule(context.account, context.path);
  if (kind === "ad") requireAdInsights(context.account, context.path);
  const reader = new QueryReader(context.query, [VIEWER_ID, VIEWER_IP, LIMIT, ...TIME_RANGE_PARAMETERS], `GET ${context.path}`);
  const viewer = readViewer(reader, false);
  const range = viewerRange(context);
  const limit = reader.integer(LIMIT, 1, VIEWER_LIMIT.max) ?? VIEWER_LIMIT.default;
  return render(sessionsOfViewer(kind, viewer, range, context).sort(sessionOrder(context)).slice(0, limit), context);
}

/** GET /sessions/content/viewer/summary (spec 4.4, 2.3): totals over the viewer's content sessions. */
function viewerSummary(context: RequestContext): ViewerSummary {
  requireViewerModule(context.account, context.path);
  const reader = new QueryReader(context.query, [VIEWER_ID, VIEWER_IP, ...TIME_RANGE_PARAMETERS], `GET ${context.path}`);
  const viewer = readViewer(reader, true);
  const range = viewerRange(context);
  const sessions = sessionsOfViewer("content", viewer, range, context);
  const metricContext = { nowMs: context.nowMs, kpi: DEFAULT_KPI_SET };
  const maxima = ratioMaxima(sessions);
  const annotations: Array<{ cause: string; value: string }> = [];
  if (range.format === "days" || range.format === "default") {
    annotations.push({
      cause: "interval_adjustment",
      value: `range ${new Date(range.fromMs).toISOString()} to ${new Date(range.toMs).toISOString()} (${range.format === "days" ? "days" : "default of 1 day"}, ending now)`,
    });
  }
  const ongoing = ongoingCount(sessions, metricContext);
  if (ongoing > 0) annotations.push({ cause: "ongoing_sessions", value: `${ongoing} session(s) still playing count with their values so far` });
  return {
    total: summarizeViewer(sessions, metricContext),
    _meta: {
      queries: {
        ...(viewer.viewerId === undefined ? {} : { viewer_id: viewer.viewerId }),
        ...(viewer.viewerIp === undefined ? {} : { viewer_ip: viewer.viewerIp }),
        start_epoch_ms: range.fromMs,
        end_epoch_ms: range.toMs,
      },
      query_string: context.query.toString(),
      ratio_info: {
        connection_induced_rebuffering_ratio: { max: maxima.connectionInduced },
        rebuffering_ratio: { max: maxima.rebuffering },
      },
      annotations,
    },
  };
}

/**
 * GET /sessions/_meta/references/dimensions (spec 2.5, 4.5): every sample-session filter with its
 * display name and query filter, then the account's custom tags (`?tag_<name>`, is_custom true).
 */
function dimensionLookup(context: RequestContext): SessionDimensionList {
  new QueryReader(context.query, [], `GET ${context.path}`);
  const predefined = [...new Set<string>([...SESSION_DIMENSION_FILTER_NAMES, ...SESSION_BOOLEAN_FILTER_NAMES, ...ERROR_FILTER_NAMES])];
  return {
    dimensions: [
      ...predefined.map((name) => ({ name: describeDimension(name), query_filter: `?${name}`, is_custom: false })),
      ...context.account.world.customTagNames().map((tag) => ({ name: tag, query_filter: `?tag_${tag}`, is_custom: true })),
    ],
  };
}

/** The resources of the sessions API with their prerequisites (spec 4.5). */
const RESOURCES: ReadonlyArray<{
  path: string;
  description: string;
  prerequisite: string;
  needs: ReadonlyArray<"adInsights" | "viewerModule">;
}> = [
  { path: `${BASE}/content`, description: "Samples of ended content sessions", prerequisite: "none", needs: [] },
  { path: `${BASE}/ad`, description: "Samples of ended ad sessions", prerequisite: "ad insights", needs: ["adInsights"] },
  {
    path: `${BASE}/content/viewer`, description: "Content sessions of one viewer, ended and ongoing",
    prerequisite: "viewer-module API", needs: ["viewerModule"],
  },
  {
    path: `${BASE}/ad/viewer`, description: "Ad sessions of one viewer, ended and ongoing",
    prerequisite: "viewer-module API and ad insights", needs: ["viewerModule", "adInsights"],
  },
  {
    path: `${BASE}/content/viewer/summary`, description: "Summary metrics of one viewer",
    prerequisite: "viewer-module API", needs: ["viewerModule"],
  },
  { path: `${BASE}/_meta/references/dimensions`, description: "Dimensions the sample sessions can be filtered by", prerequisite: "none", needs: [] },
  { path: `${BASE}/_meta/references/endpoints`, description: "This list", prerequisite: "none", needs: [] },
];

/** GET /sessions/_meta/references/endpoints: the discovery endpoint of spec 4.5. */
function discovery(context: RequestContext): DiscoveryList {
  new QueryReader(context.query, [], `GET ${context.path}`);
  const account = context.account;
  return {
    resources: RESOURCES.map(({ needs, ...resource }) => ({
      ...resource,
      available: needs.every((feature) => account.config.features[feature]),
    })),
  };
}
