import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  captureDynamicResource, CheckFailedError, destroy, isSecret, ProviderCallError, refresh, secret, stateAfterFailure, UNKNOWN_VALUE, up,
  type CapturedDynamicResource, type Diagnostic, type PropertyMap, type ProviderHost, type ResourceState,
} from "../../engine";
import { matchesIdentifierSetDigest } from "../../provider/pii/digest";
import { DIALECT_ANSWERS, listedItems, type TestEmulator } from "../support/emulator";
import { failure } from "../support/failure";
import { startProviderFixture, type ProviderFixture } from "./fixture";

/**
 * PiiOptOutRequest through the real dynamic-provider host over gRPC, from the tsc build, against the
 * emulator whose clock the tests drive (spec 3.1: ENQUEUED after 0, STARTED after 1 min, FINISHED
 * after 5 min by default): what `pulumi up/refresh/destroy` would do (docs/dynamic-providers.md "Testing without the CLI").
 */
const MODULE = "dist/provider/index.js";
/** Fast polling: the emulator's clock is moved by the tests, not by waiting. */
const FAST = { pollIntervalSeconds: 0.05, waitTimeoutSeconds: 20 };

describe("PiiOptOutRequest through the dynamic-provider host", () => {
  let fixture: ProviderFixture;
  let emulator: TestEmulator;
  let host: ProviderHost;
  let providerText: string;
  /** Every identifier and address the tests used: none may ever appear in plain text. */
  const personal = new Set<string>();
  /** Error messages the tests saw, for the final plain-text scan. */
  const errors: string[] = [];

  const viewers = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}-${String(index).padStart(3, "0")}`);
  const remember = (values: readonly string[]) => {
    values.filter((value) => value !== "").forEach((value) => personal.add(value));
    return values;
  };
  /** The inputs the engine would send: personal lists are secrets, as the program side makes them. */
  const inputs = (name: string, args: Record<string, unknown>): PropertyMap => {
    // The deletion check after FINISHED has its own tests (pii-verification.test.ts): off here unless asked.
    const wire: PropertyMap = { verifyDeletion: false, ...args, resourceName: name, __provider: providerText };
    for (const property of ["viewerIds", "userIds", "notificationEmails"]) {
      if (Array.isArray(args[property])) wire[property] = secret(remember(args[property] as string[]));
    }
    return wire;
  };
  /** The journal position when the current test began (after the reset). */
  let testStart: number;
  /** The API requests the emulator answered since `mark`, by default since the test began. */
  const journal = (mark = testStart) => fixture.requestsSince(mark);
  const posts = () => journal().filter((entry) => entry.method === "POST" && entry.path === "/pii-opt-out");
  const stored = async (id: string) => (await emulator.get("/pii-opt-out", { id })).body as { identifiers: { viewer_id: string[] }; status: string };
  const submitDirectly = async (ids: string[]) => {
    const answer = await emulator.call("POST", "/pii-opt-out", { body: { viewer_id: remember(ids) } });
    expect(answer.status).toBe(201);
    return String(answer.body.id);
  };
  const advanceClock = (duration: string) => emulator.control("POST", "clock", { advance: duration });
  /** Waits for a line of this resource shown after `since` (index into host.diagnostics). */
  const shown = (name: string, text: string | RegExp, since: number): Promise<Diagnostic> =>
    host.waitForDiagnostic((line) => host.diagnostics.indexOf(line) >= since && line.message.includes(`PiiOptOutRequest "${name}"`)
      && (typeof text === "string" ? line.message.includes(text) : text.test(line.message)));
  /** What of a value is plain text: secret markers are replaced, as the engine encrypts them. */
  const plainText = (value: unknown): string =>
    JSON.stringify(value, (_key, member: unknown) => (isSecret(member) ? "[secret]" : member));
  const expectNoPersonalData = (text: string) => {
    expect(personal.size).toBeGreaterThan(0);
    for (const value of personal) expect(text, `"${value}" in plain text`).not.toContain(value);
  };
  const failureOf = async (attempt: Promise<unknown>): Promise<ProviderCallError> => {
    const error = await failure(attempt);
    expect(error).toBeInstanceOf(ProviderCallError);
    errors.push((error as ProviderCallError).message);
    return error as ProviderCallError;
  };

  beforeAll(async () => {
    const resource = {
      module: MODULE,
      exportName: "PiiOptOutRequest",
      args: ["forget", { viewerIds: remember(["capture-viewer-1", "capture-viewer-2"]), notificationEmails: remember(["capture@example.com"]) }],
    };
    let captured: CapturedDynamicResource;
    [fixture, captured] = await Promise.all([startProviderFixture(resource), captureDynamicResource(resource)]);
    ({ emulator, host } = fixture);
    // The provider of a resource made with this personal data, which the fixture's (of its worker's first capture) equals.
    providerText = captured.provider;
    expect(fixture.providerText).toBe(providerText);
    // The program passed plain lists: the resource made them secrets itself.
    expect(isSecret(captured.inputs.viewerIds)).toBe(true);
    expect(isSecret(captured.inputs.notificationEmails)).toBe(true);
    expect(captured.inputs.resourceName).toBe("forget");
    // And the engine is told to keep the same outputs only as secrets, whatever the provider returns.
    expect([...captured.additionalSecretOutputs].sort()).toEqual(["notificationEmails", "userIds", "viewerIds"]);
  });
  afterAll(() => fixture?.close());
  beforeEach(async () => {
    await emulator.control("POST", "reset");
    testStart = fixture.mark();
  });

  it("serializes a small provider that names its implementation and holds no personal data", () => {
    expect(providerText).toContain("pulumi-insights/dist/provider/resources/pii-opt-out-request/provider.js");
    expect(providerText.length).toBeLessThan(4_000);
    expectNoPersonalData(providerText);
  });

  it("follows ENQUEUED, STARTED and FINISHED with progress lines, then holds personal data only as secrets", async () => {
    const ids = ["life-viewer-2", "life-viewer-1"];
    const since = host.diagnostics.length;
    const pending = up(host, inputs("lifecycle", { viewerIds: ids, notificationEmails: ["dpo@example.com"], ...FAST }));
    expect((await shown("lifecycle", /waiting for FINISHED: 1 request: 1 ENQUEUED \(elapsed \d/, since)).severity).toBe("info");
    await advanceClock("PT2M");
    await shown("lifecycle", "1 request: 1 STARTED", since);
    await advanceClock("PT5M");
    const { state, operation } = await pending;
    await shown("lifecycle", /1 request: 1 FINISHED; done after/, since);

    expect(operation).toBe("create");
    const outputs = state.outputs;
    expect(outputs).toMatchObject({
      identifierKind: "viewer", identifierCount: 2, status: "FINISHED", batchCount: 1, batchesSubmitted: 1,
      previouslySubmitted: 0, untracked: 0, waitForCompletion: true, resourceName: "lifecycle",
      requests: [{ id: expect.any(String), status: "FINISHED", origin: "submitted", identifiers: 2, created: 2, ignored: 0 }],
    });
    expect(state.id).toMatch(/^pii-[0-9a-f]{16}$/);
    expect(outputs.viewerIds).toEqual(secret(["life-viewer-1", "life-viewer-2"]));
    // The host's check made the inputs secret too, and canonical (sorted).
    expect(state.inputs.viewerIds).toEqual(secret(["life-viewer-1", "life-viewer-2"]));
    expect(outputs.notificationEmails).toEqual(secret(["dpo@example.com"]));
    expect(outputs).not.toHaveProperty("userIds");
    // A reviewer holding the list confirms the set from the plain outputs; another set does not match.
    const salt = outputs.identifierDigestSalt as string;
    expect(matchesIdentifierSetDigest(outputs.identifierDigest as string, "viewer", ["life-viewer-1", "life-viewer-2"], salt)).toBe(true);
    expect(matchesIdentifierSetDigest(outputs.identifierDigest as string, "viewer", ["life-viewer-1"], salt)).toBe(false);
    expect(matchesIdentifierSetDigest(outputs.identifierDigest as string, "user", ["life-viewer-1", "life-viewer-2"], salt)).toBe(false);
    expectNoPersonalData(plainText(outputs));

    const requestId = (outputs.requests as Array<{ id: string }>)[0]!.id;
    expect((await stored(requestId)).identifiers.viewer_id).toEqual(["life-viewer-1", "life-viewer-2"]);
    expect(posts()).toHaveLength(1);
    // The service e-mailed the address when the request finished (spec 3.1, 6).
    const emails = (await emulator.control("GET", "emails")).body.emails as Array<{ request_id: string; to: string[] }>;
    expect(emails).toEqual([expect.objectContaining({ request_id: requestId, to: ["dpo@example.com"] })]);

    // Nothing is left to do: the next up leaves the resource alone, in any order of the identifiers.
    const again = await up(host, inputs("lifecycle", { viewerIds: [...ids].reverse(), notificationEmails: ["dpo@example.com"], ...FAST }), state);
    expect(again.operation).toBe("same");
  });

  it("submits 250 identifiers as three requests of at most 100, and refresh reads their states", async () => {
    const ids = viewers("bulk", 250);
    const declared = [...ids].reverse().concat(ids.slice(0, 3)); // any order, with repeats
    const { state } = await up(host, inputs("bulk", { viewerIds: declared, waitForCompletion: false }));
    expect(state.outputs).toMatchObject({ identifierCount: 250, batchCount: 3, batchesSubmitted: 3, status: "ENQUEUED", previouslySubmitted: 0 });
    const requests = state.outputs.requests as Array<{ id: string; created: number; origin: string }>;
    expect(requests.map((request) => [request.origin, request.created])).toEqual([["submitted", 100], ["submitted", 100], ["submitted", 50]]);
    const held = await Promise.all(requests.map(async (request) => (await stored(request.id)).identifiers.viewer_id));
    expect(held.map((list) => list.length)).toEqual([100, 100, 50]);
    expect(new Set(held.flat())).toEqual(new Set(ids));
    expect(posts()).toHaveLength(3);
    // Nothing moved at the service: a refresh finds nothing changed (the scheduled drift check relies on it).
    expect((await refresh(host, state))?.outputs).toEqual(state.outputs);

    await advanceClock("PT10M");
    const refreshed = await refresh(host, state);
    expect(refreshed?.outputs).toMatchObject({ status: "FINISHED" });
    expect((refreshed!.outputs.requests as Array<{ status: string }>).map((request) => request.status)).toEqual(["FINISHED", "FINISHED", "FINISHED"]);
    expect(posts()).toHaveLength(3);
    expectNoPersonalData(plainText(refreshed));
  });

  it("counts identifiers the service reports as previously submitted and follows the earlier request", async () => {
    const earlier = await submitDirectly(["again-viewer-1", "again-viewer-2"]);
    const since = host.diagnostics.length;
    const { state } = await up(host, inputs("again", { viewerIds: ["again-viewer-1", "again-viewer-2", "again-viewer-3", "again-viewer-4"], waitForCompletion: false }));
    const requests = state.outputs.requests as Array<{ id: string }>;
    expect(state.outputs).toMatchObject({
      previouslySubmitted: 2, untracked: 0, status: "ENQUEUED",
      requests: [
        { origin: "submitted", identifiers: 2, created: 2, ignored: 2, status: "ENQUEUED" },
        { id: earlier, origin: "adopted", identifiers: 2, status: "ENQUEUED" },
      ],
    });
    expect((await stored(requests[0]!.id)).identifiers.viewer_id).toEqual(["again-viewer-3", "again-viewer-4"]);
    await shown("again", `following earlier request(s) ${earlier}`, since);
    expect(posts()).toHaveLength(2); // the direct one and the resource's
  });

  it("adopts the earlier requests when the service rejects a request whose identifiers were all submitted before", async () => {
    const first = await submitDirectly(["adopt-viewer-1", "adopt-viewer-2"]);
    const second = await submitDirectly(["adopt-viewer-3"]);
    await advanceClock("PT2M");
    const since = host.diagnostics.length;
    const pending = up(host, inputs("adopt", { viewerIds: ["adopt-viewer-1", "adopt-viewer-2", "adopt-viewer-3"], ...FAST }));
    await shown("adopt", "2 requests: 2 STARTED", since);
    await advanceClock("PT5M");
    const { state } = await pending;
    expect(state.outputs).toMatchObject({ status: "FINISHED", previouslySubmitted: 3 });
    expect(state.outputs.requests).toEqual(expect.arrayContaining([
      // With the times the receipt shows (createdAt, finishedAt).
      expect.objectContaining({ id: first, status: "FINISHED", origin: "adopted", identifiers: 2, finishedAt: expect.any(String) }),
      expect.objectContaining({ id: second, status: "FINISHED", origin: "adopted", identifiers: 1, finishedAt: expect.any(String) }),
    ]));
    expect(state.outputs.requests).toHaveLength(2);
    // One POST was refused (400 all_identifiers_previously_submitted), and nothing else was sent.
    expect(posts().map((entry) => entry.status)).toEqual([201, 201, DIALECT_ANSWERS.allPreviouslySubmittedStatus]);
  });

  it("recognises an all-previously-submitted refusal of any status and body by reading the requests back", async () => {
    const earlier = await submitDirectly(["again-viewer-1", "again-viewer-2"]);
    // The contract shows neither the status nor the body of this refusal (docs/api.md 7): a 409 with
    // a text body stands for any of them. The listing shows both identifiers, so they are adopted.
    await emulator.control("POST", "faults", { method: "POST", path: "/pii-opt-out", status: 409, body: "these viewers were already submitted", times: 1 });
    const { state } = await up(host, inputs("again", { viewerIds: ["again-viewer-1", "again-viewer-2"], waitForCompletion: false }));
    expect(state.outputs).toMatchObject({ previouslySubmitted: 2, requests: [{ id: earlier, origin: "adopted", identifiers: 2 }] });
    expect(posts().map((entry) => entry.status)).toEqual([201, 409]);
  });

  it("reports a refusal as it came when the requests do not show every identifier as submitted before", async () => {
    await submitDirectly(["partly-viewer-1"]);
    await emulator.control("POST", "faults", { method: "POST", path: "/pii-opt-out", status: 422, body: { message: "viewer_id is not accepted" }, times: 1 });
    const failure = await failureOf(up(host, inputs("partly", { viewerIds: ["partly-viewer-1", "partly-viewer-2"], waitForCompletion: false })));
    expect(failure.message).toContain("POST /pii-opt-out failed with HTTP 422: viewer_id is not accepted");
    expect(posts().map((entry) => entry.status)).toEqual([201, 422]);
  });

  it("records the requests on a wait timeout, and the next up resumes waiting without submitting again", async () => {
    const declared = inputs("timeout", { viewerIds: ["slow-viewer-1", "slow-viewer-2"], pollIntervalSeconds: 0.05, waitTimeoutSeconds: 0.3 });
    const failure = await failureOf(up(host, declared));
    expect(failure.partial).toBeDefined();
    const state = stateAfterFailure(failure, declared) as ResourceState;
    const [request] = state.outputs.requests as Array<{ id: string; status: string }>;
    expect(state.outputs).toMatchObject({ status: "ENQUEUED", batchesSubmitted: 1 });
    expect(failure.message).toMatch(/PiiOptOutRequest "timeout": requests are not FINISHED after waiting .*recorded in the state/);
    expect(failure.message).toContain(request!.id);
    expect(failure.message).toMatch(/next `pulumi up` resumes waiting and submits nothing again/);
    expect(failure.partial!.properties.__provider).toBe(providerText);
    expectNoPersonalData(plainText([failure.partial, failure.message]));

    await advanceClock("PT10M");
    const since = host.diagnostics.length;
    const resumed = await up(host, { ...declared, waitTimeoutSeconds: 20 }, state);
    expect(resumed.operation).toBe("update");
    expect(resumed.diff?.replaces).toEqual([]);
    expect(resumed.state.id).toBe(state.id);
    expect(resumed.state.outputs).toMatchObject({ status: "FINISHED", requests: [{ id: request!.id, status: "FINISHED" }] });
    await shown("timeout", "the update resumes", since);
    expect(posts()).toHaveLength(1);
  });

  it("keeps what a failure half-way made, and the next up submits only the batches not handled", async () => {
    const ids = viewers("half", 250);
    const earlier = await submitDirectly(["half-150"]);
    // Batch 2 holds a previously submitted identifier: following it needs the list, which fails once.
    await emulator.control("POST", "faults", { method: "GET", path: "/pii-opt-out", status: 400, times: 1 });
    const declared = inputs("half", { viewerIds: ids, waitForCompletion: false });
    const failure = await failureOf(up(host, declared));
    const state = stateAfterFailure(failure, declared) as ResourceState;
    expect(state.outputs).toMatchObject({ status: "SUBMITTING", batchCount: 3, batchesSubmitted: 1 });
    const made = (state.outputs.requests as Array<{ id: string }>).map((request) => request.id);
    expect(made).toHaveLength(2);
    expect(failure.message).toMatch(/PiiOptOutRequest "half": create failed: GET \/pii-opt-out failed with HTTP 400.*recorded in the state .*1\/3 batches submitted.*resumes from there/);

    const resumed = await up(host, declared, state);
    expect(resumed.operation).toBe("update");
    expect(resumed.state.outputs).toMatchObject({ status: "ENQUEUED", batchesSubmitted: 3, previouslySubmitted: 1, untracked: 0 });
    expect(resumed.state.outputs.requests).toEqual([
      expect.objectContaining({ id: made[0], origin: "submitted", created: 100 }),
      expect.objectContaining({ id: made[1], origin: "submitted", created: 99, ignored: 1 }),
      expect.objectContaining({ id: earlier, origin: "adopted", identifiers: 1 }),
      expect.objectContaining({ origin: "submitted", created: 50 }),
    ]);
    // Batch 2 was sent again (its outcome was not recorded) and refused as all previously submitted:
    // the service made one request per batch and nothing twice.
    expect(posts().map((entry) => entry.status)).toEqual([201, 201, 201, DIALECT_ANSWERS.allPreviouslySubmittedStatus, 201]);
    const listed = listedItems((await emulator.get("/pii-opt-out")).body, "requests") as Array<{ identifiers: { viewer_id: string[] } }>;
    expect(listed.flatMap((request) => request.identifiers.viewer_id).sort()).toEqual(ids);
  });

  it("reconciles a submission whose answer was lost after the server committed, without a duplicate", async () => {
    await emulator.control("POST", "faults", { method: "POST", path: "/pii-opt-out", reset: "after-write", times: 1 });
    const since = host.diagnostics.length;
    const { state } = await up(host, inputs("lost", { viewerIds: ["lost-viewer-1", "lost-viewer-2", "lost-viewer-3"], waitForCompletion: false }));
    await shown("lost", "nothing is sent again", since);
    expect(posts()).toEqual([expect.objectContaining({ reset: true })]);
    const listed = listedItems((await emulator.get("/pii-opt-out")).body, "requests") as Array<{ id: string }>;
    expect(listed).toHaveLength(1);
    expect(state.outputs).toMatchObject({ requests: [{ id: listed[0]!.id, origin: "submitted", identifiers: 3, created: 3, ignored: 0 }] });
  });

  it("after a reset, sends nothing again and fails saying the outcome is unknown; the next up submits it once", async () => {
    await emulator.control("POST", "faults", { method: "POST", path: "/pii-opt-out", reset: "before", times: 1 });
    const attempt = await up(host, inputs("dropped", { viewerIds: ["dropped-viewer-1"], waitForCompletion: false })).catch((error: unknown) => error);
    expect(attempt).toBeInstanceOf(ProviderCallError);
    const message = (attempt as ProviderCallError).message;
    errors.push(message);
    expect(message).toContain("the outcome of the submission of batch 1/1 is unknown");
    expect(message).toContain("it was not sent again: the next `pulumi up` submits the batch again");
    expect(message).not.toContain("dropped-viewer-1");
    expect(posts().map((entry) => entry.reset ?? false)).toEqual([true]);
    // Nothing was made, so the engine keeps no state and the next up creates again.
    expect(stateAfterFailure(attempt, {})).toBeUndefined();
    const { state } = await up(host, inputs("dropped", { viewerIds: ["dropped-viewer-1"], waitForCompletion: false }));
    expect(posts().map((entry) => entry.reset ?? false)).toEqual([true, false]);
    const listed = listedItems((await emulator.get("/pii-opt-out")).body, "requests") as Array<{ id: string }>;
    expect(listed).toHaveLength(1);
    expect((state.outputs.requests as Array<{ id: string }>).map((request) => request.id)).toEqual(listed.map((request) => request.id));
  });

  it("replaces on a change of identifiers or addresses; the replacement submits only the new ones; delete sends nothing", async () => {
    const base = { viewerIds: ["swap-viewer-1", "swap-viewer-2"], notificationEmails: ["swap@example.com"], waitForCompletion: false };
    const first = await up(host, inputs("swap", base));
    const [old] = first.state.outputs.requests as Array<{ id: string }>;

    const emailsChanged = await host.diff(first.state.id, first.state.outputs, inputs("swap", { ...base, notificationEmails: ["other@example.com"] }));
    expect(emailsChanged).toMatchObject({ changes: "some", replaces: ["notificationEmails"], deleteBeforeReplace: false });
    const unknownIds = await host.diff(first.state.id, first.state.outputs, { ...inputs("swap", base), viewerIds: UNKNOWN_VALUE });
    expect(unknownIds).toMatchObject({ changes: "some", replaces: ["viewerIds"] });
    const reordered = await host.diff(first.state.id, first.state.outputs, inputs("swap", { ...base, viewerIds: [...base.viewerIds].reverse() }));
    expect(reordered.changes).toBe("none");
    const settingChanged = await host.diff(first.state.id, first.state.outputs, inputs("swap", { ...base, waitTimeoutSeconds: 60 }));
    expect(settingChanged).toMatchObject({ changes: "some", replaces: [] });

    const replacing = fixture.mark();
    const since = host.diagnostics.length;
    const second = await up(host, inputs("swap", { ...base, viewerIds: ["swap-viewer-3", ...base.viewerIds] }), first.state);
    expect(second.operation).toBe("replace");
    expect(second.diff?.replaces).toEqual(["viewerIds"]);
    expect(second.state.id).not.toBe(first.state.id);
    const requests = second.state.outputs.requests as Array<{ id: string; origin: string }>;
    expect(second.state.outputs).toMatchObject({ identifierCount: 3, previouslySubmitted: 2 });
    expect(requests).toEqual([
      expect.objectContaining({ origin: "submitted", created: 1, ignored: 2 }),
      expect.objectContaining({ id: old!.id, origin: "adopted", identifiers: 2 }),
    ]);
    // The service made a request for the new identifier only; the old one keeps the others.
    expect((await stored(requests[0]!.id)).identifiers.viewer_id).toEqual(["swap-viewer-3"]);
    expect(second.state.outputs.identifierDigest).not.toBe(first.state.outputs.identifierDigest);
    // Deleting the replaced resource said so and sent nothing (a deletion cannot be withdrawn).
    await shown("swap", new RegExp(`removed from the state only: .* keeps processing ${old!.id}`), since);
    expect(journal(replacing).filter((entry) => entry.method !== "GET" && entry.method !== "POST")).toEqual([]);

    const destroying = fixture.mark();
    await destroy(host, second.state);
    expect(journal(destroying)).toEqual([]);
    expect(listedItems((await emulator.get("/pii-opt-out")).body, "requests")).toHaveLength(2);
  });

  it("refuses wrong inputs in check, naming the property without quoting personal data", async () => {
    const attempt = up(host, inputs("invalid", {
      viewerIds: ["ok-viewer", ""], userIds: ["user-000001"], notificationEmails: ["not-an-address-check"], pollIntervalSeconds: 0,
    }));
    const refused = await failure(attempt);
    expect(refused).toBeInstanceOf(CheckFailedError);
    const reasons = (refused as CheckFailedError).failures.map((item) => `${item.property}: ${item.reason}`);
    expect(reasons).toEqual(expect.arrayContaining([
      "viewerIds: viewerIds[1]: must be a non-empty string",
      "notificationEmails: notificationEmails[0]: must be an e-mail address",
      "pollIntervalSeconds: pollIntervalSeconds: must be at least 0.01 seconds",
      expect.stringMatching(/^viewerIds: give viewerIds or userIds, not both/),
    ]));
    errors.push(...reasons);
    const mixed = await host.check({}, inputs("mixed", { viewerIds: ["mixed-viewer-2", "user-000044", "mixed-viewer-3"], waitForCompletoin: false }));
    const mixedReasons = mixed.failures.map((item) => `${item.property}: ${item.reason}`);
    expect(mixedReasons).toEqual([
      'waitForCompletoin: waitForCompletoin: unknown property; did you mean "waitForCompletion"?',
      'viewerIds: viewerIds[1]: user ids ("user-" prefix) in viewerIds; a request holds one kind (docs/api.md 11.3): move them to a PiiOptOutRequest with userIds',
    ]);
    const users = await host.check({}, inputs("mixed", { userIds: ["user-000045", "mixed-viewer-4"] }));
    expect(users.failures.map((item) => item.reason)).toEqual([
      'userIds[1]: viewer ids (no "user-" prefix) in userIds; a request holds one kind (docs/api.md 11.3): move them to a PiiOptOutRequest with viewerIds',
    ]);
    errors.push(...mixedReasons);
    const empty = await host.check({}, inputs("invalid", { viewerIds: [] }));
    expect(empty.failures.map((item) => item.reason)).toEqual(["viewerIds: must list at least one identifier"]);
    expect(journal()).toEqual([]);
  });

  it("redacts identifiers the service quotes in an error, and never shows personal data in plain text", async () => {
    // The emulator refuses mixed kinds quoting one identifier of each kind (spec 4.10). Check refuses
    // them first, so the create is called as an engine would only with inputs an older check passed.
    const failure = await failureOf(host.create(inputs("mixed", { viewerIds: ["mixed-viewer-1", "user-000042"], waitForCompletion: false })));
    expect(failure.partial).toBeUndefined(); // nothing was made: nothing stays in the state
    expect(failure.message).toMatch(DIALECT_ANSWERS.errorsNameTheParameter
      ? /PiiOptOutRequest "mixed": create failed: POST \/pii-opt-out failed with HTTP 400 \(mixed_identifier_kinds\)/
      : /PiiOptOutRequest "mixed": create failed: POST \/pii-opt-out failed with HTTP 400: .*viewer ids/);
    expect(failure.message).toContain("[redacted]");

    const { state } = await up(host, inputs("scan", { userIds: ["user-000043"], notificationEmails: ["scan@example.com"], waitForCompletion: false }));
    expect(state.outputs).toMatchObject({ identifierKind: "user", userIds: secret(["user-000043"]) });

    // Everything the engine would show or store in plain text, from every test of this file.
    await host.waitForDiagnostic((line) => line.message.includes('PiiOptOutRequest "scan"'));
    expect(host.stdout.length).toBeGreaterThan(0);
    expectNoPersonalData(plainText([host.stdout, host.stderr, host.diagnostics, errors, state]));
  });
});
