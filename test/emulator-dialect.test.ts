import { describe, expect, it } from "vitest";
import { DEV, refusedEmulatorCommand, TEST_NOW, TEST_NOW_MS, useTestEmulator, withEmulatorCommand } from "./support/emulator";

/**
 * The alternate dialect (emulator/README.md "Dialects"): wherever the contract is silent it answers
 * the other plausible shape. Each test states one place, in the standard and the alternate dialect
 * side by side; the alternate account is made through the control plane, so both run in one emulator.
 */

const ALT = { clientId: "alt", clientSecret: "alt-secret" } as const;
const RULES = { op: "and", rules: [{ field: "CDN", op: "equals", value: "Akamai" }] };
const HOUR = { start_date: "2026-11-20T10:00:00Z", end_date: "2026-11-20T11:00:00Z" };

describe("emulator dialects", () => {
  const emulator = useTestEmulator();

  const addAlternate = async () => {
    const added = await emulator.control("POST", "accounts", {
      ...ALT, userName: "alt@example.com", dialect: "alternate", features: { bulkFilters: true, adInsights: true, viewerModule: true },
    });
    expect(added.status).toBe(201);
    expect(added.body.dialect).toBe("alternate");
  };
  /** The same call from the dev account (standard) and the alternate account. */
  const both = async (method: string, path: string, options: { query?: Record<string, string | string[] | number>; body?: unknown } = {}) => {
    const standard = await emulator.call(method, path, { ...options, account: DEV });
    const alternate = await emulator.call(method, path, { ...options, account: ALT });
    return { standard, alternate };
  };

  it("is standard unless an account names another; POST /_emulator/accounts takes dialect and refuses an unknown one", async () => {
    const accounts = (await emulator.control("GET", "accounts")).body.accounts;
    expect(accounts.map((account: { dialect: string }) => account.dialect)).toEqual(["standard", "standard"]);
    const unknown = await emulator.control("POST", "accounts", { ...ALT, dialect: "british" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain("alternate");
    await addAlternate();
  });

  describe("saved filters", () => {
    it("swaps the JSON type of ids: POST and DELETE answer strings, GET numbers", async () => {
      await emulator.control("POST", "reset");
      await addAlternate();
      const { standard, alternate } = await both("POST", "/bulk_filters/", { body: [{ name: "Akamai", rules: RULES }] });
      expect([standard.status, alternate.status]).toEqual([201, 201]);
      expect(typeof standard.body[0].id).toBe("number");
      expect(typeof alternate.body[0].id).toBe("string");
      const listed = await both("GET", "/bulk_filters/");
      expect(typeof listed.standard.body.filters[0].id).toBe("string");
      expect(typeof listed.alternate.body.filters[0].id).toBe("number");
      const projected = await both("GET", "/bulk_filters/", { query: { fields: "id,name" } });
      expect(typeof projected.alternate.body[0].id).toBe("number");
      const reference = await emulator.get("/3.0/metrics/_meta/references/filters", {}, ALT);
      expect(reference.body).toEqual([{ id: alternate.body[0].id * 1, name: "Akamai", enabled: true }]);
      const deleted = await emulator.call("DELETE", "/bulk_filters/", { query: { id: String(alternate.body[0].id) }, account: ALT });
      expect(deleted.body).toEqual({ deleted: [{ id: String(alternate.body[0].id), name: "Akamai" }], status: 200 });
    });

    it("answers unknown ids in PUT and DELETE with 404 and {message} only, instead of 400 unknown_id", async () => {
      const put = await both("PUT", "/bulk_filters/", { body: [{ id: 999_999, name: "x" }] });
      expect(put.standard.status).toBe(400);
      expect(put.standard.body.error).toBe("unknown_id");
      expect(put.alternate.status).toBe(404);
      expect(Object.keys(put.alternate.body)).toEqual(["message"]);
      expect(put.alternate.body.message).toContain("999999");
      const remove = await both("DELETE", "/bulk_filters/", { query: { id: "999999" } });
      expect([remove.standard.status, remove.alternate.status]).toEqual([400, 404]);
    });

    it("refuses null in a PUT (standard: null clears category)", async () => {
      const created = await both("POST", "/bulk_filters/", { body: [{ name: "Geo", category: "GEO", rules: RULES }] });
      const standard = await emulator.call("PUT", "/bulk_filters/", { body: [{ id: created.standard.body[0].id, category: null }], account: DEV });
      expect(standard.status).toBe(200);
      const alternate = await emulator.call("PUT", "/bulk_filters/", { body: [{ id: Number(created.alternate.body[0].id), category: null }], account: ALT });
      expect(alternate.status).toBe(400);
      expect(alternate.body.message).toContain("[0].category");
    });

    it("writes location as an absolute URL of the service (standard: a path)", async () => {
      const created = await both("POST", "/bulk_filters/", { body: [{ name: "Loc", rules: RULES }] });
      const standard = await emulator.call("PUT", "/bulk_filters/", { body: [{ id: created.standard.body[0].id, enabled: false }], account: DEV });
      expect(standard.body.location).toBe(`/bulk_filters/?id=${created.standard.body[0].id}`);
      const alternate = await emulator.call("PUT", "/bulk_filters/", { body: [{ id: Number(created.alternate.body[0].id), enabled: false }], account: ALT });
      expect(alternate.body.location).toMatch(new RegExp(`^https://[a-z.]+/bulk_filters/\\?id=${created.alternate.body[0].id}$`));
    });

    it("cuts a listing at its limit without a marker (standard: truncated: true)", async () => {
      await both("POST", "/bulk_filters/", { body: [{ name: "a", rules: RULES }, { name: "b", rules: RULES }, { name: "c", rules: RULES }] });
      const cut = await both("GET", "/bulk_filters/", { query: { limit: 2 } });
      expect(cut.standard.body.truncated).toBe(true);
      expect(cut.standard.body.filters).toHaveLength(2);
      expect(cut.alternate.body).toEqual({ status: 200, filters: expect.any(Array) });
      expect(cut.alternate.body.filters).toHaveLength(2);
      const whole = await both("GET", "/bulk_filters/", { query: { limit: 500 } });
      expect(whole.standard.body.truncated).toBeUndefined();
    });

    it("lists newest first, so that a cut keeps the newest (standard: in id order, the oldest kept)", async () => {
      const whole = await both("GET", "/bulk_filters/", { query: { limit: 500 } });
      const ids = (filters: Array<{ id: string | number }>) => filters.map((filter) => Number(filter.id));
      const standardIds = ids(whole.standard.body.filters);
      const alternateIds = ids(whole.alternate.body.filters);
      expect(standardIds.length).toBeGreaterThan(2);
      expect(standardIds).toEqual([...standardIds].sort((left, right) => left - right));
      expect(alternateIds).toEqual([...alternateIds].sort((left, right) => right - left));
      const cut = await both("GET", "/bulk_filters/", { query: { limit: 2 } });
      expect(ids(cut.standard.body.filters)).toEqual(standardIds.slice(0, 2));
      expect(ids(cut.alternate.body.filters)).toEqual(alternateIds.slice(0, 2));
    });

    it("writes an unset category and subcategory as null (standard: left out), in whole filters and with fields=", async () => {
      const created = await both("POST", "/bulk_filters/", { body: [{ name: "Uncategorised", rules: RULES }] });
      expect(Object.keys(created.standard.body[0])).not.toContain("category");
      expect(created.alternate.body[0]).toMatchObject({ category: null, subcategory: null });
      expect(Object.keys(created.alternate.body[0]).slice(0, 4)).toEqual(["id", "name", "category", "subcategory"]);
      const listed = await both("GET", "/bulk_filters/", { query: { name: "Uncategorised" } });
      expect(listed.standard.body.filters[0]).not.toHaveProperty("subcategory");
      expect(listed.alternate.body.filters[0]).toMatchObject({ category: null, subcategory: null });
      const projected = await both("GET", "/bulk_filters/", { query: { name: "Uncategorised", fields: "name,category" } });
      expect(projected.standard.body).toEqual([{ name: "Uncategorised" }]);
      expect(projected.alternate.body).toEqual([{ name: "Uncategorised", category: null }]);
      const categorised = await both("POST", "/bulk_filters/", { body: [{ name: "Categorised", category: "GEO", rules: RULES }] });
      expect(categorised.alternate.body[0]).toMatchObject({ category: "GEO", subcategory: null });
    });

    it("writes created and edited in a local zone, -05:00 (standard: UTC with +00:00), the same instant", async () => {
      const { standard, alternate } = await both("POST", "/bulk_filters/", { body: [{ name: "Stamped", rules: RULES }] });
      expect(standard.body[0].created).toBe("2026-11-20T12:30:00.000+00:00");
      expect(alternate.body[0].created).toBe("2026-11-20T07:30:00.000-05:00");
      expect(alternate.body[0].edited).toBe(alternate.body[0].created);
      expect(Date.parse(alternate.body[0].created)).toBe(Date.parse(TEST_NOW));
      const listed = await emulator.get("/bulk_filters/", { name: "Stamped", fields: "created,edited" }, ALT);
      expect(listed.body).toEqual([{ created: "2026-11-20T07:30:00.000-05:00", edited: "2026-11-20T07:30:00.000-05:00" }]);
    });

    it("matches name in the case given and pattern at the beginning of a value in the case given (standard: substrings ignoring case)", async () => {
      await both("POST", "/bulk_filters/", { body: [{ name: "Edge Zeta", rules: RULES }, { name: "edge zeta backup", rules: RULES }] });
      const names = (body: { filters: Array<{ name: string }> }) => body.filters.map((filter) => filter.name).sort();
      const upper = await both("GET", "/bulk_filters/", { query: { name: "Edge Zeta" } });
      expect(names(upper.standard.body)).toEqual(["Edge Zeta", "edge zeta backup"]);
      expect(names(upper.alternate.body)).toEqual(["Edge Zeta"]);
      const middle = await both("GET", "/bulk_filters/", { query: { name: "zeta" } });
      expect(names(middle.standard.body)).toEqual(["Edge Zeta", "edge zeta backup"]);
      expect(names(middle.alternate.body)).toEqual(["edge zeta backup"]);
      const countries = await both("GET", "/bulk_filters/countries/", { query: { pattern: "united" } });
      expect(countries.standard.body.values).toEqual(expect.arrayContaining(["United States", "United Kingdom"]));
      expect(countries.alternate.body.values).toEqual([]);
      const prefix = await both("GET", "/bulk_filters/countries/", { query: { pattern: "United" } });
      expect(prefix.alternate.body.values).toEqual(prefix.standard.body.values);
      const inside = await both("GET", "/bulk_filters/countries/", { query: { pattern: "Kingdom" } });
      expect(inside.standard.body.values).toEqual(["United Kingdom"]);
      expect(inside.alternate.body.values).toEqual([]);
      const subcategories = await both("GET", "/bulk_filters/subcategories/", { query: { category: "CONTENT", pattern: "ass" } });
      expect([subcategories.standard.body.values, subcategories.alternate.body.values]).toEqual([["Asset"], []]);
    });
  });

  describe("PII opt-out", () => {
    it("names the ignored count skipped and rejects an all-previously-submitted POST with 409 {message}", async () => {
      const first = await both("POST", "/pii-opt-out", { body: { viewer_id: ["viewer-000200"] } });
      expect(first.standard.body).toEqual({ id: expect.any(String), created: 1, ignored: 0 });
      expect(first.alternate.body).toEqual({ id: expect.any(String), created: 1, skipped: 0 });
      const again = await both("POST", "/pii-opt-out", { body: { viewer_id: ["viewer-000200"] } });
      expect(again.standard.status).toBe(400);
      expect(again.standard.body.error).toBe("all_identifiers_previously_submitted");
      expect(again.alternate.status).toBe(409);
      expect(Object.keys(again.alternate.body)).toEqual(["message"]);
    });

    it("answers reads with 201, the list as a bare array without a cut marker, and times in a local zone", async () => {
      await both("POST", "/pii-opt-out", { body: { viewer_id: ["viewer-000201"] } });
      const lists = await both("GET", "/pii-opt-out", { query: { limit: 1 } });
      expect(lists.standard.status).toBe(200);
      expect(lists.standard.body.requests).toHaveLength(1);
      expect(lists.standard.body.truncated).toBe(true);
      expect(lists.alternate.status).toBe(201);
      expect(Array.isArray(lists.alternate.body)).toBe(true);
      expect(lists.alternate.body).toHaveLength(1);
      const id = lists.alternate.body[0].id as string;
      const one = await emulator.get("/pii-opt-out", { id }, ALT);
      expect(one.status).toBe(201);
      expect(one.body.created_at).toBe("2026-11-20T07:30:00.000-05:00");
      expect(Date.parse(one.body.created_at)).toBe(Date.parse(TEST_NOW));
      expect(lists.standard.body.requests[0].created_at).toBe(TEST_NOW);
    });

    it("lists oldest first, so that a cut keeps the oldest (standard: newest first)", async () => {
      await emulator.control("POST", "clock", { advance: "PT1M" });
      await both("POST", "/pii-opt-out", { body: { viewer_id: ["viewer-000202"] } });
      await emulator.control("POST", "clock", { set: TEST_NOW });
      const lists = await both("GET", "/pii-opt-out");
      const viewers = (requests: Array<{ identifiers: { viewer_id: string[] } }>) => requests.map((request) => request.identifiers.viewer_id[0]);
      expect(viewers(lists.standard.body.requests)).toEqual(["viewer-000202", "viewer-000201", "viewer-000200"]);
      expect(viewers(lists.alternate.body)).toEqual(["viewer-000200", "viewer-000201", "viewer-000202"]);
      const cut = await both("GET", "/pii-opt-out", { query: { limit: 1 } });
      expect(viewers(cut.standard.body.requests)).toEqual(["viewer-000202"]);
      expect(viewers(cut.alternate.body)).toEqual(["viewer-000200"]);
    });
  });

  describe("sessions and alerts", () => {
    type Listed = { sessions: Array<{ session_id: string; timestamps: { start: { epoch_ms: number } } }> };
    const starts = (body: Listed) => body.sessions.map((session) => session.timestamps.start.epoch_ms);
    const ids = (body: Listed) => body.sessions.map((session) => session.session_id);
    const descending = (values: number[]) => [...values].sort((left, right) => right - left);
    const ascending = (values: number[]) => [...values].sort((left, right) => left - right);

    it("lists sample and viewer sessions oldest first, so a cut keeps the oldest (standard: newest first)", async () => {
      const window = { start_epoch_ms: TEST_NOW_MS - 2 * 3_600_000, end_epoch_ms: TEST_NOW_MS };
      for (const [path, query] of [
        ["/insights/3.0/sessions/content", window],
        ["/insights/3.0/sessions/ad", window],
        ["/insights/3.0/sessions/content/viewer", { viewer_id: "viewer-000001", days: 2 }],
      ] as const) {
        const whole = await both("GET", path, { query: { ...query, limit: 500 } });
        expect(whole.standard.body.sessions.length, path).toBeGreaterThan(3);
        expect(whole.standard.body.sessions.length, path).toBeLessThan(500);
        expect(starts(whole.standard.body), path).toEqual(descending(starts(whole.standard.body)));
        expect(starts(whole.alternate.body), path).toEqual(ascending(starts(whole.alternate.body)));
        const cut = await both("GET", path, { query: { ...query, limit: 3 } });
        expect(ids(cut.standard.body), path).toEqual(ids(whole.standard.body).slice(0, 3));
        expect(ids(cut.alternate.body), path).toEqual(ids(whole.alternate.body).slice(0, 3));
      }
    });

    it("lists AI alerts oldest start first (standard: newest first)", async () => {
      type Alert = { timeline: { start: { timestamp: { epoch_sec: number } } } };
      const alertStarts = (body: { alerts: Alert[] }) => body.alerts.map((alert) => alert.timeline.start.timestamp.epoch_sec);
      const lists = await both("GET", "/insights/2.6/ai-alerts/content-metrics");
      expect(lists.standard.body.alerts.length).toBeGreaterThan(2);
      expect(alertStarts(lists.standard.body)).toEqual(descending(alertStarts(lists.standard.body)));
      expect(alertStarts(lists.alternate.body)).toEqual(ascending(alertStarts(lists.alternate.body)));
      expect(new Set(alertStarts(lists.alternate.body)).size).toBeGreaterThan(2);
    });
  });

  describe("errors and statuses", () => {
    it("answers errors of sessions, metrics and alerts as plain text, of bulk filters and PII as {message}", async () => {
      const metric = await both("GET", "/insights/3.0/metrics/atempts");
      expect(metric.standard.status).toBe(404);
      expect(metric.standard.body).toMatchObject({ status: 404, error: "not_found" });
      expect(metric.alternate.status).toBe(404);
      expect(metric.alternate.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(metric.alternate.body).toContain('did you mean "attempts"');
      const filters = await both("GET", "/bulk_filters/", { query: { enable: "true" } });
      expect(filters.alternate.status).toBe(400);
      expect(Object.keys(filters.alternate.body)).toEqual(["message"]);
      const unauthorized = await emulator.get("/kpis", {}, { ...ALT, clientSecret: "wrong" });
      expect(unauthorized.body).toEqual({ message: "Unauthorized" });
    });

    it("answers 422 instead of 400 where docs/api.md 7 names no status: filter_id with dimension filters, mixed ranges, 13 metrics", async () => {
      const conflicting = await both("GET", "/insights/3.0/metrics/attempts", { query: { ...HOUR, filter_id: "1001", cdn: "Akamai" } });
      expect([conflicting.standard.status, conflicting.alternate.status]).toEqual([400, 422]);
      const mixed = await both("GET", "/insights/3.0/metrics/attempts", { query: { ...HOUR, days: 1 } });
      expect([mixed.standard.status, mixed.alternate.status]).toEqual([400, 422]);
      const metric = ["attempts", "plays", "bitrate", "framerate", "ended-plays", "minutes-played", "video-start-time", "rebuffering-ratio", "video-start-failures", "video-playback-failures", "exits-before-video-start", "unique-devices", "concurrent-plays"];
      const many = await both("GET", "/insights/3.0/metrics/custom-selection", { query: { ...HOUR, metric } });
      expect([many.standard.status, many.alternate.status]).toEqual([400, 422]);
    });

    it("never sends Retry-After, even from a fault rule that gives one", async () => {
      await emulator.control("POST", "faults", { rules: [{ path: "/kpis", status: 429, retryAfter: 3, account: "dev", times: 1 }, { path: "/kpis", status: 429, retryAfter: 3, account: "alt", times: 1 }] });
      const { standard, alternate } = await both("GET", "/kpis");
      expect([standard.status, alternate.status]).toEqual([429, 429]);
      expect(standard.headers.get("retry-after")).toBe("3");
      expect(alternate.headers.get("retry-after")).toBeNull();
    });
  });

  describe("metrics listings and _meta", () => {
    it("answers the listings whose payload the contract does not show as bare arrays, kpi_id as a string", async () => {
      const kpis = await both("GET", "/kpis");
      expect(kpis.standard.body.kpis[0]).toEqual({ kpi_id: 1, kpi_name: "Default" });
      expect(kpis.alternate.body[0]).toEqual({ kpi_id: "1", kpi_name: "Default" });
      for (const [path, member] of [
        ["/insights/3.0/metrics/attempts/group-by", "dimensions"],
        ["/insights/3.0/metrics/attempts/group-by/dimension-tag", "dimension_tags"],
        ["/3.0/metrics/_meta/references/dimensions", "dimensions"],
        ["/insights/3.0/metrics", "metrics"],
      ] as const) {
        const answers = await both("GET", path);
        expect(answers.standard.body[member].length, path).toBeGreaterThan(0);
        expect(answers.alternate.body, path).toEqual(answers.standard.body[member]);
      }
    });

    it("keeps in _meta only the members docs/api.md 10.4 names", async () => {
      const grouped = await both("GET", "/insights/3.0/metrics/attempts/group-by/cdn", { query: HOUR });
      expect(grouped.standard.body._meta).toMatchObject({ granularity: "PT1H", kpi_id: 1, group_by_dimension: { key: "cdn", description: "CDN" } });
      expect(grouped.alternate.body._meta).toEqual({ group_by_dimension: { key: "cdn", description: "CDN" } });
      // The grouped total is an object in every dialect (docs/api.md 10.4: a fact, not a choice).
      expect(Object.keys(grouped.alternate.body.total)).toEqual(["dimensional_data"]);
    });

    it("ranks group-by entities over the whole range (standard) or each interval on its own (alternate)", async () => {
      type Datum = { dimension: { value: string }; metrics: { attempts: { count: number } } };
      type Answer = { time_series: Array<{ dimensional_data: Datum[] }>; total: { dimensional_data: Datum[] } };
      const SIX_HOURS = { start_date: "2026-11-20T04:00:00Z", end_date: "2026-11-20T10:00:00Z", granularity: "PT1H" };
      const values = (data: Datum[]) => data.map((datum) => datum.dimension.value);
      /** The `limit` entities with the most attempts, ties by value, as both dialects rank. */
      const topOf = (data: Datum[], limit: number) =>
        values([...data].sort((left, right) => right.metrics.attempts.count - left.metrics.attempts.count || (left.dimension.value < right.dimension.value ? -1 : 1)).slice(0, limit));
      for (const [account, ranksEachInterval] of [[DEV, false], [ALT, true]] as const) {
        // Every entity (fewer than 500 ISPs), and the top 3.
        const all = (await emulator.get("/insights/3.0/metrics/attempts/group-by/isp", { ...SIX_HOURS, limit: 500 }, account)).body as Answer;
        const top = (await emulator.get("/insights/3.0/metrics/attempts/group-by/isp", { ...SIX_HOURS, limit: 3 }, account)).body as Answer;
        const overTheRange = topOf(all.total.dimensional_data, 3);
        expect(values(top.total.dimensional_data)).toEqual(overTheRange);
        let differs = 0;
        top.time_series.forEach((point, index) => {
          const ownTop = topOf(all.time_series[index]!.dimensional_data, 3);
          const expected = ranksEachInterval ? ownTop : overTheRange.filter((value) => values(all.time_series[index]!.dimensional_data).includes(value));
          expect(values(point.dimensional_data), `${account.clientId}, interval ${index}`).toEqual(expected);
          if (ownTop.join() !== overTheRange.join()) differs += 1;
        });
        // Some hour's own top differs from the range's, so the two rankings are told apart.
        expect(differs, account.clientId).toBeGreaterThan(0);
      }
    });
  });

  describe("metric answers", () => {
    // The dev account of a second emulator in the alternate dialect: the same data world (a world is
    // seeded by its account), so that the two dialects are compared on the same sessions.
    const alternateEmulator = useTestEmulator({ dialect: "alternate" });
    const sameWorld = async (path: string, query: Record<string, string | string[] | number> = {}) => ({
      standard: await emulator.get(path, query, DEV),
      alternate: await alternateEmulator.get(path, query, DEV),
    });
    type Point = { timestamp: { epoch_ms: number; iso_date: string }; attempts: { count: number } };
    const times = (body: { time_series: Point[] }) => body.time_series.map((point) => point.timestamp.iso_date);

    it("ends a range not given at the last whole hour, in real time the last whole minute (standard: now)", async () => {
      const historical = await sameWorld("/insights/3.0/metrics/attempts");
      // 24 hours ending 12:30: the hours from 12:00 the day before (partial) to 12:00 (partial).
      expect(historical.standard.body.time_series).toHaveLength(25);
      expect(times(historical.standard.body).at(-1)).toBe("2026-11-20T12:00:00.000Z");
      expect(historical.standard.body._meta.end_epoch_ms).toBe(TEST_NOW_MS);
      // 24 hours ending 12:00: whole hours, the first from 12:00 the day before, the last from 11:00.
      expect(times(historical.alternate.body)).toEqual(times(historical.standard.body).slice(0, -1));
      expect(historical.alternate.body.time_series.slice(1)).toEqual(historical.standard.body.time_series.slice(1, -1));
      for (const running of [emulator, alternateEmulator]) await running.control("POST", "clock", { advance: "PT30S" });
      try {
        const realTime = await sameWorld("/insights/3.0/real-time-metrics/attempts");
        // 5 minutes ending 12:30:30 (six intervals, the first and last partial), or ending 12:30.
        expect(times(realTime.standard.body)).toEqual(["12:25", "12:26", "12:27", "12:28", "12:29", "12:30"].map((minute) => `2026-11-20T${minute}:00.000Z`));
        expect(times(realTime.alternate.body)).toEqual(times(realTime.standard.body).slice(0, -1));
      } finally {
        for (const running of [emulator, alternateEmulator]) await running.control("POST", "clock", { set: TEST_NOW });
      }
    });

    it("leaves out intervals without data (standard: listed with zeros), in plain and group-by answers", async () => {
      const query = { ...HOUR, granularity: "PT1M", cdn: "Akamai" };
      const plain = await sameWorld("/insights/3.0/metrics/attempts", query);
      expect(plain.standard.body.time_series).toHaveLength(60);
      const withData = (plain.standard.body.time_series as Point[]).filter((point) => point.attempts.count > 0);
      // Some minutes of the hour have Akamai sessions and some do not, so the two answers differ.
      expect(withData.length).toBeGreaterThan(10);
      expect(withData.length).toBeLessThan(50);
      expect(plain.alternate.body.time_series).toEqual(withData);
      expect(plain.alternate.body.total).toEqual(plain.standard.body.total);
      const grouped = await sameWorld("/insights/3.0/metrics/attempts/group-by/cdn", query);
      expect(grouped.standard.body.time_series).toHaveLength(60);
      expect(times(grouped.alternate.body)).toEqual(times({ time_series: withData }));
      const nothing = await sameWorld("/insights/3.0/metrics/attempts", { ...query, cdn: "No such CDN" });
      expect(nothing.standard.body.time_series).toHaveLength(60);
      expect(nothing.alternate.body.time_series).toEqual([]);
      expect(nothing.alternate.body.total).toEqual({ attempts: { count: 0 } });
    });

    it("answers null for a value whose denominator is empty (standard: 0); counts stay 0", async () => {
      const metric = ["plays", "video-playback-failures", "rebuffering-ratio", "bitrate", "video-start-time", "ended-plays", "minutes-played", "streaming-performance-index"];
      const { standard, alternate } = await sameWorld("/insights/3.0/metrics/custom-selection", { ...HOUR, metric, cdn: "No such CDN" });
      expect(standard.body.total).toEqual({
        plays: { count: 0, percentage: 0 },
        video_playback_failures: { count: 0, percentage: 0 },
        rebuffering_ratio: { ratio: 0 },
        bitrate: { bps: 0 },
        video_start_time: { value: 0 },
        ended_plays: { count: 0, per_unique_device: 0 },
        minutes_played: { count: 0, per_unique_device: 0, per_ended_play: 0 },
        streaming_performance_index: { value: 0 },
      });
      expect(alternate.body.total).toEqual({
        plays: { count: 0, percentage: null },
        video_playback_failures: { count: 0, percentage: null },
        rebuffering_ratio: { ratio: null },
        bitrate: { bps: null },
        video_start_time: { value: null },
        ended_plays: { count: 0, per_unique_device: null },
        minutes_played: { count: 0, per_unique_device: null, per_ended_play: null },
        streaming_performance_index: { value: null },
      });
      // Where no denominator is empty, both answer the same numbers.
      const some = await sameWorld("/insights/3.0/metrics/custom-selection", { ...HOUR, metric });
      expect(some.alternate.body.total).toEqual(some.standard.body.total);
      expect(JSON.stringify(some.standard.body.total)).not.toContain("null");
    });

    it("reads a group-by limit=0 as the default 50, accepted over any range (standard: the most, 500, refused over 24 hours)", async () => {
      const assets = await sameWorld("/insights/3.0/metrics/attempts/group-by/asset", { ...HOUR, limit: 0 });
      // More than 50 assets have attempts in the hour.
      expect(assets.standard.body.total.dimensional_data.length).toBeGreaterThan(50);
      expect(assets.alternate.body.total.dimensional_data).toEqual(assets.standard.body.total.dimensional_data.slice(0, 50));
      const long = await sameWorld("/insights/3.0/metrics/attempts/group-by/asset", { limit: 0, days: 2, granularity: "P1D" });
      expect([long.standard.status, long.alternate.status]).toEqual([422, 200]);
      expect(long.alternate.body.total.dimensional_data).toHaveLength(50);
    });
  });
});

describe("insights-emulator --dialect", () => {
  it("starts every account in the alternate dialect with --dialect alternate, and refuses an unknown dialect", async () => {
    await withEmulatorCommand(["--dialect", "alternate", "--clock", TEST_NOW, "--frozen"], async (url) => {
      const accounts = (await (await fetch(`${url}/_emulator/accounts`)).json()) as { accounts: Array<{ dialect: string }> };
      expect(accounts.accounts.map((account) => account.dialect)).toEqual(["alternate", "alternate"]);
      const kpis = await fetch(`${url}/kpis`, { headers: { authorization: `Basic ${Buffer.from("dev:dev-secret").toString("base64")}` } });
      expect(Array.isArray(await kpis.json())).toBe(true);
    });
    const wrong = await refusedEmulatorCommand(["--dialect", "british"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("--dialect must be one of standard, alternate");
  });
});
