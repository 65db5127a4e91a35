import { describe, expect, it } from "vitest";
import { PiiOptOutRequest, PiiOptOutRequestList, PiiOptOutSubmitResponse } from "../provider/schema";
import { BASIC, refusedEmulatorCommand, startTestEmulator, TEST_NOW, TEST_NOW_MS, useTestEmulator, withEmulatorCommand } from "./support/emulator";

const PATH = "/pii-opt-out";
const MINUTE_MS = 60_000;
const iso = (epochMs: number) => new Date(epochMs).toISOString();

describe("emulator PII opt-out (spec 2.9, 3.1, 4.10)", () => {
  const emulator = useTestEmulator({}, { resetEach: true });

  const submit = (body: unknown, account?: typeof BASIC) =>
    emulator.call("POST", PATH, { body, ...(account ? { account } : {}) });
  const getRequest = async (id: string) => {
    const response = await emulator.get(PATH, { id });
    expect(response.status).toBe(200);
    return PiiOptOutRequest.parse(response.body);
  };
  const listRequests = async (query: Record<string, string | number> = {}) => {
    const response = await emulator.get(PATH, query);
    expect(response.status).toBe(200);
    return PiiOptOutRequestList.parse(response.body).requests;
  };
  const advance = (advance: string) => emulator.control("POST", "clock", { advance });

  it("moves a request ENQUEUED -> STARTED -> FINISHED with the clock, updated_at at each transition", async () => {
    const created = await submit({ viewer_id: ["viewer-000001", "viewer-000002"] });
    expect(created.status).toBe(201);
    const { id, created: count, ignored } = PiiOptOutSubmitResponse.parse(created.body);
    expect(id).toMatch(/^[a-z0-9]+$/);
    expect([count, ignored]).toEqual([2, 0]);

    expect(await getRequest(id)).toEqual({
      id,
      status: "ENQUEUED",
      creator: "dev@example.com",
      created_at: TEST_NOW,
      updated_at: TEST_NOW,
      identifiers: { viewer_id: ["viewer-000001", "viewer-000002"] },
    });
    await advance("PT59S");
    expect((await getRequest(id)).status).toBe("ENQUEUED");
    await advance("PT1S");
    expect(await getRequest(id)).toMatchObject({ status: "STARTED", updated_at: iso(TEST_NOW_MS + MINUTE_MS) });
    await advance("PT3M59S");
    expect((await getRequest(id)).status).toBe("STARTED");
    await advance("PT1S");
    expect(await getRequest(id)).toMatchObject({
      status: "FINISHED",
      created_at: TEST_NOW,
      updated_at: iso(TEST_NOW_MS + 5 * MINUTE_MS),
    });
  });

  it("sends the notification e-mail when the request finishes, and only then", async () => {
    const withEmail = await submit({ viewer_id: ["viewer-000010"], "@notification_email": ["privacy@example.com", "dpo@example.com"] });
    await submit({ viewer_id: ["viewer-000011"] });
    const id = withEmail.body.id as string;
    expect(await getRequest(id)).toMatchObject({ "@notification_email": ["privacy@example.com", "dpo@example.com"] });

    await advance("PT4M");
    expect((await emulator.control("GET", "emails")).body.emails).toEqual([]);
    await advance("PT1M");
    const emails = (await emulator.control("GET", "emails")).body.emails;
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({
      account: "dev",
      request_id: id,
      to: ["privacy@example.com", "dpo@example.com"],
      sent_at: iso(TEST_NOW_MS + 5 * MINUTE_MS),
    });
    expect(emails[0].subject).toContain(id);
  });

  it("ignores and counts identifiers submitted before, including repeats inside one body", async () => {
    await submit({ viewer_id: ["viewer-000020", "viewer-000021"] });
    const second = await submit({ viewer_id: ["viewer-000021", "viewer-000022", "viewer-000022"] });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ created: 1, ignored: 2 });
    expect((await getRequest(second.body.id)).identifiers.viewer_id).toEqual(["viewer-000022"]);
  });

  it("rejects a request whose identifiers were all submitted before, without creating anything", async () => {
    await submit({ viewer_id: ["viewer-000030", "viewer-000031"] });
    const again = await submit({ viewer_id: ["viewer-000031", "viewer-000030", "viewer-000030"] });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: "all_identifiers_previously_submitted", parameter: "viewer_id" });
    expect(await listRequests()).toHaveLength(1);
  });

  it("keeps every account's requests and submitted identifiers apart (spec 5.4)", async () => {
    await submit({ viewer_id: ["viewer-000040"] });
    const other = await submit({ viewer_id: ["viewer-000040"] }, BASIC);
    expect(other.status).toBe(201);
    expect(other.body).toMatchObject({ created: 1, ignored: 0 });
    const basicList = await emulator.get(PATH, undefined, BASIC);
    expect(basicList.body.requests.map((request: { id: string }) => request.id)).toEqual([other.body.id]);
    expect((await emulator.get(PATH, { id: other.body.id })).status).toBe(404);
  });

  it("accepts user ids, and refuses a mix of viewer ids and user ids naming the parameter", async () => {
    const users = await submit({ viewer_id: ["user-000050", "user-000051"] });
    expect(users.status).toBe(201);
    const mixed = await submit({ viewer_id: ["viewer-000052", "user-000053"] });
    expect(mixed.status).toBe(400);
    expect(mixed.body).toMatchObject({ parameter: "viewer_id", error: "mixed_identifier_kinds" });
    expect(mixed.body.message).toContain("viewer-000052");
    expect(mixed.body.message).toContain("user-000053");
  });

  it("takes at most 100 identifiers per request (spec 8)", async () => {
    const ids = (count: number, from: number) =>
      Array.from({ length: count }, (_, index) => `viewer-${String(from + index).padStart(6, "0")}`);
    const tooMany = await submit({ viewer_id: ids(101, 100) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.parameter).toBe("viewer_id");
    expect(tooMany.body.message).toMatch(/at most 100 .*101/);
    const hundred = await submit({ viewer_id: ids(100, 100) });
    expect(hundred.status).toBe(201);
    expect(hundred.body.created).toBe(100);
  });

  it.each([
    [{ viewer_id: [] }, "viewer_id", "array of 1 to 100"],
    [{}, "viewer_id", "array of 1 to 100"],
    [{ viewer_id: ["viewer-000060", 7] }, "viewer_id", "viewer_id[1]"],
    [{ viewer_id: ["viewer-000060"], "@notification_email": ["not-an-address"] }, "@notification_email", "not-an-address"],
    [{ viewer_id: ["viewer-000060"], "@notification_email": "a@example.com" }, "@notification_email", "array of e-mail"],
    [{ viewer_id: ["viewer-000060"], notification_email: ["a@example.com"] }, "notification_email", 'did you mean "@notification_email"'],
    [{ viewer_idd: ["viewer-000060"] }, "viewer_idd", 'did you mean "viewer_id"'],
    [["viewer-000060"], "body", "JSON object"],
  ])("refuses the invalid body %j with 400 naming %s", async (body, parameter, message) => {
    const response = await submit(body);
    expect(response.status).toBe(400);
    expect(response.body.parameter).toBe(parameter);
    expect(response.body.message).toContain(message);
  });

  it("lists requests newest first and filters them by status, creation day and limit", async () => {
    const first = await submit({ viewer_id: ["viewer-000070"] });
    await emulator.control("POST", "clock", { advance: "P1D" });
    const second = await submit({ viewer_id: ["viewer-000071"] });
    await advance("PT2M");
    const third = await submit({ viewer_id: ["viewer-000072"], "@notification_email": ["a@example.com"] });

    const all = await listRequests();
    expect(all.map((request) => request.id)).toEqual([third.body.id, second.body.id, first.body.id]);
    expect(all.map((request) => request.status)).toEqual(["ENQUEUED", "STARTED", "FINISHED"]);
    // List items carry id, status, @notification_email, created_at and identifiers (spec 4.10).
    expect(Object.keys(all[0]!).sort()).toEqual(["@notification_email", "created_at", "id", "identifiers", "status"]);

    expect((await listRequests({ status: "FINISHED,ENQUEUED" })).map((request) => request.id)).toEqual([third.body.id, first.body.id]);
    expect((await listRequests({ start: "2026-11-21" })).map((request) => request.id)).toEqual([third.body.id, second.body.id]);
    expect((await listRequests({ end: "2026-11-20" })).map((request) => request.id)).toEqual([first.body.id]);
    expect(await listRequests({ start: "2026-11-22", end: "2026-11-30" })).toEqual([]);
    expect((await listRequests({ limit: 1 })).map((request) => request.id)).toEqual([third.body.id]);
  });

  it.each([
    [{ status: "finished" }, "status", 'did you mean "FINISHED"'],
    [{ status: "ENQUEUED," }, "status", "empty items"],
    [{ start: "2026-02-30" }, "start", "YYYY-MM-DD"],
    [{ end: "20.11.2026" }, "end", "YYYY-MM-DD"],
    [{ start: "2026-11-21", end: "2026-11-20" }, "start", "must not be after"],
    [{ limit: 0 }, "limit", "from 1 to 500"],
    [{ limt: 5 }, "limt", 'did you mean "limit"'],
    [{ id: "abc", status: "STARTED" }, "status", "cannot be combined"],
  ])("refuses the list query %j with 400 naming %s", async (query, parameter, message) => {
    const response = await emulator.get(PATH, query);
    expect(response.status).toBe(400);
    expect(response.body.parameter).toBe(parameter);
    expect(response.body.message).toContain(message);
  });

  it("answers 404 for an id that does not exist", async () => {
    const response = await emulator.get(PATH, { id: "nosuchrequest" });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ parameter: "id" });
    expect(response.body.message).toContain("nosuchrequest");
  });

  it("derives ids from the seed and a counter: a reset replays the same ids", async () => {
    const before = [await submit({ viewer_id: ["viewer-000080"] }), await submit({ viewer_id: ["viewer-000081"] })];
    await emulator.control("POST", "reset");
    const after = [await submit({ viewer_id: ["viewer-000080"] }), await submit({ viewer_id: ["viewer-000081"] })];
    expect(after.map((response) => response.body.id)).toEqual(before.map((response) => response.body.id));
    expect(before[0]!.body.id).not.toBe(before[1]!.body.id);
  });

  it("removes a viewer's sessions from the sessions endpoints once its request is FINISHED, not before", async () => {
    const viewerSessions = async (viewerId: string) => {
      const response = await emulator.get("/insights/3.0/sessions/content/viewer", { viewer_id: viewerId });
      expect(response.status).toBe(200);
      return response.body.sessions as unknown[];
    };
    const sampledViewers = async () => {
      const response = await emulator.get("/insights/3.0/sessions/content", { limit: 500 });
      expect(response.status).toBe(200);
      return new Set(response.body.sessions.map((session: { viewer_id: string }) => session.viewer_id));
    };
    expect((await viewerSessions("viewer-000001")).length).toBeGreaterThan(0);
    expect(await sampledViewers()).toContain("viewer-000001");

    // The user id of the heavy viewer viewer-000001.
    await submit({ viewer_id: ["user-000001"] });
    await advance("PT4M59S");
    expect((await viewerSessions("viewer-000001")).length).toBeGreaterThan(0);
    expect(await sampledViewers()).toContain("viewer-000001");

    await advance("PT1S");
    expect(await viewerSessions("viewer-000001")).toEqual([]);
    const sampled = await sampledViewers();
    expect(sampled).not.toContain("viewer-000001");
    expect(sampled).toContain("viewer-000002");
    expect((await viewerSessions("viewer-000002")).length).toBeGreaterThan(0);
  });

  it("stops collecting a viewer's sessions at once after the request, before it FINISHES (spec 8)", async () => {
    const slow = await startTestEmulator({ piiTiming: { startAfterMs: 3_600_000, finishAfterMs: 3 * 86_400_000 } });
    try {
      const starts = async (days: number) => {
        const response = await slow.get("/insights/3.0/sessions/content/viewer", { viewer_id: "viewer-000001", days });
        expect(response.status).toBe(200);
        return response.body.sessions.map((session: { timestamps: { start: { epoch_ms: number } } }) => session.timestamps.start.epoch_ms) as number[];
      };
      const submitted = await slow.call("POST", "/pii-opt-out", { body: { viewer_id: ["viewer-000001"] } });
      expect(submitted.status).toBe(201);
      const requestedAt = Date.parse((await slow.control("GET", "clock")).body.now);
      await slow.control("POST", "clock", { advance: "P1D" });
      // The request is still STARTED, yet the heavy viewer's last day holds no new session.
      expect((await slow.get("/pii-opt-out", { id: submitted.body.id })).body.status).toBe("STARTED");
      expect(await starts(1)).toEqual([]);
      const earlier = await starts(2);
      expect(earlier.length).toBeGreaterThan(10);
      expect(Math.max(...earlier)).toBeLessThan(requestedAt);
    } finally {
      await slow.close();
    }
  });

  it("removes the sessions of opted-out viewers from alert timelines once the requests FINISH (spec 3.1)", async () => {
    const alerts = "/insights/2.6/ai-alerts/content-metrics";
    const ended = (await emulator.get(alerts, { status: "ended" })).body.alerts;
    const endOf = async (id: string) => (await emulator.get(`${alerts}/${id}`)).body.timeline.end;
    const before = await endOf(ended[0].id);
    expect(before.cumulative_sessions).toBeGreaterThan(0);
    // Every viewer of the world (3000), as user ids, 100 per request (spec 8).
    for (let first = 1; first <= 3000; first += 100) {
      const identifiers = Array.from({ length: 100 }, (_, index) => `user-${String(first + index).padStart(6, "0")}`);
      expect((await submit({ viewer_id: identifiers })).status).toBe(201);
    }
    await advance("PT4M59S");
    expect(await endOf(ended[0].id)).toEqual(before);
    await advance("PT1S");
    expect(await endOf(ended[0].id)).toMatchObject({ cumulative_sessions: 0, cumulative_total_uniques: 0, metric_value: 0 });
  });

  it("survives a state export and import with its status, identifiers and id counter", async () => {
    const created = await submit({ viewer_id: ["viewer-000090"] });
    await advance("PT2M");
    const exported = (await emulator.control("GET", "state")).body;
    await emulator.control("POST", "reset");
    expect((await emulator.control("POST", "state", exported)).status).toBe(200);
    expect(await getRequest(created.body.id)).toMatchObject({ status: "STARTED", identifiers: { viewer_id: ["viewer-000090"] } });
    expect((await submit({ viewer_id: ["viewer-000090"] })).status).toBe(400);
    const next = await submit({ viewer_id: ["viewer-000091"] });
    expect(next.body.id).not.toBe(created.body.id);
  });
});

describe("insights-emulator --pii-finish-after", () => {
  it("shortens ENQUEUED -> STARTED -> FINISHED to the milliseconds given, STARTED after a fifth of them", async () => {
    await withEmulatorCommand(["--pii-finish-after", "10000", "--clock", TEST_NOW, "--frozen"], async (url) => {
      const headers = { authorization: `Basic ${Buffer.from("dev:dev-secret").toString("base64")}`, "content-type": "application/json" };
      const created = (await (await fetch(`${url}${PATH}`, { method: "POST", headers, body: JSON.stringify({ viewer_id: ["viewer-000123"] }) })).json()) as { id: string };
      const status = async () => ((await (await fetch(`${url}${PATH}?id=${created.id}`, { headers })).json()) as { status: string }).status;
      const seen = [await status()];
      for (const advance of [1_999, 1, 7_999, 1]) {
        await fetch(`${url}/_emulator/clock`, { method: "POST", headers, body: JSON.stringify({ advance }) });
        seen.push(await status());
      }
      expect(seen).toEqual(["ENQUEUED", "ENQUEUED", "STARTED", "STARTED", "FINISHED"]);
    });
    const wrong = await refusedEmulatorCommand(["--pii-finish-after", "PT5M"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('--pii-finish-after must be a non-negative integer, got "PT5M"');
  });
});
