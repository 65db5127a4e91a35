import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import {
  builtModule, captureRegistrations, destroy, isSecret, REPOSITORY_ROOT, secret, startProviderHost, up,
  type ProviderHost, type Registration, type ResourceState,
} from "../engine";
import { DEV, useTestEmulator } from "./support/emulator";
import type * as ReportModule from "../examples/report";

/**
 * The examples (examples/), which are the program of the repository's own stack (Pulumi.yaml), as a
 * new user would run them, without the pulumi CLI: the program runs under mocks from its tsc build
 * with the stack config a user sets (its data sources really read the emulator), then every resource
 * it registers goes through the SDK's real dynamic-provider host, in the repository as the project
 * directory: `up`, then `destroy` (docs/dynamic-providers.md "Testing without the CLI").
 */
const PROGRAM = "dist/examples/program.js";
const SAVED_FILTER = "pulumi-nodejs:dynamic/insights:SavedFilter";
const SAVED_FILTER_SET = "pulumi-nodejs:dynamic/insights:SavedFilterSet";
const PII_OPT_OUT_REQUEST = "pulumi-nodejs:dynamic/insights:PiiOptOutRequest";
/** Viewers of the emulator's data world, named only in this test's temporary file and config. */
const VIEWERS_TO_FORGET = ["viewer-000123", "viewer-000456"];

/** `require` from the repository root: `pulumi-insights` resolves by self-reference to dist/. */
const requireFromRoot = createRequire(path.join(REPOSITORY_ROOT, "package.json"));

/** The stack config as the language host passes it to a program (PULUMI_CONFIG and its secret keys). */
function stackConfigEnv(config: Record<string, string>, secretKeys: string[]): Record<string, string> {
  return { PULUMI_CONFIG: JSON.stringify(config), PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(secretKeys) };
}

/** What of a value is plain text: secret markers are replaced, as the engine encrypts them. */
function plainText(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => (isSecret(member) ? "[secret]" : member));
}

/** The value of an Output (outside a deployment `apply` runs at once). */
function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

describe("the examples program through the provider host", () => {
  // PII requests finish at once: the example waits for FINISHED.
  const emulator = useTestEmulator({ piiTiming: { startAfterMs: 0, finishAfterMs: 0 } });
  let host: ProviderHost;
  let workDir: string;
  let adoptedId: string;
  let registrations: Registration[];
  let apiSettings: Record<string, string>;

  const ofType = (type: string) => registrations.filter((registration) => registration.type === type);
  const listedFilters = async (): Promise<Array<{ id: string; name: string }>> => (await emulator.get("/bulk_filters/")).body.filters;

  beforeAll(async () => {
    // A filter made in the console, which the filters example adopts.
    const made = await emulator.call("POST", "/bulk_filters/", { body: [{ name: "Roku (made in the console)", rules: { op: "and", rules: [{ field: "Device Manufacturer", op: "contains", value: "Roku" }] } }] });
    adoptedId = String(made.body[0].id);
    // The opt-out's ids come from a file outside the repository, named by the config.
    workDir = mkdtempSync(path.join(tmpdir(), "insights-examples-"));
    const idsFile = path.join(workDir, "viewers-to-forget.txt");
    writeFileSync(idsFile, `# viewers who asked to be forgotten\n${VIEWERS_TO_FORGET.join("\n")}\n`);
    apiSettings = { "insights:baseUrl": emulator.url, "insights:clientId": DEV.clientId, "insights:clientSecret": DEV.clientSecret };
    const config = { ...apiSettings, "insights:adoptFilterId": adoptedId, "insights:optOutViewerIdsFile": idsFile, "insights:reportViewerId": "viewer-000001" };
    [registrations, host] = await Promise.all([
      captureRegistrations({
        module: PROGRAM,
        exportName: "runExamples",
        args: [],
        construct: "call",
        project: "insights",
        stack: "dev",
        env: stackConfigEnv(config, ["insights:clientSecret", "insights:reportViewerId"]),
      }),
      // The repository is the Pulumi project, as for `pulumi up` at its root.
      startProviderHost({ projectDir: REPOSITORY_ROOT, project: "insights" }),
    ]);
    await host.configure({ ...apiSettings, "insights:clientSecret": secret(DEV.clientSecret) });
  });
  afterAll(async () => {
    await host?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it("registers the resources of every example, named as a reviewer sees them in a preview", async () => {
    const continents: string[] = (await emulator.get("/bulk_filters/continents/")).body.values;
    const continentNames = continents.map((continent) => `continent-${continent.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`);
    expect(ofType(SAVED_FILTER).map((registration) => registration.name).sort())
      .toEqual(["north-america", "premium-live-sports", "roku-devices", ...continentNames].sort());
    expect(ofType(SAVED_FILTER_SET).map((registration) => registration.name)).toEqual(["san-cities"]);
    expect(ofType(PII_OPT_OUT_REQUEST).map((registration) => registration.name)).toEqual(["forget-viewers"]);
    // The builder's trees arrive as the API's JSON.
    const northAmerica = ofType(SAVED_FILTER).find((registration) => registration.name === "north-america")!;
    expect(northAmerica.inputs.rules).toEqual({
      op: "and",
      rules: [
        { op: "or", rules: [{ field: "Country", op: "equals", value: "United States" }, { field: "Country", op: "equals", value: "Canada" }] },
        { field: "Tag", key: "deviceId", op: "not_contains", value: "test-" },
      ],
    });
    // Members of the set come from the cities lookup, only those whose name starts with "San ".
    const cities = ofType(SAVED_FILTER_SET)[0]!.inputs.filters as Record<string, { name: string }>;
    expect(Object.values(cities).map((member) => member.name).sort()).toEqual(["City: San Antonio", "City: San Diego", "City: San Francisco", "City: San Jose"]);
  });

  it("keeps the opt-out's viewer ids secret and out of every plain-text property", () => {
    const [optOut] = ofType(PII_OPT_OUT_REQUEST);
    expect(isSecret(optOut!.inputs.viewerIds)).toBe(true);
    expect((optOut!.inputs.viewerIds as { value: string[] }).value).toEqual(VIEWERS_TO_FORGET);
    const text = plainText(registrations);
    for (const viewer of VIEWERS_TO_FORGET) expect(text).not.toContain(viewer);
  });

  it("creates every resource against the emulator, adopting the console's filter, then destroys them", async () => {
    const states = new Map<Registration, ResourceState>();
    // In parallel, as the engine runs independent resources.
    await Promise.all(registrations.map(async (registration) => states.set(registration, (await up(host, registration.inputs)).state)));

    // The next `up` of an unchanged program changes nothing.
    const again = await Promise.all(registrations.map(async (registration) => (await up(host, registration.inputs, states.get(registration))).operation));
    expect(new Set(again)).toEqual(new Set(["same"]));

    const byName = new Map((await listedFilters()).map((filter) => [filter.name, filter]));
    expect(byName.get("North America, no test devices")).toBeDefined();
    expect(byName.get("Premium viewers, live sports events")).toMatchObject({ advanced: true, category: "CONTENT" });
    expect(byName.get("City: San Francisco")).toBeDefined();
    // Adopted: the console's filter, same id, brought to the declaration.
    expect(byName.get("Roku devices")?.id).toBe(adoptedId);
    expect(byName.has("Roku (made in the console)")).toBe(false);

    const optOut = states.get(ofType(PII_OPT_OUT_REQUEST)[0]!)!;
    expect(optOut.outputs).toMatchObject({ status: "FINISHED", identifierCount: 2, identifierKind: "viewer" });
    const requests = (await emulator.get("/pii-opt-out")).body.requests as Array<{ status: string; identifiers: { viewer_id: string[] } }>;
    expect(requests.map((request) => [request.status, [...request.identifiers.viewer_id].sort()])).toEqual([["FINISHED", VIEWERS_TO_FORGET]]);
    // The state holds the ids only as secrets.
    const stateText = plainText([...states.values()]);
    for (const viewer of VIEWERS_TO_FORGET) expect(stateText).not.toContain(viewer);

    await Promise.all([...states.values()].map((state) => destroy(host, state)));
    expect(await listedFilters()).toEqual([]);
    // A deletion cannot be withdrawn: destroying the resource only leaves the state.
    expect((await emulator.get("/pii-opt-out")).body.requests).toHaveLength(1);
  });
});

describe("the report example", () => {
  const emulator = useTestEmulator();

  afterAll(async () => {
    vi.unstubAllEnvs();
    await (requireFromRoot("pulumi-insights") as typeof import("../provider")).closeDataSourceClients();
  });

  it("exports the top ISPs by rebuffering, the active critical alerts and a secret viewer summary", async () => {
    // Settings from the environment this time (INSIGHTS_*), the viewer from the stack config.
    const environment = {
      INSIGHTS_BASE_URL: emulator.url,
      INSIGHTS_CLIENT_ID: DEV.clientId,
      INSIGHTS_CLIENT_SECRET: DEV.clientSecret,
      ...stackConfigEnv({ "insights:reportViewerId": "viewer-000001" }, ["insights:reportViewerId"]),
    };
    for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
    const runtime = requireFromRoot("@pulumi/pulumi") as typeof pulumi;
    const { report } = requireFromRoot(builtModule("dist/examples/report.js")) as typeof ReportModule;
    const outputs = report();

    const isps = await valueOf(outputs.topIspsByRebuffering);
    expect(isps).toHaveLength(5);
    const ratios = isps.map((isp) => isp.rebufferingRatio!);
    expect(ratios.every((ratio) => typeof ratio === "number" && ratio > 0)).toBe(true);
    expect(ratios).toEqual([...ratios].sort((a, b) => b - a));

    const alerts = await valueOf(outputs.activeCriticalAlerts);
    expect(alerts.length).toBeGreaterThan(0);
    for (const alert of alerts) {
      expect(alert.metric).toMatch(/^(VSF|EBVS|VPF|VST|PCP|BUFFERINGRATIO)$/);
      expect(alert.rootCauses[0]).toMatch(/^[a-z_]+=.+/);
      expect(Date.parse(alert.since)).toBeLessThanOrEqual(emulator.state.clock.now());
    }

    expect(outputs.viewerSummary).toBeDefined();
    expect(await runtime.isSecret(outputs.viewerSummary!)).toBe(true);
    const summary = await valueOf(outputs.viewerSummary!);
    expect(summary.plays).toBeGreaterThan(0);
    expect(summary.uniqueDevices).toBeGreaterThan(0);
  });
});

/**
 * Each capture runs the examples in a node process of its own, which loads the SDK and the package
 * and reads the emulator (several seconds on a quiet machine); a test captures twice. The timeout is
 * a bound against a hang, not a speed check: on a machine shared with other work one capture took
 * over 15 s.
 */
const CAPTURE_TEST_TIMEOUT_MS = 120_000;

describe("the opt-out ids from a secret config value", { timeout: CAPTURE_TEST_TIMEOUT_MS }, () => {
  const emulator = useTestEmulator();

  const capture = (config: Record<string, string>) =>
    captureRegistrations({
      module: PROGRAM,
      exportName: "runExamples",
      args: [],
      construct: "call",
      env: stackConfigEnv({ "insights:baseUrl": emulator.url, "insights:clientId": DEV.clientId, "insights:clientSecret": DEV.clientSecret, ...config }, ["insights:clientSecret", "insights:optOutViewerIds"]),
    });

  it("takes a list separated by commas, spaces or newlines, and registers no opt-out without one", async () => {
    const withIds = await capture({ "insights:optOutViewerIds": "viewer-000123, viewer-000456\nviewer-000789" });
    const [optOut] = withIds.filter((registration) => registration.type === PII_OPT_OUT_REQUEST);
    expect(isSecret(optOut!.inputs.viewerIds)).toBe(true);
    expect((optOut!.inputs.viewerIds as { value: string[] }).value).toEqual(["viewer-000123", "viewer-000456", "viewer-000789"]);

    const without = await capture({});
    expect(without.map((registration) => registration.type)).not.toContain(PII_OPT_OUT_REQUEST);
    expect(without.map((registration) => registration.name)).not.toContain("roku-devices");
  });

  it("refuses both a config value and a file, and names a file it cannot read", async () => {
    await expect(capture({ "insights:optOutViewerIds": "viewer-000123", "insights:optOutViewerIdsFile": "ids.txt" }))
      .rejects.toThrow("set insights:optOutViewerIds or insights:optOutViewerIdsFile, not both");
    await expect(capture({ "insights:optOutViewerIdsFile": "/nonexistent/ids.txt" }))
      .rejects.toThrow("insights:optOutViewerIdsFile: cannot read /nonexistent/ids.txt (ENOENT)");
  });
});

describe("the repository's Pulumi project", () => {
  it("declares the API settings as typed, required project config, the secret one as secret", () => {
    const project = parse(readFileSync(path.join(REPOSITORY_ROOT, "Pulumi.yaml"), "utf8")) as Record<string, any>;
    expect(project).toMatchObject({ name: "insights", runtime: "nodejs", main: "examples/index.ts" });
    expect(readFileSync(path.join(REPOSITORY_ROOT, project.main), "utf8")).toContain("export = runExamples");
    expect(project.config).toEqual({
      baseUrl: { type: "string", description: expect.any(String) },
      clientId: { type: "string", description: expect.any(String) },
      clientSecret: { type: "string", secret: true, description: expect.stringContaining("--secret") },
    });
  });
});
