import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  ArgumentError,
  AuthenticationError,
  InsightsError,
  NotFoundError,
  ResponseTooLargeError,
  SettingsError,
  TimeoutError,
} from "../provider/client";
import {
  closeDataSourceClients,
  getAdAlert,
  getAdAlerts,
  getAdSessions,
  getContentAlert,
  getContentAlerts,
  getContentSessions,
  getDimensionTags,
  getFilterFields,
  getFilterFieldValues,
  getGroupByDimensions,
  getKpis,
  getMetric,
  getMetricDimensions,
  getMetricGroupBy,
  getMetricGroupByTag,
  getMetrics,
  getMetricsGroupBy,
  getPiiOptOutRequest,
  getPiiOptOutRequests,
  getSavedFilter,
  getSavedFilterByName,
  getSavedFilterReferences,
  getSavedFilters,
  getSessionDimensions,
  getViewerSessions,
  getViewerSummary,
  type InsightsConnection,
  type MetricPoint,
} from "../provider/data";
import { QUALITY_SUMMARY_MEMBERS, type Session } from "../provider/schema";
import { DEV, DIALECT_ANSWERS, listedItems, TEST_NOW_MS, useTestEmulator } from "./support/emulator";
import { failure } from "./support/failure";
import { journalMark, requestsSince } from "./support/query-families";
import { SPEC_FILTER_FIELDS } from "./support/spec-values";

// Every data source (Promise form) against the emulator over loopback, with explicit connection
// settings. The client's clock is Date.now: only Date is faked, at the emulator's frozen TEST_NOW,
// so the client's recency checks and the emulator agree and the test does not age.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

beforeAll(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: TEST_NOW_MS });
});
const emulator = useTestEmulator();
let connection: InsightsConnection;

beforeAll(() => {
  connection = { baseUrl: emulator.url, ...DEV };
});
afterAll(async () => {
  await closeDataSourceClients();
  vi.useRealTimers();
});

/** The raw answer of the emulator to the same query, asserted 200 (201 for PII reads, whose status the contract leaves open). */
async function raw(path: string, query: Record<string, string | string[] | number> = {}): Promise<any> {
  const response = await emulator.get(path, query);
  expect(response.status, JSON.stringify(response.body)).toBe(path.startsWith("/pii-opt-out") ? DIALECT_ANSWERS.piiReadStatus : 200);
  return response.body;
}

/**
 * Sessions or alerts as the data sources order them, newest start first then by id, whatever order the
 * endpoint answered in (its order is the service's, emulator/README.md "Dialects").
 */
const newestFirst = <Item extends { timestamps?: { start: { epoch_ms: number } }; timeline?: { start: { timestamp: { epoch_sec: number } } }; session_id?: string; id?: string }>(items: Item[]): Item[] => {
  const start = (item: Item) => item.timestamps?.start.epoch_ms ?? item.timeline!.start.timestamp.epoch_sec;
  const id = (item: Item) => item.session_id ?? item.id!;
  return [...items].sort((left, right) => start(right) - start(left) || (id(left) < id(right) ? -1 : id(left) > id(right) ? 1 : 0));
};

/** A wire time series as the data sources lay it out. */
const wirePoints = (timeSeries: any[], read: (point: any) => number | undefined): MetricPoint[] =>
  timeSeries.flatMap((point) => {
    const value = read(point);
    return value === undefined ? [] : [{ time: new Date(point.timestamp.epoch_ms).toISOString(), epochMs: point.timestamp.epoch_ms, value }];
  });

describe("sessions (spec 4.2 to 4.5)", () => {
  const range = { start: TEST_NOW_MS - 3 * HOUR_MS, end: TEST_NOW_MS };
  let sample: Session[];
  beforeAll(async () => {
    sample = (await getContentSessions({ range, limit: 50, connection })).sessions;
  });

  it("getContentSessions answers what the endpoint answers, with filters and limit", async () => {
    expect(sample.length).toBeGreaterThan(0);
    const body = await raw("/insights/3.0/sessions/content", { start_epoch_ms: range.start, end_epoch_ms: range.end, limit: 50 });
    expect(sample).toEqual(newestFirst(body.sessions));
    const country = sample[0]!.geo_info.country.code;
    const filtered = await getContentSessions({ range, limit: 5, filters: { geo_country_code: country }, connection });
    expect(filtered.sessions.length).toBeGreaterThan(0);
    expect(filtered.sessions.length).toBeLessThanOrEqual(5);
    for (const session of filtered.sessions) expect(session.geo_info.country.code).toBe(country);
  });

  it("getContentSessions takes a saved filter by id and refuses it with dimension filters", async () => {
    const created = await emulator.call("POST", "/bulk_filters/", {
      body: [{ name: "h8 sessions by asset", rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: sample[0]!.content_info.asset }] } }],
    });
    expect(created.status).toBe(201);
    const filterId = String(created.body[0].id);
    const byFilter = await getContentSessions({ range, filterId, connection });
    expect(byFilter.sessions.length).toBeGreaterThan(0);
    for (const session of byFilter.sessions) expect(session.content_info.asset).toContain(sample[0]!.content_info.asset);
    const mark = await journalMark(emulator);
    const error = await failure(getContentSessions({ range, filterId, filters: { isp: "x" }, connection }));
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as ArgumentError).path).toBe("filterId");
    expect(await requestsSince(emulator, mark)).toEqual([]);
  });

  it("getAdSessions answers ended ad sessions", async () => {
    const list = await getAdSessions({ range, limit: 10, connection });
    const body = await raw("/insights/3.0/sessions/ad", { start_epoch_ms: range.start, end_epoch_ms: range.end, limit: 10 });
    expect(list).toEqual({ ...body, sessions: newestFirst(body.sessions) });
    expect(list.sessions.length).toBeGreaterThan(0);
    for (const session of list.sessions) expect(session.status_info.is_ended).toBe(true);
  });

  it("getViewerSessions answers one viewer's sessions by id or IP address", async () => {
    const viewerId = sample.find((session) => typeof session.viewer_id === "string")!.viewer_id!;
    const byId = await getViewerSessions({ viewerId, range: { lastDays: 7 }, connection });
    expect(byId.sessions.length).toBeGreaterThan(0);
    for (const session of byId.sessions) expect(session.viewer_id).toBe(viewerId);
    const ip = sample[0]!.network_info.ip;
    const byIp = await getViewerSessions({ viewerIp: ip, limit: 10, connection });
    // The newest 10 of the viewer's sessions, whichever 10 the endpoint's own limit would keep.
    const all = await raw("/insights/3.0/sessions/content/viewer", { viewer_ip: ip, limit: 500 });
    expect(all.sessions.length).toBeLessThan(500);
    expect(byIp).toEqual({ ...all, sessions: newestFirst(all.sessions).slice(0, 10) });
  });

  it("getViewerSummary answers one viewer's summary; both identities at once are refused", async () => {
    const viewerId = sample.find((session) => typeof session.viewer_id === "string")!.viewer_id!;
    const summary = await getViewerSummary({ viewerId, range: { lastDays: 3 }, connection });
    expect(summary).toEqual(await raw("/insights/3.0/sessions/content/viewer/summary", { viewer_id: viewerId, days: 3 }));
    expect(summary.total.plays.count).toBeGreaterThan(0);
    const error = await failure(getViewerSummary({ viewerId, viewerIp: "10.0.0.1", connection } as never));
    expect(error).toBeInstanceOf(ArgumentError);
  });

  it("getSessionDimensions answers the dimension lookup", async () => {
    const lookup = await getSessionDimensions({ connection });
    expect(lookup).toEqual(await raw("/insights/3.0/sessions/_meta/references/dimensions"));
    expect(lookup.dimensions.some((dimension) => dimension.is_custom)).toBe(true);
  });
});

describe("metrics (spec 4.6)", () => {
  it("getMetric lays out the series and totals of the metric's value fields", async () => {
    const data = await getMetric({ metric: "plays", range: { lastDays: 1 }, connection });
    const body = await raw("/insights/3.0/metrics/plays", { days: 1 });
    expect(Object.keys(data.series)).toEqual(["plays"]);
    expect(Object.keys(data.series.plays).sort()).toEqual(["count", "percentage"]);
    expect(data.series.plays.count).toEqual(wirePoints(body.time_series, (point) => point.plays.count));
    expect(data.series.plays.count).toHaveLength(24);
    expect(data.total?.plays).toEqual({ count: body.total.plays.count, percentage: body.total.plays.percentage });
    expect(data.response).toEqual(body);
  });

  it("getMetric answers a split query (here after a 413) without a total, with the windows' totals", async () => {
    const rule = await emulator.control("POST", "faults", { method: "GET", path: "/insights/3.0/metrics/attempts", status: 413, times: 1 });
    expect(rule.status).toBe(201);
    try {
      const data = await getMetric({ metric: "attempts", range: { lastDays: 1 }, connection });
      expect(data.total).toBeUndefined();
      expect(data.windows).toHaveLength(2);
      for (const window of data.windows) expect(window.total?.attempts?.count).toEqual(expect.any(Number));
      expect(data.series.attempts.count).toHaveLength(24);
      const whole = await raw("/insights/3.0/metrics/attempts", { days: 1 });
      expect(data.series.attempts.count).toEqual(wirePoints(whole.time_series, (point) => point.attempts.count));
    } finally {
      await emulator.control("DELETE", "faults");
    }
  });

  it("getMetric takes the older alias and the real-time metric group", async () => {
    const alias = await getMetric({ metric: "exit-before-video-starts", range: { lastDays: 1 }, granularity: "ALL", connection });
    expect(Object.keys(alias.series["exit-before-video-starts"]).sort()).toEqual(["count", "percentage"]);
    const summary = await getMetric({ metric: "quality-summary", realTime: true, range: { lastMinutes: 5 }, connection });
    expect(Object.keys(summary.series).sort()).toEqual([...QUALITY_SUMMARY_MEMBERS].sort());
    const body = await raw("/insights/3.0/real-time-metrics/quality-summary", { minutes: 5 });
    expect(summary.series.bitrate.bps).toEqual(wirePoints(body.time_series, (point) => point.bitrate.bps));
  });

  it("getMetric refuses a real-time range in historical form and an unknown realTime value", async () => {
    const mark = await journalMark(emulator);
    const days = await failure(getMetric({ metric: "plays", realTime: true, range: { lastDays: 1 }, connection } as never));
    expect(days).toBeInstanceOf(ArgumentError);
    expect((days as ArgumentError).path).toBe("range.lastDays");
    const flag = await failure(getMetric({ metric: "plays", realTime: "yes", connection } as never));
    expect(flag).toBeInstanceOf(ArgumentError);
    expect((flag as ArgumentError).path).toBe("realTime");
    expect(await requestsSince(emulator, mark)).toEqual([]);
  });

  it("getMetrics answers a custom selection of more than 12 metrics as one result", async () => {
    const names = [
      "attempts", "plays", "ended-plays", "bitrate", "framerate", "rebuffering-ratio", "video-start-time", "video-restart-time",
      "video-start-failures", "video-playback-failures", "exits-before-video-start", "minutes-played", "unique-devices",
    ] as const;
    const mark = await journalMark(emulator);
    const data = await getMetrics({ metrics: names, range: { lastDays: 1 }, granularity: "ALL", connection });
    expect((await requestsSince(emulator, mark)).filter((entry) => entry.path.endsWith("/custom-selection"))).toHaveLength(2);
    expect(Object.keys(data.series).sort()).toEqual([...names].sort());
    expect(Object.keys(data.series["minutes-played"]).sort()).toEqual(["count", "per_ended_play", "per_unique_device"]);
    const body = await raw("/insights/3.0/metrics/ended-plays", { days: 1, granularity: "ALL" });
    expect(data.total?.["ended-plays"]).toEqual(body.total.ended_plays);
  });

  it("getMetricGroupBy answers the top entities ranked as asked, with their series and totals", async () => {
    const query = { metric: "plays", dimension: "isp", limit: 3, sortBy: "plays", order: "desc", range: { lastDays: 1 }, granularity: "ALL" } as const;
    const data = await getMetricGroupBy({ ...query, connection });
    const body = await raw("/insights/3.0/metrics/plays/group-by/isp", { days: 1, granularity: "ALL", limit: 3, sort_by: "plays", order: "desc" });
    expect(data.entities.map((entity) => entity.value)).toEqual(body.total.dimensional_data.map((datum: any) => datum.dimension.value));
    expect(data.entities.length).toBe(3);
    const counts = data.entities.map((entity) => entity.total!.plays.count!);
    expect(counts).toEqual([...counts].sort((left, right) => right - left));
    expect(data.entities[0]!.series.plays.count).toEqual([{ time: expect.any(String), epochMs: expect.any(Number), value: expect.any(Number) }]);
  });

  it("getMetricsGroupBy groups several metrics by a dimension", async () => {
    const data = await getMetricsGroupBy({ metrics: ["plays", "video-start-failures"], dimension: "geo-country-code", limit: 5, range: { lastDays: 1 }, granularity: "ALL", connection });
    expect(data.entities.length).toBeGreaterThan(0);
    for (const entity of data.entities) {
      expect(entity.value).toMatch(/^[A-Z]{2}$/);
      expect(Object.keys(entity.series).sort()).toEqual(["plays", "video-start-failures"]);
    }
  });

  it("getDimensionTags lists the custom tags that getMetricGroupByTag groups by", async () => {
    const tags = await getDimensionTags({ metric: "plays", connection });
    expect(tags).toEqual({ dimension_tags: listedItems(await raw("/insights/3.0/metrics/plays/group-by/dimension-tag"), "dimension_tags") });
    const tag = tags.dimension_tags[0]!.name;
    const data = await getMetricGroupByTag({ metric: "plays", tag, range: { lastDays: 1 }, granularity: "ALL", connection });
    const body = await raw(`/insights/3.0/metrics/plays/group-by/dimension-tag/${encodeURIComponent(tag)}`, { days: 1, granularity: "ALL" });
    expect(data.response.time_series).toEqual(body.time_series);
    expect(data.entities.map((entity) => entity.value)).toEqual(body.total.dimensional_data.map((datum: any) => datum.dimension.value));
  });

  it("getGroupByDimensions lists a metric's dimensions, historical or real time", async () => {
    expect(await getGroupByDimensions({ metric: "video-start-failures", connection })).toEqual({ dimensions: listedItems(await raw("/insights/3.0/metrics/video-start-failures/group-by"), "dimensions") });
    expect(await getGroupByDimensions({ metric: "plays", realTime: true, connection })).toEqual({ dimensions: listedItems(await raw("/insights/3.0/real-time-metrics/plays/group-by"), "dimensions") });
  });

  it("getMetricDimensions, getSavedFilterReferences and getKpis answer the listings", async () => {
    expect(await getMetricDimensions({ connection })).toEqual({ dimensions: listedItems(await raw("/3.0/metrics/_meta/references/dimensions"), "dimensions") });
    const created = await emulator.call("POST", "/bulk_filters/", {
      body: [{ name: "h8 reference", rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: "x" }] } }],
    });
    const references = await getSavedFilterReferences({ connection });
    expect(references.filters).toContainEqual(expect.objectContaining({ id: String(created.body[0].id), name: "h8 reference" }));
    const kpis = await getKpis({ connection });
    const body = await raw("/kpis");
    expect(kpis.kpis.map((kpi) => [String(kpi.kpi_id), kpi.kpi_name])).toEqual(listedItems(body, "kpis").map((kpi: any) => [String(kpi.kpi_id), kpi.kpi_name]));
    expect(kpis.kpis.map((kpi) => String(kpi.kpi_id))).toContain("1");
  });
});

describe("AI alerts (spec 4.9)", () => {
  it("getContentAlerts filters by severity and status as the endpoint does", async () => {
    const list = await getContentAlerts({ severity: ["critical", "warning"], status: ["active"], connection });
    const body = await raw("/insights/2.6/ai-alerts/content-metrics", { severity: "critical,warning", status: "active" });
    expect(list).toEqual({ ...body, alerts: newestFirst(body.alerts) });
    expect(list.alerts.length).toBeGreaterThan(0);
    for (const alert of list.alerts) {
      expect(["critical", "warning"]).toContain(alert.severity);
      expect(alert.status).toBe("active");
    }
  });

  it("getContentAlerts takes a range over 30 days (fetched in windows)", async () => {
    const range = { start: TEST_NOW_MS - 60 * DAY_MS, end: TEST_NOW_MS };
    const list = await getContentAlerts({ range, alertMetric: ["VSF", "VST"], connection });
    expect(list.alerts.length).toBeGreaterThan(0);
    for (const alert of list.alerts) expect(["VSF", "VST"]).toContain(alert.alert_metric.name);
  });

  it("getContentAlert and getAdAlert answer one alert with its timeline", async () => {
    const [content] = (await getContentAlerts({ connection })).alerts;
    expect(await getContentAlert({ alertId: content!.id, connection })).toEqual(await raw(`/insights/2.6/ai-alerts/content-metrics/${content!.id}`));
    const [ad] = (await getAdAlerts({ connection })).alerts;
    expect(ad).toBeDefined();
    const detail = await getAdAlert({ alertId: ad!.id, connection });
    expect(detail).toEqual(await raw(`/insights/2.6/ai-alerts/ad-metrics/${ad!.id}`));
    expect(detail.timeline.start.timestamp.epoch_sec).toBe(ad!.timeline.start.timestamp.epoch_sec);
  });

  it("an unknown alert id is a NotFoundError; an unknown alert metric is refused before sending", async () => {
    expect(await failure(getContentAlert({ alertId: "no-such-alert", connection }))).toBeInstanceOf(NotFoundError);
    const error = await failure(getAdAlerts({ alertMetric: ["EBVS"], connection } as never));
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as ArgumentError).path).toBe("alertMetric[0]");
  });
});

describe("saved filters and lookups (spec 4.8)", () => {
  const rules = (value: string) => ({ op: "and", rules: [{ op: "or", rules: [{ field: "Asset Name", op: "contains", value }] }] });
  let ids: string[];
  beforeAll(async () => {
    const created = await emulator.call("POST", "/bulk_filters/", {
      body: [
        { name: "h8 sports", rules: rules("sports"), category: "CONTENT", enabled: true },
        { name: "h8 sports live", rules: rules("live"), category: "CONTENT", enabled: false },
        { name: "h8 twin", rules: rules("a") },
        { name: "h8 twin", rules: rules("b") },
      ],
    });
    expect(created.status).toBe(201);
    ids = created.body.map((filter: any) => String(filter.id));
  });

  it("getSavedFilters lists with the query parameters", async () => {
    const { filters } = await getSavedFilters({ name: "h8 sports", connection });
    expect(filters.map((filter) => filter.name).sort()).toEqual(["h8 sports", "h8 sports live"]);
    const enabled = await getSavedFilters({ name: "h8 sports", enabled: false, connection });
    expect(enabled.filters.map((filter) => filter.id)).toEqual([ids[1]]);
    const byIds = await getSavedFilters({ ids: [ids[0]!, ids[2]!], connection });
    expect(byIds.filters.map((filter) => filter.id).sort()).toEqual([ids[0], ids[2]].sort());
  });

  it("getSavedFilter reads one by id (string or number); an unknown id is a NotFoundError", async () => {
    const filter = await getSavedFilter({ id: Number(ids[1]), connection });
    expect(filter).toMatchObject({ id: ids[1], name: "h8 sports live", enabled: false });
    expect(await failure(getSavedFilter({ id: "987654", connection }))).toBeInstanceOf(NotFoundError);
  });

  it("getSavedFilterByName matches the exact name, not the substring", async () => {
    const filter = await getSavedFilterByName({ name: "h8 sports", connection });
    expect(filter.id).toBe(ids[0]);
  });

  it("getSavedFilterByName: none is a NotFoundError with a suggestion, several an error listing their ids", async () => {
    const missing = await failure(getSavedFilterByName({ name: "h8 sport", connection }));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as Error).message).toContain('did you mean "h8 sports"?');
    const twins = await failure(getSavedFilterByName({ name: "h8 twin", connection }));
    expect(twins).toBeInstanceOf(InsightsError);
    expect((twins as Error).message).toContain(`ids ${ids[2]}, ${ids[3]}`);
  });

  it("getFilterFieldValues answers each lookup with the pattern, and subcategories of a category", async () => {
    for (const field of ["countries", "asn", "cities", "continents", "dma", "isp", "states", "tags", "categories"] as const) {
      const { values, complete } = await getFilterFieldValues({ field, connection });
      expect(values, field).toEqual((await raw(`/bulk_filters/${field}/`)).values);
      expect(values.length, field).toBeGreaterThan(0);
      expect(complete, field).toBe(true);
    }
    const united = await getFilterFieldValues({ field: "countries", pattern: "United", connection });
    expect(united.values.length).toBeGreaterThan(0);
    for (const value of united.values) expect(value).toContain("United");
    const subcategories = await getFilterFieldValues({ field: "subcategories", category: "CONTENT", connection });
    expect(subcategories.values).toEqual((await raw("/bulk_filters/subcategories/", { category: "CONTENT" })).values);
  });

  it("getFilterFieldValues says when a lookup longer than one answer was cut, and a pattern narrows it", async () => {
    // An account with 600 cities besides its data world's (emulator/README.md "Accounts").
    const towns = Array.from({ length: 600 }, (_, index) => `Town ${String(index).padStart(3, "0")}`);
    const account = { clientId: "many-cities", clientSecret: "many-cities-secret", features: { bulkFilters: true }, lookupValues: { cities: towns } };
    expect((await emulator.control("POST", "accounts", account)).status).toBe(201);
    const manyCities = { ...connection, clientId: account.clientId, clientSecret: account.clientSecret };
    const whole = await getFilterFieldValues({ field: "cities", connection: manyCities });
    expect(whole.values).toHaveLength(500);
    expect(whole.complete).toBe(false);
    const narrowed = await getFilterFieldValues({ field: "cities", pattern: "Town 59", connection: manyCities });
    expect(narrowed).toEqual({ values: towns.slice(590), complete: true });
  });

  it("getFilterFieldValues refuses an unknown field with a suggestion, and a category on another field", async () => {
    const unknown = await failure(getFilterFieldValues({ field: "countrys", connection } as never));
    expect(unknown).toBeInstanceOf(ArgumentError);
    expect((unknown as Error).message).toContain('did you mean "countries"?');
    const category = await failure(getFilterFieldValues({ field: "countries", category: "CONTENT", connection } as never));
    expect(category).toBeInstanceOf(ArgumentError);
    expect((category as ArgumentError).path).toBe("category");
  });

  it("getFilterFields answers the filter field names of spec 2.7", async () => {
    expect((await getFilterFields({ connection })).fields.sort()).toEqual([...SPEC_FILTER_FIELDS].sort());
  });
});

describe("PII opt-out requests (spec 4.10)", () => {
  let requestId: string;
  beforeAll(async () => {
    const submitted = await emulator.call("POST", "/pii-opt-out", { body: { viewer_id: ["h8-viewer-1", "h8-viewer-2"], "@notification_email": ["privacy@example.com"] } });
    expect(submitted.status).toBe(201);
    requestId = submitted.body.id;
  });

  it("getPiiOptOutRequests lists requests by status", async () => {
    const { requests } = await getPiiOptOutRequests({ status: ["ENQUEUED", "STARTED", "FINISHED"], connection });
    expect(requests.map((request) => request.id)).toContain(requestId);
    const body = await raw("/pii-opt-out", { status: "ENQUEUED,STARTED,FINISHED" });
    expect(requests).toEqual(listedItems(body, "requests"));
  });

  it("getPiiOptOutRequest answers one request with its identifiers; an unknown id is a NotFoundError", async () => {
    const request = await getPiiOptOutRequest({ id: requestId, connection });
    expect(request.id).toBe(requestId);
    expect(request.identifiers.viewer_id).toEqual(["h8-viewer-1", "h8-viewer-2"]);
    expect(await failure(getPiiOptOutRequest({ id: "nosuchrequest", connection }))).toBeInstanceOf(NotFoundError);
  });
});

describe("settings", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("reads missing settings from the environment, each setting on its own", async () => {
    vi.stubEnv("INSIGHTS_CLIENT_ID", DEV.clientId);
    vi.stubEnv("INSIGHTS_CLIENT_SECRET", DEV.clientSecret);
    expect((await getFilterFields({ connection: { baseUrl: emulator.url } })).fields).toHaveLength(SPEC_FILTER_FIELDS.length);
    vi.stubEnv("INSIGHTS_BASE_URL", emulator.url);
    expect((await getFilterFields()).fields).toHaveLength(SPEC_FILTER_FIELDS.length);
  });

  it("explicit settings win over the environment; a refused secret never shows in the error", async () => {
    vi.stubEnv("INSIGHTS_CLIENT_SECRET", DEV.clientSecret);
    const error = await failure(getKpis({ connection: { baseUrl: emulator.url, clientId: "dev", clientSecret: "h8-wrong-secret" } }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(JSON.stringify(error) + String(error) + (error as Error).stack).not.toContain("h8-wrong-secret");
  });

  it("a setting found nowhere rejects with a SettingsError naming the three places", async () => {
    vi.stubEnv("INSIGHTS_CLIENT_SECRET", undefined);
    const call = getKpis({ connection: { baseUrl: emulator.url, clientId: "dev" } });
    expect(call).toBeInstanceOf(Promise);
    const error = await failure(call);
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).option).toBe("clientSecret");
    expect((error as Error).message).toContain("connection.clientSecret");
    expect((error as Error).message).toContain("pulumi config set --secret insights:clientSecret");
    expect((error as Error).message).toContain("INSIGHTS_CLIENT_SECRET");
  });

  it("the timeout and the retry budget are settings: INSIGHTS_TIMEOUT_MS ends a slow read, a bad value names its key", async () => {
    await emulator.control("POST", "faults", { method: "GET", path: "/bulk_filters/fields", latencyMs: 2_000, times: 1 });
    vi.stubEnv("INSIGHTS_TIMEOUT_MS", "100");
    vi.stubEnv("INSIGHTS_MAX_RETRIES", "0");
    const slow = await failure(getFilterFields({ connection }));
    expect(slow).toBeInstanceOf(TimeoutError);
    expect((slow as Error).message).toContain("100 ms");
    vi.stubEnv("INSIGHTS_TIMEOUT_MS", "soon");
    const refused = await failure(getFilterFields({ connection }));
    expect(refused).toBeInstanceOf(SettingsError);
    expect((refused as SettingsError).option).toBe("timeoutMs");
    expect((refused as Error).message).toBe('the environment variable INSIGHTS_TIMEOUT_MS must be an integer from 1 to 3600000, got "soon"');
  });

  it("the largest answer read is a setting: INSIGHTS_MAX_RESPONSE_BYTES ends a larger answer with the limit named", async () => {
    vi.stubEnv("INSIGHTS_MAX_RESPONSE_BYTES", "100");
    const cut = await failure(getFilterFields({ connection }));
    expect(cut).toBeInstanceOf(ResponseTooLargeError);
    expect(cut).toMatchObject({ limitBytes: 100, message: expect.stringContaining("more than the client's limit of 100 bytes (maxResponseBytes)") });
    vi.stubEnv("INSIGHTS_MAX_RESPONSE_BYTES", "0");
    expect(await failure(getFilterFields({ connection }))).toMatchObject({ option: "maxResponseBytes", message: 'the environment variable INSIGHTS_MAX_RESPONSE_BYTES must be an integer from 1 to 500000000, got "0"' });
  });

  describe("named accounts (docs/configuration.md \"Accounts\")", () => {
    const accounts = (value: unknown) => pulumi.runtime.setConfig("insights:accounts", typeof value === "string" ? value : JSON.stringify(value));
    afterEach(() => accounts(""));

    it("`account` reads an account of insights:accounts; an unknown name is refused with the names there are", async () => {
      accounts({ production: { baseUrl: emulator.url, ...DEV } });
      expect((await getFilterFields({ account: "production" })).fields).toHaveLength(SPEC_FILTER_FIELDS.length);
      const unknown = await failure(getFilterFields({ account: "prodution" }));
      expect(unknown).toBeInstanceOf(SettingsError);
      expect((unknown as Error).message).toBe('no account named "prodution": did you mean "production"? (stack config insights:accounts)');
    });

    it("a malformed insights:accounts names the place at fault and never quotes a value", async () => {
      accounts(`{"production": {"baseUrl": "${emulator.url}", "clientId": "dev", "clientSecret": "h14-secret-in-broken-json"`);
      const broken = (await failure(getFilterFields({ account: "production" }))) as Error;
      expect(broken.message).toBe("the stack config insights:accounts is not valid JSON: set it as a map of name to {baseUrl, clientId, clientSecret}");
      accounts({ production: { baseUrl: emulator.url, clientId: "dev", clientSecert: "h14-misspelt-secret" } });
      const misspelt = (await failure(getFilterFields({ account: "production" }))) as Error;
      expect(misspelt.message).toBe('the stack config insights:accounts.production.clientSecert is not a setting; did you mean "clientSecret"?');
      accounts({ production: { baseUrl: emulator.url, clientId: "dev" } });
      const missing = (await failure(getFilterFields({ account: "production" }))) as Error;
      expect(missing.message).toBe(
        "the stack config insights:accounts.production.clientSecret must be a non-empty string (`pulumi config set --secret --path 'insights:accounts.production.clientSecret' <value>`)",
      );
    });
  });

  it("the client's own checks apply: plain HTTP to a remote host is refused", async () => {
    const error = await failure(getKpis({ connection: { ...connection, baseUrl: "http://insights.example.com" } }));
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).option).toBe("baseUrl");
  });
});
