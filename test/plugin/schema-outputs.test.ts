import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  captureDynamicResource, createTestProject, REPOSITORY_ROOT, secret, startProviderHost, up, type PropertyMap, type ProviderHost, type TestProject,
} from "../../engine";
import { DEV, useTestEmulator } from "../support/emulator";

/**
 * The package schema says what the resources really record: each resource made through the
 * dynamic-provider host (the core the plugin will serve, docs/dynamic-providers.md "Testing without
 * the CLI") answers outputs that the schema declares, every required one among them, and takes the
 * inputs the schema declares. A property the core adds or drops without the schema fails here.
 */

const emulator = useTestEmulator();
const schema = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, "provider/plugin/schema.json"), "utf8")) as {
  resources: Record<string, { inputProperties: Record<string, unknown>; properties: Record<string, unknown>; required: string[] }>;
};
const RESOURCES = "dist/provider/resources/index.js";
/** What the dynamic resources carry that a plugin's do not: the serialized provider. */
const HOST_ONLY = ["__provider"];
const rules = { op: "and", rules: [{ field: "Country", op: "equals", value: "Canada" }] };

describe("the package schema and the outputs the resources record", () => {
  let project: TestProject;
  let host: ProviderHost;

  beforeAll(async () => {
    project = createTestProject();
    host = await startProviderHost({ projectDir: project.dir, env: { INSIGHTS_MATCH_ESTIMATE: "false" } });
    await host.configure({ "insights:baseUrl": emulator.url, "insights:clientId": DEV.clientId, "insights:clientSecret": secret(DEV.clientSecret) });
  });
  afterAll(async () => {
    await host?.close();
    project?.remove();
  });

  it.each([
    ["SavedFilter", { name: "Schema check", rules }],
    ["SavedFilterSet", { filters: { canada: { rules }, mexico: { name: "Mexico", rules: { op: "and", rules: [{ field: "Country", op: "equals", value: "Mexico" }] } } } }],
    ["PiiOptOutRequest", { viewerIds: ["schema-viewer-1"], waitForCompletion: false }],
  ] as const)("%s: its outputs are declared, the required ones all there, and its inputs too", async (name, args) => {
    const resource = await captureDynamicResource({ module: RESOURCES, exportName: name, args: [`schema-${name}`, args] });
    const { state } = await up(host, resource.inputs);
    const declared = schema.resources[`insights:index:${name}`]!;
    const recorded = (properties: PropertyMap) => Object.keys(properties).filter((key) => !HOST_ONLY.includes(key) && properties[key] !== undefined);
    expect(recorded(state.outputs).filter((key) => !(key in declared.properties))).toEqual([]);
    expect(declared.required.filter((key) => !(key in state.outputs))).toEqual([]);
    // The host adds resourceName to a PiiOptOutRequest's inputs: a plugin takes it from the request instead.
    expect(recorded(state.inputs).filter((key) => !(key in declared.inputProperties) && key !== "resourceName")).toEqual([]);
  });
});
