import { afterEach, describe, expect, it } from "vitest";
import { PayloadTooLargeError, UnprocessableEntityError } from "../provider/client";
import { DIALECT_ANSWERS, TEST_NOW_MS } from "./support/emulator";
import { expectRefusedBeforeSending, journalMark, requestsSince, useQueryFamilies } from "./support/query-families";

// The metrics family of the typed client (spec 4.6) over real HTTP against the emulator: typed
// results, filters, group-by, listings, and the limits of spec 8 made invisible (more than 12
// metrics, ranges over 90 days, 413 answers), each split checked in the emulator's request journal.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The most recent clock hour at TEST_NOW: where `days` counts back from (docs/api.md 10.4). */
const LAST_HOUR_MS = Math.floor(TEST_NOW_MS / HOUR_MS) * HOUR_MS;
const BASE = "/insights/3.0/metrics";

const context = useQueryFamilies();
afterEach(async () => {
  await context.emulator.control("DELETE", "faults");
});

async function injectFault(rule: Record<string, unknown>): Promise<void> {
  expect((await context.emulator.control("POST", "faults", rule)).status).toBe(201);
}

const rangeOf = (request: { params: URLSearchParams }) => [Number(request.params.get("start_epoch_ms")), Number(request.params.get("end_epoch_ms"))] as const;

describe("one metric, typed", () => {
  it("answers a series of {time, value} per interval and a total that agrees with it", async () => {
    const mark = await journalMark(context.emulator);
    const result = await context.client.metrics.metric({ metric: "attempts", range: { lastDays: 1 } });
    const [request] = await requestsSince(context.emulator, mark);
    expect(request!.path).toBe(`${BASE}/attempts`);
    expect(request!.query).toBe("days=1");

    const series = result.series.attempts.count;
    expect(series).toHaveLength(24);
    expect(series[0]).toMatchObject({ time: new Date(LAST_HOUR_MS - DAY_MS).toISOString(), epochMs: LAST_HOUR_MS - DAY_MS });
    expect(series.every((point, index) => index === 0 || point.epochMs - series[index - 1]!.epochMs === HOUR_MS)).toBe(true);
    expect(series.every((point) => Number.isInteger(point.value) && point.value >= 0)).toBe(true);
    expect(result.total?.attempts.count).toBe(series.reduce((sum, point) => sum + point.value, 0));
    expect(result.windows).toHaveLength(1);
  });

  it("sends repeated dimension filters for OR and matches the group-by totals of those values", async () => {
    const range = { lastDays: 1 } as const;
    const mark = await journalMark(context.emulator);
    const filtered = await context.client.metrics.metric({ metric: "attempts", range, filters: { cdn: ["Akamai", "Fastly"] } });
    const [request] = await requestsSince(context.emulator, mark);
    expect(request!.params.getAll("cdn")).toEqual(["Akamai", "Fastly"]);

    const byCdn = await context.client.metrics.groupBy({ metric: "attempts", dimension: "cdn", range });
    const totalOf = (cdn: string) => byCdn.entities.find((entity) => entity.value === cdn)?.total?.attempts.count ?? 0;
    const expected = ["Akamai", "Fastly"].reduce((sum, cdn) => sum + totalOf(cdn), 0);
    expect(filtered.total?.attempts.count).toBe(expected);
    expect(expected).toBeGreaterThan(0);
  });

  it("queries real-time metrics with minutes", async () => {
    const mark = await journalMark(context.emulator);
    const result = await context.client.realTimeMetrics.metric({ metric: "concurrent-plays", range: { lastMinutes: 3 } });
    const [request] = await requestsSince(context.emulator, mark);
    expect(request!.path).toBe("/insights/3.0/real-time-metrics/concurrent-plays");
    expect(request!.query).toBe("minutes=3");
    expect(result.series["concurrent-plays"].count).toHaveLength(3);
  });
});

describe("custom selections over 12 metrics (spec 8)", () => {
  const METRICS = [
    "attempts", "plays", "ended-plays", "minutes-played", "unique-devices", "video-start-failures",
    "video-start-failures-business", "video-start-failures-tech", "video-playback-failures", "exits-before-video-start",
    "rebuffering-ratio", "bitrate", "video-start-time", "video-restart-time", "framerate", "concurrent-plays",
    "good-session", "bad-session", "high-rebuffering", "low-bitrate",
  ] as const;

  it("sends 20 metrics as 2 requests of at most 12 and merges them by timestamp and member", async () => {
    const mark = await journalMark(context.emulator);
    const result = await context.client.metrics.customSelection({ metrics: METRICS, range: { lastDays: 1 }, granularity: "PT6H" });
    const requests = await requestsSince(context.emulator, mark);
    expect(requests.map((request) => request.path)).toEqual([`${BASE}/custom-selection`, `${BASE}/custom-selection`]);
    expect(requests.map((request) => request.params.getAll("metric").length).sort()).toEqual([12, 8]);
    expect(new Set(requests.flatMap((request) => request.params.getAll("metric")))).toEqual(new Set(METRICS));

    expect(result.response.time_series).toHaveLength(4);
    for (const point of result.response.time_series) expect(Object.keys(point).length).toBe(METRICS.length + 1);
    expect(Object.keys(result.total ?? {})).toHaveLength(METRICS.length);
    // A metric of each chunk reads as it does when asked alone.
    for (const metric of ["attempts", "low-bitrate"] as const) {
      const alone = await context.client.metrics.metric({ metric, range: { lastDays: 1 }, granularity: "PT6H" });
      expect(result.series[metric].count).toEqual(alone.series[metric].count);
    }
  });

  it("groups over 12 metrics with every chunk sorted by the same metric, so the entities match", async () => {
    const metrics = METRICS.slice(0, 14);
    const mark = await journalMark(context.emulator);
    const result = await context.client.metrics.customSelectionGroupBy({ metrics, dimension: "cdn", range: { lastDays: 1 }, granularity: "P1D", limit: 3, sortBy: "plays" });
    const requests = await requestsSince(context.emulator, mark);
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect(request.params.get("sort_by")).toBe("plays");
      expect(request.params.getAll("metric")).toContain("plays");
      expect(request.params.getAll("metric").length).toBeLessThanOrEqual(12);
    }
    expect(result.entities).toHaveLength(3);
    expect(result.response.total?.dimensional_data).toHaveLength(3);
    for (const datum of result.response.total!.dimensional_data) expect(Object.keys(datum.metrics)).toHaveLength(14);
    for (const entity of result.entities) expect(Object.keys(entity.total!)).toHaveLength(14);
    const plays = result.entities.map((cdn) => cdn.total!.plays.count!);
    expect(plays).toEqual([...plays].sort((a, b) => b - a));
  });
});

describe("ranges over 90 days (spec 8)", () => {
  it("sends a 1-year query as 5 windows of at most 90 days on day boundaries", async () => {
    // Generating a year of sessions takes the emulator tens of seconds, so every window is answered
    // by an injected 422: the journal still shows the windows the client sent, in parallel.
    await injectFault({ path: `${BASE}/attempts`, status: 422, times: 5 });
    const mark = await journalMark(context.emulator);
    const call = context.client.metrics.metric({ metric: "attempts", range: { lastDays: 365 }, granularity: "P1D" });
    await expect(call).rejects.toBeInstanceOf(UnprocessableEntityError);
    // The call rejects at the first 422; the other windows are still being answered: wait for the
    // journal to record all five (the emulator runs in this process).
    await context.emulator.state.journal.waitFor(mark, (entries) => entries.length >= 5);
    const requests = await requestsSince(context.emulator, mark);
    const windows = requests.map(rangeOf).sort((a, b) => a[0] - b[0]);
    expect(windows).toHaveLength(5);
    expect(windows[0]![0]).toBe(LAST_HOUR_MS - 365 * DAY_MS);
    expect(windows.at(-1)![1]).toBe(LAST_HOUR_MS);
    windows.forEach(([start, end], index) => {
      expect(end - start).toBeLessThanOrEqual(90 * DAY_MS);
      if (index > 0) expect(start).toBe(windows[index - 1]![1]);
      if (index > 0) expect(start % DAY_MS).toBe(0);
    });
  });

  it("still refuses a start older than 13 months, before sending", async () => {
    const mark = await journalMark(context.emulator);
    const call = context.client.metrics.metric({ metric: "attempts", range: { start: TEST_NOW_MS - 400 * DAY_MS, end: TEST_NOW_MS } });
    await expect(call).rejects.toThrow(/within the last 396 days/);
    expect(await requestsSince(context.emulator, mark)).toHaveLength(0);
  });
});

describe("where the contract is silent (provider/schema/assumptions.ts METRIC_ANSWER_RULE)", () => {
  // Each holds in both dialects (emulator/README.md "Dialects"): before, a range not given was the
  // service's (24 hours ending 12:00 in the alternate dialect), limit 0 was what the service made of
  // it (50 there), and a null value failed the whole call.

  it("sends a range not given as the last 24 hours (real time: 5 minutes) ending at the client's now", async () => {
    const mark = await journalMark(context.emulator);
    const result = await context.client.metrics.metric({ metric: "attempts" });
    const realTime = await context.client.realTimeMetrics.metric({ metric: "attempts" });
    const requests = await requestsSince(context.emulator, mark);
    expect(requests.map(rangeOf)).toEqual([[TEST_NOW_MS - DAY_MS, TEST_NOW_MS], [TEST_NOW_MS - 5 * 60_000, TEST_NOW_MS]]);
    // From the hour of 12:30 the day before to the hour of 12:30, both partial.
    const times = result.series.attempts.count.map((point) => point.time);
    expect([times.length, times[0], times.at(-1)]).toEqual([25, "2026-11-19T12:00:00.000Z", "2026-11-20T12:00:00.000Z"]);
    expect(realTime.series.attempts.count.map((point) => point.time).at(-1)).toBe("2026-11-20T12:29:00.000Z");
  });

  it("asks for group-by limit 0 as 500, the most", async () => {
    const mark = await journalMark(context.emulator);
    const result = await context.client.metrics.groupBy({ metric: "attempts", dimension: "asset", limit: 0, range: { start: LAST_HOUR_MS - HOUR_MS, end: LAST_HOUR_MS } });
    expect((await requestsSince(context.emulator, mark))[0]!.params.get("limit")).toBe("500");
    // More than 50 assets have attempts in that hour: all of them, not a default 50.
    expect(result.response.total!.dimensional_data.length).toBeGreaterThan(50);
  });

  it("reads a value whose denominator is empty as no value, never as 0, and lists only the intervals answered", async () => {
    const metrics = ["plays", "rebuffering-ratio", "bitrate"] as const;
    const result = await context.client.metrics.customSelection({ metrics, filters: { cdn: "No such CDN" }, range: { start: LAST_HOUR_MS - HOUR_MS, end: LAST_HOUR_MS }, granularity: "PT1M" });
    expect(result.total?.plays.count).toBe(0);
    const noValue = DIALECT_ANSWERS.emptyRatio === null ? undefined : 0;
    expect([result.total?.plays.percentage, result.total?.["rebuffering-ratio"].ratio, result.total?.bitrate.bps]).toEqual([noValue, noValue, noValue]);
    const listed = DIALECT_ANSWERS.listsIntervalsWithoutData ? 60 : 0;
    expect([result.series.plays.count.length, result.response.time_series.length]).toEqual([listed, listed]);
    expect(result.series.plays.percentage).toHaveLength(DIALECT_ANSWERS.emptyRatio === null ? 0 : listed);
  });
});

describe("413 answers (spec 7, 8)", () => {
  const query = { metric: "attempts", range: { lastDays: 2 }, granularity: "PT1H" } as const;

  it("fetches the range again as two halves and merges them into the same series", async () => {
    const baseline = await context.client.metrics.metric(query);
    await injectFault({ path: `${BASE}/attempts`, status: 413, times: 1 });
    const mark = await journalMark(context.emulator);
    const result = await context.client.metrics.metric(query);
    const requests = await requestsSince(context.emulator, mark);

    expect(requests.map((request) => request.status)).toEqual([413, 200, 200]);
    expect([...requests[0]!.params]).toEqual(expect.arrayContaining([["days", "2"], ["granularity", "PT1H"]]));
    const halves = requests.slice(1).map(rangeOf).sort((a, b) => a[0] - b[0]);
    expect(halves).toEqual([[LAST_HOUR_MS - 2 * DAY_MS, LAST_HOUR_MS - DAY_MS], [LAST_HOUR_MS - DAY_MS, LAST_HOUR_MS]]);

    expect(result.series.attempts.count).toEqual(baseline.series.attempts.count);
    expect(result.total).toBeUndefined();
    expect(result.windows.map((window) => window.total?.["attempts"]?.count).reduce((a, b) => a! + b!)).toBe(baseline.total?.attempts.count);
  });

  it("halves again while the halves are too large", async () => {
    const baseline = await context.client.metrics.metric(query);
    await injectFault({ path: `${BASE}/attempts`, status: 413, times: 3 });
    const mark = await journalMark(context.emulator);
    const result = await context.client.metrics.metric(query);
    const statuses = (await requestsSince(context.emulator, mark)).map((request) => request.status);
    expect(statuses.filter((status) => status === 413)).toHaveLength(3);
    expect(statuses.filter((status) => status === 200)).toHaveLength(4);
    expect(result.series.attempts.count).toEqual(baseline.series.attempts.count);
    expect(result.windows).toHaveLength(4);
  });

  it("throws PayloadTooLargeError when one interval cannot be split (granularity ALL)", async () => {
    await injectFault({ path: `${BASE}/attempts`, status: 413, times: 1 });
    const mark = await journalMark(context.emulator);
    await expect(context.client.metrics.metric({ ...query, granularity: "ALL" })).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(await requestsSince(context.emulator, mark)).toHaveLength(1);
  });
});

describe("group-by and listings", () => {
  it("groups one metric by a dimension, ranked as asked", async () => {
    const result = await context.client.metrics.groupBy({ metric: "attempts", dimension: "geo-country-code", range: { lastDays: 1 }, limit: 3, order: "desc" });
    // The three of the total come first, in its ranking.
    const ranked = result.entities.slice(0, 3);
    expect(ranked.map((country) => country.value)).toEqual(result.response.total!.dimensional_data.map((datum) => datum.dimension.value));
    const totals = ranked.map((country) => country.total!.attempts.count!);
    expect(totals).toHaveLength(3);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    const series = ranked[0]!.series.attempts.count.reduce((sum, point) => sum + point.value, 0);
    if (DIALECT_ANSWERS.groupByRanksTheWholeRange) {
      // Every hour lists those three: the series add up to the totals.
      expect(result.entities).toHaveLength(3);
      expect(series).toBe(totals[0]);
    } else {
      // Each hour lists its own top three: others follow, and an hour may leave the first out.
      expect(result.entities.length).toBeGreaterThan(3);
      expect(series).toBeLessThanOrEqual(totals[0]!);
    }
  });

  it("lists custom tags and groups by one", async () => {
    const { dimension_tags } = await context.client.metrics.dimensionTags({ metric: "attempts" });
    const tag = dimension_tags.find((candidate) => candidate.name === "subscriptionTier");
    expect(tag).toBeDefined();
    const mark = await journalMark(context.emulator);
    const result = await context.client.metrics.groupByTag({ metric: "plays", tag: tag!.name, range: { lastDays: 1 } });
    expect((await requestsSince(context.emulator, mark))[0]!.path).toBe(`${BASE}/plays/group-by/dimension-tag/subscriptionTier`);
    expect(result.entities.length).toBeGreaterThan(0);
  });

  it("lists group-by dimensions, dimension and filter references, and KPI sets", async () => {
    const dimensions = await context.client.metrics.groupByDimensions({ metric: "video-start-failures" });
    expect(dimensions.dimensions.map((dimension) => dimension.name)).toEqual(expect.arrayContaining(["cdn", "video-start-failure-error"]));
    const references = await context.client.metrics.dimensionReferences();
    expect(references.dimensions.some((dimension) => dimension.filter === "geo_city_name")).toBe(true);
    expect(Array.isArray((await context.client.metrics.filterReferences()).filters)).toBe(true);
    const { kpis } = await context.client.metrics.kpis();
    expect(kpis.find((kpi) => kpi.kpi_id === "1")?.kpi_name).toBeDefined();
  });
});

describe("metric arguments are checked before sending", () => {
  it.each([
    ["minutes for historical metrics", () => context.client.metrics.metric({ metric: "attempts", range: { lastMinutes: 5 } as never }), "range.lastMinutes", "accepted only by real-time metrics"],
    ["a real-time range over 15 minutes", () => context.client.realTimeMetrics.metric({ metric: "attempts", range: { lastMinutes: 16 } }), "range", "at most 15 minutes"],
    ["a real-time start older than 15 minutes", () => context.client.realTimeMetrics.metric({ metric: "attempts", range: { start: TEST_NOW_MS - 20 * 60_000, end: TEST_NOW_MS - 10 * 60_000 } }), "range.start", "within the last 15 minutes"],
    ["a group-by limit above 50 over more than 24 hours", () => context.client.metrics.groupBy({ metric: "attempts", dimension: "cdn", limit: 100, range: { lastDays: 2 } }), "limit", "at most 24 hours"],
    ["a group-by limit above 500", () => context.client.metrics.groupBy({ metric: "attempts", dimension: "cdn", limit: 501 }), "limit", "from 0 to 500"],
    ["an error-code dimension with another metric", () => context.client.metrics.groupBy({ metric: "attempts", dimension: "video-start-failure-error" }), "dimension", 'only the metric "video-start-failures"'],
    ["filter_id with dimension filters", () => context.client.metrics.metric({ metric: "attempts", filterId: "7", filters: { cdn: "Akamai" } }), "filterId", "one filter type"],
    ["a misspelt metric", () => context.client.metrics.metric({ metric: "atempts" as never }), "metric", 'did you mean "attempts"?'],
    ["a misspelt filter", () => context.client.metrics.metric({ metric: "attempts", filters: { geo_country_cod: "US" } as never }), "filters.geo_country_cod", 'did you mean "geo_country_code"?'],
    ["ALL over more than 90 days", () => context.client.metrics.metric({ metric: "attempts", granularity: "ALL", range: { lastDays: 120 } }), "granularity", "cannot be assembled"],
    ["sorting by a metric not requested", () => context.client.metrics.groupBy({ metric: "attempts", dimension: "cdn", sortBy: "plays" }), "sortBy", 'valid requested metrics are "attempts"'],
    ["a misspelt argument", () => context.client.metrics.metric({ metric: "attempts", granulartiy: "PT1H" } as never), "params.granulartiy", 'did you mean "granularity"?'],
  ])("refuses %s", (_case, call, path, message) => expectRefusedBeforeSending(context.emulator, call, path, message));
});
