import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ArgumentError, BadRequestError, InsightsClient, InternalServerError, NotFoundError } from "../provider/client";
import { journalMark, requestsSince, useQueryFamilies } from "./support/query-families";
import { TEST_NOW, type TestEmulator } from "./support/emulator";

// The PII opt-out family of the typed client (spec 4.10, 3.1) against the emulator over loopback.

// Retries on, without waiting: the retry tests count attempts in the journal.
const context = useQueryFamilies({ retry: { baseDelayMs: 1, sleep: async () => {} } });
let emulator: TestEmulator;
let client: InsightsClient;

beforeAll(() => {
  ({ emulator, client } = context);
});
afterEach(async () => {
  await emulator.control("DELETE", "faults");
  await emulator.control("POST", "clock", { set: TEST_NOW });
});

/** The error a call rejects with (the test fails if the call succeeds). */
const failure = (call: Promise<unknown>): Promise<unknown> => call.then(() => expect.fail("expected the call to fail"), (error: unknown) => error);

describe("submit", () => {
  it("submits identifiers and notification e-mails, and reads them back", async () => {
    const since = await journalMark(emulator);
    const answer = await client.pii.submit({ identifiers: ["h5-viewer-1", "h5-viewer-2"], notificationEmails: ["privacy@example.com"] });
    expect(answer).toEqual({ id: expect.stringMatching(/^[A-Za-z0-9]+$/), created: 2, ignored: 0 });
    expect((await requestsSince(emulator, since)).map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual(["POST /pii-opt-out 201"]);
    const request = await client.pii.get({ id: answer.id });
    expect(request).toMatchObject({
      id: answer.id,
      status: "ENQUEUED",
      identifiers: { viewer_id: ["h5-viewer-1", "h5-viewer-2"] },
      "@notification_email": ["privacy@example.com"],
      creator: "dev@example.com",
    });
  });

  it("counts identifiers submitted before as ignored", async () => {
    await client.pii.submit({ identifiers: ["h5-repeat-1"] });
    expect(await client.pii.submit({ identifiers: ["h5-repeat-1", "h5-repeat-2"] })).toMatchObject({ created: 1, ignored: 1 });
  });

  it("surfaces the rejection of an all-repeated submission once, without retrying the POST", async () => {
    await client.pii.submit({ identifiers: ["h5-twice"] });
    const since = await journalMark(emulator);
    const error = await failure(client.pii.submit({ identifiers: ["h5-twice"] }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(await requestsSince(emulator, since)).toHaveLength(1);
  });

  it("never retries a POST that met a 503", async () => {
    await emulator.control("POST", "faults", { method: "POST", path: "/pii-opt-out", status: 503, times: 3 });
    const since = await journalMark(emulator);
    const error = await failure(client.pii.submit({ identifiers: ["h5-unavailable"] }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, attempts: 1 });
    expect(await requestsSince(emulator, since)).toHaveLength(1);
  });

  it("passes the server's refusal of mixed identifier kinds through", async () => {
    const error = await failure(client.pii.submit({ identifiers: ["user-000001", "h5-viewer-mixed"] }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ parameter: "viewer_id" });
  });

  it("checks the arguments before sending, naming what to change", async () => {
    const since = await journalMark(emulator);
    const tooMany = Array.from({ length: 101 }, (_, index) => `h5-many-${index}`);
    const cases: Array<[() => Promise<unknown>, string, RegExp]> = [
      [() => client.pii.submit({ identifiers: tooMany }), "identifiers", /at most 100 identifiers.*got 101.*split/],
      [() => client.pii.submit({ identifiers: [] }), "identifiers", /at least one/],
      [() => client.pii.submit({ identifiers: [""] }), "identifiers[0]", /./],
      [() => client.pii.submit({ identifiers: ["h5-x"], notificationEmails: ["not-an-email"] }), "notificationEmails[0]", /./],
      [() => client.pii.submit({ viewer_id: ["h5-x"] } as never), "params.viewer_id", /is not an argument of this method.*"identifiers"/],
      [() => client.pii.list({ start: "2026-11-31" }), "start", /YYYY-MM-DD/],
      [() => client.pii.list({ start: "2026-11-20", end: "2026-11-19" }), "end", /on or after its start/],
      [() => client.pii.list({ status: ["DONE" as "FINISHED"] }), "status[0]", /./],
      [() => client.pii.list({ limit: 1.5 }), "limit", /./],
      [() => client.pii.get({ id: "" }), "id", /./],
      [() => client.pii.get({ idd: "h5-x" } as never), "params.idd", /did you mean "id"/],
      [() => client.pii.get("h5-x" as never), "params", /must be an object of named arguments/],
    ];
    for (const [call, path, message] of cases) {
      const error = await failure(call());
      expect(error, path).toBeInstanceOf(ArgumentError);
      expect((error as ArgumentError).path, path).toBe(path);
      expect((error as ArgumentError).message, path).toMatch(message);
    }
    expect(await requestsSince(emulator, since)).toEqual([]);
  });
});

describe("get and list", () => {
  it("follows a request through ENQUEUED, STARTED and FINISHED (spec 3.1)", async () => {
    const { id } = await client.pii.submit({ identifiers: ["h5-lifecycle"] });
    expect((await client.pii.get({ id: id })).status).toBe("ENQUEUED");
    await emulator.control("POST", "clock", { advance: "PT2M" });
    expect((await client.pii.get({ id: id })).status).toBe("STARTED");
    await emulator.control("POST", "clock", { advance: "PT10M" });
    const finished = await client.pii.get({ id: id });
    expect(finished.status).toBe("FINISHED");
    expect(finished.updated_at).toEqual(expect.any(String));
    expect((await client.pii.list({ status: ["FINISHED"] })).map((request) => request.id)).toContain(id);
  });

  it("answers NotFoundError for an unknown id", async () => {
    const error = await failure(client.pii.get({ id: "nosuchrequest" }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, path: "/pii-opt-out" });
    // The path in the message leaves the query out (queries can carry viewer ids); it stays in `query`.
    expect((error as Error).message).toMatch(/^GET \/pii-opt-out failed with HTTP 404/);
    expect(error).toMatchObject({ query: "id=nosuchrequest" });
  });

  it("lists with limit, creation range and status, sent as the spec names them", async () => {
    await client.pii.submit({ identifiers: ["h5-list-1"] });
    await client.pii.submit({ identifiers: ["h5-list-2"] });
    const all = await client.pii.list();
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(all.every((request) => request.status === "ENQUEUED" || request.status === "STARTED" || request.status === "FINISHED")).toBe(true);
    expect(await client.pii.list({ limit: 1 })).toHaveLength(1);
    expect((await client.pii.list({ start: "2026-11-20", end: "2026-11-20" })).length).toBe(all.length);
    expect(await client.pii.list({ end: "2026-11-19" })).toEqual([]);
    expect(await client.pii.list({ status: ["STARTED", "FINISHED"] })).toEqual([]);

    const since = await journalMark(emulator);
    await client.pii.list({ status: ["ENQUEUED", "STARTED"], limit: 5 });
    const [entry] = await requestsSince(emulator, since);
    expect(new URLSearchParams(entry!.query).get("status")).toBe("ENQUEUED,STARTED");
  });

  it("retries a GET that met a 503", async () => {
    await emulator.control("POST", "faults", { method: "GET", path: "/pii-opt-out", status: 503, times: 2 });
    const since = await journalMark(emulator);
    await client.pii.list({ limit: 1 });
    expect((await requestsSince(emulator, since)).map((entry) => entry.status)).toEqual([503, 503, 200]);
  });
});
