import { describe, expect, it } from "vitest";
import { NotFoundError, PermissionDeniedError } from "../provider/client";
import { BASIC, TEST_NOW_MS } from "./support/emulator";
import { expectRefusedBeforeSending, journalMark, requestsSince, useQueryFamilies, withClient } from "./support/query-families";

// The AI alerts family of the typed client (spec 4.9) over real HTTP against the emulator: filters,
// details, the 30-day window split (spec 8) seen in the request journal, and argument checks that
// stop a request before it is sent.

const DAY_MS = 86_400_000;

const context = useQueryFamilies();

describe("alert lists", () => {
  it("fetches a 45-day range as two windows of at most 30 days and merges them without duplicates", async () => {
    const range = { start: TEST_NOW_MS - 45 * DAY_MS, end: TEST_NOW_MS };
    const mark = await journalMark(context.emulator);
    const { alerts } = await context.client.alerts.listContent({ range });
    const requests = await requestsSince(context.emulator, mark);

    expect(requests).toHaveLength(2);
    const windows = requests.map((request) => [Number(request.params.get("start_epoch_ms")), Number(request.params.get("end_epoch_ms"))] as const).sort((a, b) => a[0] - b[0]);
    expect(windows[0]![0]).toBe(range.start);
    expect(windows[0]![1]).toBe(windows[1]![0]);
    expect(windows[1]![1]).toBe(range.end);
    for (const [start, end] of windows) expect(end - start).toBeLessThanOrEqual(30 * DAY_MS);
    expect(requests.every((request) => request.status === 200)).toBe(true);

    expect(alerts.length).toBeGreaterThan(0);
    expect(new Set(alerts.map((alert) => alert.id)).size).toBe(alerts.length);
    // Ordered as one answer is: newest start first.
    const starts = alerts.map((alert) => alert.timeline.start.timestamp.epoch_sec);
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
    // Every alert of the last 30 days (one request) is in the merged list, as the service reports it.
    const recent = await context.client.alerts.listContent({ range: { start: TEST_NOW_MS - 30 * DAY_MS, end: TEST_NOW_MS } });
    const merged = new Map(alerts.map((alert) => [alert.id, alert]));
    expect(recent.alerts.length).toBeGreaterThan(0);
    for (const alert of recent.alerts) expect(merged.get(alert.id)).toEqual(alert);
  });

  it("lists newest start first whatever order the service answers in", async () => {
    const { alerts } = await context.client.alerts.listContent();
    const starts = alerts.map((alert) => alert.timeline.start.timestamp.epoch_sec);
    expect(new Set(starts).size).toBeGreaterThan(2);
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
  });

  it("sends severity, status and alert metric as comma-separated lists and gets only matching alerts", async () => {
    const mark = await journalMark(context.emulator);
    const { alerts } = await context.client.alerts.listContent({ severity: ["critical", "warning"], status: ["ended"], alertMetric: ["VSF", "BUFFERINGRATIO"] });
    const [request] = await requestsSince(context.emulator, mark);
    expect(request!.params.get("severity")).toBe("critical,warning");
    expect(request!.params.get("alert_metric")).toBe("VSF,BUFFERINGRATIO");
    expect(alerts.length).toBeGreaterThan(0);
    for (const alert of alerts) {
      expect(["critical", "warning"]).toContain(alert.severity);
      expect(alert.status).toBe("ended");
      expect(["VSF", "BUFFERINGRATIO"]).toContain(alert.alert_metric.name);
      expect(alert.timeline.end).toBeDefined();
    }
  });

  it("lists ad alerts, and answers 403 for an account without ad insights", async () => {
    const { alerts } = await context.client.alerts.listAd({ range: { start: TEST_NOW_MS - 30 * DAY_MS, end: TEST_NOW_MS } });
    expect(alerts.length).toBeGreaterThan(0);
    for (const alert of alerts) expect(["BITRATE", "BUFFERINGRATIO", "VSF"]).toContain(alert.alert_metric.name);
    await withClient(context.emulator, BASIC, (basic) => expect(basic.alerts.listAd()).rejects.toBeInstanceOf(PermissionDeniedError));
  });
});

describe("alert details", () => {
  it("returns the detail of a listed alert, and NotFoundError for an unknown id", async () => {
    const { alerts } = await context.client.alerts.listContent({ range: { start: TEST_NOW_MS - 30 * DAY_MS, end: TEST_NOW_MS } });
    const listed = alerts[0]!;
    const detail = await context.client.alerts.getContent({ alertId: listed.id });
    expect(detail).toMatchObject({ id: listed.id, severity: listed.severity, status: listed.status, alert_metric: listed.alert_metric });
    expect(detail.timeline.start.timestamp).toEqual(listed.timeline.start.timestamp);
    expect(detail.timeline.end !== undefined).toBe(listed.status === "ended");
    await expect(context.client.alerts.getContent({ alertId: "no-such-alert" })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("alert arguments are checked before sending", () => {
  it.each([
    ["an ad metric for content alerts", () => context.client.alerts.listContent({ alertMetric: ["BITRATE" as never] }), "alertMetric[0]", "valid content alert metrics are"],
    ["a near miss of a severity", () => context.client.alerts.listContent({ severity: ["critcal" as never] }), "severity[0]", 'did you mean "critical"?'],
    ["days, which alerts do not take", () => context.client.alerts.listContent({ range: { lastDays: 3 } as never }), "range.lastDays", "AI alerts take { start, end }"],
    ["an empty alert id", () => context.client.alerts.getAd({ alertId: "" }), "alertId", "alert id"],
  ])("refuses %s", (_case, call, path, message) => expectRefusedBeforeSending(context.emulator, call, path, message));
});
