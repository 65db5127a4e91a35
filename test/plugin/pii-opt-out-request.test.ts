import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  destroy, isSecret, PLUGIN_PACKAGE, refresh, secret, startProviderPlugin, up, type CallOptions, type PropertyMap, type ProviderHost,
} from "../../engine";
import { DEV, useTestEmulator } from "../support/emulator";
import { failure } from "../support/failure";

/**
 * PiiOptOutRequest through the provider plugin, called over gRPC as the engine calls it
 * (docs/provider-plugins.md rules 6 to 11), against the emulator whose requests finish at once: the
 * request followed to FINISHED with the deletion check (as test/provider/pii-verification.test.ts
 * through the dynamic host), its identifiers create-only at their paths, and no identifier or
 * address in plain text in anything the plugin answers, logs or prints.
 */
const emulator = useTestEmulator({ piiTiming: { startAfterMs: 0, finishAfterMs: 0 } });
const REQUEST: CallOptions = { urn: "urn:pulumi:test::insights-test-project::insights:index:PiiOptOutRequest::forget" };
/** Requests finish at once; the wait polls fast. */
const FAST = { pollIntervalSeconds: 0.05, waitTimeoutSeconds: 20 };
/** Viewers of the emulator's data world (emulator/README.md "Viewers"), whose sessions the deletion check reads. */
const VIEWERS = ["viewer-000203", "viewer-000201", "viewer-000202"];
const EMAIL = "dpo@example.com";

describe("PiiOptOutRequest through the provider plugin", () => {
  let plugin: ProviderHost;
  /** Personal lists arrive as secrets: the SDKs make the properties the schema marks secret so. */
  const inputs = (extra: Record<string, unknown> = {}): PropertyMap => ({ ...FAST, viewerIds: secret(VIEWERS), notificationEmails: secret([EMAIL]), resourceName: "forget", ...extra });
  /** What of a value is plain text: secret markers are replaced, as the engine encrypts them. */
  const plainText = (value: unknown): string => JSON.stringify(value, (_key, member: unknown) => (isSecret(member) ? "[secret]" : member));

  beforeAll(async () => {
    plugin = await startProviderPlugin();
    await plugin.configure({ baseUrl: emulator.url, clientId: DEV.clientId, clientSecret: secret(DEV.clientSecret) }, { package: PLUGIN_PACKAGE });
  });
  afterAll(async () => {
    await plugin?.close();
  });

  it("follows the request to FINISHED, checks the deletion, and keeps identifiers and addresses secret everywhere", async () => {
    const { state, operation } = await up(plugin, inputs(), undefined, REQUEST);
    expect(operation).toBe("create");
    expect(state.id).toMatch(/^pii-[0-9a-f]{16}$/);
    expect(state.outputs).toMatchObject({
      identifierKind: "viewer", identifierCount: 3, status: "FINISHED", batchCount: 1, batchesSubmitted: 1, resourceName: "forget",
      requests: [{ status: "FINISHED", origin: "submitted", identifiers: 3 }],
    });
    expect(state.outputs.verification).toMatchObject({ checked: 3, clean: 3, stillPresent: 0, notVerifiable: 0 });
    // Check made the inputs canonical, and both the inputs and the outputs hold the lists as secrets.
    expect(state.inputs.viewerIds).toEqual(secret([...VIEWERS].sort()));
    expect(state.outputs.viewerIds).toEqual(secret([...VIEWERS].sort()));
    expect(state.outputs.notificationEmails).toEqual(secret([EMAIL]));
    await plugin.waitForDiagnostic((line) => line.message.startsWith('PiiOptOutRequest "forget": verification: 3 of 3 checked identifiers clean'));
    expect(plugin.diagnostics.find((line) => line.message.includes("verification"))?.urn).toBe(REQUEST.urn);

    // Reordered, nothing to do; a wait setting updates in place; another identifier replaces it, at its path.
    const same = await up(plugin, inputs({ viewerIds: secret([...VIEWERS].reverse()) }), state, REQUEST);
    expect(same.operation).toBe("same");
    const slower = await plugin.diff(state.id, state.outputs, inputs({ waitTimeoutSeconds: 60 }), { ...REQUEST, oldInputs: state.inputs });
    expect(slower).toMatchObject({ changes: "some", replaces: [], detailedDiff: { waitTimeoutSeconds: { kind: "update" } } });
    const more = await plugin.diff(state.id, state.outputs, inputs({ viewerIds: secret([...VIEWERS, "viewer-000204"]) }), { ...REQUEST, oldInputs: state.inputs });
    expect(more).toMatchObject({ changes: "some", replaces: ["viewerIds"], detailedDiff: { viewerIds: { kind: "update-replace" } } });

    const refreshed = await refresh(plugin, state, REQUEST);
    expect(refreshed?.outputs).toMatchObject({ status: "FINISHED", verification: { clean: 3 } });
    // An opt-out has no id of the account to import by.
    const imported = (await failure(plugin.read(state.id, {}, REQUEST))) as Error;
    expect(imported.message).toContain("a PiiOptOutRequest cannot be imported");
    // Delete withdraws nothing (spec 4.10 has no such call): it says so and sends nothing.
    const position = emulator.state.journal.lastSeq();
    await destroy(plugin, refreshed!, REQUEST);
    expect(emulator.state.journal.list(position)).toEqual([]);

    const shown = [plainText(state), plainText(refreshed), imported.message, plugin.diagnostics.map((line) => line.message), plugin.stdout, plugin.stderr].join("\n");
    for (const value of [...VIEWERS, "viewer-000204", EMAIL, DEV.clientSecret]) expect(shown, `${value} in plain text`).not.toContain(value);
  });

  it("refuses a request without identifiers and a misspelt property at check, naming no value", async () => {
    const checked = await plugin.check({}, { resourceName: "forget", notificationEmails: secret(["not-an-address"]), waitTimeoutSecond: 5 }, REQUEST);
    expect(checked.failures).toEqual(expect.arrayContaining([
      { property: "viewerIds", reason: expect.stringContaining("give viewerIds or userIds") },
      { property: "waitTimeoutSecond", reason: expect.stringContaining('did you mean "waitTimeoutSeconds"') },
    ]));
    expect(JSON.stringify(checked.failures)).not.toContain("not-an-address");
  });
});
