import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataWorld, type SessionRecord } from "../emulator/world";
import { createHash } from "node:crypto";
import path from "node:path";
import { startTestEmulator, TEST_NOW_MS, type TestEmulator } from "./support/emulator";

/**
 * Hours beyond the recent 35 days are kept in a compact form (emulator/world/compact.ts) instead of
 * being generated again on every read: the records rebuilt from it, and every answer built on them,
 * must be the very same as on the path that generates the hours afresh.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** The keys of a session record, in the order records have always listed them. */
const RECORD_KEYS = [
  "kind", "viewerId", "clientId", "sessionId", "startMs", "endMs", "dimensions", "customTags", "ip", "ipv6",
  "exitBeforeVideoStart", "videoStartFailure", "videoPlaybackFailure", "errorCode", "hasPreRoll", "contentSessionId",
  "videoStartTimeMs", "videoRestartTimeMs", "playingTimeMs", "rebufferingTimeMs", "connectionInducedRebufferingTimeMs",
  "pausedTimeMs", "averageBitrateBps", "averageFramerateFps", "bitrateSwitches", "percentageComplete", "contentLengthMs",
];

describe("data world: the compact form of the hours", () => {
  it("hands the same records to a visit as in a list, field for field, recent hours and old", () => {
    const world = new DataWorld(7, "dev");
    for (const from of [TEST_NOW_MS - 200 * DAY_MS, TEST_NOW_MS - 3 * DAY_MS]) {
      for (const kind of ["content", "ad"] as const) {
        // Out of the hour's bounds on both sides, so the partial hours are cut on both paths.
        const [start, end] = [from + 17 * MINUTE_MS, from + 23 * HOUR_MS + 5 * MINUTE_MS];
        const listed = world.sessionsStartedBetween(kind, start, end);
        expect(listed.length).toBeGreaterThan(kind === "content" ? 100 : 20);
        const visited: string[] = [];
        // The visit may hand over one reused record: each is read at once, by the list's keys.
        world.visitSessionsStartedBetween(kind, start, end, (session) => {
          visited.push(JSON.stringify(Object.keys(listed[0]!).map((key) => session[key as keyof SessionRecord])));
        });
        expect(visited).toEqual(listed.map((record) => JSON.stringify(Object.keys(record).map((key) => record[key as keyof SessionRecord]))));
        expect(listed.map((record) => Object.keys(record).join())).toEqual(listed.map(() => RECORD_KEYS.join()));
        // Every variant of the packed fields occurs in the sample, so each is compared at least once.
        expect(new Set(listed.map((record) => `${record.exitBeforeVideoStart}|${record.hasPreRoll}`)).size).toBe(kind === "content" ? 4 : 2);
        if (kind === "content") {
          expect(new Set(listed.map((record) => record.videoStartFailure))).toEqual(new Set([undefined, "business", "tech"]));
          expect(new Set(listed.map((record) => record.videoPlaybackFailure))).toEqual(new Set([undefined, "business", "tech"]));
        } else {
          expect(listed.every((record) => typeof record.contentSessionId === "string" && /^\d+$/.test(record.contentSessionId))).toBe(true);
        }
      }
    }
  });

  it("generates the same sessions in the generation worker as on the main thread (the built code, which has the worker)", async () => {
    // The worker runs the built code; the suite builds before it runs (npm test).
    const built = (module: string) => require(path.join(__dirname, "..", "dist", "emulator", "world", module)) as unknown;
    const { DataWorld: BuiltWorld } = built("index.js") as typeof import("../emulator/world");
    const pool = built("generation-pool.js") as typeof import("../emulator/world/generation-pool");
    const from = TEST_NOW_MS - 300 * DAY_MS;
    const to = from + 3 * DAY_MS;
    // Three days in pieces of 6 hours, so both threads take several.
    const parallel = new BuiltWorld(7, "dev", { parallel: { minHours: 24, chunkHours: 6 } });
    const workerHoursBefore = pool.hoursGeneratedInWorker();
    await parallel.prepare(from, to);
    expect(pool.hoursGeneratedInWorker() - workerHoursBefore).toBeGreaterThanOrEqual(6);
    const alone = new BuiltWorld(7, "dev", { generationWorker: false });
    await alone.prepare(from, to);
    // Every session, every field.
    const lines = (world: typeof parallel, kind: "content" | "ad") => {
      const hash = createHash("sha256");
      let count = 0;
      world.visitSessionsStartedBetween(kind, from, to, (session) => {
        count++;
        hash.update(JSON.stringify(RECORD_KEYS.map((key) => session[key as keyof SessionRecord])));
      });
      return { count, digest: hash.digest("hex") };
    };
    for (const kind of ["content", "ad"] as const) {
      const fromWorker = lines(parallel, kind);
      expect(fromWorker.count).toBeGreaterThan(kind === "content" ? 8_000 : 2_000);
      expect(fromWorker).toEqual(lines(alone, kind));
    }
  });

  it("answers the bytes the emulator answered before the compact form (digests taken from that version)", async () => {
    // Digests (SHA-256, first 16 hex digits) and lengths of answers of the emulator of commit 2a8ea56,
    // which generated and kept session records: the compact form and the visit of the metrics must
    // not change one byte. Old hours (months back), hours across the recent window's edge, recent
    // hours, sample sessions and viewer sessions; series, group-by, filters, error codes, tags,
    // distinct, overlap and peak terms.
    const day = (daysBack: number) => new Date(TEST_NOW_MS - daysBack * DAY_MS).toISOString().slice(0, 10);
    const OLD = `start_date=${day(240)}&end_date=${day(233)}`;
    const ACROSS = `start_date=${day(40)}&end_date=${day(31)}`;
    const RECENT = `start_date=${day(9)}&end_date=${day(2)}`;
    const THREE_HOURS_20_DAYS_BACK = `start_epoch_ms=${TEST_NOW_MS - 20 * DAY_MS}&end_epoch_ms=${TEST_NOW_MS - 20 * DAY_MS + 3 * HOUR_MS}`;
    const expected: Array<[string, string, number]> = [
    [`/insights/3.0/metrics/attempts?${OLD}&granularity=P1D`, "990cce66f6053382", 965],
    [`/insights/3.0/metrics/plays/group-by/cdn?${OLD}&granularity=P1D&geo_country_code=US`, "7fa342c01377f992", 5880],
    [`/insights/3.0/metrics/custom-selection?${OLD}&granularity=PT1H&metric=unique-devices&metric=concurrent-plays&metric=rebuffering-ratio&metric=video-start-time`, "9bd25f4f682f9e7e", 37097],
    [`/insights/3.0/metrics/ad-attempts/group-by/advertiser?${OLD}&granularity=P1D`, "2e81b5c6a533067c", 6461],
    [`/insights/3.0/metrics/quality-summary/group-by/isp?${OLD}&granularity=P1D&limit=10`, "100b87d8aa952f22", 36144],
    [`/insights/3.0/metrics/video-start-failures/group-by/video-start-failure-error?${OLD}&granularity=P1D`, "dd85b8895527e85c", 11369],
    [`/insights/3.0/metrics/interval-minutes-played/group-by/dimension-tag/specialContentId?${OLD}&granularity=PT6H&cdn=Akamai`, "c12887644181a9d0", 55427],
    [`/insights/3.0/metrics/attempts?${RECENT}&granularity=P1D`, "1e9768c0bce1cfe4", 965],
    [`/insights/3.0/metrics/plays/group-by/cdn?${RECENT}&granularity=P1D&geo_country_code=US`, "3e4cc8a5053890bb", 5885],
    [`/insights/3.0/metrics/custom-selection?${RECENT}&granularity=PT1H&metric=unique-devices&metric=concurrent-plays&metric=rebuffering-ratio&metric=video-start-time`, "00b0f47acdf16f01", 37118],
    [`/insights/3.0/metrics/ad-attempts/group-by/advertiser?${RECENT}&granularity=P1D`, "a650e1948078bdd2", 6462],
    [`/insights/3.0/metrics/quality-summary/group-by/isp?${RECENT}&granularity=P1D&limit=10`, "e52679c699809afc", 36238],
    [`/insights/3.0/metrics/video-start-failures/group-by/video-start-failure-error?${RECENT}&granularity=P1D`, "77198911f1ef3858", 11520],
    [`/insights/3.0/metrics/interval-minutes-played/group-by/dimension-tag/specialContentId?${RECENT}&granularity=PT6H&cdn=Akamai`, "625fa0e93e410d9f", 55350],
    [`/insights/3.0/metrics/attempts?${ACROSS}&granularity=P1D`, "d0ebfc109f553815", 1175],
    [`/insights/3.0/metrics/plays/group-by/cdn?${ACROSS}&granularity=P1D&geo_country_code=US`, "30520a1b189148ac", 7298],
    [`/insights/3.0/metrics/custom-selection?${ACROSS}&granularity=PT1H&metric=unique-devices&metric=concurrent-plays&metric=rebuffering-ratio&metric=video-start-time`, "942452a0d6559cde", 47575],
    [`/insights/3.0/metrics/ad-attempts/group-by/advertiser?${ACROSS}&granularity=P1D`, "4c87cc8d90136022", 8029],
    [`/insights/3.0/metrics/quality-summary/group-by/isp?${ACROSS}&granularity=P1D&limit=10`, "1299f7a5959ae959", 45117],
    [`/insights/3.0/metrics/video-start-failures/group-by/video-start-failure-error?${ACROSS}&granularity=P1D`, "8dab218ff82d523a", 14188],
    [`/insights/3.0/metrics/interval-minutes-played/group-by/dimension-tag/specialContentId?${ACROSS}&granularity=PT6H&cdn=Akamai`, "6e232e51d1a0680d", 67187],
    [`/insights/3.0/sessions/content?limit=500&cdn=Akamai`, "f8caf4290338baba", 270659],
    [`/insights/3.0/sessions/ad?limit=300&${THREE_HOURS_20_DAYS_BACK}`, "aafd24d9c158b8d5", 515730],
    [`/insights/3.0/sessions/content/viewer?viewer_id=viewer-000042&days=30`, "4b7d67039478bade", 132004],
    [`/insights/3.0/sessions/content/viewer?viewer_id=viewer-000001&days=10&limit=500`, "0c3c98292fb3923b", 1000682],
    [`/insights/3.0/sessions/ad/viewer?viewer_id=viewer-000002&days=20&limit=500`, "7d2c5f87697625cd", 942617],
    [`/insights/3.0/sessions/content/viewer/summary?viewer_id=viewer-000003&days=30`, "da8b877eb7b91f87", 1431],
    // Viewer sessions by address (IPv4, IPv6 in capitals), by id and address together (matching
    // and not), an address of no viewer: read through the index by viewer.
    [`/insights/3.0/sessions/content/viewer?viewer_ip=204.46.133.134&days=30`, "4b7d67039478bade", 132004],
    [`/insights/3.0/sessions/ad/viewer?viewer_ip=2787:419D:2A09:ED5C::00E&days=30&limit=500`, "ca93b267f2356be3", 32742],
    [`/insights/3.0/sessions/content/viewer?viewer_id=viewer-000011&viewer_ip=166.41.220.16&days=7`, "21c9024283fe216c", 22954],
    [`/insights/3.0/sessions/content/viewer?viewer_id=viewer-000011&viewer_ip=204.46.133.134&days=7`, "a1179f88a4a67a27", 15],
    [`/insights/3.0/sessions/content/viewer/summary?viewer_ip=184.135.100.185&days=30`, "0c6a537445723864", 1389],
    [`/insights/3.0/sessions/content/viewer?viewer_ip=1.2.3.4&days=3`, "a1179f88a4a67a27", 15],
    ];
    const emulator = await startTestEmulator({ dialect: "standard" });
    try {
      const authorization = `Basic ${Buffer.from("dev:dev-secret").toString("base64")}`;
      const answers: Array<[string, string, number]> = [];
      for (const [query] of expected) {
        const response = await fetch(new URL(query, emulator.url), { headers: { authorization } });
        expect(response.status, query).toBe(200);
        const text = await response.text();
        answers.push([query, createHash("sha256").update(text).digest("hex").slice(0, 16), text.length]);
      }
      expect(answers).toEqual(expected);
    } finally {
      await emulator.close();
    }
  });
});
