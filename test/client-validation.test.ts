import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ArgumentError, PayloadTooLargeError } from "../provider/client/core/errors";
import { GROUP_BY_SHAPE, mergeByMembers, mergeByTime, PLAIN_SHAPE, single } from "../provider/client/metric-merge";
import { groupByResult, metricResult } from "../provider/client/metric-results";
import { chunk, chunkWithPinned, dedupeBy, fetchHalving, granularityGrid, halveInterval, splitIntoWindows, type Grid } from "../provider/client/core/split";
import { DAY_MS, HOUR_MS, MINUTE_MS, rangeQuery, resolveRange, timeRange, timeRangeAt, type Interval, type RangePolicy } from "../provider/client/core/time-range";
import { Granularity, parseArgument, parseParams, zChoiceList } from "../provider/client/core/validation";
import { metricParamSchemas } from "../provider/client/metrics";
import { sessionParamSchemas } from "../provider/client/sessions";
import { timestampOf, type MetricResponse } from "../provider/schema";

// Pure unit tests of the client's argument checks, splitting and merging (no I/O). The same logic
// is exercised end to end over HTTP in client-metrics, client-sessions and client-alerts tests.

const NOW = Date.parse("2026-11-20T12:30:00.000Z");
const HISTORICAL: RangePolicy = { family: "historical metrics", formats: ["explicit", "lastDays"], maxAgeMs: 396 * DAY_MS, daysAnchor: "hour" };
const REAL_TIME: RangePolicy = { family: "real-time metrics", formats: ["explicit", "lastMinutes"], maxAgeMs: 15 * MINUTE_MS, maxDurationMs: 15 * MINUTE_MS, daysAnchor: "now" };

/** The params of historical metrics and of sessions, checked by the clock of these tests. */
const metricParams = metricParamSchemas(false, () => NOW);
const sessionParams = sessionParamSchemas(() => NOW);
/** A time range of `policy`, parsed as a method parses its `range`. */
const checkTimeRange = (range: unknown, policy: RangePolicy) => parseArgument(timeRange(policy), range, "range");
/** An explicit range held to the limits of `policy` by the clock of these tests. */
const checkRangeLimits = ({ startMs, endMs }: Interval, nowMs: number, policy: RangePolicy) => parseArgument(timeRangeAt(policy, () => nowMs), { start: startMs, end: endMs }, "range");
/** The query of filter arguments, as a metrics method (or, with `sessions`, a sample-sessions method) sends it. */
const filterQueryOf = (filters: object, family: "metrics" | "sessions" = "metrics") =>
  family === "metrics" ? parseParams(metricParams.MetricParams, { metric: "attempts", ...filters }).series.query : parseParams(sessionParams.SampleSessionParams, filters);

/** The ArgumentError `run` throws (fails the test when it throws nothing or something else). */
function argumentError(run: () => unknown): ArgumentError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ArgumentError);
    return error as ArgumentError;
  }
  throw new Error("expected an ArgumentError, nothing was thrown");
}

describe("time ranges (spec 4.1)", () => {
  it("accepts each format and sends explicit ranges as epoch milliseconds", () => {
    const explicit = checkTimeRange({ start: "2026-11-01T00:00:00Z", end: new Date("2026-11-02T00:00:00Z") }, HISTORICAL);
    expect(rangeQuery(explicit)).toEqual({ start_epoch_ms: Date.parse("2026-11-01T00:00:00Z"), end_epoch_ms: Date.parse("2026-11-02T00:00:00Z") });
    expect(rangeQuery(checkTimeRange({ lastDays: 5 }, HISTORICAL))).toEqual({ days: 5 });
    expect(rangeQuery(checkTimeRange({ lastMinutes: 10 }, REAL_TIME))).toEqual({ minutes: 10 });
  });

  it("reads ISO strings without a zone as UTC, never in the local zone", () => {
    const range = checkTimeRange({ start: "2026-11-01T10:00:00", end: "2026-11-02" }, HISTORICAL);
    expect(range).toMatchObject({ startMs: Date.parse("2026-11-01T10:00:00Z"), endMs: Date.parse("2026-11-02T00:00:00Z") });
  });

  it("refuses mixed formats, naming both and the accepted shapes", () => {
    const error = argumentError(() => checkTimeRange({ start: NOW - HOUR_MS, end: NOW, lastDays: 2 } as never, HISTORICAL));
    expect(error.path).toBe("range");
    expect(error.message).toContain("mixes explicit and lastDays");
    expect(error.message).toContain("{ start, end } or { lastDays }");
  });

  it("refuses days for real-time metrics and minutes for historical ones (spec 4.1)", () => {
    expect(argumentError(() => checkTimeRange({ lastDays: 1 }, REAL_TIME)).message).toContain("lastDays is accepted only by historical metrics and the viewer endpoints");
    const minutes = argumentError(() => checkTimeRange({ lastMinutes: 5 }, HISTORICAL));
    expect(minutes.path).toBe("range.lastMinutes");
    expect(minutes.message).toContain("real-time metrics");
  });

  it("refuses a start not before the end, half a pair, and dates that are not ISO 8601", () => {
    expect(argumentError(() => checkTimeRange({ start: NOW, end: NOW }, HISTORICAL)).path).toBe("range.start");
    expect(argumentError(() => checkTimeRange({ start: NOW } as never, HISTORICAL)).path).toBe("range.end");
    const bad = argumentError(() => checkTimeRange({ start: "20/11/2026", end: NOW }, HISTORICAL));
    expect(bad.path).toBe("range.start");
    expect(bad.message).toContain("ISO 8601");
    expect(argumentError(() => checkTimeRange({ lastDays: 1.5 }, HISTORICAL)).message).toContain("positive whole number");
  });

  it("counts days back from the most recent clock hour for historical metrics (docs/api.md 10.4)", () => {
    const interval = resolveRange({ format: "lastDays", days: 5 }, NOW, "hour");
    expect(interval).toEqual({ startMs: Date.parse("2026-11-15T12:00:00Z"), endMs: Date.parse("2026-11-20T12:00:00Z") });
  });

  it("enforces the recency and length limits of spec 8 with a fix in the message", () => {
    const old = argumentError(() => checkRangeLimits({ startMs: NOW - 400 * DAY_MS, endMs: NOW - 399 * DAY_MS }, NOW, HISTORICAL));
    expect(old.path).toBe("range.start");
    expect(old.message).toContain("within the last 396 days");
    expect(old.message).toContain("move the start to 2025-10-20T12:30:00.000Z or later");
    const long = argumentError(() => checkRangeLimits({ startMs: NOW - 10 * MINUTE_MS, endMs: NOW + 10 * MINUTE_MS }, NOW, REAL_TIME));
    expect(long.message).toContain("at most 15 minutes");
    expect(() => checkRangeLimits({ startMs: NOW - 15 * MINUTE_MS, endMs: NOW }, NOW, REAL_TIME)).not.toThrow();
  });
});

describe("filters (spec 4.2, 4.6, 4.7)", () => {
  it("repeats a key for OR, prefixes tags and keeps comma strings as one value", () => {
    const query = filterQueryOf({ filters: { cdn: ["Akamai", "Fastly"], geo_country_code: "US" }, tags: { specialContentId: "a,b" } });
    expect(query).toEqual({ cdn: ["Akamai", "Fastly"], geo_country_code: ["US"], tag_specialContentId: ["a,b"] });
  });

  it("refuses filter_id combined with dimension or tag filters", () => {
    const error = argumentError(() => filterQueryOf({ filterId: 12, tags: { show: "x" } }));
    expect(error.path).toBe("filterId");
    expect(error.message).toContain("one filter type per request");
    expect(filterQueryOf({ filterId: 12 })).toEqual({ filter_id: "12" });
  });

  it("suggests the nearest filter name for a near miss", () => {
    const error = argumentError(() => filterQueryOf({ filters: { geo_cty_name: "Paris" } }));
    expect(error.path).toBe("filters.geo_cty_name");
    expect(error.message).toContain('did you mean "geo_city_name"?');
  });

  it("takes booleans for boolean session filters and refuses other values", () => {
    expect(filterQueryOf({ filters: { is_video_start_failure: true } }, "sessions")).toEqual({ is_video_start_failure: ["true"] });
    expect(argumentError(() => filterQueryOf({ filters: { is_video_start_failure: "yes" } }, "sessions")).message).toContain("true or false");
  });

  it("refuses empty values and tag names given with their prefix", () => {
    expect(argumentError(() => filterQueryOf({ filters: { cdn: [] } })).message).toContain("matches nothing");
    expect(argumentError(() => filterQueryOf({ tags: { tag_show: "x" } })).message).toContain('without the "tag_" prefix: "show"');
  });

  it("refuses filters and tags that are not maps instead of reading them key by key", () => {
    const filters = argumentError(() => filterQueryOf({ filters: "cdn" }));
    expect(filters.path).toBe("filters");
    expect(filters.message).toBe('filters: must be an object of filter names to values, such as { cdn: ["Akamai", "Fastly"] }, got "cdn"');
    const tags = argumentError(() => filterQueryOf({ tags: ["show"] }, "sessions"));
    expect(tags.path).toBe("tags");
    expect(tags.message).toContain('must be an object of tag names (without "tag_") to values');
  });
});

describe("names and options", () => {
  it("suggests the nearest metric name", () => {
    const error = argumentError(() => parseParams(metricParams.MetricParams, { metric: "atempts" }));
    expect(error.message).toBe('metric: "atempts" is not a known metric name; did you mean "attempts"?');
  });

  it("allows an error-code dimension only with its metric (spec 4.7)", () => {
    const groupBy = (metric: string, dimension: string) => parseParams(metricParams.GroupByParams, { metric, dimension }).dimension;
    expect(groupBy("video-start-failures", "video-start-failure-error")).toBe("video-start-failure-error");
    const error = argumentError(() => groupBy("attempts", "video-start-failure-error"));
    expect(error.message).toContain('groups only the metric "video-start-failures"');
    expect(argumentError(() => groupBy("attempts", "geo-cty-name")).message).toContain('did you mean "geo-city-name"?');
  });

  it("checks granularities: PT1M to P10W or ALL", () => {
    const checkGranularity = (text: string) => parseArgument(Granularity, text, "granularity");
    expect(checkGranularity("PT6H")).toEqual({ text: "PT6H", stepMs: 6 * HOUR_MS });
    expect(checkGranularity("P10W").stepMs).toBe(70 * DAY_MS);
    expect(checkGranularity("ALL").stepMs).toBeUndefined();
    expect(argumentError(() => checkGranularity("P11W")).message).toContain("PT1M to P10W");
    expect(argumentError(() => checkGranularity("1h")).message).toContain("ISO 8601 duration");
    expect(argumentError(() => checkGranularity("PT30S")).message).toContain("whole minutes");
  });

  it("refuses repeated list items and misspelt argument names", () => {
    expect(argumentError(() => parseArgument(zChoiceList(["info", "warning"], "severities"), ["info", "info"], "severity")).path).toBe("severity[1]");
    const error = argumentError(() => parseParams(metricParams.MetricParams, { metric: "attempts", rnage: {} }));
    expect(error.path).toBe("params.rnage");
    expect(error.message).toContain('did you mean "range"?');
  });
});

describe("viewer identities (spec 4.3, 4.4)", () => {
  it("says what is wrong with a viewer's id or IP address without repeating it: it is personal data", () => {
    const viewerSessions = (params: object) => parseParams(sessionParams.ViewerSessionParams, params);
    const address = argumentError(() => viewerSessions({ viewerIp: "203.0.113" }));
    expect(address.message).toBe("viewerIp: must be an IPv4 or IPv6 address (spec 4.3), got a string that is not one (not repeated: personal data)");
    expect(argumentError(() => viewerSessions({ viewerIp: 2030113 })).message).not.toContain("2030113");
    expect(argumentError(() => viewerSessions({ viewerId: 48151623 })).message).toBe("viewerId: must be a non-empty string, got a number (not repeated: personal data)");
    expect(argumentError(() => viewerSessions({ viewerId: "v-1", viewerIp: "203.0.113.7" })).message).toBe("viewerId: give exactly one of viewerId or viewerIp (spec 4.3, 4.4)");
    expect(viewerSessions({ viewerIp: "2001:db8::1", range: { lastDays: 2 }, limit: 600 })).toMatchObject({ identity: { viewer_ip: "2001:db8::1" }, range: { days: 2 }, limit: 600 });
  });
});

describe("splitting (spec 8)", () => {
  const hourly = granularityGrid(HOUR_MS);

  it("splits a year into 90-day windows on interval boundaries: 5 windows", () => {
    const end = Date.parse("2026-11-20T12:00:00Z");
    const windows = splitIntoWindows({ startMs: end - 365 * DAY_MS, endMs: end }, 90 * DAY_MS, hourly);
    expect(windows).toHaveLength(5);
    expect(windows.map((window) => (window.endMs - window.startMs) / DAY_MS)).toEqual([90, 90, 90, 90, 5]);
  });

  it("puts weekly boundaries on Mondays, as the service's intervals are", () => {
    const weekly = granularityGrid(7 * DAY_MS);
    const windows = splitIntoWindows({ startMs: Date.parse("2026-01-01T00:00:00Z"), endMs: Date.parse("2026-11-01T00:00:00Z") }, 90 * DAY_MS, weekly);
    for (const window of windows.slice(1)) expect(new Date(window.startMs).getUTCDay()).toBe(1);
  });

  it("covers any interval with contiguous windows within the limit, inner boundaries on the grid", () => {
    const steps = [MINUTE_MS, HOUR_MS, 6 * HOUR_MS, DAY_MS, 7 * DAY_MS, 70 * DAY_MS];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_000_000_000_000 }), fc.integer({ min: 1, max: 400 * DAY_MS }), fc.constantFrom(...steps), (startMs, length, stepMs) => {
        const grid = granularityGrid(stepMs);
        const windows = splitIntoWindows({ startMs, endMs: startMs + length }, 90 * DAY_MS, grid);
        expect(windows[0]!.startMs).toBe(startMs);
        expect(windows.at(-1)!.endMs).toBe(startMs + length);
        const widened = (epochMs: number, round: (x: number) => number) => grid.originMs + round((epochMs - grid.originMs) / stepMs) * stepMs;
        windows.forEach((window, index) => {
          // Within the limit even after the service widens the window to whole intervals.
          expect(widened(window.endMs, Math.ceil) - widened(window.startMs, Math.floor)).toBeLessThanOrEqual(90 * DAY_MS);
          expect(window.endMs).toBeGreaterThan(window.startMs);
          if (index > 0) {
            expect(window.startMs).toBe(windows[index - 1]!.endMs);
            expect((window.startMs - grid.originMs) % stepMs).toBe(0);
          }
        });
      }),
    );
  });

  it("halves on the boundary nearest the middle, and not below one interval", () => {
    const start = Date.parse("2026-11-20T00:00:00Z");
    expect(halveInterval({ startMs: start, endMs: start + 5 * HOUR_MS }, hourly)).toEqual([
      { startMs: start, endMs: start + 3 * HOUR_MS },
      { startMs: start + 3 * HOUR_MS, endMs: start + 5 * HOUR_MS },
    ]);
    expect(halveInterval({ startMs: start, endMs: start + HOUR_MS }, hourly)).toBeUndefined();
    // Unaligned ends: still split on a boundary, never inside an interval.
    expect(halveInterval({ startMs: start + 30 * MINUTE_MS, endMs: start + 150 * MINUTE_MS }, hourly)?.[0].endMs).toBe(start + 2 * HOUR_MS);
    expect(halveInterval({ startMs: start + 10 * MINUTE_MS, endMs: start + 50 * MINUTE_MS }, hourly)).toBeUndefined();
    expect(halveInterval({ startMs: start, endMs: start + DAY_MS }, granularityGrid(Number.POSITIVE_INFINITY))).toBeUndefined();
  });

  it("fetches halves recursively on an error and rethrows at the floor", async () => {
    const grid: Grid = { stepMs: 1, originMs: 0 };
    const fetched: Interval[] = [];
    const result = await fetchHalving({ startMs: 0, endMs: 8 }, {
      grid,
      fetch: async (interval) => {
        fetched.push(interval);
        if (interval.endMs - interval.startMs > 2) throw new PayloadTooLargeError({ method: "GET", path: "/x", status: 413, body: {} });
        return [interval.startMs];
      },
      merge: (parts) => parts.flat(),
      halveOnError: (error) => error instanceof PayloadTooLargeError,
    });
    expect(result).toEqual([0, 2, 4, 6]);
    expect(fetched).toHaveLength(7);
    const floor = fetchHalving({ startMs: 0, endMs: 1 }, { grid, fetch: async () => Promise.reject(new Error("too large")), merge: (parts) => parts as never, halveOnError: () => true });
    await expect(floor).rejects.toThrow("too large");
  });

  it("chunks metric lists, pinning the sort metric into every chunk", () => {
    const names = Array.from({ length: 20 }, (_, index) => `m${index}`);
    expect(chunk(names, 12).map((part) => part.length)).toEqual([12, 8]);
    const pinned = chunkWithPinned(names, 12, "m5");
    expect(pinned.map((part) => part[0])).toEqual(["m5", "m5"]);
    expect(new Set(pinned.flat())).toEqual(new Set(names));
    expect(pinned.every((part) => part.length <= 12)).toBe(true);
  });

  it("de-duplicates keeping the last version at the first position", () => {
    expect(dedupeBy([{ id: "a", v: 1 }, { id: "b", v: 1 }, { id: "a", v: 2 }], (item) => item.id)).toEqual([{ id: "a", v: 2 }, { id: "b", v: 1 }]);
  });
});

describe("merging and reading metric results (spec 2.4)", () => {
  const t0 = Date.parse("2026-11-20T00:00:00Z");
  const point = (hour: number, members: Record<string, object>) => ({ timestamp: timestampOf(t0 + hour * HOUR_MS), ...members });
  const window = (from: number, to: number): Interval => ({ startMs: t0 + from * HOUR_MS, endMs: t0 + to * HOUR_MS });

  it("merges metric chunks member by member and time windows in order, dropping the unknowable total", () => {
    const attempts: MetricResponse = { time_series: [point(0, { attempts: { count: 3 } }), point(1, { attempts: { count: 4 } })], total: { attempts: { count: 7 } } };
    const plays: MetricResponse = { time_series: [point(0, { plays: { count: 2, percentage: 66.7 } }), point(1, { plays: { count: 1, percentage: 25 } })], total: { plays: { count: 3, percentage: 42.9 } } };
    const byMembers = mergeByMembers([single(attempts, window(0, 2)), single(plays, window(0, 2))], PLAIN_SHAPE);
    expect(byMembers.response.total).toEqual({ attempts: { count: 7 }, plays: { count: 3, percentage: 42.9 } });
    expect(byMembers.response.time_series[1]).toMatchObject({ attempts: { count: 4 }, plays: { count: 1 } });

    const later: MetricResponse = { time_series: [point(2, { attempts: { count: 5 } })], total: { attempts: { count: 5 } } };
    const byTime = mergeByTime([byMembers, single(later, window(2, 3))], PLAIN_SHAPE);
    expect(byTime.response.total).toBeUndefined();
    expect(byTime.windows.map((part) => part.total)).toEqual([{ attempts: { count: 7 }, plays: { count: 3, percentage: 42.9 } }, { attempts: { count: 5 } }]);

    const result = metricResult(byTime, ["attempts", "plays"] as const);
    const at = (hours: number) => ({ time: new Date(t0 + hours * HOUR_MS).toISOString(), epochMs: t0 + hours * HOUR_MS });
    expect(result.series.attempts).toEqual({ count: [{ ...at(0), value: 3 }, { ...at(1), value: 4 }, { ...at(2), value: 5 }] });
    expect(result.series.plays.percentage).toEqual([{ ...at(0), value: 66.7 }, { ...at(1), value: 25 }]);
    // The time-split answer has no total (totals do not add up across windows).
    expect(result.total).toBeUndefined();
  });

  it("merges group-by chunks entity by entity and reads one entity's series", () => {
    const datum = (value: string, metrics: Record<string, object>) => ({ dimension: { key: "cdn", value }, metrics });
    const first = { time_series: [{ timestamp: timestampOf(t0), dimensional_data: [datum("Akamai", { attempts: { count: 9 } }), datum("Fastly", { attempts: { count: 4 } })] }], total: { dimensional_data: [datum("Akamai", { attempts: { count: 9 } }), datum("Fastly", { attempts: { count: 4 } })] } };
    const second = { time_series: [{ timestamp: timestampOf(t0), dimensional_data: [datum("Fastly", { plays: { count: 2, percentage: 50 } }), datum("Akamai", { plays: { count: 6, percentage: 66.7 } })] }], total: { dimensional_data: [datum("Akamai", { plays: { count: 6, percentage: 66.7 } }), datum("Fastly", { plays: { count: 2, percentage: 50 } })] } };
    const result = groupByResult(mergeByMembers([single(first, window(0, 1)), single(second, window(0, 1))], GROUP_BY_SHAPE) as never, ["attempts", "plays"] as const);
    expect(result.entities.map((entity) => entity.value)).toEqual(["Akamai", "Fastly"]);
    expect(result.entities[0]!.series.plays.count).toEqual([{ time: new Date(t0).toISOString(), epochMs: t0, value: 6 }]);
    expect(result.entities[1]!.total).toEqual({ attempts: { count: 4 }, plays: { count: 2, percentage: 50 } });
  });
});
