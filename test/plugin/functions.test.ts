import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSecret, PLUGIN_PACKAGE, REPOSITORY_ROOT, revealSecrets, secret, startProviderPlugin, type PropertyMap, type ProviderHost } from "../../engine";
import { DEV, listedItems, useTestEmulator } from "../support/emulator";
import { journalMark, requestsSince } from "../support/query-families";

/**
 * The package's functions through Invoke (docs/provider-plugins.md rule 11), one of each family the
 * schema declares from the client's zod schemas (provider/plugin/schema/declaration.ts): AI alerts,
 * sessions, the metric lookups and the metric series, called as the engine calls them on the plugin started as the
 * engine starts it, against the emulator. What a program gets is what the endpoint answers, in the
 * client's order; an argument the schema refuses is a failure at its path; sessions and viewer
 * summaries (viewer ids, IP addresses) are answered as secrets, and a refused identity is not repeated.
 */

// The plugin reads with the real clock (a child process cannot share a test's fake one), so the
// emulator's frozen clock stands at the same time, and the sample ranges are recent by both.
const NOW_MS = Date.now();
const HOUR_MS = 3_600_000;
const emulator = useTestEmulator({ clock: { start: new Date(NOW_MS).toISOString(), frozen: true } });
const SCHEMA = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, "provider/plugin/schema.json"), "utf8")) as {
  functions: Record<string, { inputs: { properties: Record<string, unknown> }; outputs: { properties: Record<string, unknown> } }>;
};

/** The emulator's answer to the same query, asserted 200. */
async function raw(route: string, query: Record<string, string | number> = {}): Promise<any> {
  const response = await emulator.get(route, query);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** Sessions or alerts newest start first, then by id: the client's order (provider/schema/assumptions.ts SESSION_AND_ALERT_ORDER_RULE). */
function newestFirst<Item extends { timestamps?: { start: { epoch_ms: number } }; timeline?: { start: { timestamp: { epoch_sec: number } } }; session_id?: string; id?: string }>(items: Item[]): Item[] {
  const start = (item: Item) => item.timestamps?.start.epoch_ms ?? item.timeline!.start.timestamp.epoch_sec;
  const id = (item: Item) => item.session_id ?? item.id!;
  return [...items].sort((left, right) => start(right) - start(left) || (id(left) < id(right) ? -1 : id(left) > id(right) ? 1 : 0));
}

describe("the plugin's functions through Invoke", () => {
  let plugin: ProviderHost;
  const invoke = (name: string, args: PropertyMap) => plugin.invoke(`insights:index:${name}`, args);

  beforeAll(async () => {
    plugin = await startProviderPlugin();
    await plugin.configure({ baseUrl: emulator.url, clientId: DEV.clientId, clientSecret: secret(DEV.clientSecret), maxRetries: 0 }, { package: PLUGIN_PACKAGE });
  });
  afterAll(async () => {
    await plugin?.close();
  });

  /** Every argument given is one the schema declares for the function: what a generated SDK can send. */
  function declared(name: string, args: PropertyMap): PropertyMap {
    const properties = Object.keys(SCHEMA.functions[`insights:index:${name}`]!.inputs.properties);
    expect(properties, name).toEqual(expect.arrayContaining(Object.keys(args)));
    return args;
  }

  describe("AI alerts", () => {
    it("getContentAlerts answers the endpoint's alerts newest first, filtered as asked", async () => {
      // Which severities and statuses exist depends on the time (emulator/README.md "Anomalies"): filter by those of an alert listed now.
      const [listed] = (await raw("/insights/2.6/ai-alerts/content-metrics")).alerts;
      expect(listed).toBeDefined();
      const answer = await invoke("getContentAlerts", declared("getContentAlerts", { severity: [listed.severity], status: [listed.status] }));
      const body = await raw("/insights/2.6/ai-alerts/content-metrics", { severity: listed.severity, status: listed.status });
      expect(body.alerts.length).toBeGreaterThan(0);
      expect(answer).toEqual({ outputs: { ...body, alerts: newestFirst(body.alerts) }, failures: [] });
      expect(Object.keys(answer.outputs)).toEqual(Object.keys(SCHEMA.functions["insights:index:getContentAlerts"]!.outputs.properties));
    });

    it("getAdAlert answers one alert with its timeline", async () => {
      const [listed] = (await raw("/insights/2.6/ai-alerts/ad-metrics")).alerts;
      expect(listed).toBeDefined();
      const answer = await invoke("getAdAlert", declared("getAdAlert", { alertId: listed.id }));
      expect(answer).toEqual({ outputs: await raw(`/insights/2.6/ai-alerts/ad-metrics/${listed.id}`), failures: [] });
    });

    it("refuses a severity, a metric or a range the schema refuses, at its path, before any request", async () => {
      const mark = await journalMark(emulator);
      expect((await invoke("getContentAlerts", { severity: ["critical", "urgent"] })).failures).toEqual([
        { property: "severity[1]", reason: expect.stringContaining('"urgent" is not a known severity') },
      ]);
      expect((await invoke("getAdAlerts", { alertMetric: ["VST"] })).failures).toEqual([{ property: "alertMetric[0]", reason: expect.stringContaining("is not a known ad alert metric") }]);
      expect((await invoke("getContentAlerts", { range: { lastDays: 7 } })).failures).toEqual([{ property: "range.lastDays", reason: expect.stringContaining("AI alerts take { start, end }") }]);
      expect(await requestsSince(emulator, mark)).toEqual([]);
    });
  });

  describe("sessions: personal data", () => {
    const range = { start: NOW_MS - 3 * HOUR_MS, end: NOW_MS };
    let sample: any[];
    beforeAll(async () => {
      sample = (await raw("/insights/3.0/sessions/content", { start_epoch_ms: range.start, end_epoch_ms: range.end, limit: 50 })).sessions;
      expect(sample.some((session) => typeof session.viewer_id === "string")).toBe(true);
    });

    it("getContentSessions answers the sample as the endpoint does, each result property a secret", async () => {
      const answer = await invoke("getContentSessions", declared("getContentSessions", { range, limit: 50 }));
      expect(answer.failures).toEqual([]);
      expect(Object.keys(answer.outputs)).toEqual(["sessions"]);
      for (const value of Object.values(answer.outputs)) expect(isSecret(value)).toBe(true);
      expect(revealSecrets(answer.outputs)).toEqual({ sessions: newestFirst(sample) });
    });

    it("getViewerSessions answers one viewer's sessions as secrets, asked by a secret id as an SDK sends it", async () => {
      const viewerId = sample.find((session) => typeof session.viewer_id === "string").viewer_id as string;
      const answer = await invoke("getViewerSessions", declared("getViewerSessions", { viewerId: secret(viewerId), range, limit: 5 }));
      expect(answer.failures).toEqual([]);
      expect(isSecret(answer.outputs.sessions)).toBe(true);
      const all = await raw("/insights/3.0/sessions/content/viewer", { viewer_id: viewerId, start_epoch_ms: range.start, end_epoch_ms: range.end, limit: 500 });
      expect(all.sessions.length).toBeGreaterThan(0);
      expect(revealSecrets(answer.outputs)).toEqual({ ...all, sessions: newestFirst(all.sessions).slice(0, 5) });
      for (const session of (revealSecrets(answer.outputs) as { sessions: any[] }).sessions) expect(session.viewer_id).toBe(viewerId);
    });

    it("getViewerSummary answers the summary as secrets", async () => {
      const ip = sample[0].network_info.ip as string;
      const answer = await invoke("getViewerSummary", declared("getViewerSummary", { viewerIp: secret(ip), range }));
      expect(answer.failures).toEqual([]);
      for (const value of Object.values(answer.outputs)) expect(isSecret(value)).toBe(true);
      expect(revealSecrets(answer.outputs)).toEqual(
        await raw("/insights/3.0/sessions/content/viewer/summary", { viewer_ip: ip, start_epoch_ms: range.start, end_epoch_ms: range.end }),
      );
    });

    it("refuses a viewer IP address at its path without repeating it, and both identities at once", async () => {
      const refused = await invoke("getViewerSessions", { viewerIp: secret("10.0.0.300-private"), range });
      expect(refused.failures).toEqual([{ property: "viewerIp", reason: expect.stringContaining("must be an IPv4 or IPv6 address") }]);
      expect(JSON.stringify(refused)).not.toContain("10.0.0.300-private");
      const both = await invoke("getViewerSummary", { viewerId: "viewer-1", viewerIp: "10.0.0.1" });
      expect(both.failures).toEqual([{ property: "viewerId", reason: expect.stringContaining("give exactly one of viewerId or viewerIp") }]);
      const tooLong = await invoke("getContentSessions", { range: { start: NOW_MS - 4 * HOUR_MS, end: NOW_MS } });
      expect(tooLong.failures).toEqual([{ property: "range", reason: expect.stringContaining("cover at most 3 hours") }]);
    });

    it("getSessionDimensions answers the lookup, not a secret", async () => {
      const answer = await invoke("getSessionDimensions", declared("getSessionDimensions", {}));
      expect(answer).toEqual({ outputs: await raw("/insights/3.0/sessions/_meta/references/dimensions"), failures: [] });
    });
  });

  describe("metrics", () => {
    it("getKpis answers the KPI sets, ids as strings", async () => {
      const answer = await invoke("getKpis", declared("getKpis", {}));
      expect(answer.failures).toEqual([]);
      const kpis = listedItems(await raw("/kpis"), "kpis");
      expect(answer.outputs).toEqual({ kpis: kpis.map((kpi: any) => ({ ...kpi, kpi_id: String(kpi.kpi_id) })) });
      expect((answer.outputs.kpis as Array<{ kpi_id: string }>).map((kpi) => kpi.kpi_id)).toContain("1");
    });

    it("getGroupByDimensions lists a metric's dimensions, historical or real time", async () => {
      const historical = await invoke("getGroupByDimensions", declared("getGroupByDimensions", { metric: "video-start-failures" }));
      expect(historical).toEqual({ outputs: { dimensions: listedItems(await raw("/insights/3.0/metrics/video-start-failures/group-by"), "dimensions") }, failures: [] });
      const realTime = await invoke("getGroupByDimensions", declared("getGroupByDimensions", { metric: "plays", realTime: true }));
      expect(realTime).toEqual({ outputs: { dimensions: listedItems(await raw("/insights/3.0/real-time-metrics/plays/group-by"), "dimensions") }, failures: [] });
    });

    // Whole hours by both clocks, so the historical range is the same wherever the hour stands.
    const hoursEnd = Math.floor(NOW_MS / HOUR_MS) * HOUR_MS;
    const hours = { start: hoursEnd - 6 * HOUR_MS, end: hoursEnd };
    const hoursQuery = { start_epoch_ms: hours.start, end_epoch_ms: hours.end, granularity: "PT1H" };

    it("getMetric answers series[metric][field] and total[metric][field] from the endpoint's answer", async () => {
      const answer = await invoke("getMetric", declared("getMetric", { metric: "plays", range: hours, granularity: "PT1H" }));
      const body = await raw("/insights/3.0/metrics/plays", hoursQuery);
      expect(answer.failures).toEqual([]);
      const outputs = answer.outputs as { series: any; total: any; windows: any[] };
      const counts = body.time_series.map((point: any) => ({ time: new Date(point.timestamp.epoch_ms).toISOString(), epochMs: point.timestamp.epoch_ms, value: point.plays.count }));
      expect(counts.length).toBeGreaterThan(0);
      expect(outputs.series.plays.count).toEqual(counts);
      expect(outputs.total.plays.count).toBe(body.total.plays.count);
      expect(outputs.windows).toEqual([expect.objectContaining({ startMs: hours.start, endMs: hours.end })]);
    });

    it("getMetricGroupBy answers the top entities, each with its series and total", async () => {
      const answer = await invoke("getMetricGroupBy", declared("getMetricGroupBy", { metric: "plays", dimension: "geo-country-code", range: hours, granularity: "PT1H", limit: 3, order: "desc" }));
      expect(answer.failures).toEqual([]);
      const body = await raw("/insights/3.0/metrics/plays/group-by/geo-country-code", { ...hoursQuery, limit: 3, order: "desc" });
      const entities = answer.outputs.entities as Array<{ value: string; series: any; total: any }>;
      expect(entities.length).toBeGreaterThan(0);
      // The whole-range totals rank the entities; the alternate dialect may send them as a bare array (emulator/README.md "Dialects").
      const totals = Array.isArray(body.total) ? body.total : body.total.dimensional_data;
      const ranked = totals.map((datum: any) => [datum.dimension.value, datum.metrics.plays.count]);
      // Ranked as the total ranks them; then any entity an interval listed among its own top ones (the alternate dialect).
      expect(entities.slice(0, ranked.length).map((entity) => [entity.value, entity.total.plays.count])).toEqual(ranked);
      for (const entity of entities) expect(entity.series.plays.count.length).toBeGreaterThan(0);
    });

    it("refuses a range of the other family and a ranking by a metric not asked for, at their paths", async () => {
      expect((await invoke("getMetric", { metric: "plays", realTime: true, range: { lastDays: 1 } })).failures).toEqual([
        { property: "range.lastDays", reason: expect.stringContaining("accepted only by historical metrics") },
      ]);
      expect((await invoke("getMetricGroupBy", { metric: "plays", dimension: "isp", sortBy: "attempts" })).failures).toEqual([
        { property: "sortBy", reason: expect.stringContaining("is not a known requested metric") },
      ]);
    });

    it("refuses a metric the schema does not list, with the nearest", async () => {
      const refused = await invoke("getDimensionTags", { metric: "plays2" });
      expect(refused.failures).toEqual([{ property: "metric", reason: expect.stringContaining('did you mean "plays"?') }]);
    });
  });
});
