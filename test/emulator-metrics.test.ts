import { describe, expect, it } from "vitest";
import {
  DimensionTagList, FilterReferenceList, GroupByDimensionList, GroupByResponse, KpiList, MetricDimensionReferenceList,
  MetricResponse, METRIC_NAMES, METRIC_VALUE_FIELDS,
} from "../provider/schema";
import { aggregate, sweepPeaks } from "../emulator/metrics/aggregate";
import { resolveMetric, type RequestedMetric } from "../emulator/metrics/catalog";
import { layoutIntervals } from "../emulator/metrics/intervals";
import { KPI_SETS } from "../emulator/metrics/kpis";
import { plainBounds, rankGroups, renderGroupBy, renderPlain } from "../emulator/metrics/render";
import { ERROR_CODE_READERS } from "../emulator/metrics/flags";
import type { SessionRecord } from "../emulator/world/types";
import { BASIC, DEV, startTestEmulator, TEST_NOW_MS, useTestEmulator } from "./support/emulator";

const HOUR = 3_600_000;
const MINUTE = 60_000;
const T0 = Date.parse("2026-11-20T00:00:00Z");

/** A hand-made session: a healthy 30-minute play unless told otherwise. */
function session(overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    kind: "content", viewerId: "viewer-1", clientId: "client-1", sessionId: "1", startMs: T0, endMs: T0 + 30 * MINUTE,
    dimensions: { geo_country_code: "US", cdn: "Akamai", ad_is_slate: "false" }, customTags: {}, ip: "192.0.2.1", ipv6: null,
    exitBeforeVideoStart: false, videoStartFailure: undefined, videoPlaybackFailure: undefined, errorCode: undefined,
    hasPreRoll: false, videoStartTimeMs: 1_000, videoRestartTimeMs: 0, playingTimeMs: 25 * MINUTE, rebufferingTimeMs: 0,
    connectionInducedRebufferingTimeMs: 0, pausedTimeMs: 0, averageBitrateBps: 4_000_000, averageFramerateFps: 30,
    bitrateSwitches: 0, percentageComplete: 100, contentLengthMs: 30 * MINUTE, ...overrides,
  };
}

function metrics(...names: string[]): RequestedMetric[] {
  return names.flatMap((name) => resolveMetric(name)!);
}

function plain(sessions: SessionRecord[], names: string[], options: { from?: number; to?: number; granularity?: string; now?: number } = {}) {
  const layout = layoutIntervals({ fromMs: options.from ?? T0, toMs: options.to ?? T0 + 3 * HOUR, format: "epoch_ms" }, options.granularity ?? "PT1H");
  const requested = metrics(...names);
  const aggregation = aggregate({
    sessions: { content: sessions.filter((s) => s.kind === "content"), ad: sessions.filter((s) => s.kind === "ad") },
    layout,
    definitions: requested.map((metric) => metric.definition),
    context: { nowMs: options.now ?? T0 + 10 * HOUR, kpi: KPI_SETS[0]! },
  });
  return renderPlain(aggregation, requested, layout, "standard");
}

describe("metric computation over hand-made sessions", () => {
  it("attributes attempts to the interval of their start and derives plays and failure percentages", () => {
    const body = plain(
      [
        session(),
        session({ startMs: T0 + 10 * MINUTE, exitBeforeVideoStart: true, playingTimeMs: 0 }),
        session({ startMs: T0 + 20 * MINUTE, videoStartFailure: "tech", errorCode: "E1", playingTimeMs: 0 }),
        session({ startMs: T0 + 30 * MINUTE }),
        session({ startMs: T0 + 2 * HOUR + 5 * MINUTE }),
      ],
      ["attempts", "plays", "video-start-failures", "exits-before-video-start"],
    );
    expect(body.time_series.map((point) => point["attempts"])).toEqual([{ count: 4 }, { count: 0 }, { count: 1 }]);
    expect(body.time_series[0]).toMatchObject({
      plays: { count: 2, percentage: 50 },
      video_start_failures: { count: 1, percentage: 25 },
      exits_before_video_start: { count: 1, percentage: 25 },
    });
    expect(body.time_series[1]).toMatchObject({ plays: { count: 0, percentage: 0 } });
    expect(body.total).toMatchObject({ attempts: { count: 5 }, plays: { count: 3, percentage: 60 } });
  });

  it("counts peak concurrent plays and interval minutes inside each interval, including plays started before the range", () => {
    const body = plain(
      [
        session({ startMs: T0 - 20 * MINUTE, endMs: T0 + 40 * MINUTE, playingTimeMs: 60 * MINUTE }),
        session({ startMs: T0 + 10 * MINUTE, endMs: T0 + 70 * MINUTE, playingTimeMs: 60 * MINUTE }),
        session({ startMs: T0 + 50 * MINUTE, endMs: T0 + 80 * MINUTE, playingTimeMs: 30 * MINUTE }),
        session({ startMs: T0 + 15 * MINUTE, exitBeforeVideoStart: true }),
      ],
      ["concurrent-plays", "interval-minutes-played", "attempts"],
    );
    expect(body.time_series.map((point) => point["concurrent_plays"])).toEqual([{ count: 2 }, { count: 2 }, { count: 0 }]);
    expect(body.time_series.map((point) => point["interval_minutes_played"])).toEqual([{ count: 40 + 50 + 10 }, { count: 10 + 20 }, { count: 0 }]);
    expect(body.total["attempts"]).toEqual({ count: 3 });
    expect(body.total["concurrent_plays"]).toEqual({ count: 2 });
  });

  it("treats an ongoing session by what has happened by now: no playback failure yet, lifetime values scaled", () => {
    const ongoing = session({ endMs: T0 + 2 * HOUR, playingTimeMs: 100 * MINUTE, videoPlaybackFailure: "tech", errorCode: "P1" });
    const atHalf = plain([ongoing], ["video-playback-failures", "minutes-played", "ended-plays"], { now: T0 + HOUR });
    expect(atHalf.total).toMatchObject({ video_playback_failures: { count: 0 }, minutes_played: { count: 50 }, ended_plays: { count: 0 } });
    const afterEnd = plain([ongoing], ["video-playback-failures", "minutes-played", "ended-plays"], { now: T0 + 3 * HOUR });
    expect(afterEnd.total).toMatchObject({
      video_playback_failures: { count: 1, percentage: 100 },
      minutes_played: { count: 100, per_unique_device: 100, per_ended_play: 100 },
      ended_plays: { count: 1, per_unique_device: 1 },
    });
  });

  it("answers every metric with exactly its value fields, counts as integers, neutral values when empty", () => {
    const sessions = [session(), session({ kind: "ad", startMs: T0 + MINUTE }), session({ startMs: T0 + 7 * MINUTE, clientId: "c2", rebufferingTimeMs: 90_000 })];
    for (const name of METRIC_NAMES) {
      const body = plain(sessions, [name]);
      const member = name.replace(/-/g, "_");
      for (const point of [...body.time_series, { [member]: body.total[member] }]) {
        const value = point[member] as Record<string, number>;
        expect(Object.keys(value).sort(), name).toEqual([...METRIC_VALUE_FIELDS[name]].sort());
        if ("count" in value) expect(Number.isInteger(value["count"]), name).toBe(true);
        for (const field of Object.values(value)) expect(Number.isFinite(field), name).toBe(true);
      }
      expect(body.time_series[1]![member], name).toEqual(Object.fromEntries(METRIC_VALUE_FIELDS[name].map((field) => [field, 0])));
    }
  });

  it("computes rebuffering ratio, weighted bitrate and video start time", () => {
    const body = plain(
      [
        session({ playingTimeMs: 30 * MINUTE, rebufferingTimeMs: 0, averageBitrateBps: 1_000_000, videoStartTimeMs: 1_000 }),
        session({ clientId: "c2", playingTimeMs: 10 * MINUTE, rebufferingTimeMs: 10 * MINUTE, averageBitrateBps: 5_000_000, videoStartTimeMs: 3_000 }),
      ],
      ["rebuffering-ratio", "bitrate", "video-start-time", "unique-devices", "high-rebuffering"],
    );
    expect(body.total).toEqual({
      rebuffering_ratio: { ratio: 20 },
      bitrate: { bps: 2_000_000 },
      video_start_time: { value: 2_000 },
      unique_devices: { count: 2 },
      high_rebuffering: { count: 1, percentage: 50 },
    });
  });

  it("counts a device once per interval and once over the range, whatever order the sessions come in", () => {
    const sessions = [
      session({ startMs: T0 + 5 * MINUTE }),
      session({ startMs: T0 + 2 * HOUR + MINUTE }),
      session({ startMs: T0 + 9 * MINUTE }),
      session({ startMs: T0 + 20 * MINUTE, clientId: "client-2", viewerId: "viewer-1" }),
    ];
    const body = plain(sessions, ["unique-devices", "good-unique-viewers"]);
    expect(body.time_series.map((point) => point["unique_devices"])).toEqual([{ count: 2 }, { count: 0 }, { count: 1 }]);
    expect(body.total).toEqual({ unique_devices: { count: 2 }, good_unique_viewers: { count: 1 } });
  });

  it("aligns intervals to UTC boundaries, weeks on Mondays, keeps data inside an unaligned range, and ALL is the range", () => {
    const unaligned = layoutIntervals({ fromMs: T0 + 30 * MINUTE, toMs: T0 + 3 * HOUR + 30 * MINUTE, format: "date" }, "PT1H");
    expect(unaligned).toMatchObject({ startMs: T0, count: 4, partial: true });
    const week = layoutIntervals({ fromMs: T0, toMs: T0 + HOUR, format: "date" }, "P1W");
    expect(new Date(week.startMs).toISOString()).toBe("2026-11-16T00:00:00.000Z"); // a Monday
    const all = layoutIntervals({ fromMs: T0 + 7, toMs: T0 + 5 * HOUR, format: "date" }, "ALL");
    expect(all).toMatchObject({ startMs: T0 + 7, count: 1, partial: false });
    const body = plain([session({ startMs: T0 + 10 * MINUTE }), session({ startMs: T0 + 40 * MINUTE }), session({ startMs: T0 + 70 * MINUTE })], ["attempts"], { from: T0 + 30 * MINUTE, to: T0 + 90 * MINUTE });
    expect(body.time_series.map((point) => [(point["timestamp"] as { epoch_ms: number }).epoch_ms, point["attempts"]])).toEqual([[T0, { count: 1 }], [T0 + HOUR, { count: 1 }]]);
  });

  it("finds the peak of overlapping lives per interval with exclusive ends", () => {
    const layout = layoutIntervals({ fromMs: 0, toMs: 40, format: "epoch_ms" }, "ALL");
    const peaks: number[] = [];
    sweepPeaks(Float64Array.of(10, 0, 10), Float64Array.of(30, 10, 20), layout, (index, count) => (peaks[index] = Math.max(peaks[index] ?? 0, count)));
    expect(peaks).toEqual([2]);
  });

  it("ranks group-by entities by the sort metric with deterministic ties, takes error-code rates over all traffic", () => {
    const layout = layoutIntervals({ fromMs: T0, toMs: T0 + HOUR, format: "epoch_ms" }, "PT1H");
    const sessions = [
      session({ dimensions: { cdn: "B" } }), session({ dimensions: { cdn: "A" } }), session({ dimensions: { cdn: "C" } }),
      session({ dimensions: { cdn: "C" } }),
    ];
    const requested = metrics("attempts");
    const aggregation = aggregate({
      sessions: { content: sessions, ad: [] }, layout, definitions: requested.map((metric) => metric.definition),
      context: { nowMs: T0 + 2 * HOUR, kpi: KPI_SETS[0]! }, groupOf: (record) => ({ value: record.dimensions["cdn"]! }),
    });
    expect(rankGroups(aggregation, { sortBy: requested[0]!, order: "desc", limit: 2 }).map((group) => group.value)).toEqual(["C", "A"]);
    expect(rankGroups(aggregation, { sortBy: requested[0]!, order: "asc", limit: 5 }).map((group) => group.value)).toEqual(["A", "B", "C"]);

    const failures = metrics("video-start-failures");
    const definition = failures[0]!.definition;
    const withErrors = [session({ videoStartFailure: "tech", errorCode: "E1" }), session({ videoStartFailure: "business", errorCode: "E2" }), session(), session()];
    const context = { nowMs: T0 + 2 * HOUR, kpi: KPI_SETS[0]! };
    const byError = aggregate({
      sessions: { content: withErrors, ad: [] }, layout, definitions: [definition], context, keepBase: true,
      groupOf: (record) => {
        const value = ERROR_CODE_READERS["video_start_failure_error"]!(record, context);
        return value === undefined ? undefined : { value };
      },
    });
    const top = rankGroups(byError, { sortBy: failures[0]!, order: "desc", limit: 50 });
    const body = renderGroupBy(byError, top, failures, layout, { key: "video_start_failure_error", description: "Video Start Failure Error" }, "standard");
    expect(body.total.dimensional_data.map((datum) => [datum.dimension.value, datum.metrics["video_start_failures"]])).toEqual([
      ["E1", { count: 1, percentage: 25 }],
      ["E2", { count: 1, percentage: 25 }],
    ]);
  });

  it("bounds the size of a plain body from below and above before building it", () => {
    const layout = layoutIntervals({ fromMs: T0, toMs: T0 + 48 * HOUR, format: "epoch_ms" }, "PT1H");
    const requested = metrics("quality-summary");
    const sessions = Array.from({ length: 200 }, (_, index) => session({ startMs: T0 + index * 10 * MINUTE, clientId: `c${index}` }));
    const aggregation = aggregate({
      sessions: { content: sessions, ad: [] }, layout, definitions: requested.map((metric) => metric.definition),
      context: { nowMs: T0 + 100 * HOUR, kpi: KPI_SETS[0]! },
    });
    const bytes = Buffer.byteLength(JSON.stringify(renderPlain(aggregation, requested, layout, "standard")));
    const bounds = plainBounds(requested, layout, aggregation.empty, "standard");
    expect(bounds.lower).toBeLessThanOrEqual(bytes);
    expect(bounds.upper).toBeGreaterThanOrEqual(bytes);
  });
});

const BASE = "/insights/3.0/metrics";
const REAL_TIME = "/insights/3.0/real-time-metrics";
const DAY = 24 * HOUR;
/** An hour well in the past (9 hours before the frozen now): every session started in it has ended. */
const PAST_HOUR = { start_date: "2026-11-20T03:00:00Z", end_date: "2026-11-20T04:00:00Z" };

describe("emulator metrics over HTTP (spec 2.4, 4.6, 4.7, 7, 8)", () => {
  const emulator = useTestEmulator();

  type Account = { clientId: string; clientSecret: string };
  const ok = async (path: string, query: Record<string, string | string[] | number> = {}, account: Account = DEV) => {
    const response = await emulator.get(path, query, account);
    expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(200);
    return response.body;
  };
  const series = async (path: string, query: Record<string, string | string[] | number> = {}) => MetricResponse.parse(await ok(path, query));
  const grouped = async (path: string, query: Record<string, string | string[] | number> = {}) => GroupByResponse.parse(await ok(path, query));
  const refused = async (status: number, path: string, query: Record<string, string | string[] | number> = {}, account: Account = DEV) => {
    const response = await emulator.get(path, query, account);
    expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(status);
    expect(typeof response.body.message).toBe("string");
    return response.body as { message: string; parameter?: string; error: string };
  };
  const count = (point: Record<string, unknown>, member: string) => (point[member] as { count: number }).count;

  describe("plain time series", () => {
    it("answers the last 24 hours by default, hourly, aligned with partial edge hours, counts as JSON integers", async () => {
      const url = new URL(`${BASE}/attempts`, emulator.url);
      const response = await fetch(url, { headers: { authorization: `Basic ${Buffer.from(`${DEV.clientId}:${DEV.clientSecret}`).toString("base64")}` } });
      const text = await response.text();
      expect(response.status).toBe(200);
      expect(text).not.toMatch(/"count":-?\d+\.\d/);
      const body = MetricResponse.parse(JSON.parse(text));
      // now is 12:30Z: 12:30 yesterday to 12:30 today is 25 hourly intervals, the first and last half full.
      expect(body.time_series).toHaveLength(25);
      expect(body.time_series[0]!.timestamp).toEqual({ epoch_ms: TEST_NOW_MS - DAY - 30 * MINUTE, iso_date: "2026-11-19T12:00:00.000Z" });
      expect(body._meta).toMatchObject({ granularity: "PT1H", start_epoch_ms: TEST_NOW_MS - DAY, end_epoch_ms: TEST_NOW_MS });
      expect(body._meta!["annotations"]).toEqual([expect.objectContaining({ cause: "interval_adjustment" })]);
      const counts = body.time_series.map((point) => count(point, "attempts"));
      expect(counts.every(Number.isInteger)).toBe(true);
      expect(counts.reduce((sum, value) => sum + value, 0)).toBe(body.total!["attempts"]!.count);
      expect(body.total!["attempts"]!.count).toBeGreaterThan(0);
      // The partial first hour holds only the sessions of its in-range half.
      const half = await series(`${BASE}/attempts`, { start_date: "2026-11-19T12:30:00Z", end_date: "2026-11-19T13:00:00Z" });
      const whole = await series(`${BASE}/attempts`, { start_date: "2026-11-19T12:00:00Z", end_date: "2026-11-19T13:00:00Z" });
      expect(body.time_series[0]!["attempts"]).toEqual(half.total!["attempts"]);
      expect(whole.total!["attempts"]!.count).toBeGreaterThan(half.total!["attempts"]!.count!);
    });

    it("counts days back from the most recent clock hour and keeps empty intervals with neutral values", async () => {
      const body = await series(`${BASE}/plays`, { days: 1 });
      expect(body.time_series).toHaveLength(24);
      expect(body.time_series.at(-1)!.timestamp.iso_date).toBe("2026-11-20T11:00:00.000Z");
      expect(body._meta!["annotations"]).toBeUndefined();
      const future = await series(`${BASE}/plays`, { start_date: "2026-11-20T13:00:00Z", end_date: "2026-11-20T15:00:00Z" });
      expect(future.time_series.map((point) => point["plays"])).toEqual([{ count: 0, percentage: 0 }, { count: 0, percentage: 0 }]);
    });

    it("agrees with the sample sessions: the attempts of a past hour are the sessions that started in it, filters included", async () => {
      const byCountry = await grouped(`${BASE}/attempts/group-by/geo-country-code`, { ...PAST_HOUR, limit: 500 });
      const small = byCountry.total!.dimensional_data.find((datum) => datum.metrics["attempts"]!.count! > 0 && datum.metrics["attempts"]!.count! < 500)!;
      expect(small).toBeDefined();
      const country = small.dimension.value;
      const sessions = await ok("/insights/3.0/sessions/content", { ...PAST_HOUR, limit: 500, geo_country_code: country });
      const metric = await series(`${BASE}/attempts`, { ...PAST_HOUR, geo_country_code: country });
      expect(sessions.sessions.length).toBeLessThan(500);
      expect(metric.time_series).toHaveLength(1);
      expect(count(metric.time_series[0]!, "attempts")).toBe(sessions.sessions.length);
      expect(small.metrics["attempts"]!.count).toBe(sessions.sessions.length);
      const failures = sessions.sessions.filter((record: { status_info: { is_video_start_failure: boolean } }) => record.status_info.is_video_start_failure).length;
      const vsf = await series(`${BASE}/video-start-failures`, { ...PAST_HOUR, geo_country_code: country });
      expect(vsf.total!["video_start_failures"]!.count).toBe(failures);
    });

    it("stops counting a viewer's sessions once its PII opt-out request has FINISHED (spec 3.1)", async () => {
      const fresh = await startTestEmulator();
      try {
        const attempts = async () => MetricResponse.parse((await fresh.get(`${BASE}/attempts`, PAST_HOUR)).body).total!["attempts"]!.count!;
        const sample = (await fresh.get("/insights/3.0/sessions/content", { ...PAST_HOUR, limit: 500 })).body.sessions as Array<{ viewer_id: string }>;
        const viewer = sample[0]!.viewer_id;
        const before = await attempts();
        expect(sample).toHaveLength(before); // the whole hour fits in one sample
        const submitted = await fresh.call("POST", "/pii-opt-out", { body: { viewer_id: [viewer] } });
        expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
        expect(await attempts()).toBe(before);
        await fresh.control("POST", "clock", { advance: "PT10M" });
        const after = await attempts();
        expect(after).toBeLessThan(before);
        expect(before - after).toBe(sample.filter((session) => session.viewer_id === viewer).length);
      } finally {
        await fresh.close();
      }
    });

    it("narrows with dimension filters (repeat = OR) and a saved filter, naming it in _meta.filter_info", async () => {
      const all = (await series(`${BASE}/attempts`, { days: 1 })).total!["attempts"]!.count!;
      const us = (await series(`${BASE}/attempts`, { days: 1, geo_country_code: "US" })).total!["attempts"]!.count!;
      const usOrGb = (await series(`${BASE}/attempts`, { days: 1, geo_country_code: ["US", "GB"] })).total!["attempts"]!.count!;
      expect(us).toBeGreaterThan(0);
      expect(us).toBeLessThan(all);
      expect(usOrGb).toBeGreaterThan(us);
      await refused(400, `${BASE}/attempts`, { geo_country: "US" });
      const created = await emulator.call("POST", "/bulk_filters/", {
        body: [{ name: "US only", rules: { op: "and", rules: [{ op: "or", rules: [{ field: "Country", op: "equals", value: "United States" }] }] } }],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = String(created.body[0].id);
      const saved = await series(`${BASE}/attempts`, { days: 1, filter_id: id });
      expect(saved._meta!.filter_info).toEqual({ id, name: "US only" });
      expect(saved.total!["attempts"]!.count).toBe(us);
      const reference = await ok("/3.0/metrics/_meta/references/filters");
      expect(FilterReferenceList.parse(reference).filters).toContainEqual(expect.objectContaining({ id, name: "US only" }));
      await refused(400, `${BASE}/attempts`, { days: 1, filter_id: id, geo_country_code: "US" });
    });

    it("supports the granularities, aligned to UTC, ALL as one interval equal to the total, and refuses others", async () => {
      const sixHours = await series(`${BASE}/attempts`, { days: 2, granularity: "PT6H" });
      expect(sixHours.time_series.map((point) => new Date(point.timestamp.epoch_ms).getUTCHours() % 6)).toEqual(Array(8).fill(0));
      const daily = await series(`${BASE}/attempts`, { days: 3, granularity: "P1D" });
      expect(daily.time_series.length).toBeGreaterThanOrEqual(3);
      expect(daily.time_series.every((point) => point.timestamp.iso_date.endsWith("T00:00:00.000Z"))).toBe(true);
      const all = await series(`${BASE}/attempts`, { days: 2, granularity: "ALL" });
      expect(all.time_series).toHaveLength(1);
      expect(all.time_series[0]!["attempts"]).toEqual(all.total!["attempts"]);
      expect(all.total!["attempts"]).toEqual(sixHours.total!["attempts"]);
      const error = await refused(400, `${BASE}/attempts`, { granularity: "PT7M" });
      expect(error.parameter).toBe("granularity");
    });

    it("answers every metric, the alias and quality-summary with the value fields of docs/api.md 10.4", async () => {
      for (const names of [METRIC_NAMES.slice(0, 12), METRIC_NAMES.slice(12, 24), METRIC_NAMES.slice(24, 36), METRIC_NAMES.slice(36, 48), METRIC_NAMES.slice(48, 60), METRIC_NAMES.slice(60, 72), METRIC_NAMES.slice(72)]) {
        const body = await series(`${BASE}/custom-selection`, { metric: [...names], start_date: "2026-11-20T00:00:00Z", end_date: "2026-11-20T06:00:00Z" });
        for (const name of names) {
          const member = name.replace(/-/g, "_");
          expect(Object.keys(body.total![member]!).sort(), name).toEqual([...METRIC_VALUE_FIELDS[name]].sort());
          for (const point of body.time_series) expect(Object.keys(point[member] as object).sort(), name).toEqual([...METRIC_VALUE_FIELDS[name]].sort());
        }
      }
      const alias = await series(`${BASE}/exit-before-video-starts`, { days: 1 });
      const canonical = await series(`${BASE}/exits-before-video-start`, { days: 1 });
      expect(alias.total!["exit_before_video_starts"]).toEqual(canonical.total!["exits_before_video_start"]);
      const summary = await series(`${BASE}/quality-summary`, { days: 1 });
      expect(Object.keys(summary.total!).sort()).toEqual(["attempts", "bitrate", "concurrent_plays", "exits_before_video_start", "plays", "rebuffering_ratio", "video_playback_failures", "video_start_failures", "video_start_time"]);
    });

    it("keeps derived values consistent: plays = attempts - failures - exits, percentages of attempts", async () => {
      const body = await series(`${BASE}/custom-selection`, { metric: ["attempts", "plays", "video-start-failures", "exits-before-video-start", "unique-devices", "unique-devices-with-attempts"], days: 1 });
      for (const point of [...body.time_series, body.total!]) {
        const attempts = count(point, "attempts");
        expect(count(point, "plays")).toBe(attempts - count(point, "video_start_failures") - count(point, "exits_before_video_start"));
        if (attempts > 0) expect((point["plays"] as { percentage: number }).percentage).toBeCloseTo((count(point, "plays") / attempts) * 100, 3);
        expect(count(point, "unique_devices")).toBeLessThanOrEqual(count(point, "unique_devices_with_attempts"));
      }
    });

    it("judges KPI-based metrics by the kpi_id set and refuses an unknown kpi_id", async () => {
      const kpis = KpiList.parse(await ok("/kpis")).kpis;
      expect(kpis[0]).toEqual({ kpi_id: "1", kpi_name: "Default" });
      expect(kpis.length).toBeGreaterThanOrEqual(3);
      const standard = (await series(`${BASE}/high-startup-time`, { days: 1 })).total!["high_startup_time"]!.count!;
      const strict = (await series(`${BASE}/high-startup-time`, { days: 1, kpi_id: 2 })).total!["high_startup_time"]!.count!;
      expect(strict).toBeGreaterThan(standard);
      const error = await refused(400, `${BASE}/high-startup-time`, { kpi_id: 9 });
      expect(error.parameter).toBe("kpi_id");
    });

    it("refuses group-by parameters without group-by, unknown metric names (404 in the path) with a suggestion", async () => {
      expect((await refused(400, `${BASE}/attempts`, { limit: 10 })).parameter).toBe("limit");
      expect((await refused(404, `${BASE}/atempts`)).message).toContain('did you mean "attempts"');
      expect((await refused(404, `${REAL_TIME}/rebuffering_ratio`)).message).toContain('did you mean "rebuffering-ratio"');
    });
  });

  describe("custom selection", () => {
    it("answers one member per metric, a repeated name once", async () => {
      const body = await series(`${BASE}/custom-selection`, { metric: ["attempts", "plays", "attempts"], days: 1 });
      expect(Object.keys(body.total!).sort()).toEqual(["attempts", "plays"]);
    });

    it("refuses no metric, more than 12, a comma list and an unknown name with 400", async () => {
      expect((await refused(400, `${BASE}/custom-selection`)).parameter).toBe("metric");
      await refused(400, `${BASE}/custom-selection`, { metric: METRIC_NAMES.slice(0, 13) as unknown as string[] });
      await ok(`${BASE}/custom-selection`, { metric: METRIC_NAMES.slice(23, 35) as unknown as string[] });
      expect((await refused(400, `${BASE}/custom-selection`, { metric: "attempts,plays" })).message).toContain("repeat");
      expect((await refused(400, `${BASE}/custom-selection`, { metric: ["attempts", "plais"] })).message).toContain('did you mean "plays"');
    });
  });

  describe("group-by", () => {
    it("groups by a dimension: snake_case key, description, top entities by the sort metric, totals over the range", async () => {
      const body = await grouped(`${BASE}/attempts/group-by/geo-country-code`, { days: 1 });
      expect(body._meta!.group_by_dimension).toEqual({ key: "geo_country_code", description: "Geo Country Code" });
      const totals = body.total!.dimensional_data.map((datum) => datum.metrics["attempts"]!.count!);
      expect(totals).toEqual([...totals].sort((a, b) => b - a));
      expect(body.total!.dimensional_data[0]!.dimension).toMatchObject({ key: "geo_country_code", value: "US", description: "United States" });
      const plainTotal = (await series(`${BASE}/attempts`, { days: 1 })).total!["attempts"]!.count!;
      expect(totals.reduce((sum, value) => sum + value, 0)).toBe(plainTotal); // fewer than 50 countries exist
      const perInterval = body.time_series.flatMap((point) => point.dimensional_data).filter((datum) => datum.dimension.value === "US");
      expect(perInterval.reduce((sum, datum) => sum + datum.metrics["attempts"]!.count!, 0)).toBe(totals[0]);
    });

    it("cuts to limit, sorts by sort_by in order, and keeps ties deterministic", async () => {
      const top3 = await grouped(`${BASE}/custom-selection/group-by/cdn`, { metric: ["attempts", "rebuffering-ratio"], days: 1, limit: 3, sort_by: "rebuffering-ratio", order: "asc" });
      const ratios = top3.total!.dimensional_data.map((datum) => datum.metrics["rebuffering_ratio"]!.ratio!);
      expect(top3.total!.dimensional_data).toHaveLength(3);
      expect(ratios).toEqual([...ratios].sort((a, b) => a - b));
      for (const point of top3.time_series) expect(point.dimensional_data.length).toBeLessThanOrEqual(3);
      const again = await grouped(`${BASE}/custom-selection/group-by/cdn`, { metric: ["attempts", "rebuffering-ratio"], days: 1, limit: 3, sort_by: "rebuffering_ratio", order: "asc" });
      expect(again.total!.dimensional_data).toEqual(top3.total!.dimensional_data);
    });

    it("refuses bad limit, sort_by and order, and a limit above 50 over more than 24 hours with 422", async () => {
      expect((await refused(400, `${BASE}/attempts/group-by/cdn`, { limit: 501 })).parameter).toBe("limit");
      expect((await refused(400, `${BASE}/attempts/group-by/cdn`, { limit: -1 })).parameter).toBe("limit");
      expect((await refused(400, `${BASE}/attempts/group-by/cdn`, { sort_by: "plays" })).parameter).toBe("sort_by");
      expect((await refused(400, `${BASE}/attempts/group-by/cdn`, { order: "up" })).parameter).toBe("order");
      expect((await refused(422, `${BASE}/attempts/group-by/cdn`, { limit: 51, days: 2 })).parameter).toBe("limit");
      await refused(422, `${BASE}/attempts/group-by/cdn`, { limit: 0, days: 2 });
      await ok(`${BASE}/attempts/group-by/cdn`, { limit: 0, days: 1 });
      await ok(`${BASE}/attempts/group-by/cdn`, { limit: 50, days: 30 });
    });

    it("groups by error codes only with their metric, with rates over all traffic", async () => {
      const body = await grouped(`${BASE}/video-start-failures/group-by/video-start-failure-error`, { days: 1 });
      const total = (await series(`${BASE}/video-start-failures`, { days: 1 })).total!["video_start_failures"]!;
      expect(body.total!.dimensional_data.length).toBeGreaterThan(0);
      expect(body.total!.dimensional_data.reduce((sum, datum) => sum + datum.metrics["video_start_failures"]!.count!, 0)).toBe(total.count);
      const percentages = body.total!.dimensional_data.reduce((sum, datum) => sum + datum.metrics["video_start_failures"]!.percentage!, 0);
      expect(percentages).toBeCloseTo(total.percentage!, 2);
      expect((await refused(400, `${BASE}/attempts/group-by/video-start-failure-error`)).parameter).toBe("dimension");
      await refused(400, `${BASE}/custom-selection/group-by/video-start-failure-error`, { metric: ["video-start-failures", "attempts"] });
    });

    it("groups by a custom tag and lists the account's tags", async () => {
      const tags = DimensionTagList.parse(await ok(`${BASE}/attempts/group-by/dimension-tag`)).dimension_tags.map((tag) => tag.name);
      expect(tags).toContain("subscriptionTier");
      const body = await grouped(`${BASE}/attempts/group-by/dimension-tag/subscriptionTier`, { days: 1 });
      expect(body._meta!.group_by_dimension!.key).toBe("subscriptionTier");
      expect(body.total!.dimensional_data.length).toBeGreaterThan(0);
      expect((await refused(404, `${BASE}/attempts/group-by/dimension-tag/subscriptiontier`)).message).toContain('did you mean "subscriptionTier"');
    });

    it("lists group-by dimensions per metric and refuses unknown dimensions with 404 and a suggestion", async () => {
      const forAttempts = GroupByDimensionList.parse(await ok(`${BASE}/attempts/group-by`)).dimensions.map((entry) => entry.name);
      const forFailures = GroupByDimensionList.parse(await ok(`${REAL_TIME}/video-start-failures/group-by`)).dimensions.map((entry) => entry.name);
      expect(forAttempts).toContain("geo-country-code");
      expect(forAttempts).not.toContain("video-start-failure-error");
      expect(forFailures).toContain("video-start-failure-error");
      expect((await refused(404, `${BASE}/attempts/group-by/geo_country_code`)).message).toContain('did you mean "geo-country-code"');
      await refused(404, `${BASE}/nope/group-by`);
    });
  });

  describe("real time", () => {
    it("answers the last 5 minutes by minute by default and takes minutes up to 15", async () => {
      const body = await series(`${REAL_TIME}/attempts`);
      expect(body.time_series).toHaveLength(5);
      expect(body._meta!.granularity).toBe("PT1M");
      expect((await series(`${REAL_TIME}/concurrent-plays`, { minutes: 15 })).time_series).toHaveLength(15);
      expect((await series(`${REAL_TIME}/concurrent-plays`, { minutes: 15 })).total!["concurrent_plays"]!.count).toBeGreaterThan(0);
      await refused(422, `${REAL_TIME}/attempts`, { minutes: 16 });
      await refused(400, `${REAL_TIME}/attempts`, { days: 1 });
    });

    it("accepts the ISO 8601 forms of spec 4.1 and refuses other dates and old starts with 422", async () => {
      await ok(`${REAL_TIME}/attempts`, { start_date: "2026-11-20T12:20:00Z", end_date: "2026-11-20T12:30:00Z" });
      await ok(`${REAL_TIME}/attempts`, { start_date: "2026-11-20T12:20:00", end_date: "2026-11-20T12:30:00" });
      await ok(`${REAL_TIME}/attempts`, { start_date: "2026-11-20T13:20:00+01:00", end_date: "2026-11-20T13:30:00+01:00" });
      await refused(422, `${REAL_TIME}/attempts`, { start_date: "20/11/2026 12:20", end_date: "2026-11-20T12:30:00Z" });
      await refused(422, `${REAL_TIME}/attempts`, { start_date: "2026-11-20T12:00:00Z", end_date: "2026-11-20T12:10:00Z" });
      await refused(422, `${REAL_TIME}/attempts`, { start_date: "2026-11-20", end_date: "2026-11-20T12:30:00Z" });
    });

    it("answers quality-summary grouped by asset", async () => {
      const body = await grouped(`${REAL_TIME}/quality-summary/group-by/asset`, { minutes: 10 });
      expect(body.total!.dimensional_data.length).toBeGreaterThan(0);
      expect(Object.keys(body.total!.dimensional_data[0]!.metrics)).toHaveLength(9);
    });
  });

  describe("limits and access", () => {
    it("refuses historical ranges over 90 days or starting more than 13 months ago with 422, minutes and mixed formats with 400", async () => {
      await refused(422, `${BASE}/attempts`, { days: 91 });
      await refused(422, `${BASE}/attempts`, { start_date: "2025-10-01T00:00:00Z", end_date: "2025-10-02T00:00:00Z" });
      await refused(400, `${BASE}/attempts`, { minutes: 5 });
      await refused(400, `${BASE}/attempts`, { days: 1, start_epoch: 1, end_epoch: 2 });
    });

    it("answers 413 for a body over 5,700,000 bytes without building it", async () => {
      const error = await refused(413, `${BASE}/custom-selection`, { metric: ["attempts", "plays", "bitrate"], days: 90, granularity: "PT1M" });
      expect(error.message).toContain("5700000");
      await refused(413, `${BASE}/quality-summary/group-by/asset`, { days: 30, granularity: "PT1H" });
    });

    it("refuses ad metrics to an account without ad insights with 403 and answers them with it", async () => {
      await refused(403, `${BASE}/ad-attempts`, {}, BASIC);
      await refused(403, `${BASE}/custom-selection`, { metric: ["attempts", "exits-before-ad-start"] }, BASIC);
      await ok(`${BASE}/attempts`, {}, BASIC);
      const ads = await series(`${BASE}/ad-attempts`, { days: 1 });
      expect(ads.total!["ad_attempts"]!.count).toBeGreaterThan(0);
    });

    it("lists dimensions for filtering and group-by with and without the /insights prefix", async () => {
      for (const path of ["/3.0/metrics/_meta/references/dimensions", "/insights/3.0/metrics/_meta/references/dimensions"]) {
        const list = MetricDimensionReferenceList.parse(await ok(path)).dimensions;
        expect(list).toContainEqual(expect.objectContaining({ filter: "geo_country_code", group_by: "geo-country-code" }));
        expect(list).toContainEqual(expect.objectContaining({ filter: "tag_subscriptionTier" }));
      }
      FilterReferenceList.parse(await ok("/insights/3.0/metrics/_meta/references/filters"));
    });
  });
});
