import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorld, type SessionRecord } from "../emulator/world";
import { compactSessions, expandSessions } from "../emulator/world/compact";
import { startTestEmulator, TEST_NOW_MS, type TestEmulator } from "./support/emulator";

/**
 * Hours beyond the recent 35 days are kept in a compact form (emulator/world/compact.ts) instead of
 * being generated again on every read: the records rebuilt from it, and every answer built on them,
 * must be the very same as on the path that generates the hours afresh.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A record as text, keys in their own order and the dimension view spelled out. */
const recordText = (record: SessionRecord) => JSON.stringify([Object.keys(record), record]);

describe("data world: the compact form of old hours", () => {
  it("rebuilds records equal to the generated ones, field for field and in key order", () => {
    const world = createWorld(7, "dev", { compactOldHours: false });
    const from = TEST_NOW_MS - 200 * DAY_MS;
    for (const kind of ["content", "ad"] as const) {
      const generated = world.sessionsStartedBetween(kind, from, from + 48 * HOUR_MS);
      expect(generated.length).toBeGreaterThan(kind === "content" ? 100 : 20);
      const rebuilt = expandSessions(kind, compactSessions(generated));
      expect(rebuilt.map(recordText)).toEqual(generated.map(recordText));
      // Every variant of the packed fields occurs in the sample, so each is compared at least once.
      expect(new Set(generated.map((record) => `${record.exitBeforeVideoStart}|${record.hasPreRoll}`)).size).toBe(kind === "content" ? 4 : 2);
      if (kind === "content") {
        expect(new Set(generated.map((record) => record.videoStartFailure))).toEqual(new Set([undefined, "business", "tech"]));
        expect(new Set(generated.map((record) => record.videoPlaybackFailure))).toEqual(new Set([undefined, "business", "tech"]));
      }
    }
  });

  it("answers the same bytes from the compact hours as from hours generated afresh", async () => {
    let cached: TestEmulator | undefined;
    let uncached: TestEmulator | undefined;
    try {
      [cached, uncached] = await Promise.all([startTestEmulator(), startTestEmulator({ world: { compactOldHours: false } })]);
      // Old windows (months back, within the 13 months the API reaches) of different shapes: series,
      // group-by with a filter, distinct and peak terms, several metrics at once.
      const start = new Date(TEST_NOW_MS - 240 * DAY_MS).toISOString().slice(0, 10);
      const end = new Date(TEST_NOW_MS - 233 * DAY_MS).toISOString().slice(0, 10);
      const range = `start_date=${start}&end_date=${end}`;
      const queries = [
        `/insights/3.0/metrics/attempts?${range}&granularity=P1D`,
        `/insights/3.0/metrics/plays/group-by/cdn?${range}&granularity=P1D&geo_country_code=US`,
        `/insights/3.0/metrics/custom-selection?${range}&granularity=PT1H&metric=unique-devices&metric=concurrent-plays&metric=rebuffering-ratio&metric=video-start-time`,
        `/insights/3.0/metrics/ad-attempts/group-by/advertiser?${range}&granularity=P1D`,
      ];
      for (const query of queries) {
        const fresh = await uncached.get(query);
        expect(fresh.status).toBe(200);
        const first = await cached.get(query);
        const again = await cached.get(query);
        expect(JSON.stringify(first.body)).toBe(JSON.stringify(fresh.body));
        expect(JSON.stringify(again.body)).toBe(JSON.stringify(fresh.body));
      }
    } finally {
      await Promise.all([cached?.close(), uncached?.close()]);
    }
  });
});
