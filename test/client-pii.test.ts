import { describe, expect, it } from "vitest";
import { ApiError, BadRequestError, InternalServerError, NotFoundError } from "../provider/client";
import { DIALECT_ANSWERS } from "./support/emulator";
import { expectRefusedBeforeSending, journalMark, requestsSince, useQueryFamilies } from "./support/query-families";
import { failure } from "./support/failure";

// The PII opt-out family of the typed client (spec 4.10, 3.1) against the emulator over loopback.

// Retries on, without waiting: the retry tests count attempts in the journal. Each test starts
// from a reset emulator: no requests, no fault rules, the clock at TEST_NOW.
const context = useQueryFamilies({ retry: { baseDelayMs: 1, sleep: async () => {} } }, { resetEach: true });

describe("submit", () => {
  it("submits identifiers and notification e-mails, and reads them back", async () => {
    const since = await journalMark(context.emulator);
    const answer = await context.client.pii.submit({ identifiers: ["h5-viewer-1", "h5-viewer-2"], notificationEmails: ["privacy@example.com"] });
    expect(answer).toEqual({ id: expect.stringMatching(/^[A-Za-z0-9]+$/), created: 2, ignored: 0 });
    expect((await requestsSince(context.emulator, since)).map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual(["POST /pii-opt-out 201"]);
    const request = await context.client.pii.get({ id: answer.id });
    expect(request).toMatchObject({
      id: answer.id,
      status: "ENQUEUED",
      identifiers: { viewer_id: ["h5-viewer-1", "h5-viewer-2"] },
      "@notification_email": ["privacy@example.com"],
      creator: "dev@example.com",
    });
  });

  it("counts identifiers submitted before as ignored", async () => {
    await context.client.pii.submit({ identifiers: ["h5-repeat-1"] });
    expect(await context.client.pii.submit({ identifiers: ["h5-repeat-1", "h5-repeat-2"] })).toMatchObject({ created: 1, ignored: 1 });
  });

  it("surfaces the rejection of an all-repeated submission once, without retrying the POST", async () => {
    await context.client.pii.submit({ identifiers: ["h5-twice"] });
    const since = await journalMark(context.emulator);
    const error = await failure(context.client.pii.submit({ identifiers: ["h5-twice"] }));
    // Its status is not shown by the contract (docs/api.md 7): the client keeps whatever came.
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: DIALECT_ANSWERS.allPreviouslySubmittedStatus });
    expect(await requestsSince(context.emulator, since)).toHaveLength(1);
  });

  it("never retries a POST that met a 503", async () => {
    await context.emulator.control("POST", "faults", { method: "POST", path: "/pii-opt-out", status: 503, times: 3 });
    const since = await journalMark(context.emulator);
    const error = await failure(context.client.pii.submit({ identifiers: ["h5-unavailable"] }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, attempts: 1 });
    expect(await requestsSince(context.emulator, since)).toHaveLength(1);
  });

  it("passes the server's refusal of mixed identifier kinds through", async () => {
    const error = await failure(context.client.pii.submit({ identifiers: ["user-000001", "h5-viewer-mixed"] }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain("viewer ids");
    if (DIALECT_ANSWERS.errorsNameTheParameter) expect(error).toMatchObject({ parameter: "viewer_id" });
  });

  const tooMany = Array.from({ length: 101 }, (_, index) => `h5-many-${index}`);
  it.each([
    ["101 identifiers", () => context.client.pii.submit({ identifiers: tooMany }), "identifiers", /at most 100 identifiers.*got 101.*split/],
    ["no identifiers", () => context.client.pii.submit({ identifiers: [] }), "identifiers", /at least one/],
    ["an empty identifier", () => context.client.pii.submit({ identifiers: [""] }), "identifiers[0]", /at least 1 character|>=1 characters|empty/],
    ["a notification address that is not an e-mail", () => context.client.pii.submit({ identifiers: ["h5-x"], notificationEmails: ["not-an-email"] }), "notificationEmails[0]", /e-?mail/i],
    ["the wire name viewer_id", () => context.client.pii.submit({ viewer_id: ["h5-x"] } as never), "params.viewer_id", /is not an argument of this method.*"identifiers"/],
    ["a start date that does not exist", () => context.client.pii.list({ start: "2026-11-31" }), "start", /YYYY-MM-DD/],
    ["an end before the start", () => context.client.pii.list({ start: "2026-11-20", end: "2026-11-19" }), "end", /on or after its start/],
    ["an unknown status", () => context.client.pii.list({ status: ["DONE" as "FINISHED"] }), "status[0]", /"DONE".*"ENQUEUED", "STARTED", "FINISHED"/],
    ["a fractional limit", () => context.client.pii.list({ limit: 1.5 }), "limit", /int/],
    ["an empty id", () => context.client.pii.get({ id: "" }), "id", /at least 1 character|>=1 characters|empty/],
    ["a misspelt params key", () => context.client.pii.get({ idd: "h5-x" } as never), "params.idd", /did you mean "id"/],
    ["the old positional form", () => context.client.pii.get("h5-x" as never), "params", /must be an object of named arguments/],
  ])("refuses %s before sending, naming what to change", (_case, call, path, message) =>
    expectRefusedBeforeSending(context.emulator, call, path, message));
});

describe("get and list", () => {
  it("follows a request through ENQUEUED, STARTED and FINISHED (spec 3.1)", async () => {
    const { id } = await context.client.pii.submit({ identifiers: ["h5-lifecycle"] });
    expect((await context.client.pii.get({ id: id })).status).toBe("ENQUEUED");
    await context.emulator.control("POST", "clock", { advance: "PT2M" });
    expect((await context.client.pii.get({ id: id })).status).toBe("STARTED");
    await context.emulator.control("POST", "clock", { advance: "PT10M" });
    const finished = await context.client.pii.get({ id: id });
    expect(finished.status).toBe("FINISHED");
    expect(finished.updated_at).toEqual(expect.any(String));
    expect((await context.client.pii.list({ status: ["FINISHED"] })).map((request) => request.id)).toContain(id);
  });

  it("answers NotFoundError for an unknown id", async () => {
    const error = await failure(context.client.pii.get({ id: "nosuchrequest" }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, path: "/pii-opt-out" });
    // The path in the message leaves the query out (queries can carry viewer ids); it stays in `query`.
    expect((error as Error).message).toMatch(/^GET \/pii-opt-out failed with HTTP 404/);
    expect(error).toMatchObject({ query: "id=nosuchrequest" });
  });

  it("lists with limit, creation range and status, sent as the spec names them", async () => {
    await context.client.pii.submit({ identifiers: ["h5-list-1"] });
    await context.client.pii.submit({ identifiers: ["h5-list-2"] });
    const all = await context.client.pii.list();
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(all.every((request) => request.status === "ENQUEUED" || request.status === "STARTED" || request.status === "FINISHED")).toBe(true);
    expect(await context.client.pii.list({ limit: 1 })).toHaveLength(1);
    expect((await context.client.pii.list({ start: "2026-11-20", end: "2026-11-20" })).length).toBe(all.length);
    expect(await context.client.pii.list({ end: "2026-11-19" })).toEqual([]);
    expect(await context.client.pii.list({ status: ["STARTED", "FINISHED"] })).toEqual([]);

    const since = await journalMark(context.emulator);
    await context.client.pii.list({ status: ["ENQUEUED", "STARTED"], limit: 5 });
    const [entry] = await requestsSince(context.emulator, since);
    expect(new URLSearchParams(entry!.query).get("status")).toBe("ENQUEUED,STARTED");
  });

  it("retries a GET that met a 503", async () => {
    await context.emulator.control("POST", "faults", { method: "GET", path: "/pii-opt-out", status: 503, times: 2 });
    const since = await journalMark(context.emulator);
    await context.client.pii.list({ limit: 1 });
    expect((await requestsSince(context.emulator, since)).map((entry) => entry.status)).toEqual([503, 503, DIALECT_ANSWERS.piiReadStatus]);
  });
});
