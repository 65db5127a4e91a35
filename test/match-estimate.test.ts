import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InsightsClient } from "../provider/client";
import { getFilterMatchEstimate } from "../provider/data";
import {
  describeEstimate, estimateFromSample, estimateMatch, estimateWarning, takeSessionSample, wilsonInterval, type SessionSample,
} from "../provider/match-estimate";
import { FIELD_READINGS, ruleMatcher } from "../provider/rules/match";
import type { RuleGroup, RuleLeaf, RuleNode } from "../provider/rules/tree";
import type { Session } from "../provider/schema";
import { DEV, TEST_NOW_MS, useTestEmulator } from "./support/emulator";

/**
 * The match-rate estimate (provider/match-estimate/, provider/rules/match.ts) against the
 * emulator, whose reading of saved-filter rules (emulator/metrics/filtering.ts) is independent code: both
 * must select the same sessions, and the interval must cover the true share as often as it says.
 */

const HOUR = 3_600_000;
/** The fields whose leaf values must come from a lookup (docs/api.md 2.7; emulator/README.md saved filters), with that lookup. */
const PRESET_FIELDS = { ASN: "asn", City: "cities", Continent: "continents", Country: "countries", DMA: "dma", ISP: "isp", State: "states" } as const;
type Lookups = ReadonlyMap<string, ReadonlySet<string>>;
const EVALUABLE_FIELDS = Object.entries(FIELD_READINGS).filter(([, reading]) => reading.read !== undefined).map(([field]) => field);

/** A small seeded generator (mulberry32): the same trees on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

/** A random leaf whose value is taken from a session of the sample, so trees match some and miss others. */
function randomLeaf(next: () => number, sessions: readonly Session[], tagKeys: readonly string[], lookups: Lookups): RuleLeaf {
  const session = pick(next, sessions);
  const op = pick(next, ["equals", "contains", "not_contains"] as const);
  if (tagKeys.length > 0 && next() < 0.15) {
    const key = pick(next, tagKeys);
    const value = String((session.tags?.custom_tags as Record<string, unknown> | undefined)?.[key] ?? "");
    return { field: "Tag", key, op, value: op === "equals" || value.length < 3 ? value : value.slice(0, 3) };
  }
  const field = pick(next, EVALUABLE_FIELDS);
  const value = FIELD_READINGS[field as keyof typeof FIELD_READINGS].read!(session)[0] ?? "";
  const lookup = lookups.get(field);
  // A pre-set field takes only its lookup's values ("Unknown" DMA outside the US is not one): draw again.
  if (lookup !== undefined && !lookup.has(value)) return randomLeaf(next, sessions, tagKeys, lookups);
  if (lookup !== undefined || op === "equals") return { field, op, value } as RuleLeaf;
  return { field, op, value: value.length > 2 ? value.slice(0, 2) : value } as RuleLeaf;
}

function randomTree(next: () => number, sessions: readonly Session[], tagKeys: readonly string[], lookups: Lookups, depth = 0): RuleGroup {
  const count = 1 + Math.floor(next() * 3);
  const rules: RuleNode[] = Array.from({ length: count }, () =>
    depth < 2 && next() < 0.35 ? randomTree(next, sessions, tagKeys, lookups, depth + 1) : randomLeaf(next, sessions, tagKeys, lookups));
  return { op: next() < 0.5 ? "and" : "or", rules };
}

describe("match-rate estimate", () => {
  const emulator = useTestEmulator();
  let client: InsightsClient;

  beforeAll(() => {
    client = new InsightsClient({ baseUrl: emulator.url, ...DEV, now: () => TEST_NOW_MS });
  });
  afterAll(() => client.close());

  it("selects exactly the sessions the emulator returns for the same rules saved as a filter", async () => {
    // One 3-hour window holds fewer sessions than the sample limit, so the sample is every session of it.
    const end = Math.floor(TEST_NOW_MS / HOUR) * HOUR - 24 * HOUR;
    const range = { start: new Date(end - 3 * HOUR).toISOString(), end: new Date(end).toISOString() };
    const sample = await takeSessionSample(client.sessions, TEST_NOW_MS, { windows: [range] });
    expect(sample.sessions.length).toBeGreaterThan(50);
    expect(sample.sessions.length).toBeLessThan(500);
    const tagKeys = await client.filters.lookup({ lookup: "tags" });
    const lookups = new Map(await Promise.all(Object.entries(PRESET_FIELDS).map(async ([field, lookup]) =>
      [field, new Set(await client.filters.lookup({ lookup }))] as const)));
    const next = random(11);
    const trees = Array.from({ length: 60 }, () => randomTree(next, sample.sessions, tagKeys, lookups));
    const created = await client.filters.create({ filters: trees.map((rules, index) => ({ name: `agreement ${index}`, rules })) });
    let partlyMatching = 0;
    for (const [index, rules] of trees.entries()) {
      const served = await client.sessions.listContent({ range, limit: 500, filterId: created[index]!.id });
      const servedIds = served.sessions.map((session) => session.svc_session_id).sort();
      const matcher = ruleMatcher(rules);
      const localIds = sample.sessions.filter((session) => matcher.match(session) === true).map((session) => session.svc_session_id).sort();
      expect(localIds, JSON.stringify(rules)).toEqual(servedIds);
      if (localIds.length > 0 && localIds.length < sample.sessions.length) partlyMatching++;
    }
    // The trees exercise both outcomes: most of them keep some sessions and drop others.
    expect(partlyMatching).toBeGreaterThan(20);
  });

  it("covers the true share with its 95% interval in about 95% of seeded trials", async () => {
    // The population: every 3-hour window of four days; a trial samples three windows at random.
    const lastHour = Math.floor(TEST_NOW_MS / HOUR) * HOUR - HOUR;
    const windows = Array.from({ length: 32 }, (_, index) => {
      const end = lastHour - index * 3 * HOUR;
      return { start: new Date(end - 3 * HOUR).toISOString(), end: new Date(end).toISOString() };
    });
    const population = await Promise.all(windows.map((range) => takeSessionSample(client.sessions, TEST_NOW_MS, { windows: [range] })));
    const rules: RuleGroup = { op: "or", rules: [{ field: "Device Operating System Family", op: "contains", value: "i" }] };
    const all: SessionSample = { windows, sessions: population.flatMap((sample) => sample.sessions) };
    const truth = estimateFromSample(all, rules).share;
    expect(truth).toBeGreaterThan(0.05);
    expect(truth).toBeLessThan(0.95);
    const next = random(5);
    const trials = 200;
    let covered = 0;
    for (let trial = 0; trial < trials; trial++) {
      // Three windows at random, as the default sample spreads its windows over days and hours.
      const chosen = [pick(next, population), pick(next, population), pick(next, population)];
      const { interval } = estimateFromSample({ windows: [], sessions: chosen.flatMap((sample) => sample.sessions) }, rules);
      if (interval.low <= truth && truth <= interval.high) covered++;
    }
    // 95% nominal: with 200 trials, 90% is more than three standard errors below, and 100% would
    // mean intervals too wide to be useful.
    expect(covered / trials).toBeGreaterThan(0.9);
    expect(covered).toBeLessThan(trials);
  });

  it("says what it is: the line of a preview, partial fields, and warnings for none and all", async () => {
    const sample = await takeSessionSample(client.sessions, TEST_NOW_MS, { windows: 2, sessionsPerWindow: 200 });
    expect(sample.windows).toHaveLength(2);
    expect(sample.sessions.length).toBeGreaterThan(0);
    const none = estimateFromSample(sample, { op: "and", rules: [{ field: "Asset Name", op: "equals", value: "no such asset" }] });
    expect(estimateWarning(none)).toContain(`match none of ${sample.sessions.length} sampled sessions`);
    const all = estimateFromSample(sample, { op: "and", rules: [{ field: "Asset Name", op: "not_contains", value: "no such asset" }] });
    expect(estimateWarning(all)).toContain("match all");
    const partial = estimateFromSample(sample, { op: "and", rules: [{ field: "Customer", op: "equals", value: "acme" }] });
    expect(partial.unevaluatedFields).toEqual(["Customer"]);
    expect(partial.undetermined).toBe(sample.sessions.length);
    expect(estimateWarning(partial)).toBeUndefined();
    expect(describeEstimate(partial)).toContain("partial: Customer not in sessions");
    const line = describeEstimate(all, none);
    expect(line).toMatch(new RegExp(`^matches ≈ 100\\.0% of sampled sessions \\(95%: \\d+\\.\\d-100\\.0%, n = ${sample.sessions.length}\\), was ≈ 0\\.0%$`));
  });

  it("is a data source: the same estimate as the client's, for a pipeline's own checks", async () => {
    const end = Math.floor(TEST_NOW_MS / HOUR) * HOUR - 48 * HOUR;
    const windows = [{ start: new Date(end - 3 * HOUR).toISOString(), end: new Date(end).toISOString() }];
    const rules: RuleGroup = { op: "and", rules: [{ field: "Device Operating System Family", op: "contains", value: "i" }] };
    const fromDataSource = await getFilterMatchEstimate({ rules, windows, connection: { baseUrl: emulator.url, ...DEV } });
    const fromClient = await estimateMatch(client.sessions, TEST_NOW_MS, { rules, windows });
    expect(fromDataSource).toEqual(fromClient);
    expect(fromDataSource.sampled).toBeGreaterThan(0);
    expect(fromDataSource.matched).toBeGreaterThan(0);
    expect(fromDataSource.windows).toEqual(windows.map(({ start, end: stop }) => ({ start: new Date(start).toISOString(), end: new Date(stop).toISOString() })));
  });

  it("refuses a bad rule tree or sample size with the path", async () => {
    await expect(estimateMatch(client.sessions, TEST_NOW_MS, { rules: { op: "xor", rules: [] } as never })).rejects.toThrow("params.rules");
    await expect(estimateMatch(client.sessions, TEST_NOW_MS, { rules: { op: "and", rules: [{ field: "City", op: "equals", value: "Paris" }] }, sessionsPerWindow: 501 }))
      .rejects.toThrow("params.sessionsPerWindow: must be a whole number from 1 to 500");
  });

  it("computes the Wilson interval of known cases", () => {
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
    const half = wilsonInterval(50, 100);
    expect(half.low).toBeCloseTo(0.4038, 3);
    expect(half.high).toBeCloseTo(0.5962, 3);
    expect(wilsonInterval(0, 100).low).toBe(0);
    expect(wilsonInterval(0, 100).high).toBeCloseTo(0.037, 3);
  });
});
