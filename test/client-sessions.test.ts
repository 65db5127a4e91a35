import { describe, expect, it } from "vitest";
import { PermissionDeniedError, type SessionsApi } from "../provider/client";
import { BASIC, DEV, TEST_NOW_MS } from "./support/emulator";
import { expectRefusedBeforeSending, journalMark, requestsSince, useQueryFamilies, withClient } from "./support/query-families";

// The sessions family of the typed client (spec 4.2 to 4.5) over real HTTP against the emulator:
// sample sessions with their filters, viewer sessions beyond the 500 cap (split in the request
// journal), the viewer summary, the lookups, and argument checks that stop a request before it is sent.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A documented heavy viewer of the emulator's world: about 36 sessions a day. */
const HEAVY_VIEWER = "viewer-000001";

const context = useQueryFamilies();

const lastHours = (hours: number) => ({ start: TEST_NOW_MS - hours * HOUR_MS, end: TEST_NOW_MS });

describe("sample sessions (spec 4.2)", () => {
  it("lists ended content sessions of the range, newest first, up to the limit", async () => {
    const mark = await journalMark(context.emulator);
    const { sessions } = await context.client.sessions.listContent({ range: lastHours(2), limit: 5 });
    const [request] = await requestsSince(context.emulator, mark);
    expect(request!.path).toBe("/insights/3.0/sessions/content");
    expect(request!.params.get("limit")).toBe("5");
    expect(Number(request!.params.get("start_epoch_ms"))).toBe(TEST_NOW_MS - 2 * HOUR_MS);

    expect(sessions).toHaveLength(5);
    for (const session of sessions) {
      expect(session.status_info.is_ended).toBe(true);
      expect(session.timestamps.start.epoch_ms).toBeGreaterThanOrEqual(TEST_NOW_MS - 2 * HOUR_MS);
    }
    const starts = sessions.map((session) => session.timestamps.start.epoch_ms);
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
  });

  it("joins repeated values of a dimension by OR and a custom tag by AND", async () => {
    const sample = await context.client.sessions.listContent({ range: lastHours(3), limit: 100 });
    const tier = sample.sessions.map((session) => session.tags.custom_tags["subscriptionTier"]).find((value) => value !== undefined)!;
    expect(tier).toBeDefined();

    const mark = await journalMark(context.emulator);
    const { sessions } = await context.client.sessions.listContent({
      range: lastHours(3),
      limit: 100,
      filters: { device_os: ["iOS", "Android"] },
      tags: { subscriptionTier: tier },
    });
    const [request] = await requestsSince(context.emulator, mark);
    expect(request!.params.getAll("device_os")).toEqual(["iOS", "Android"]);
    expect(request!.params.get("tag_subscriptionTier")).toBe(tier);
    expect(sessions.length).toBeGreaterThan(0);
    for (const session of sessions) {
      expect(["iOS", "Android"]).toContain(session.tags.selected_dimensions["device_os"]);
      expect(session.tags.custom_tags["subscriptionTier"]).toBe(tier);
    }
  });

  it("lists ad sessions, and answers 403 for an account without ad insights", async () => {
    const { sessions } = await context.client.sessions.listAd({ limit: 3 });
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.length).toBeLessThanOrEqual(3);
    await withClient(context.emulator, BASIC, (basic) => expect(basic.sessions.listAd()).rejects.toBeInstanceOf(PermissionDeniedError));
  });
});

describe("viewer sessions beyond 500 (spec 4.3, 8)", () => {
  /** The viewer's content sessions in the range, read inside the emulator: the ground truth. */
  function expectedSessionCount(fromMs: number, toMs: number): number {
    const account = context.emulator.state.authenticate(DEV.clientId, DEV.clientSecret)!;
    return account.sessions("content", fromMs, toMs, TEST_NOW_MS).filter((session) => session.viewerId === HEAVY_VIEWER).length;
  }

  it("splits a full 30-day answer in halves until no part is full, and returns every session once", async () => {
    const mark = await journalMark(context.emulator);
    const { sessions } = await context.client.sessions.listViewer({ viewerId: HEAVY_VIEWER, range: { lastDays: 30 } });
    const requests = await requestsSince(context.emulator, mark);

    // The range as given first; it is full, so it is split into explicit halves.
    expect([...requests[0]!.params]).toEqual(expect.arrayContaining([["viewer_id", HEAVY_VIEWER], ["days", "30"], ["limit", "500"]]));
    const parts = requests.slice(1).map((request) => [Number(request.params.get("start_epoch_ms")), Number(request.params.get("end_epoch_ms"))] as const);
    expect(parts.length).toBeGreaterThanOrEqual(2);
    expect(parts.some(([start]) => start === TEST_NOW_MS - 30 * DAY_MS)).toBe(true);
    expect(parts.some(([, end]) => end === TEST_NOW_MS)).toBe(true);

    expect(sessions.length).toBe(expectedSessionCount(TEST_NOW_MS - 30 * DAY_MS, TEST_NOW_MS));
    expect(sessions.length).toBeGreaterThan(500);
    expect(new Set(sessions.map((session) => session.svc_session_id)).size).toBe(sessions.length);
    expect(sessions.every((session) => session.viewer_id === HEAVY_VIEWER)).toBe(true);
    const starts = sessions.map((session) => session.timestamps.start.epoch_ms);
    expect(starts).toEqual([...starts].sort((a, b) => b - a));

    // With a limit, the newest sessions: the head of the merged list.
    const newest = await context.client.sessions.listViewer({ viewerId: HEAVY_VIEWER, range: { lastDays: 30 }, limit: 500 });
    expect(newest.sessions.map((session) => session.svc_session_id)).toEqual(sessions.slice(0, 500).map((session) => session.svc_session_id));
    // Over 500: the newest N of all.
    const more = await context.client.sessions.listViewer({ viewerId: HEAVY_VIEWER, range: { lastDays: 30 }, limit: 600 });
    expect(more.sessions.map((session) => session.svc_session_id)).toEqual(sessions.slice(0, 600).map((session) => session.svc_session_id));
  });

  it("answers the newest `limit` sessions whatever order the service lists them in, from the newer halves of a full range", async () => {
    const all = (await context.client.sessions.listViewer({ viewerId: HEAVY_VIEWER, range: { lastDays: 30 } })).sessions;
    let mark = await journalMark(context.emulator);
    const latest = await context.client.sessions.listViewer({ viewerId: HEAVY_VIEWER, range: { lastDays: 30 }, limit: 10 });
    expect(latest.sessions.map((session) => session.svc_session_id)).toEqual(all.slice(0, 10).map((session) => session.svc_session_id));
    // Every request asks for the cap (a smaller limit would leave the choice to the service's order):
    // the whole range (full), its newer half (full), the newer half of that (below the cap); never an older half.
    const requests = await requestsSince(context.emulator, mark);
    expect(requests.map((request) => request.params.get("limit"))).toEqual(["500", "500", "500"]);
    expect(requests.slice(1).map((request) => [Number(request.params.get("start_epoch_ms")), Number(request.params.get("end_epoch_ms"))])).toEqual([
      [TEST_NOW_MS - 15 * DAY_MS, TEST_NOW_MS],
      [TEST_NOW_MS - 7.5 * DAY_MS, TEST_NOW_MS],
    ]);

    // Below the cap: one request.
    mark = await journalMark(context.emulator);
    const day = await context.client.sessions.listViewer({ viewerId: HEAVY_VIEWER, range: { lastDays: 1 }, limit: 5 });
    expect((await requestsSince(context.emulator, mark)).map((request) => request.params.get("limit"))).toEqual(["500"]);
    expect(day.sessions.map((session) => session.svc_session_id)).toEqual(all.slice(0, 5).map((session) => session.svc_session_id));
  });

  it("sends one request when the answer is not full", async () => {
    const mark = await journalMark(context.emulator);
    const { sessions } = await context.client.sessions.listViewer({ viewerId: HEAVY_VIEWER, range: { start: TEST_NOW_MS - 2 * DAY_MS, end: TEST_NOW_MS } });
    expect(await requestsSince(context.emulator, mark)).toHaveLength(1);
    expect(sessions.length).toBe(expectedSessionCount(TEST_NOW_MS - 2 * DAY_MS, TEST_NOW_MS));
    expect(sessions.length).toBeLessThan(500);
  });

  it("lists a viewer's ad sessions", async () => {
    const { sessions } = await context.client.sessions.listAdViewer({ viewerId: HEAVY_VIEWER, range: { lastDays: 1 } });
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((session) => session.viewer_id === HEAVY_VIEWER)).toBe(true);
  });
});

describe("viewer summary and lookups (spec 4.4, 4.5)", () => {
  it("summarises one viewer over the range", async () => {
    const summary = await context.client.sessions.viewerSummary({ viewerId: HEAVY_VIEWER, range: { lastDays: 1 } });
    expect(summary._meta.queries.viewer_id).toBe(HEAVY_VIEWER);
    expect(summary._meta.queries.end_epoch_ms - summary._meta.queries.start_epoch_ms).toBe(DAY_MS);
    expect(summary.total.plays.count).toBeGreaterThan(0);
  });

  it("lists the filter dimensions, custom tags included", async () => {
    const { dimensions } = await context.client.sessions.dimensions();
    expect(dimensions).toEqual(expect.arrayContaining([
      expect.objectContaining({ query_filter: "?device_os", is_custom: false }),
      expect.objectContaining({ query_filter: "?tag_subscriptionTier", is_custom: true }),
    ]));
  });

  it("discovers the resources available to each account", async () => {
    const available = async (sessions: SessionsApi) =>
      Object.fromEntries((await sessions.discovery()).resources.map((resource) => [resource.path, resource.available]));
    expect((await available(context.client.sessions))["/insights/3.0/sessions/ad"]).toBe(true);
    const paths = await withClient(context.emulator, BASIC, (basic) => available(basic.sessions));
    expect(paths["/insights/3.0/sessions/ad"]).toBe(false);
    expect(paths["/insights/3.0/sessions/content"]).toBe(true);
  });
});

describe("session arguments are checked before sending", () => {
  it.each([
    ["a sample window over 3 hours", () => context.client.sessions.listContent({ range: lastHours(4) }), "range", "at most 3 hours"],
    ["a sample start older than 31 days", () => context.client.sessions.listContent({ range: { start: TEST_NOW_MS - 32 * DAY_MS, end: TEST_NOW_MS - 32 * DAY_MS + HOUR_MS } }), "range.start", "within the last 31 days"],
    ["days for sample sessions", () => context.client.sessions.listContent({ range: { lastDays: 1 } as never }), "range.lastDays", "sample sessions take { start, end }"],
    ["a sample limit of 0", () => context.client.sessions.listContent({ limit: 0 }), "limit", "from 1 to 500"],
    ["filter_id with tag filters", () => context.client.sessions.listContent({ filterId: 3, tags: { subscriptionTier: "premium" } }), "filterId", "one filter type"],
    ["a metric filter name for sessions", () => context.client.sessions.listContent({ filters: { ad_id: "x" } as never }), "filters.ad_id", "not a filter of this endpoint"],
    ["both viewer id and viewer IP", () => context.client.sessions.viewerSummary({ viewerId: HEAVY_VIEWER, viewerIp: "10.0.0.1" } as never), "viewerId", "exactly one"],
    ["a viewer IP that is not an address", () => context.client.sessions.listViewer({ viewerIp: "10.0.0" }), "viewerIp", "IPv4 or IPv6"],
    ["minutes for viewer sessions", () => context.client.sessions.listViewer({ viewerId: HEAVY_VIEWER, range: { lastMinutes: 5 } as never }), "range.lastMinutes", "real-time metrics"],
  ])("refuses %s", (_case, call, path, message) => expectRefusedBeforeSending(context.emulator, call, path, message));
});
