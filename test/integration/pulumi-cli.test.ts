import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtModule, REPOSITORY_ROOT } from "../../engine";
import { DEV, startTestEmulator, type TestEmulator } from "../support/emulator";

/**
 * The repository's own stack (Pulumi.yaml, program examples/) with the real pulumi CLI through the
 * Automation API: preview, up, refresh after a change made in the console (through the API), up
 * again, destroy; a local file backend and a throwaway passphrase, against the emulator. Runs
 * wherever `pulumi` is on PATH, and is reported as skipped elsewhere.
 */
const pulumiOnPath = spawnSync("pulumi", ["version"], { stdio: "ignore" }).status === 0;
const VIEWERS_TO_FORGET = ["viewer-000123", "viewer-000456"];

/** A resource of an exported deployment (the fields these tests read). */
interface StateResource {
  type: string;
  urn: string;
  outputs?: Record<string, unknown>;
}

describe.skipIf(!pulumiOnPath)("the root stack with the real pulumi CLI (requires the pulumi CLI on PATH)", () => {
  let emulator: TestEmulator;
  let workDir: string;
  let stack: Stack;
  let adoptedId: string;
  const stackName = `it-${randomBytes(4).toString("hex")}`;

  const listed = async (): Promise<Array<{ id: string; name: string }>> => (await emulator.get("/bulk_filters/")).body.filters;
  const stateResources = async (): Promise<StateResource[]> => (await stack.exportStack()).deployment.resources ?? [];
  const resourceNamed = async (name: string) => (await stateResources()).find((resource) => resource.urn.endsWith(`::${name}`));

  beforeAll(async () => {
    builtModule("dist/provider/index.js"); // the program imports the package's build: it must be current
    emulator = await startTestEmulator({ piiTiming: { startAfterMs: 0, finishAfterMs: 0 } });
    const made = await emulator.call("POST", "/bulk_filters/", { body: [{ name: "Roku (made in the console)", rules: { op: "and", rules: [{ field: "Device Manufacturer", op: "contains", value: "Roku" }] } }] });
    adoptedId = String(made.body[0].id);
    workDir = mkdtempSync(path.join(tmpdir(), "insights-cli-"));
    const backend = path.join(workDir, "state");
    mkdirSync(backend);
    const idsFile = path.join(workDir, "viewers-to-forget.txt");
    writeFileSync(idsFile, `${VIEWERS_TO_FORGET.join("\n")}\n`);
    stack = await LocalWorkspace.createStack(
      { stackName, workDir: REPOSITORY_ROOT },
      { envVars: { PULUMI_BACKEND_URL: `file://${backend}`, PULUMI_CONFIG_PASSPHRASE: "integration-test", PULUMI_SKIP_UPDATE_CHECK: "true" } },
    );
    await stack.setAllConfig({
      "insights:baseUrl": { value: emulator.url },
      "insights:clientId": { value: DEV.clientId },
      "insights:clientSecret": { value: DEV.clientSecret, secret: true },
      "insights:adoptFilterId": { value: adoptedId },
      "insights:optOutViewerIdsFile": { value: idsFile },
      "insights:reportViewerId": { value: "viewer-000001", secret: true },
    });
  }, 120_000);
  afterAll(async () => {
    // Removing the stack also deletes its Pulumi.<stack>.yaml at the repository root.
    await stack?.workspace.removeStack(stackName, { force: true }).catch(() => undefined);
    rmSync(path.join(REPOSITORY_ROOT, `Pulumi.${stackName}.yaml`), { force: true });
    if (workDir) rmSync(workDir, { recursive: true, force: true });
    await emulator?.close();
  }, 120_000);

  it("previews, creates, sees console drift on refresh, puts it back with up, and destroys", async () => {
    const continents: string[] = (await emulator.get("/bulk_filters/continents/")).body.values;

    const preview = await stack.preview();
    expect(preview.changeSummary.create).toBeGreaterThanOrEqual(3 + continents.length + 2);
    expect(await listed()).toHaveLength(1); // a preview changes nothing

    const created = await stack.up();
    expect(created.summary.result).toBe("succeeded");
    const names = (await listed()).map((filter) => filter.name);
    expect(names).toEqual(expect.arrayContaining(["North America, no test devices", "Roku devices", "City: San Francisco", ...continents.map((continent) => `Continent: ${continent}`)]));
    expect((await listed()).find((filter) => filter.name === "Roku devices")?.id).toBe(adoptedId);
    expect(created.outputs.optOutStatus?.value).toBe("FINISHED");
    expect(created.outputs.viewerSummary?.secret).toBe(true);
    expect(created.outputs.topIspsByRebuffering?.value).toHaveLength(5);
    // The state holds the opt-out's ids only encrypted.
    expect(JSON.stringify((await stack.exportStack()).deployment)).not.toContain(VIEWERS_TO_FORGET[0]);

    // Drift: the filter is renamed in the console; refresh records it, up puts the declaration back.
    const northAmerica = await resourceNamed("north-america");
    const filterId = String(northAmerica!.outputs!.filterId);
    await emulator.call("PUT", "/bulk_filters/", { body: [{ id: filterId, name: "Edited in the console" }] });
    await stack.refresh();
    expect((await resourceNamed("north-america"))!.outputs!.name).toBe("Edited in the console");
    const restored = await stack.up();
    expect(restored.summary.resourceChanges?.update ?? 0).toBeGreaterThanOrEqual(1);
    expect((await listed()).find((filter) => filter.id === filterId)?.name).toBe("North America, no test devices");

    await stack.destroy();
    expect(await listed()).toEqual([]);
    expect(await stateResources()).toEqual([]);
  }, 600_000);
});
