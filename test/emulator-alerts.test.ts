import { describe, expect, it } from "vitest";
import { AlertDetail, AlertList, type AlertSummary } from "../provider/schema";
import { BASIC, startTestEmulator, TEST_NOW, TEST_NOW_MS, useTestEmulator } from "./support/emulator";
import { SPEC_ALERTS } from "./support/spec-values";

const CONTENT = "/insights/2.6/ai-alerts/content-metrics";
const AD = "/insights/2.6/ai-alerts/ad-metrics";
const DAY_MS = 86_400_000;
const POINT_MEMBERS = ["info", "warning", "critical", "end"] as const;

describe("emulator AI alerts (spec 2.8, 3.2, 4.9)", () => {
  // Tests move the clock: each starts again at TEST_NOW.
  const emulator = useTestEmulator({}, { resetEach: true });

  const list = async (path: string, query: Record<string, string | number> = {}) => {
    const response = await emulator.get(path, query);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return AlertList.parse(response.body).alerts;
  };
  const detail = async (path: string, id: string) => {
    const response = await emulator.get(`${path}/${id}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return AlertDetail.parse(response.body);
  };
  const ids = (alerts: readonly AlertSummary[]) => alerts.map((alert) => alert.id);
  const startMs = (alert: AlertSummary) => alert.timeline.start.timestamp.epoch_sec * 1000;
  const endMs = (alert: AlertSummary) => alert.timeline.end!.timestamp.epoch_sec * 1000;

  it("lists content alerts of the last 30 days by default, newest first, deterministic for a seed", async () => {
    const alerts = await list(CONTENT);
    expect(alerts.length).toBeGreaterThan(0);
    expect(await list(CONTENT)).toEqual(alerts);
    const twin = await startTestEmulator();
    try {
      expect(AlertList.parse((await twin.get(CONTENT)).body).alerts).toEqual(alerts);
    } finally {
      await twin.close();
    }
    const starts = alerts.map(startMs);
    expect([...starts].sort((a, b) => b - a)).toEqual(starts);
    for (const alert of alerts) {
      expect(alert.alert_type).toBe("content");
      expect(alert.id).toMatch(/^[a-z0-9]+$/);
      expect(alert.alert_metric.description.length).toBeGreaterThan(0);
      expect(alert.root_causes.length).toBeGreaterThan(0);
      // An active alert has no end; an ended one has an end after its start, not in the future.
      if (alert.status === "active") expect(alert.timeline.end).toBeUndefined();
      else {
        expect(endMs(alert)).toBeGreaterThan(startMs(alert));
        expect(endMs(alert)).toBeLessThanOrEqual(TEST_NOW_MS);
      }
      expect(startMs(alert)).toBeLessThanOrEqual(TEST_NOW_MS);
      const changedInRange = (ms: number) => ms >= TEST_NOW_MS - 30 * DAY_MS;
      expect(changedInRange(startMs(alert)) || (alert.status === "ended" && changedInRange(endMs(alert)))).toBe(true);
    }
    expect(new Set(alerts.map((alert) => alert.status))).toEqual(new Set(["active", "ended"]));
  });

  it("filters by severity, status and alert metric (comma lists) as subsets of the full list", async () => {
    const alerts = await list(CONTENT);
    const expectSubset = async (query: Record<string, string>, keep: (alert: AlertSummary) => boolean) => {
      expect(ids(await list(CONTENT, query))).toEqual(ids(alerts.filter(keep)));
    };
    await expectSubset({ severity: "critical" }, (alert) => alert.severity === "critical");
    await expectSubset({ severity: "warning,info" }, (alert) => alert.severity !== "critical");
    await expectSubset({ status: "ended" }, (alert) => alert.status === "ended");
    await expectSubset({ status: "active,ended" }, () => true);
    const metric = alerts[0]!.alert_metric.name;
    await expectSubset({ alert_metric: metric }, (alert) => alert.alert_metric.name === metric);
    await expectSubset(
      { alert_metric: metric, status: "active" },
      (alert) => alert.alert_metric.name === metric && alert.status === "active",
    );
  });

  it("returns only alerts with a status change (start or end) inside the range", async () => {
    const alerts = await list(CONTENT);
    const ended = alerts.find((alert) => alert.status === "ended" && endMs(alert) - startMs(alert) > 2000)!;
    const around = (fromMs: number, toMs: number) => list(CONTENT, { start_epoch_ms: fromMs, end_epoch_ms: toMs });
    expect(ids(await around(startMs(ended), startMs(ended) + 1000))).toContain(ended.id);
    expect(ids(await around(endMs(ended), endMs(ended) + 1000))).toContain(ended.id);
    // Inside the alert's life but with neither its start nor its end: not listed.
    expect(ids(await around(startMs(ended) + 1000, endMs(ended)))).not.toContain(ended.id);
    const seconds = await list(CONTENT, { start_epoch: startMs(ended) / 1000, end_epoch: startMs(ended) / 1000 + 1 });
    expect(ids(seconds)).toContain(ended.id);
    const dates = await list(CONTENT, {
      start_date: new Date(startMs(ended)).toISOString(),
      end_date: new Date(startMs(ended) + 1000).toISOString(),
    });
    expect(ids(dates)).toContain(ended.id);
  });

  it("allows at most 30 days (422) and one time-range format (400)", async () => {
    const from = TEST_NOW_MS - 30 * DAY_MS;
    expect((await emulator.get(CONTENT, { start_epoch_ms: from, end_epoch_ms: TEST_NOW_MS })).status).toBe(200);
    const tooLong = await emulator.get(CONTENT, { start_epoch_ms: from - 1, end_epoch_ms: TEST_NOW_MS });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.message).toContain("30 days");
    const mixed = await emulator.get(CONTENT, { start_epoch: 1, end_epoch_ms: TEST_NOW_MS });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error).toBe("mixed_time_range_formats");
    expect((await emulator.get(CONTENT, { days: 3 })).status).toBe(400);
    expect((await emulator.get(CONTENT, { minutes: 3 })).status).toBe(400);
    expect((await emulator.get(CONTENT, { start_date: "20 Nov 2026", end_date: TEST_NOW })).status).toBe(422);
    expect((await emulator.get(CONTENT, { start_epoch: 10, end_epoch: 5 })).status).toBe(422);
  });

  it.each([
    [CONTENT, { severity: "CRITICAL" }, "severity", 'did you mean "critical"'],
    [CONTENT, { severity: "critical,,info" }, "severity", "empty items"],
    [CONTENT, { status: "ende" }, "status", 'did you mean "ended"'],
    [CONTENT, { alert_metric: "VSFF" }, "alert_metric", 'did you mean "VSF"'],
    [CONTENT, { alert_metric: "BITRATE" }, "alert_metric", "BUFFERINGRATIO"],
    [AD, { alert_metric: "EBVS" }, "alert_metric", "BITRATE"],
    [CONTENT, { severty: "info" }, "severty", 'did you mean "severity"'],
  ])("refuses %s with %j: 400 naming %s", async (path, query, parameter, message) => {
    const response = await emulator.get(path, query);
    expect(response.status).toBe(400);
    expect(response.body.parameter).toBe(parameter);
    expect(response.body.message).toContain(message);
  });

  it("details alerts with a timeline consistent with their severity and status", async () => {
    // The 30 newest: active and ended ones of every severity, in a few hundred milliseconds.
    const alerts = (await list(CONTENT)).slice(0, 30);
    expect(new Set(alerts.map((alert) => alert.status)).size).toBe(2);
    let sessionsSeen = 0;
    for (const summary of alerts) {
      const alert = await detail(CONTENT, summary.id);
      expect({ ...alert, timeline: undefined }).toEqual({ ...summary, timeline: undefined });
      const { timeline } = alert;
      expect(timeline.start).toEqual(summary.timeline.start);
      const reached = SPEC_ALERTS.severities.slice(0, SPEC_ALERTS.severities.indexOf(alert.severity) + 1);
      const expected = [...reached, ...(alert.status === "ended" ? ["end"] : [])];
      expect(POINT_MEMBERS.filter((member) => timeline[member] !== undefined)).toEqual(expected);
      if (alert.status === "ended") expect(timeline.end!.timestamp).toEqual(summary.timeline.end!.timestamp);
      const points = expected.map((member) => timeline[member as (typeof POINT_MEMBERS)[number]]!);
      let previous = { epoch: timeline.start.timestamp.epoch_sec, sessions: 0, impacted: 0, total: 0 };
      for (const point of points) {
        expect(point.timestamp.epoch_sec).toBeGreaterThanOrEqual(previous.epoch);
        expect(point.timestamp.epoch_sec).toBeLessThanOrEqual(TEST_NOW_MS / 1000);
        expect(point.cumulative_sessions).toBeGreaterThanOrEqual(previous.sessions);
        expect(point.cumulative_impacted_uniques).toBeGreaterThanOrEqual(previous.impacted);
        expect(point.cumulative_total_uniques).toBeGreaterThanOrEqual(previous.total);
        expect(point.impacted_uniques).toBeLessThanOrEqual(point.total_uniques);
        expect(point.cumulative_impacted_uniques).toBeLessThanOrEqual(point.cumulative_total_uniques);
        expect(point.total_uniques).toBeLessThanOrEqual(point.cumulative_total_uniques);
        expect(point.cumulative_total_uniques).toBeLessThanOrEqual(point.cumulative_sessions);
        expect(point.metric_value).toBeGreaterThanOrEqual(0);
        previous = {
          epoch: point.timestamp.epoch_sec,
          sessions: point.cumulative_sessions,
          impacted: point.cumulative_impacted_uniques,
          total: point.cumulative_total_uniques,
        };
      }
      sessionsSeen += previous.sessions;
    }
    // The numbers come from the sessions of the data world, not from thin air.
    expect(sessionsSeen).toBeGreaterThan(0);
  });

  it("never shows the future: an alert appears at its info point, escalates and ends with the clock", async () => {
    const ended = (await list(CONTENT, { status: "ended" })).find((alert) => {
      return alert.severity !== "info";
    })!;
    const full = await detail(CONTENT, ended.id);
    const at = (member: "info" | "warning" | "end") => full.timeline[member]!.timestamp.epoch_sec * 1000;

    await emulator.control("POST", "clock", { set: startMs(ended) - 1000 });
    expect(ids(await list(CONTENT))).not.toContain(ended.id);
    expect((await emulator.get(`${CONTENT}/${ended.id}`)).status).toBe(404);

    await emulator.control("POST", "clock", { set: at("info") + 999 });
    const fired = await detail(CONTENT, ended.id);
    expect(fired).toMatchObject({ severity: "info", status: "active" });
    expect(Object.keys(fired.timeline).sort()).toEqual(["info", "start"]);
    expect((await list(CONTENT)).find((alert) => alert.id === ended.id)?.timeline.end).toBeUndefined();

    await emulator.control("POST", "clock", { set: at("warning") + 999 });
    expect((await detail(CONTENT, ended.id)).severity).toBe("warning");

    await emulator.control("POST", "clock", { set: at("end") - 1000 });
    const beforeEnd = await detail(CONTENT, ended.id);
    expect(beforeEnd.status).toBe("active");
    expect(beforeEnd.timeline.end).toBeUndefined();

    await emulator.control("POST", "clock", { set: at("end") + 999 });
    const afterEnd = await detail(CONTENT, ended.id);
    expect(afterEnd.status).toBe("ended");
    expect(afterEnd.timeline.end!.timestamp).toEqual(full.timeline.end!.timestamp);
  });

  it("answers 404 for an unknown or malformed alert id, and for a content id on the ad path", async () => {
    const [alert] = await list(CONTENT);
    for (const id of ["zzzzzzzzzzzzzz", "not-an-alert", `${alert!.id.slice(0, 7)}0000000`]) {
      const response = await emulator.get(`${CONTENT}/${id}`);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ parameter: "alert_id" });
    }
    expect((await emulator.get(`${AD}/${alert!.id}`)).status).toBe(404);
  });

  it("serves ad alerts only to accounts with ad insights (403 otherwise)", async () => {
    const alerts = await list(AD);
    expect(alerts.length).toBeGreaterThan(0);
    for (const alert of alerts) {
      expect(alert.alert_type).toBe("ad");
      expect(["BITRATE", "BUFFERINGRATIO", "VSF"]).toContain(alert.alert_metric.name);
    }
    const [first] = alerts;
    expect((await detail(AD, first!.id)).id).toBe(first!.id);
    const denied = await emulator.get(AD, {}, BASIC);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ error: "feature_not_enabled", parameter: "adInsights" });
    expect((await emulator.get(`${AD}/${first!.id}`, {}, BASIC)).status).toBe(403);
    expect((await emulator.get(CONTENT, {}, BASIC)).status).toBe(200);
  });
});
