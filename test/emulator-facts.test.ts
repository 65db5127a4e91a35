import { describe, expect, it } from "vitest";
import { DEV, TEST_NOW, useTestEmulator } from "./support/emulator";

/**
 * The facts of docs/api.md section 10 (what is known of the real service beyond its contract), one
 * test each, in the order of that section. Expected values are written out from docs/api.md, never
 * read from the emulator's own constants.
 */

const HISTORICAL = "/insights/3.0/metrics";
const REAL_TIME = "/insights/3.0/real-time-metrics";
const SIX_HOURS = { start_date: "2026-11-20T00:00:00Z", end_date: "2026-11-20T06:00:00Z" };

/** The value fields of docs/api.md 10.4, metric by metric, written out from that section. */
const VALUE_FIELDS_OF_THE_FACTS: Record<string, string[]> = {
  "attempts": ["count"], "concurrent-plays": ["count"], "unique-devices": ["count"], "spi-streams": ["count"],
  "spi-unique-devices": ["count"], "spi-unique-viewers": ["count"], "good-session": ["count"],
  "interval-minutes-played": ["count"], "ad-attempts": ["count"], "ad-concurrent-plays": ["count"],
  "ad-unique-devices": ["count"],
  "video-start-time": ["value"], "video-restart-time": ["value"], "streaming-performance-index": ["value"],
  "ad-actual-duration": ["value"], "bad-session-average-life-playing-time-mins": ["value"],
  "good-session-average-life-playing-time-mins": ["value"], "ad-completed-creative-plays": ["value"],
  "plays": ["count", "percentage"], "video-start-failures": ["count", "percentage"],
  "video-start-failures-business": ["count", "percentage"], "video-start-failures-tech": ["count", "percentage"],
  "video-playback-failures": ["count", "percentage"], "video-playback-failures-business": ["count", "percentage"],
  "video-playback-failures-tech": ["count", "percentage"], "exits-before-video-start": ["count", "percentage"],
  "abandonment": ["count", "percentage"], "bad-session": ["count", "percentage"],
  "high-rebuffering": ["count", "percentage"], "high-startup-time": ["count", "percentage"],
  "low-bitrate": ["count", "percentage"], "exits-before-ad-start": ["count", "percentage"],
  "attempts-with-pre-roll": ["count", "percentage"], "attempts-without-pre-roll": ["count", "percentage"],
  "bad-unique-devices": ["count", "percentage"], "bad-unique-viewers": ["count", "percentage"],
  "ended-plays-with-ads": ["count", "percentage"], "ended-plays-without-ads": ["count", "percentage"],
  "ad-plays": ["count", "percentage"],
  "percentage-complete": ["percentage"], "ad-percentage-complete": ["percentage"],
  "rebuffering-ratio": ["ratio"], "connection-induced-rebuffering-ratio": ["ratio"],
  "bitrate": ["bps"], "framerate": ["fps"],
  "ended-plays": ["count", "per_unique_device"],
  "minutes-played": ["count", "per_unique_device", "per_ended_play"],
};

/** The raw text of a GET with the dev account's credentials, to see numbers as the wire spells them. */
async function rawText(url: string): Promise<string> {
  const response = await fetch(url, { headers: { authorization: `Basic ${Buffer.from(`${DEV.clientId}:${DEV.clientSecret}`).toString("base64")}` } });
  expect(response.status).toBe(200);
  return response.text();
}

describe("facts of the real service hold in the emulator (docs/api.md 10)", () => {
  const emulator = useTestEmulator({}, { resetEach: true });

  const ok = async (path: string, query?: Record<string, string | string[] | number>) => {
    const response = await emulator.get(path, query);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };
  const setClock = async (set: string) => expect((await emulator.control("POST", "clock", { set })).status).toBe(200);

  describe("10.1 whole API", () => {
    it("answers a bad or missing credential with 401 and the body {\"message\":\"Unauthorized\"}", async () => {
      for (const account of [{ clientId: "dev", clientSecret: "wrong" }, null]) {
        const response = await emulator.get(`${HISTORICAL}/attempts`, {}, account);
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ message: "Unauthorized" });
      }
    });

    it("has no pagination: listings are capped at 500 and take no page or offset", async () => {
      for (const path of ["/bulk_filters/", "/pii-opt-out"]) {
        expect((await emulator.get(path, { limit: 500 })).status, path).toBe(200);
        expect((await emulator.get(path, { limit: 501 })).status, path).toBe(400);
        expect((await emulator.get(path, { page: 2 })).status, path).toBe(400);
        expect((await emulator.get(path, { offset: 500 })).status, path).toBe(400);
      }
    });

    it("has no idempotency key: the same POST sent twice with an Idempotency-Key creates twice", async () => {
      const body = [{ name: "Twice", rules: { op: "and", rules: [{ field: "CDN", op: "equals", value: "Akamai" }] } }];
      const url = new URL("/bulk_filters/", emulator.url);
      const headers = {
        authorization: `Basic ${Buffer.from(`${DEV.clientId}:${DEV.clientSecret}`).toString("base64")}`,
        "content-type": "application/json",
        "idempotency-key": "one-and-the-same",
      };
      const ids: unknown[] = [];
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
        expect(response.status).toBe(201);
        ids.push(((await response.json()) as Array<{ id: unknown }>)[0]!.id);
      }
      expect(new Set(ids).size).toBe(2);
      expect((await ok("/bulk_filters/", { name: "Twice" })).filters).toHaveLength(2);
    });

    // The budgets themselves (3000 requests per 5 minutes per client address besides the per-family
    // limits) are stated by test/rate-budgets.test.ts, which turns them on.
    it("sends a 429 without Retry-After and without rate-limit headers", async () => {
      expect((await emulator.control("POST", "faults", { path: `${HISTORICAL}/attempts`, status: 429, times: 1 })).status).toBe(201);
      const response = await emulator.get(`${HISTORICAL}/attempts`);
      expect(response.status).toBe(429);
      const names = [...response.headers.keys()];
      expect(names).not.toContain("retry-after");
      expect(names.filter((name) => /rate-?limit/i.test(name))).toEqual([]);
    });
  });

  describe("10.2 saved filters", () => {
    it("takes the array payload of real clients, an and of or groups, with 201 and numeric ids; lists ids as strings", async () => {
      const payload = [{
        name: "Harbor Lights", category: "CONTENT", subcategory: "Asset", advanced: false, content: false, enabled: true,
        rules: { op: "and", rules: [{ op: "or", rules: [{ field: "Asset Name", op: "contains", value: "Harbor Lights" }] }] },
      }];
      const created = await emulator.call("POST", "/bulk_filters/", { body: payload });
      expect(created.status).toBe(201);
      expect(created.body).toHaveLength(1);
      expect(typeof created.body[0].id).toBe("number");
      expect(created.body[0]).toMatchObject(payload[0]!);
      const listed = await ok("/bulk_filters/");
      expect(listed.filters.map((filter: { id: unknown }) => filter.id)).toEqual([String(created.body[0].id)]);
    });

    it("accepts the leaf ops contains, not_contains and equals, and a custom-tag leaf with a key", async () => {
      const rules = {
        op: "and",
        rules: [
          { field: "Asset Name", op: "not_contains", value: "Trailer" },
          { field: "CDN", op: "equals", value: "Akamai" },
          { field: "Tag", key: "deviceId", op: "equals", value: "device-000001-1" },
        ],
      };
      expect((await emulator.call("POST", "/bulk_filters/", { body: [{ name: "ops", rules }] })).status).toBe(201);
    });

    it("answers the fields lookup and the other lookups as {status, values}", async () => {
      const fields = await ok("/bulk_filters/fields");
      expect(fields.status).toBe(200);
      expect(fields.values[0]).toBe("ASN");
      expect(fields.values).toContain("Asset Name");
      for (const lookup of ["asn", "categories", "cities", "continents", "countries", "dma", "isp", "states", "tags", "subcategories"]) {
        const body = await ok(`/bulk_filters/${lookup}/`);
        expect(Object.keys(body).sort(), lookup).toEqual(["status", "values"]);
        expect(body.values.length, lookup).toBeGreaterThan(0);
      }
    });

    it("refuses more than 100 filters a call and a wrong number of ids with 400", async () => {
      const many = Array.from({ length: 101 }, (_, index) => ({ name: `f${index}`, rules: { op: "and", rules: [{ field: "CDN", op: "equals", value: "Akamai" }] } }));
      expect((await emulator.call("POST", "/bulk_filters/", { body: many })).status).toBe(400);
      const ids = Array.from({ length: 101 }, (_, index) => 1001 + index).join(",");
      expect((await emulator.call("DELETE", "/bulk_filters/", { query: { id: ids } })).status).toBe(400);
    });
  });

  describe("10.3 PII opt-out", () => {
    it("counts previously submitted identifiers under ignored", async () => {
      expect((await emulator.call("POST", "/pii-opt-out", { body: { viewer_id: ["viewer-000100"] } })).body).toMatchObject({ created: 1, ignored: 0 });
      const second = await emulator.call("POST", "/pii-opt-out", { body: { viewer_id: ["viewer-000100", "viewer-000101"] } });
      expect(second.status).toBe(201);
      expect(second.body).toMatchObject({ created: 1, ignored: 1 });
    });

    it("moves a request ENQUEUED, STARTED, FINISHED and sends the e-mail at FINISHED", async () => {
      const created = await emulator.call("POST", "/pii-opt-out", { body: { viewer_id: ["viewer-000102"], "@notification_email": ["dpo@example.com"] } });
      const seen: string[] = [];
      for (let minute = 0; minute < 7; minute++) {
        const status = (await ok("/pii-opt-out", { id: created.body.id })).status as string;
        if (seen.at(-1) !== status) seen.push(status);
        if (status !== "FINISHED") expect((await emulator.control("GET", "emails")).body.emails).toEqual([]);
        await emulator.control("POST", "clock", { advance: "PT1M" });
      }
      expect(seen).toEqual(["ENQUEUED", "STARTED", "FINISHED"]);
      expect((await emulator.control("GET", "emails")).body.emails).toHaveLength(1);
    });
  });

  describe("10.4 metrics wire format", () => {
    it("answers time_series points {timestamp: {epoch_ms, iso_date}, <snake_case member>}, a total object and _meta", async () => {
      const body = await ok(`${HISTORICAL}/ended-plays`, SIX_HOURS);
      expect(Object.keys(body).sort()).toEqual(["_meta", "time_series", "total"]);
      expect(body.time_series[0]).toEqual({
        timestamp: { epoch_ms: Date.parse("2026-11-20T00:00:00Z"), iso_date: "2026-11-20T00:00:00.000Z" },
        ended_plays: { count: expect.any(Number), per_unique_device: expect.any(Number) },
      });
      expect(Object.keys(body.total)).toEqual(["ended_plays"]);
    });

    it("answers every metric member with the value fields of docs/api.md 10.4, counts as JSON integers", async () => {
      const names = Object.keys(VALUE_FIELDS_OF_THE_FACTS);
      expect(names.length).toBeGreaterThan(40);
      for (let start = 0; start < names.length; start += 12) {
        const chunk = names.slice(start, start + 12);
        const url = new URL(`${HISTORICAL}/custom-selection`, emulator.url);
        for (const [key, value] of Object.entries(SIX_HOURS)) url.searchParams.set(key, value);
        for (const name of chunk) url.searchParams.append("metric", name);
        const text = await rawText(url.toString());
        expect(text).not.toMatch(/"count":-?\d+\.\d/);
        const body = JSON.parse(text);
        expect(body.time_series.length).toBe(6);
        for (const name of chunk) {
          const member = name.replace(/-/g, "_");
          const expected = [...VALUE_FIELDS_OF_THE_FACTS[name]!].sort();
          expect(Object.keys(body.total[member]).sort(), name).toEqual(expected);
          for (const point of body.time_series) {
            expect(Object.keys(point[member]).sort(), name).toEqual(expected);
            if (point[member].count !== undefined) expect(Number.isInteger(point[member].count), name).toBe(true);
          }
        }
      }
    });

    it("answers ad-plays (member ad_plays with count and percentage, as plays)", async () => {
      const body = await ok(`${HISTORICAL}/ad-plays`, SIX_HOURS);
      expect(Object.keys(body.total.ad_plays).sort()).toEqual(["count", "percentage"]);
      expect(body.total.ad_plays.count).toBeGreaterThan(0);
      const attempts = await ok(`${HISTORICAL}/ad-attempts`, SIX_HOURS);
      expect(body.total.ad_plays.count).toBeLessThanOrEqual(attempts.total.ad_attempts.count);
      expect(body.total.ad_plays.percentage).toBeCloseTo((body.total.ad_plays.count / attempts.total.ad_attempts.count) * 100, 2);
    });

    it("answers a grouped total as an object with the per-entity totals in total.dimensional_data", async () => {
      const body = await ok(`${HISTORICAL}/attempts/group-by/cdn`, SIX_HOURS);
      expect(Array.isArray(body.total)).toBe(false);
      expect(Object.keys(body.total)).toEqual(["dimensional_data"]);
      expect(body.total.dimensional_data.length).toBeGreaterThan(0);
      for (const datum of body.total.dimensional_data) {
        expect(Object.keys(datum).sort()).toEqual(["dimension", "metrics"]);
        expect(datum.dimension.key).toBe("cdn");
        expect(Object.keys(datum.metrics)).toEqual(["attempts"]);
      }
      const point = body.time_series.find((item: { dimensional_data: unknown[] }) => item.dimensional_data.length > 0);
      expect(Object.keys(point.dimensional_data[0]).sort()).toEqual(["dimension", "metrics"]);
    });

    it("names the group-by dimension with a description in _meta, and a saved filter's id as a string", async () => {
      const grouped = await ok(`${HISTORICAL}/attempts/group-by/geo-country-code`, SIX_HOURS);
      expect(grouped._meta.group_by_dimension).toEqual({ key: "geo_country_code", description: "Geo Country Code" });
      expect(grouped.total.dimensional_data[0].dimension).toEqual({ key: "geo_country_code", value: "US", description: "United States" });
      const created = await emulator.call("POST", "/bulk_filters/", { body: [{ name: "Akamai", rules: { op: "and", rules: [{ field: "CDN", op: "equals", value: "Akamai" }] } }] });
      const filtered = await ok(`${HISTORICAL}/attempts`, { ...SIX_HOURS, filter_id: created.body[0].id });
      expect(filtered._meta.filter_info.id).toBe(String(created.body[0].id));
    });

    it("counts minutes=N back from the most recent whole minute: time_series[0] is a whole minute", async () => {
      await setClock("2026-11-20T12:30:30Z");
      const body = await ok(`${REAL_TIME}/attempts`, { minutes: 2, granularity: "PT1M" });
      expect([body._meta.start_epoch_ms, body._meta.end_epoch_ms]).toEqual([Date.parse("2026-11-20T12:28:00Z"), Date.parse("2026-11-20T12:30:00Z")]);
      expect(body.time_series.map((point: { timestamp: { iso_date: string } }) => point.timestamp.iso_date)).toEqual(["2026-11-20T12:28:00.000Z", "2026-11-20T12:29:00.000Z"]);
      expect(body._meta.annotations).toBeUndefined();
      // The longest real-time range still fits within the 15 minutes the contract allows.
      expect((await emulator.get(`${REAL_TIME}/attempts`, { minutes: 15 })).status).toBe(200);
      expect((await emulator.get(`${REAL_TIME}/attempts`, { minutes: 16 })).status).toBe(422);
    });

    it("counts days=N back from the most recent clock hour (04:20 with days=5: five days ending 04:00Z)", async () => {
      await setClock("2026-11-20T04:20:00Z");
      const body = await ok(`${HISTORICAL}/attempts`, { days: 5, granularity: "P1D" });
      expect([body._meta.start_epoch_ms, body._meta.end_epoch_ms]).toEqual([Date.parse("2026-11-15T04:00:00Z"), Date.parse("2026-11-20T04:00:00Z")]);
    });

    it("answers GET /insights/3.0/kpis as /kpis", async () => {
      const kpis = await ok("/kpis");
      expect(kpis.kpis[0]).toMatchObject({ kpi_name: "Default" });
      expect(String(kpis.kpis[0].kpi_id)).toBe("1");
      expect(await ok("/insights/3.0/kpis")).toEqual(kpis);
    });

    it("lists the metric endpoints of the account at GET /insights/3.0/metrics, ad metrics only with ad insights", async () => {
      const listing = await ok(HISTORICAL);
      const names = listing.metrics.map((metric: { name: string }) => metric.name);
      for (const name of ["attempts", "plays", "ended-plays", "ad-plays", "quality-summary"]) expect(names).toContain(name);
      expect(listing.metrics.find((metric: { name: string }) => metric.name === "attempts")).toEqual({
        name: "attempts",
        path: "/insights/3.0/metrics/attempts",
        real_time_path: "/insights/3.0/real-time-metrics/attempts",
        members: [{ member: "attempts", value_fields: ["count"] }],
      });
      const basic = await emulator.get(HISTORICAL, {}, { clientId: "basic", clientSecret: "basic-secret" });
      expect(basic.status).toBe(200);
      const basicNames = basic.body.metrics.map((metric: { name: string }) => metric.name);
      expect(basicNames).toContain("attempts");
      expect(basicNames.filter((name: string) => /^ads?-/.test(name))).toEqual([]);
    });

    it("accepts exit-before-video-starts and answers it under exit_before_video_starts", async () => {
      const alias = await ok(`${HISTORICAL}/exit-before-video-starts`, SIX_HOURS);
      const canonical = await ok(`${HISTORICAL}/exits-before-video-start`, SIX_HOURS);
      expect(Object.keys(alias.total)).toEqual(["exit_before_video_starts"]);
      expect(alias.total.exit_before_video_starts).toEqual(canonical.total.exits_before_video_start);
      const selection = await ok(`${HISTORICAL}/custom-selection`, { ...SIX_HOURS, metric: ["exit-before-video-starts", "attempts"] });
      expect(Object.keys(selection.total).sort()).toEqual(["attempts", "exit_before_video_starts"]);
    });

    it("answers quality-summary, several metrics in one answer, in real time grouped by asset or asn", async () => {
      for (const dimension of ["asset", "asn"]) {
        const body = await ok(`${REAL_TIME}/quality-summary/group-by/${dimension}`, { minutes: 5 });
        expect(body.total.dimensional_data.length, dimension).toBeGreaterThan(0);
        for (const datum of body.total.dimensional_data) expect(Object.keys(datum.metrics).length, dimension).toBeGreaterThan(1);
      }
    });

    it("supports granularities from PT1M to P10W, and ALL as one interval for the whole range", async () => {
      expect((await ok(`${REAL_TIME}/attempts`, { minutes: 3, granularity: "PT1M" })).time_series).toHaveLength(3);
      expect((await ok(`${HISTORICAL}/attempts`, { start_date: "2026-11-19T00:00:00Z", end_date: "2026-11-20T00:00:00Z", granularity: "P10W" })).time_series).toHaveLength(1);
      expect((await ok(`${HISTORICAL}/attempts`, { ...SIX_HOURS, granularity: "P1W" })).time_series).toHaveLength(1);
      const all = await ok(`${HISTORICAL}/attempts`, { ...SIX_HOURS, granularity: "ALL" });
      expect(all.time_series).toHaveLength(1);
      expect(all.time_series[0].attempts).toEqual(all.total.attempts);
    });

    it("answers 413 to an answer over 5,700,000 bytes", async () => {
      const metric = ["attempts", "plays", "minutes-played", "ended-plays", "bitrate", "framerate", "video-start-time", "rebuffering-ratio", "video-start-failures", "video-playback-failures", "exits-before-video-start", "unique-devices"];
      const response = await emulator.get(`${HISTORICAL}/custom-selection`, { metric, days: 90, granularity: "PT1M" });
      expect(response.status).toBe(413);
    });
  });

  describe("10.5 sessions", () => {
    it("allows a sample-session window of at most 3 hours, starting within the last 31 days", async () => {
      const end = Date.parse(TEST_NOW);
      const hour = 3_600_000;
      const day = 24 * hour;
      const window = (fromMs: number, toMs: number) => emulator.get("/insights/3.0/sessions/content", { start_epoch_ms: fromMs, end_epoch_ms: toMs });
      expect((await window(end - 3 * hour, end)).status).toBe(200);
      expect((await window(end - 3 * hour - 1, end)).status).toBe(422);
      expect((await window(end - 30 * day, end - 30 * day + hour)).status).toBe(200);
      expect((await window(end - 32 * day, end - 32 * day + hour)).status).toBe(422);
    });

    it("filters by custom tags as tag_<name>, with case-sensitive values", async () => {
      const sessions = (query: Record<string, string>) => ok("/insights/3.0/sessions/content", { limit: 500, ...query }).then((body) => body.sessions as Array<{ tags: { custom_tags: Record<string, string> } }>);
      const all = await sessions({});
      const tier = all.find((session) => session.tags.custom_tags["subscriptionTier"] !== undefined)!.tags.custom_tags["subscriptionTier"]!;
      const tagged = await sessions({ tag_subscriptionTier: tier });
      expect(tagged.length).toBeGreaterThan(0);
      for (const session of tagged) expect(session.tags.custom_tags["subscriptionTier"]).toBe(tier);
      expect(await sessions({ tag_subscriptionTier: tier.toUpperCase() })).toEqual([]);
      expect((await sessions({ cdn: "Akamai" })).length).toBeGreaterThan(0);
      expect(await sessions({ cdn: "akamai" })).toEqual([]);
    });
  });
});
