import { describe, expect, it } from "vitest";
import { dimensionReader, rulesPredicate } from "../emulator/metrics/filtering";
import { DataWorld, viewerIdForIdentifier, type Anomaly, type SessionRecord, type World } from "../emulator/world";
import { TEST_NOW_MS } from "./support/emulator";
import { SPEC_ALERTS, SPEC_GROUP_BY_DIMENSIONS } from "./support/spec-values";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const SNAKE_DIMENSIONS = SPEC_GROUP_BY_DIMENSIONS.map((name) => name.replace(/-/g, "_"));

// One world for the whole file: generating hours is the expensive part.
const world = new DataWorld(7, "dev");
const lastDays = (days: number, kind: "content" | "ad" = "content") =>
  world.sessionsStartedBetween(kind, TEST_NOW_MS - days * DAY_MS, TEST_NOW_MS);

describe("data world: determinism", () => {
  it("generates the same hours for the same seed and account, in any order", () => {
    const hour = Math.floor(TEST_NOW_MS / HOUR_MS) * HOUR_MS - 5 * HOUR_MS;
    const other = new DataWorld(7, "dev");
    other.sessionsStartedBetween("content", hour + 3 * HOUR_MS, hour + 4 * HOUR_MS);
    const first = JSON.stringify(world.sessionsStartedBetween("content", hour, hour + HOUR_MS));
    expect(JSON.stringify(other.sessionsStartedBetween("content", hour, hour + HOUR_MS))).toBe(first);
    expect(JSON.stringify(new DataWorld(8, "dev").sessionsStartedBetween("content", hour, hour + HOUR_MS))).not.toBe(first);
    expect(JSON.stringify(new DataWorld(7, "basic").sessionsStartedBetween("content", hour, hour + HOUR_MS))).not.toBe(first);
  });

  it("answers sessions sorted by start, inside the requested window", () => {
    const from = TEST_NOW_MS - 7 * HOUR_MS - 123_456;
    const to = TEST_NOW_MS - 2 * HOUR_MS + 654_321;
    const sessions = world.sessionsStartedBetween("content", from, to);
    expect(sessions.length).toBeGreaterThan(300);
    expect(sessions.every((session) => session.startMs >= from && session.startMs < to)).toBe(true);
    expect(sessions.every((session, index) => index === 0 || sessions[index - 1]!.startMs <= session.startMs)).toBe(true);
  });
});

describe("data world: sessions", () => {
  it("has a value for every predefined group-by dimension (spec 4.7), read like a plain object", () => {
    for (const session of [...lastDays(1).slice(0, 200), ...lastDays(1, "ad").slice(0, 100)]) {
      expect(Object.keys(session.dimensions)).toEqual(SNAKE_DIMENSIONS);
      for (const key of SNAKE_DIMENSIONS) expect(session.dimensions[key], key).toMatch(/\S/);
      expect(JSON.parse(JSON.stringify(session.dimensions))).toEqual({ ...session.dimensions });
    }
    const ad = lastDays(1, "ad")[0]!;
    expect(ad.dimensions["ad_position"]).not.toBe("N/A");
    expect(ad.dimensions["advertiser"]).toBeDefined();
    expect(ad.contentSessionId).toMatch(/^\d+$/);
    expect(lastDays(1)[0]!.dimensions["ad_position"]).toBe("N/A");
  });

  it("produces a daily curve of 40 to 320 content and 10 to 110 ad sessions an hour", () => {
    const start = Math.floor(TEST_NOW_MS / DAY_MS) * DAY_MS - 7 * DAY_MS;
    const content: number[] = [];
    const ads: number[] = [];
    for (let hour = 0; hour < 7 * 24; hour++) {
      content.push(world.sessionsStartedBetween("content", start + hour * HOUR_MS, start + (hour + 1) * HOUR_MS).length);
      ads.push(world.sessionsStartedBetween("ad", start + hour * HOUR_MS, start + (hour + 1) * HOUR_MS).length);
    }
    expect(Math.min(...content)).toBeGreaterThanOrEqual(40);
    expect(Math.max(...content)).toBeLessThanOrEqual(320);
    expect(Math.max(...content)).toBeGreaterThan(2 * Math.min(...content));
    const averageAds = ads.reduce((sum, count) => sum + count, 0) / ads.length;
    expect(averageAds).toBeGreaterThanOrEqual(30);
    expect(averageAds).toBeLessThanOrEqual(70);
    expect(Math.min(...ads)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...ads)).toBeLessThanOrEqual(110);
  });

  it("has failures and rebuffering at realistic rates", () => {
    const sessions = lastDays(7);
    const rate = (test: (session: SessionRecord) => boolean) => sessions.filter(test).length / sessions.length;
    expect(rate((session) => session.exitBeforeVideoStart)).toBeGreaterThan(0.015);
    expect(rate((session) => session.exitBeforeVideoStart)).toBeLessThan(0.08);
    expect(rate((session) => session.videoStartFailure !== undefined)).toBeGreaterThan(0.005);
    expect(rate((session) => session.videoStartFailure !== undefined)).toBeLessThan(0.05);
    expect(rate((session) => session.videoPlaybackFailure !== undefined)).toBeGreaterThan(0.003);
    expect(rate((session) => session.videoStartFailure === "business")).toBeGreaterThan(0);
    const plays = sessions.filter((session) => session.videoStartTimeMs >= 0);
    const rebuffering = plays.reduce((sum, session) => sum + session.rebufferingTimeMs, 0);
    const playing = plays.reduce((sum, session) => sum + session.playingTimeMs, 0);
    expect(rebuffering / (rebuffering + playing)).toBeGreaterThan(0.002);
    expect(rebuffering / (rebuffering + playing)).toBeLessThan(0.03);
    const failed = sessions.filter((candidate) => candidate.videoStartFailure || candidate.videoPlaybackFailure);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThan(sessions.length);
    for (const session of failed) {
      expect(session.errorCode).toMatch(/^[A-Z0-9_]+$/);
    }
    expect(sessions.filter((session) => !session.videoStartFailure && !session.videoPlaybackFailure).every((session) => session.errorCode === undefined)).toBe(true);
  });

  it("keeps each viewer's home, network and addresses stable", () => {
    const byViewer = new Map<string, SessionRecord[]>();
    for (const session of lastDays(3)) byViewer.set(session.viewerId, [...(byViewer.get(session.viewerId) ?? []), session]);
    expect(byViewer.size).toBeGreaterThan(1500);
    for (const [viewerId, sessions] of byViewer) {
      expect(viewerId).toMatch(/^viewer-\d{6}$/);
      const homes = new Set(sessions.map((session) => `${session.dimensions["geo_city_name"]}|${session.dimensions["isp"]}|${session.ip}|${session.ipv6}`));
      expect(homes.size, viewerId).toBe(1);
    }
  });

  it("has heavy viewers with over 500 sessions in 30 days", () => {
    const month = lastDays(30);
    for (const viewerId of ["viewer-000001", "viewer-000002", "viewer-000003"]) {
      const count = month.filter((session) => session.viewerId === viewerId).length;
      expect(count, viewerId).toBeGreaterThan(800);
      expect(count, viewerId).toBeLessThan(1400);
    }
  });

  it("maps viewer ids and user ids of the population to the viewer id", () => {
    expect(viewerIdForIdentifier("user-000042")).toBe("viewer-000042");
    expect(viewerIdForIdentifier("viewer-000042")).toBe("viewer-000042");
    expect(viewerIdForIdentifier("viewer-003001")).toBeUndefined();
    expect(viewerIdForIdentifier("user-42")).toBeUndefined();
    expect(viewerIdForIdentifier("someone@example.com")).toBeUndefined();
  });
});

describe("data world: lookups", () => {
  it("spells lookup values as saved-filter rules use them, and sessions use only those values", () => {
    expect(world.lookupValues("countries")).toContain("United States");
    expect(world.lookupValues("asn")).toContain("AS7922");
    expect(world.lookupValues("tags")).toEqual([...world.customTagNames()].sort());
    expect(world.lookupValues("continents")).toContain("North America");
    const sessions = lastDays(1);
    const inLookup = (lookup: Parameters<World["lookupValues"]>[0], values: readonly string[]) => {
      expect(values.length, lookup).toBeGreaterThan(0);
      const allowed = new Set(world.lookupValues(lookup));
      for (const value of values) expect(allowed.has(value), `${lookup}: ${value}`).toBe(true);
    };
    inLookup("cities", sessions.map((session) => session.dimensions["geo_city_name"]!));
    inLookup("states", sessions.map((session) => session.dimensions["geo_state_name"]!));
    inLookup("isp", sessions.map((session) => session.dimensions["isp"]!));
    inLookup("continents", sessions.map((session) => session.dimensions["geo_continent_name"]!));
    inLookup("countries", sessions.map((session) => dimensionReader("geo_country_code", TEST_NOW_MS)(session).description!));
    inLookup("asn", sessions.map((session) => `AS${session.dimensions["asn"]}`));
    inLookup("dma", sessions.filter((session) => session.dimensions["geo_country_code"] === "US").map((session) => session.dimensions["geo_dma"]!));
  });
});

describe("filtering helpers", () => {
  const sessions = lastDays(1);

  it("describes coded dimension values for group-by", () => {
    const us = sessions.find((session) => session.dimensions["geo_country_code"] === "US")!;
    expect(dimensionReader("geo_country_code", TEST_NOW_MS)(us)).toEqual({ value: "US", description: "United States" });
    expect(dimensionReader("geo-country-code", TEST_NOW_MS)(us)).toEqual({ value: "US", description: "United States" });
    const comcast = sessions.find((session) => session.dimensions["asn"] === "7922")!;
    expect(dimensionReader("asn", TEST_NOW_MS)(comcast)).toEqual({ value: "7922", description: "Comcast Cable Communications, LLC" });
    expect(dimensionReader("cdn", TEST_NOW_MS)(us)).toEqual({ value: us.dimensions["cdn"] });
    expect(dimensionReader("tag_deviceId", TEST_NOW_MS)(us).value).toBe(us.customTags["deviceId"]);
    const failed = sessions.find((session) => session.videoStartFailure)!;
    expect(dimensionReader("video_start_failure_error", TEST_NOW_MS)(failed).value).toBe(failed.errorCode);
    expect(dimensionReader("video_playback_failure_error", TEST_NOW_MS)(us).value).toBe(us.videoPlaybackFailure ? us.errorCode : "");
  });

  it("evaluates saved-filter rules (spec 2.7) on the spelling of the lookups", () => {
    const count = (predicate: (session: SessionRecord) => boolean) => sessions.filter(predicate).length;
    const usAkamai = rulesPredicate({ op: "and", rules: [
      { field: "Country", op: "equals", value: "United States" },
      { op: "or", rules: [{ field: "CDN", op: "contains", value: "Akamai" }] },
    ] });
    const expected = count((session) => session.dimensions["geo_country_code"] === "US" && session.dimensions["cdn"] === "Akamai");
    expect(expected).toBeGreaterThan(0);
    expect(count(usAkamai)).toBe(expected);

    const comcast = rulesPredicate({ op: "and", rules: [{ field: "ASN", op: "equals", value: "AS7922" }] });
    expect(count(comcast)).toBe(count((session) => session.dimensions["isp"] === "Comcast Cable"));

    const notPremium = rulesPredicate({ op: "and", rules: [{ field: "Tag", key: "subscriptionTier", op: "not_contains", value: "premium" }] });
    expect(count(notPremium)).toBe(count((session) => session.customTags["subscriptionTier"] !== "premium"));

    const either = rulesPredicate({ op: "or", rules: [
      { field: "Device Operating System", op: "equals", value: "Roku OS" },
      { field: "Resource", op: "contains", value: "-LIVE" },
    ] });
    expect(count(either)).toBe(count((session) => session.dimensions["device_os"] === "Roku OS" || session.dimensions["asset_type"] === "Live"));
    expect(count(rulesPredicate({ op: "or", rules: [] }))).toBe(0);
    expect(count(rulesPredicate({ op: "and", rules: [] }))).toBe(sessions.length);
  });
});

describe("data world: anomalies", () => {
  it("always has an active content and ad anomaly, plus one or two short ones most days", () => {
    const yearAgo = TEST_NOW_MS - 365 * DAY_MS;
    for (let probe = 0; probe < 400; probe++) {
      const at = yearAgo + Math.floor((probe * 365 * DAY_MS) / 400) + probe * 7_919;
      const active = world.anomaliesBetween(at, at + 1);
      expect(active.some((anomaly) => anomaly.kind === "content"), new Date(at).toISOString()).toBe(true);
      expect(active.some((anomaly) => anomaly.kind === "ad"), new Date(at).toISOString()).toBe(true);
    }
    const month = world.anomaliesBetween(TEST_NOW_MS - 30 * DAY_MS, TEST_NOW_MS);
    const short = month.filter((anomaly) => anomaly.endMs - anomaly.startMs <= 5 * HOUR_MS);
    expect(short.length).toBeGreaterThanOrEqual(20);
    expect(short.length).toBeLessThanOrEqual(60);
    expect(new Set(month.map((anomaly) => anomaly.id)).size).toBe(month.length);
    for (const anomaly of month) {
      const metrics: readonly string[] = anomaly.kind === "content" ? SPEC_ALERTS.contentMetrics : SPEC_ALERTS.adMetrics;
      expect(metrics).toContain(anomaly.alertMetric);
      expect(anomaly.endMs - anomaly.startMs).toBeGreaterThanOrEqual(30 * 60_000);
    }
    expect(world.anomaliesBetween(TEST_NOW_MS, TEST_NOW_MS + 1)).toEqual(new DataWorld(7, "dev").anomaliesBetween(TEST_NOW_MS, TEST_NOW_MS + 1));
  });

  it("really degrades the sessions of the root cause during the anomaly", () => {
    const sessions = lastDays(14);
    const anomalies = world.anomaliesBetween(TEST_NOW_MS - 14 * DAY_MS, TEST_NOW_MS)
      .filter((anomaly) => anomaly.kind === "content" && anomaly.startMs > TEST_NOW_MS - 14 * DAY_MS && anomaly.endMs < TEST_NOW_MS);
    const hit = (anomaly: Anomaly, session: SessionRecord) =>
      session.dimensions[anomaly.dimension] === anomaly.entity && session.startMs >= anomaly.startMs && session.startMs < anomaly.endMs;
    const degraded = new Set(sessions.filter((session) => anomalies.some((anomaly) => hit(anomaly, session))));
    const untouched = (anomaly: Anomaly) =>
      sessions.filter((session) => session.dimensions[anomaly.dimension] === anomaly.entity && !degraded.has(session));
    const measures: Record<string, (group: SessionRecord[]) => number> = {
      VSF: (group) => group.filter((session) => session.videoStartFailure).length / group.length,
      EBVS: (group) => group.filter((session) => session.exitBeforeVideoStart).length / group.length,
      VPF: (group) => group.filter((session) => session.videoPlaybackFailure).length / Math.max(1, group.filter((session) => session.videoStartTimeMs >= 0).length),
      VST: (group) => {
        const plays = group.filter((session) => session.videoStartTimeMs >= 0);
        return plays.reduce((sum, session) => sum + session.videoStartTimeMs, 0) / plays.length;
      },
      BUFFERINGRATIO: (group) => {
        const rebuffering = group.reduce((sum, session) => sum + session.rebufferingTimeMs, 0);
        return rebuffering / (rebuffering + group.reduce((sum, session) => sum + session.playingTimeMs, 0));
      },
    };
    let checked = 0;
    for (const anomaly of anomalies) {
      const measure = measures[anomaly.alertMetric];
      const during = sessions.filter((session) => hit(anomaly, session));
      if (!measure || during.length < 40) continue;
      expect(measure(during), `${anomaly.id} ${anomaly.alertMetric} ${anomaly.entity}`).toBeGreaterThan(1.8 * measure(untouched(anomaly)));
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(3);

    // A drop in concurrent plays: the root cause's share of traffic falls against the same hours of other days.
    const shareOf = (anomaly: Anomaly, shiftMs: number) => {
      const inWindow = sessions.filter((session) => session.startMs >= anomaly.startMs + shiftMs && session.startMs < anomaly.endMs + shiftMs);
      return inWindow.filter((session) => session.dimensions[anomaly.dimension] === anomaly.entity).length / inWindow.length;
    };
    const drops = anomalies.filter((anomaly) => anomaly.alertMetric === "PCP" && anomaly.peakSeverity !== "info");
    expect(drops.length).toBeGreaterThan(0);
    for (const anomaly of drops) {
      const shifts = [-2 * DAY_MS, -DAY_MS, DAY_MS, 2 * DAY_MS].filter((shift) =>
        anomaly.startMs + shift > TEST_NOW_MS - 14 * DAY_MS && anomaly.endMs + shift < TEST_NOW_MS);
      const normal = shifts.reduce((sum, shift) => sum + shareOf(anomaly, shift), 0) / shifts.length;
      expect(shareOf(anomaly, 0), anomaly.id).toBeLessThan(0.85 * normal);
    }
  });
});
