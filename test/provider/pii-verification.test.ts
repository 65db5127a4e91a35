import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSecret, refresh, secret, up, type PropertyMap, type ProviderHost } from "../../engine";
import { matchesIdentifierSetDigest } from "../../provider/pii/digest";
import type { TestEmulator } from "../support/emulator";
import { startProviderFixture, type ProviderFixture } from "./fixture";

/**
 * The deletion check and the receipt of a PiiOptOutRequest (docs/resources.md "PiiOptOutRequest") through the
 * real dynamic-provider host: after FINISHED each viewer id's sessions are asked for over the 30-day
 * retention window (spec 8); a viewer whose data the emulator keeps (emulator/README.md "Fault
 * rules", PII deletion) is reported by position and salted digest, never by value.
 */
const VIEWER_SESSIONS_PATH = "/insights/3.0/sessions/content/viewer";
/** Requests finish at once; the wait polls fast. */
const FAST = { pollIntervalSeconds: 0.05, waitTimeoutSeconds: 20 };
/** Viewers of the emulator's data world (emulator/README.md "Viewers": viewer-000001 to viewer-003000). */
const viewers = (first: number, count: number) => Array.from({ length: count }, (_, index) => `viewer-${String(first + index).padStart(6, "0")}`);

describe("PiiOptOutRequest deletion check and receipt", () => {
  let fixture: ProviderFixture;
  let emulator: TestEmulator;
  let host: ProviderHost;
  const personal = new Set<string>();

  const inputs = (name: string, ids: string[], extra: Record<string, unknown> = {}): PropertyMap => {
    ids.forEach((id) => personal.add(id));
    return { ...FAST, ...extra, viewerIds: secret(ids), resourceName: name, __provider: fixture.providerText };
  };
  const plainText = (value: unknown): string => JSON.stringify(value, (_key, member: unknown) => (isSecret(member) ? "[secret]" : member));
  const expectNoIdentifier = (text: string) => {
    expect(personal.size).toBeGreaterThan(0);
    for (const id of personal) expect(text, `${id} in plain text`).not.toContain(id);
  };
  const lines = (name: string) => host.diagnostics.filter((line) => line.message.startsWith(`PiiOptOutRequest "${name}": `)).map((line) => line.message);

  beforeAll(async () => {
    fixture = await startProviderFixture({
      module: "dist/provider/index.js",
      exportName: "PiiOptOutRequest",
      args: ["forget", { viewerIds: ["viewer-000001"] }],
      emulatorOptions: { piiTiming: { startAfterMs: 0, finishAfterMs: 0 } },
    });
    ({ emulator, host } = fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it("ends 150 viewer ids FINISHED, every one checked clean, with a receipt", async () => {
    const ids = viewers(101, 150);
    // They had data before: the check has something to find gone.
    const before = await emulator.get(VIEWER_SESSIONS_PATH, { viewer_id: ids[0]!, days: 30 });
    expect(before.body.sessions.length).toBeGreaterThan(0);
    const mark = fixture.mark();
    const { state } = await up(host, inputs("forget-150", ids));
    expect(state.outputs.status).toBe("FINISHED");
    expect(state.outputs.verification).toMatchObject({ checked: 150, clean: 150, stillPresent: 0, notVerifiable: 0, stillPresentIdentifiers: [] });
    // One read per identifier; besides, the preview's check of the viewer module asked once for a
    // viewer of its own, so that it reads nobody's data (docs/configuration.md "What a preview checks of each account").
    const viewersRead = fixture.requestsSince(mark).filter((entry) => entry.path === VIEWER_SESSIONS_PATH).map((entry) => new URLSearchParams(entry.query).get("viewer_id"));
    expect(viewersRead.filter((viewer) => viewer === "pulumi-insights-connection-check").length).toBeLessThanOrEqual(1);
    expect(viewersRead.filter((viewer) => viewer !== "pulumi-insights-connection-check").sort()).toEqual(ids);
    const receipt = state.outputs.receipt as Record<string, any>;
    expect(receipt).toMatchObject({
      format: "pulumi-insights/pii-opt-out-receipt@1",
      status: "FINISHED",
      identifiers: { kind: "viewer", count: 150, created: 150, previouslySubmitted: 0, digest: state.outputs.identifierDigest, digestSalt: state.outputs.identifierDigestSalt },
      verification: state.outputs.verification,
    });
    expect(receipt.generatedBy).toMatch(/^pulumi-insights\/\d+\.\d+\.\d+/);
    // Spec 4.10: at most 100 identifiers per request.
    expect(receipt.requests.map((request: { identifiers: number; status: string }) => [request.identifiers, request.status])).toEqual([[100, "FINISHED"], [50, "FINISHED"]]);
    for (const request of receipt.requests) expect(Date.parse(request.finishedAt)).toBeGreaterThanOrEqual(Date.parse(request.createdAt));
    expect(lines("forget-150")).toContain('PiiOptOutRequest "forget-150": verification: 150 of 150 checked identifiers clean');
    expectNoIdentifier(plainText(state));
    // 150 requests to an emulator that scans 30 days of sessions for each: generous on a busy machine.
  }, 120_000);

  it("reports a viewer whose data is kept by position and digest, as a warning, never by value", async () => {
    await emulator.control("POST", "pii-deletion-faults", { keepViewers: 1 });
    const ids = viewers(301, 10);
    const { state } = await up(host, inputs("forget-kept", ids));
    expect(state.outputs.status).toBe("FINISHED");
    const verification = state.outputs.verification as { clean: number; stillPresent: number; stillPresentIdentifiers: Array<{ position: number; digest: string }> };
    expect(verification).toMatchObject({ checked: 10, clean: 9, stillPresent: 1, notVerifiable: 0 });
    // The fault keeps the first viewer of the request, which is the first of the sorted list.
    expect(verification.stillPresentIdentifiers.map((entry) => entry.position)).toEqual([0]);
    const [kept] = verification.stillPresentIdentifiers;
    expect(matchesIdentifierSetDigest(kept!.digest, "viewer", [ids[0]!], String(state.outputs.identifierDigestSalt))).toBe(true);
    expect(matchesIdentifierSetDigest(kept!.digest, "viewer", [ids[1]!], String(state.outputs.identifierDigestSalt))).toBe(false);
    expect(lines("forget-kept")).toContain(
      `PiiOptOutRequest "forget-kept": verification: 9 of 10 checked identifiers clean; warning: 1 still present: position 0 (${kept!.digest}) of the sorted list: the service may still be deleting, \`pulumi refresh\` checks again`,
    );
    // No identifier in plain text anywhere: the state, every line the host printed.
    expectNoIdentifier(plainText(state));
    expectNoIdentifier(host.diagnostics.map((line) => line.message).join("\n"));
  });

  it("checks again on refresh: data deleted late shows as still present, then clean", async () => {
    await emulator.control("POST", "pii-deletion-faults", { lagMs: 120_000 });
    const ids = viewers(401, 3);
    const { state } = await up(host, inputs("forget-late", ids));
    expect(state.outputs.verification).toMatchObject({ checked: 3, clean: 0, stillPresent: 3 });
    await emulator.control("POST", "clock", { advance: "PT3M" });
    const refreshed = await refresh(host, state);
    expect(refreshed?.outputs.verification).toMatchObject({ checked: 3, clean: 3, stillPresent: 0, stillPresentIdentifiers: [] });
    expect((refreshed?.outputs.receipt as { verification: unknown }).verification).toEqual(refreshed?.outputs.verification);
    expectNoIdentifier(plainText(refreshed));
  });

  it("does not check with verifyDeletion false", async () => {
    const mark = fixture.mark();
    const { state } = await up(host, inputs("forget-unchecked", viewers(501, 2), { verifyDeletion: false }));
    expect(state.outputs.status).toBe("FINISHED");
    expect(state.outputs.verification).toBeUndefined();
    expect(fixture.requestsSince(mark).filter((entry) => entry.path === VIEWER_SESSIONS_PATH)).toEqual([]);
  });
});
