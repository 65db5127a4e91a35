import { describe, expect, it } from "vitest";
import { DiscoveryList, SessionDimensionList, SessionList, ViewerSummary } from "../provider/schema";
import { BASIC, startTestEmulator, TEST_NOW_MS, useTestEmulator } from "./support/emulator";

const CONTENT = "/insights/3.0/sessions/content";
const AD = "/insights/3.0/sessions/ad";
const VIEWER = "/insights/3.0/sessions/content/viewer";
const AD_VIEWER = "/insights/3.0/sessions/ad/viewer";
const SUMMARY = "/insights/3.0/sessions/content/viewer/summary";
const DIMENSIONS = "/insights/3.0/sessions/_meta/references/dimensions";
const ENDPOINTS = "/insights/3.0/sessions/_meta/references/endpoints";
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const HEAVY_VIEWER = "viewer-000001";

/** The last three hours before now as an epoch-ms window. */
const lastHours = (hours: number, endMs = TEST_NOW_MS) => ({ start_epoch_ms: endMs - hours * HOUR_MS, end_epoch_ms: endMs });

type Session = SessionList["sessions"][number];

describe("sessions API (spec 4.2-4.5)", () => {
  const emulator = useTestEmulator();

  async function sessions(path: string, query: Record<string, string | string[] | number> = {}): Promise<Session[]> {
    const response = await emulator.get(path, query);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return SessionList.parse(response.body).sessions;
  }

  describe("sample sessions", () => {
    it("answers the latest ended content sessions of the last 3 hours, newest first, 50 by default", async () => {
      const list = await sessions(CONTENT);
      expect(list).toHaveLength(50);
      const starts = list.map((session) => session.timestamps.start.epoch_ms);
      expect(starts).toEqual([...starts].sort((a, b) => b - a));
      for (const session of list) {
        expect(session.status_info.is_ended).toBe(true);
        expect(session.timestamps.end!.epoch_ms).toBeLessThanOrEqual(TEST_NOW_MS);
        expect(session.timestamps.start.epoch_ms).toBeGreaterThanOrEqual(TEST_NOW_MS - 3 * HOUR_MS);
        expect(session.svc_session_id).toBe(session.client_id + session.session_id);
        expect(session.viewer_id).toMatch(/^viewer-\d{6}$/);
        expect(session.timestamps.start.iso_date).toBe(new Date(session.timestamps.start.epoch_ms).toISOString());
      }
    });

    it("renders every field of spec 2.2 with string selected dimensions and the custom tags", async () => {
      const [session] = await sessions(CONTENT, { limit: 1 });
      expect(Object.keys(session!.tags.selected_dimensions)).toEqual(expect.arrayContaining([
        "ad_creative_id", "app_version", "content_session_id", "device_os", "player_name", "video_asset_name",
      ]));
      expect(session!.tags.selected_dimensions["content_session_id"]).toBe(session!.session_id);
      expect(session!.tags.custom_tags).toMatchObject({ deviceId: expect.stringMatching(/^d-/), subscriptionTier: expect.any(String) });
      expect(session!.geo_info.country.code).toMatch(/^[A-Z]{2}$/);
      expect(session!.network_info.asn.value).toMatch(/^\d+$/);
      expect(session!.network_info.asn.description.length).toBeGreaterThan(0);
      expect(["ended", "failed", "exit_before_video_start"]).toContain(session!.status_info.ended_status);
    });

    it("takes limit 1 to 500 and answers 400 otherwise", async () => {
      expect(await sessions(CONTENT, { limit: 1 })).toHaveLength(1);
      // 23:30 to 02:30 UTC: US prime time, more than 500 ended sessions.
      expect(await sessions(CONTENT, { ...lastHours(3, TEST_NOW_MS - 10 * HOUR_MS), limit: 500 })).toHaveLength(500);
      for (const limit of ["0", "501", "ten", "-3"]) {
        const response = await emulator.get(CONTENT, { limit });
        expect(response.status, limit).toBe(400);
        expect(response.body.parameter).toBe("limit");
      }
      expect((await emulator.get(CONTENT, { limit: ["5", "6"] })).status).toBe(400);
    });

    it("keeps to the time range and refuses windows the service refuses", async () => {
      const windowEnd = TEST_NOW_MS - 26 * HOUR_MS;
      const list = await sessions(CONTENT, { ...lastHours(2, windowEnd), limit: 500 });
      expect(list.length).toBeGreaterThan(100);
      for (const session of list) {
        expect(session.timestamps.start.epoch_ms).toBeGreaterThanOrEqual(windowEnd - 2 * HOUR_MS);
        expect(session.timestamps.start.epoch_ms).toBeLessThan(windowEnd);
      }
      const seconds = await sessions(CONTENT, {
        start_epoch: (windowEnd - 2 * HOUR_MS) / 1000, end_epoch: windowEnd / 1000, limit: 500,
      });
      expect(seconds).toEqual(list);
      const dates = await sessions(CONTENT, {
        start_date: new Date(windowEnd - 2 * HOUR_MS).toISOString(), end_date: new Date(windowEnd).toISOString(), limit: 500,
      });
      expect(dates).toEqual(list);

      expect((await emulator.get(CONTENT, lastHours(4))).status).toBe(422);
      expect((await emulator.get(CONTENT, lastHours(1, TEST_NOW_MS - 32 * DAY_MS))).status).toBe(422);
      expect((await emulator.get(CONTENT, { start_date: "20 Nov 2026", end_date: "2026-11-20T12:00:00Z" })).status).toBe(422);
      expect((await emulator.get(CONTENT, { days: 1 })).status).toBe(400);
      expect((await emulator.get(CONTENT, { ...lastHours(1), start_epoch: 1 })).status).toBe(400);
    });

    it("refuses a day that does not exist with 422 rather than rolling it over to the next month", async () => {
      // Rolled over, 2026-11-31 would be 2026-12-01: a valid hour in the future with no sessions.
      for (const start of ["2026-11-31T00:00:00Z", "2026-11-31"]) {
        const response = await emulator.get(CONTENT, { start_date: start, end_date: "2026-12-01T01:00:00Z" });
        expect(response.status, start).toBe(422);
        expect(response.body.parameter).toBe("start_date");
      }
    });

    it("filters: one key is one value (case-sensitive, a comma string is one value), a repeated key is OR, keys AND", async () => {
      const akamai = await sessions(CONTENT, { cdn: "Akamai", limit: 200 });
      expect(akamai.length).toBeGreaterThan(20);
      expect(new Set(akamai.map((session) => session.network_info.cdn[0]))).toEqual(new Set(["Akamai"]));

      const either = await sessions(CONTENT, { cdn: ["Akamai", "Fastly"], limit: 500 });
      expect(new Set(either.map((session) => session.network_info.cdn[0]))).toEqual(new Set(["Akamai", "Fastly"]));
      const all = await sessions(CONTENT, { limit: 500 });
      expect(either.length).toBeLessThan(all.length);

      const both = await sessions(CONTENT, { cdn: "Akamai", geo_country_code: "US", limit: 500 });
      expect(both.length).toBeGreaterThan(0);
      for (const session of both) {
        expect(session.network_info.cdn[0]).toBe("Akamai");
        expect(session.geo_info.country.code).toBe("US");
      }
      expect(both.length).toBeLessThan((await sessions(CONTENT, { cdn: "Akamai", limit: 500 })).length);

      expect(await sessions(CONTENT, { cdn: "akamai" })).toEqual([]);
      expect(await sessions(CONTENT, { cdn: "Akamai,Fastly" })).toEqual([]);
    });

    it("filters by custom tag, boolean flags and error codes", async () => {
      const premium = await sessions(CONTENT, { tag_subscriptionTier: "premium", limit: 100 });
      expect(premium.length).toBeGreaterThan(0);
      expect(premium.every((session) => session.tags.custom_tags["subscriptionTier"] === "premium")).toBe(true);

      const window = { ...lastHours(3, TEST_NOW_MS - 5 * HOUR_MS), limit: 500 };
      const failures = await sessions(CONTENT, { ...window, is_video_start_failure: "true" });
      expect(failures.length).toBeGreaterThan(0);
      for (const session of failures) {
        expect(session.status_info.is_video_start_failure).toBe(true);
        expect(session.status_info.ended_status).toBe("failed");
        expect(session.status_info.errors).toHaveLength(1);
      }
      const code = failures[0]!.status_info.errors[0] as string;
      const byCode = await sessions(CONTENT, { ...window, video_start_failure_error: code });
      expect(byCode.length).toBeGreaterThan(0);
      expect(byCode.every((session) => session.status_info.errors[0] === code)).toBe(true);

      const fine = await sessions(CONTENT, { ...window, is_video_start_failure: "false" });
      expect(fine.some((session) => session.status_info.is_video_start_failure)).toBe(false);
    });

    it("answers 400 naming the parameter for unknown filters, tags and bad booleans", async () => {
      const typo = await emulator.get(CONTENT, { cnd: "Akamai" });
      expect(typo.status).toBe(400);
      expect(typo.body).toMatchObject({ parameter: "cnd" });
      expect(typo.body.message).toContain('did you mean "cdn"');

      const metricOnly = await emulator.get(CONTENT, { advertiser: "Crisp Cola" });
      expect(metricOnly.status).toBe(400);
      expect(metricOnly.body.message).toContain("not a filter of sample sessions");

      const tag = await emulator.get(CONTENT, { tag_deviceID: "x" });
      expect(tag.status).toBe(400);
      expect(tag.body.message).toContain('did you mean "deviceId"');

      const flag = await emulator.get(CONTENT, { is_video_start_failure: "yes" });
      expect(flag.status).toBe(400);
      expect(flag.body.parameter).toBe("is_video_start_failure");
    });

    it("applies a saved filter's rules with filter_id, alone only", async () => {
      const created = await emulator.call("POST", "/bulk_filters/", {
        body: [{
          name: "Akamai in the US",
          rules: { op: "and", rules: [
            { op: "or", rules: [{ field: "CDN", op: "equals", value: "Akamai" }] },
            { field: "Country", op: "contains", value: "United States" },
          ] },
        }],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = String(created.body[0].id);
      const filtered = await sessions(CONTENT, { filter_id: id, limit: 500 });
      expect(filtered.length).toBeGreaterThan(0);
      for (const session of filtered) {
        expect(session.network_info.cdn[0]).toBe("Akamai");
        expect(session.geo_info.country.name).toBe("United States");
      }
      expect(filtered).toEqual(await sessions(CONTENT, { cdn: "Akamai", geo_country_code: "US", limit: 500 }));

      const mixed = await emulator.get(CONTENT, { filter_id: id, cdn: "Akamai" });
      expect(mixed.status).toBe(400);
      expect(mixed.body.parameter).toBe("filter_id");
      expect((await emulator.get(CONTENT, { filter_id: "999999" })).status).toBe(400);
      expect((await emulator.get(CONTENT, { filter_id: [id, id] })).status).toBe(400);
    });

    it("answers ended ad sessions for an account with ad insights, 403 without", async () => {
      const ads = await sessions(AD, { limit: 20 });
      expect(ads).toHaveLength(20);
      for (const ad of ads) {
        expect(ad.status_info.is_ended).toBe(true);
        expect(ad["ad_info"]).toMatchObject({ position: expect.stringMatching(/^(Preroll|Midroll)$/) });
        expect(ad.tags.selected_dimensions["ad_position"]).toMatch(/^(Preroll|Midroll)$/);
        expect(ad.tags.selected_dimensions["content_session_id"]).not.toBe(ad.session_id);
      }
      const basic = await emulator.get(AD, {}, BASIC);
      expect(basic.status).toBe(403);
      expect(basic.body.message).toContain("ad insights");
    });

    it("gives a basic account content sessions without viewer ids", async () => {
      const response = await emulator.get(CONTENT, { limit: 5 }, BASIC);
      expect(response.status).toBe(200);
      const list = SessionList.parse(response.body).sessions;
      expect(list).toHaveLength(5);
      expect(list.every((session) => session.viewer_id === undefined)).toBe(true);
    });
  });

  describe("viewer sessions and summary", () => {
    it("answers one viewer's ended and ongoing sessions of the last day by default, newest first", async () => {
      const list = await sessions(VIEWER, { viewer_id: HEAVY_VIEWER });
      expect(list.length).toBeGreaterThan(20);
      expect(list.length).toBeLessThan(60);
      expect(list.every((session) => session.viewer_id === HEAVY_VIEWER)).toBe(true);
      for (const session of list) {
        expect(session.timestamps.start.epoch_ms).toBeGreaterThanOrEqual(TEST_NOW_MS - DAY_MS);
        expect(session.timestamps.start.epoch_ms).toBeLessThanOrEqual(TEST_NOW_MS);
      }
      expect(list.some((session) => session.status_info.is_ended)).toBe(true);
      // A minute into a session of several minutes, that session (and any other still running) is
      // ongoing: no end, no ended status.
      const long = list.find((session) => session.timestamps.end!.epoch_ms - session.timestamps.start.epoch_ms > 5 * 60_000)!;
      expect(long).toBeDefined();
      await emulator.control("POST", "clock", { set: long.timestamps.start.epoch_ms + 60_000 });
      try {
        const ongoing = (await sessions(VIEWER, { viewer_id: HEAVY_VIEWER })).filter((session) => !session.status_info.is_ended);
        expect(ongoing.map((session) => session.svc_session_id)).toContain(long.svc_session_id);
        for (const session of ongoing) {
          expect(session.timestamps.end).toBeUndefined();
          expect(session.status_info.ended_status).toBeUndefined();
        }
      } finally {
        await emulator.control("POST", "clock", { set: TEST_NOW_MS });
      }
    });

    it("caps at 500 sessions so that a long range must be split", async () => {
      const month = await sessions(VIEWER, { viewer_id: HEAVY_VIEWER, days: 30 });
      expect(month).toHaveLength(500);
      const week = await sessions(VIEWER, { viewer_id: HEAVY_VIEWER, days: 7, limit: 10 });
      expect(week).toHaveLength(10);
      expect(week).toEqual(month.slice(0, 10));
      expect((await emulator.get(VIEWER, { viewer_id: HEAVY_VIEWER, limit: 501 })).status).toBe(400);
    });

    it("enforces the 30-day retention with 422", async () => {
      expect((await emulator.get(VIEWER, { viewer_id: HEAVY_VIEWER, days: 31 })).status).toBe(422);
      const old = await emulator.get(VIEWER, { viewer_id: HEAVY_VIEWER, ...lastHours(2, TEST_NOW_MS - 31 * DAY_MS) });
      expect(old.status).toBe(422);
      expect(old.body.message).toContain("30 days");
    });

    it("finds a viewer by IP address and needs viewer_id or viewer_ip", async () => {
      const byId = await sessions(VIEWER, { viewer_id: HEAVY_VIEWER });
      const ip = byId[0]!.network_info.ip;
      const byIp = await sessions(VIEWER, { viewer_ip: ip });
      expect(byIp).toEqual(byId);
      expect((await emulator.get(VIEWER, {})).status).toBe(400);
      expect((await emulator.get(VIEWER, { viewer_ip: "999.1.1.1" })).status).toBe(400);
      expect((await emulator.get(VIEWER, { viewer_id: HEAVY_VIEWER, cdn: "Akamai" })).status).toBe(400);
      expect(await sessions(VIEWER, { viewer_id: "viewer-999999" })).toEqual([]);
    });

    it("answers the viewer's ad sessions at /sessions/ad/viewer", async () => {
      const ads = await sessions(AD_VIEWER, { viewer_id: HEAVY_VIEWER, days: 3 });
      expect(ads.length).toBeGreaterThan(0);
      expect(ads.every((session) => session.viewer_id === HEAVY_VIEWER && session["ad_info"] !== undefined)).toBe(true);
    });

    it("summarises the viewer's sessions with integer counts that agree with the sessions", async () => {
      const range = { viewer_id: HEAVY_VIEWER, days: 2 };
      const list = await sessions(VIEWER, range);
      const response = await emulator.get(SUMMARY, range);
      expect(response.status).toBe(200);
      const summary = ViewerSummary.parse(response.body);
      const started = list.filter((session) => !session.status_info.is_exit_before_video_start && !session.status_info.is_video_start_failure);
      const ongoingStarted = list.filter((session) => !session.status_info.is_ended);
      // Plays: every session that did not exit or fail before video start (ongoing ones have not failed yet).
      expect(summary.total.plays.count).toBeGreaterThanOrEqual(started.length - ongoingStarted.length);
      expect(summary.total.plays.count).toBeLessThanOrEqual(started.length);
      expect(summary.total.exit_before_video_starts.count).toBe(list.filter((session) => session.status_info.is_exit_before_video_start).length);
      expect(summary.total.video_playback_failures.count).toBe(list.filter((session) => session.status_info.is_video_playback_failure).length);
      expect(summary.total.unique_devices.count).toBeLessThanOrEqual(new Set(list.map((session) => session.client_id)).size);
      expect(summary.total.good_streams.count + summary.total.impacted_streams.count).toBeLessThanOrEqual(list.length);
      expect(summary.total.streaming_performance_index.value).toBeGreaterThan(0);
      expect(summary.total.bitrate.bps).toBeGreaterThan(500_000);
      expect(summary._meta.queries).toEqual({ viewer_id: HEAVY_VIEWER, start_epoch_ms: TEST_NOW_MS - 2 * DAY_MS, end_epoch_ms: TEST_NOW_MS });
      expect(summary._meta.query_string).toContain("viewer_id=viewer-000001");
      expect(summary._meta.annotations.some((annotation) => annotation.cause === "interval_adjustment")).toBe(true);
      expect(JSON.stringify(summary.total)).not.toMatch(/"count":\d+\.\d/);
    });

    it("answers 400 unless exactly one of viewer_id or viewer_ip is given", async () => {
      expect((await emulator.get(SUMMARY, {})).status).toBe(400);
      const both = await emulator.get(SUMMARY, { viewer_id: HEAVY_VIEWER, viewer_ip: "10.0.0.1" });
      expect(both.status).toBe(400);
      expect(both.body.message).toContain("not both");
    });

    it("answers 403 to an account without the viewer module", async () => {
      for (const path of [VIEWER, SUMMARY, AD_VIEWER]) {
        const response = await emulator.get(path, { viewer_id: HEAVY_VIEWER }, BASIC);
        expect(response.status, path).toBe(403);
        expect(response.body.message).toContain("viewer-module");
      }
    });
  });

  describe("lookups", () => {
    it("lists the session dimensions with their query filters and the custom tags (spec 2.5)", async () => {
      const response = await emulator.get(DIMENSIONS);
      expect(response.status).toBe(200);
      const { dimensions } = SessionDimensionList.parse(response.body);
      expect(dimensions).toContainEqual({ name: "ASN", query_filter: "?asn", is_custom: false });
      expect(dimensions).toContainEqual({ name: "Geo Country Code", query_filter: "?geo_country_code", is_custom: false });
      expect(dimensions).toContainEqual({ name: "deviceId", query_filter: "?tag_deviceId", is_custom: true });
      expect(dimensions.filter((dimension) => dimension.is_custom).every((dimension) => dimension.query_filter.startsWith("?tag_"))).toBe(true);
    });

    it("lists the resource paths with prerequisites and what this account can use", async () => {
      const dev = DiscoveryList.parse((await emulator.get(ENDPOINTS)).body).resources;
      expect(dev.map((resource) => resource.path)).toEqual(expect.arrayContaining([CONTENT, AD, VIEWER, SUMMARY]));
      expect(dev.every((resource) => resource.available)).toBe(true);
      const basic = DiscoveryList.parse((await emulator.get(ENDPOINTS, {}, BASIC)).body).resources;
      const availability = Object.fromEntries(basic.map((resource) => [resource.path, resource.available]));
      expect(availability).toMatchObject({ [CONTENT]: true, [AD]: false, [VIEWER]: false, [SUMMARY]: false });
      expect(basic.find((resource) => resource.path === AD)!.prerequisite).toBe("ad insights");
    });
  });
});

describe("sessions are deterministic per seed", () => {
  it("gives identical answers for the same seed and different ones for another seed", async () => {
    const [first, second, other] = await Promise.all([
      startTestEmulator(), startTestEmulator(), startTestEmulator({ seed: 8 }),
    ]);
    try {
      const query = { ...lastHours(3, TEST_NOW_MS - 10 * DAY_MS), limit: 100 };
      const [a, b, c] = await Promise.all([first.get(CONTENT, query), second.get(CONTENT, query), other.get(CONTENT, query)]);
      expect(a.status).toBe(200);
      expect(a.body).toEqual(b.body);
      expect(a.body).not.toEqual(c.body);
      const viewer = { viewer_id: HEAVY_VIEWER, days: 1 };
      expect((await first.get(SUMMARY, viewer)).body).toEqual((await second.get(SUMMARY, viewer)).body);
    } finally {
      await Promise.all([first.close(), second.close(), other.close()]);
    }
  });
});
