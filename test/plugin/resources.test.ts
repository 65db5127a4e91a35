import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  destroy, PLUGIN_PACKAGE, ProviderCallError, refresh, secret, startProviderPlugin, stateAfterFailure, up,
  type CallOptions, type PropertyMap, type ProviderHost, type ResourceState,
} from "../../engine";
import type { JournalEntry } from "../../emulator";
import { DEV, useTestEmulator } from "../support/emulator";
import { failure } from "../support/failure";
import { usRules, usRulesShuffled } from "../support/rule-trees";
import { NO_MATCH_ESTIMATE, QUICK_UNKNOWN_OUTCOME, STEADY_BATCHING, summarize } from "../provider/fixture";
import { runCli } from "../provider/import-cli";

/**
 * SavedFilter and SavedFilterSet through the provider plugin, started and called over gRPC as the
 * engine does (docs/provider-plugins.md rules 1 to 11), against the emulator: the lifecycle the
 * dynamic resources are tested with (test/provider/saved-filter.test.ts, saved-filter-set.test.ts),
 * with what only a plugin answers: detailed diffs at property paths, check failures at their exact
 * path, Read of an id alone for `pulumi import`, and a partial failure as ErrorResourceInitFailed.
 * The request counts are those of the dynamic path (test/provider/batching.test.ts).
 */

const emulator = useTestEmulator();
const urn = (type: string, name: string) => `urn:pulumi:test::insights-test-project::insights:index:${type}::${name}`;
const FILTER: CallOptions = { urn: urn("SavedFilter", "us") };
const SET: CallOptions = { urn: urn("SavedFilterSet", "episodes") };

/** {@link usRules} with the value of its second rule changed: `rules.rules[1].value`. */
const usRulesNoStaging = { ...usRules, rules: [usRules.rules[0]!, { ...usRules.rules[1]!, value: "staging-" }] };
const episode = (index: number) => ({ rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: `Episode ${index}` }] }, category: "CONTENT", subcategory: "Show" });
const episodes = (count: number, change: Record<string, unknown> = {}) =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`episode-${index}`, { ...episode(index), ...change }]));

describe("SavedFilter and SavedFilterSet through the provider plugin", () => {
  let plugin: ProviderHost;
  const listed = async (): Promise<Array<Record<string, any>>> =>
    ((await emulator.get("/bulk_filters/")).body.filters as Array<Record<string, any>>).map((filter) => ({ ...filter, id: String(filter.id) }));
  const mark = () => emulator.state.journal.lastSeq();
  const since = (position: number): JournalEntry[] => emulator.state.journal.list(position);

  beforeAll(async () => {
    plugin = await startProviderPlugin({ env: { ...STEADY_BATCHING, ...QUICK_UNKNOWN_OUTCOME, ...NO_MATCH_ESTIMATE } });
    // `same` names the provider's own account again; `staging` another one (only its settings are read here).
    const accounts = {
      same: { baseUrl: emulator.url, clientId: DEV.clientId, clientSecret: DEV.clientSecret },
      staging: { baseUrl: emulator.url, clientId: "plugin-staging", clientSecret: "plugin-staging-secret" },
    };
    await plugin.configure({ baseUrl: emulator.url, clientId: DEV.clientId, clientSecret: secret(DEV.clientSecret), accounts: secret(accounts) }, { package: PLUGIN_PACKAGE });
  });
  afterAll(async () => {
    await plugin?.close();
  });
  beforeEach(async () => {
    await emulator.control("POST", "reset");
  });

  it("creates, answers no change for a reordered tree, a detailed in-place update at rules.rules[1].value, and deletes", async () => {
    const created = await up(plugin, { name: "US and Canada", rules: usRules, category: "GEO", subcategory: "Country" }, undefined, FILTER);
    expect(created.operation).toBe("create");
    expect(created.state.outputs).toMatchObject({
      filterId: created.state.id, name: "US and Canada", category: "GEO", advanced: false, enabled: true, creator: "dev@example.com",
    });
    expect((await listed()).map((filter) => filter.id)).toEqual([created.state.id]);

    const same = await up(plugin, { name: "US and Canada", rules: usRulesShuffled, category: "GEO", subcategory: "Country" }, created.state, FILTER);
    expect(same.operation).toBe("same");
    expect(same.diff).toMatchObject({ changes: "none", replaces: [], diffs: [] });

    const position = mark();
    const updated = await up(plugin, { name: "US and Canada", rules: usRulesNoStaging, category: "GEO", subcategory: "Country" }, created.state, FILTER);
    expect(updated.operation).toBe("update");
    expect(updated.diff).toMatchObject({ changes: "some", replaces: [], diffs: ["rules"], hasDetailedDiff: true });
    expect(updated.diff!.detailedDiff).toEqual({ "rules.rules[1].value": { kind: "update", inputDiff: false } });
    expect(updated.state.outputs).toMatchObject({ filterId: created.state.id, rules: usRulesNoStaging });
    // Only what changed is sent (spec 4.8: PUT merges), as the dynamic path sends it.
    expect(since(position).filter((entry) => entry.method === "PUT")).toHaveLength(1);
    // The rule-tree diff the dynamic host prints, as the engine's Log lines under the resource.
    const line = await plugin.waitForDiagnostic((diagnostic) => diagnostic.message.includes('SavedFilter "US and Canada": rules change'));
    expect(line).toMatchObject({ source: "engine", severity: "info", urn: FILTER.urn });

    await destroy(plugin, updated.state, FILTER);
    expect(await listed()).toEqual([]);
    // One already gone counts as deleted.
    await expect(destroy(plugin, updated.state, FILTER)).resolves.toBeUndefined();
  });

  it("answers each changed property at its path, and another account as a replacement at `account`", async () => {
    const { state } = await up(plugin, { name: "US and Canada", rules: usRules }, undefined, FILTER);
    const diff = await plugin.diff(state.id, state.outputs, { name: "North America", rules: usRules, enabled: false, category: "GEO" }, { ...FILTER, oldInputs: state.inputs });
    expect(diff).toMatchObject({ changes: "some", replaces: [], hasDetailedDiff: true });
    expect(diff.detailedDiff).toEqual({ name: { kind: "update", inputDiff: false }, enabled: { kind: "update", inputDiff: false }, category: { kind: "add", inputDiff: false } });
    expect([...diff.diffs].sort()).toEqual(["category", "enabled", "name"]);

    const moved = await plugin.diff(state.id, state.outputs, { name: "US and Canada", rules: usRules, account: "staging" }, { ...FILTER, oldInputs: state.inputs });
    expect(moved).toMatchObject({ changes: "some", replaces: ["account"], diffs: ["account"], detailedDiff: { account: { kind: "add-replace" } } });
    // Another name for the same account records the name, in place.
    const renamed = await plugin.diff(state.id, state.outputs, { name: "US and Canada", rules: usRules, account: "same" }, { ...FILTER, oldInputs: state.inputs });
    expect(renamed).toMatchObject({ changes: "some", replaces: [], diffs: ["account"], detailedDiff: { account: { kind: "add" } } });
    await destroy(plugin, state, FILTER);
  });

  it("shows drift made in the console on refresh, and the next up puts the declared state back", async () => {
    const declared = { name: "US and Canada", rules: usRules };
    const { state } = await up(plugin, declared, undefined, FILTER);
    await emulator.call("PUT", "/bulk_filters/", { body: [{ id: state.id, name: "Edited in the console", enabled: false }] });

    const refreshed = await refresh(plugin, state, FILTER);
    expect(refreshed?.outputs).toMatchObject({ name: "Edited in the console", enabled: false });
    // The inputs stay the program's: the drift is a difference from the declaration.
    expect(refreshed?.inputs).toEqual(state.inputs);

    const repaired = await up(plugin, declared, refreshed, FILTER);
    expect(repaired.operation).toBe("update");
    expect(Object.keys(repaired.diff!.detailedDiff).sort()).toEqual(["enabled", "name"]);
    expect((await listed())[0]).toMatchObject({ name: "US and Canada", enabled: true });

    await emulator.call("DELETE", "/bulk_filters/", { query: { id: state.id } });
    expect(await refresh(plugin, repaired.state, FILTER)).toBeUndefined();
  });

  it("imports by id alone: Read answers the outputs and the inputs a program declares, which then plan no change", async () => {
    const made = await emulator.call("POST", "/bulk_filters/", { body: [{ name: "Made in the console", category: "GEO", enabled: false, rules: usRules }] });
    const id = String(made.body[0].id);
    // `pulumi import insights:index:SavedFilter us <id>`: the id, no properties, no inputs (rule 10).
    const imported = await plugin.read(id, {}, FILTER);
    expect(imported.id).toBe(id);
    expect(imported.outputs).toMatchObject({ filterId: id, name: "Made in the console", category: "GEO", enabled: false });
    expect(imported.inputs).toEqual({ name: "Made in the console", category: "GEO", enabled: false, rules: usRules });
    // The code the CLI writes declares those inputs: checked, they change nothing.
    const state: ResourceState = { id, inputs: imported.inputs!, outputs: imported.outputs };
    expect((await up(plugin, imported.inputs!, state, FILTER)).operation).toBe("same");

    expect((await plugin.read("999999", {}, FILTER)).id).toBeUndefined();
    // A set's id is its own, not a filter's: the way to import its filters is said.
    const set = await failure(plugin.read("5f0c", {}, SET));
    expect((set as Error).message).toContain("import the filters as SavedFilter resources (`pulumi-insights import --pulumi-import-file`)");
  });

  it("imports a whole account from the file `pulumi-insights import --pulumi-import-file` writes, each filter then unchanged", async () => {
    const body = [{ name: "Made in the console", category: "GEO", rules: usRules }, { name: "Roku devices", enabled: false, rules: usRulesShuffled }];
    const ids = ((await emulator.call("POST", "/bulk_filters/", { body })).body as Array<{ id: number | string }>).map(({ id }) => String(id));
    const folder = mkdtempSync(path.join(tmpdir(), "insights-import-file-"));
    try {
      const file = path.join(folder, "filters.json");
      const cli = await runCli(["import", "--pulumi-import-file", file], { INSIGHTS_BASE_URL: emulator.url, INSIGHTS_CLIENT_ID: DEV.clientId, INSIGHTS_CLIENT_SECRET: DEV.clientSecret });
      expect(cli.status).toBe(0);
      const { resources } = JSON.parse(readFileSync(file, "utf8")) as { resources: Array<{ type: string; name: string; id: string }> };
      expect(resources.map(({ id }) => id).sort()).toEqual([...ids].sort());
      // `pulumi import --file` Reads each entry by its type and id alone (docs/provider-plugins.md rule 10).
      for (const { type, name, id } of resources) {
        const options = { urn: urn(type.replace(/^insights:index:/, ""), name) };
        const imported = await plugin.read(id, {}, options);
        expect(imported.id).toBe(id);
        const declared = body[ids.indexOf(id)]!;
        expect(imported.inputs).toEqual(declared);
        expect((await up(plugin, imported.inputs!, { id, inputs: imported.inputs!, outputs: imported.outputs }, options)).operation).toBe("same");
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("fails check at the exact property path of each mistake, before anything is sent", async () => {
    const position = mark();
    const checked = await plugin.check({}, {
      name: "x",
      enabeld: false,
      rules: { op: "and", rules: [{ field: "Country", op: "equals", value: "Canada" }, { field: "Contry", op: "equals", value: "Canada" }] },
    }, FILTER);
    expect(checked.failures).toEqual(expect.arrayContaining([
      { property: "enabeld", reason: expect.stringContaining('did you mean "enabled"') },
      { property: "rules.rules[1].field", reason: expect.stringContaining('did you mean "Country"') },
    ]));
    const values = await plugin.check({}, { name: "x", rules: { op: "and", rules: [{ field: "Country", op: "equals", value: "Untied States" }] } }, FILTER);
    expect(values.failures).toEqual([{ property: "rules.rules[0].value", reason: expect.stringContaining('did you mean "United States"') }]);
    const members = await plugin.check({}, { filters: { paris: { rules: { op: "and", rules: [{ field: "Contry", op: "equals", value: "France" }] } } } }, SET);
    expect(members.failures).toEqual([{ property: 'filters["paris"].rules.rules[0].field', reason: expect.stringContaining('did you mean "Country"') }]);
    expect(since(position).filter((entry) => entry.method !== "GET")).toEqual([]);
    expect(await listed()).toEqual([]);
  });

  it("batches concurrent SavedFilter calls as the dynamic host does: 100 creates in one listing and one POST, 100 deletes in one DELETE", async () => {
    const checked: PropertyMap[] = [];
    for (let index = 0; index < 100; index += 1) {
      const result = await plugin.check({}, { name: `Episode ${index}`, rules: episode(index).rules }, { urn: urn("SavedFilter", `e${index}`) });
      expect(result.failures).toEqual([]);
      checked.push(result.inputs);
    }
    let position = mark();
    const created = await Promise.all(checked.map((inputs, index) => plugin.create(inputs, { urn: urn("SavedFilter", `e${index}`) })));
    expect(summarize(since(position))).toEqual(["GET 200", "POST 201"]);
    expect(new Set(created.map((result) => result.id)).size).toBe(100);
    position = mark();
    await Promise.all(created.map((result, index) => plugin.delete(result.id, result.outputs, { urn: urn("SavedFilter", `e${index}`) })));
    expect(summarize(since(position))).toEqual(["DELETE 200"]);
    expect(await listed()).toEqual([]);
  });

  it("serves a SavedFilterSet of 250 members with one bulk call per 100, as the dynamic host does, and diffs members at their paths", async () => {
    let position = mark();
    const created = await up(plugin, { filters: episodes(250) }, undefined, SET);
    expect(summarize(since(position))).toEqual(["POST 201", "POST 201", "POST 201"]);
    expect(Object.keys(created.state.outputs.ids as object)).toHaveLength(250);

    position = mark();
    const refreshed = await refresh(plugin, created.state, SET);
    expect(summarize(since(position))).toEqual(["GET 200", "GET 200", "GET 200"]);
    expect(refreshed!.outputs.ids).toEqual(created.state.outputs.ids);

    const one = await plugin.diff(created.state.id, created.state.outputs, { filters: { ...episodes(250), "episode-7": { ...episode(7), enabled: false } } }, { ...SET, oldInputs: created.state.inputs });
    expect(one).toMatchObject({ changes: "some", replaces: [], diffs: ["filters"] });
    expect(one.detailedDiff).toEqual({ 'filters["episode-7"].enabled': { kind: "update", inputDiff: false } });

    position = mark();
    const updated = await up(plugin, { filters: episodes(250, { enabled: false }) }, refreshed, SET);
    expect(summarize(since(position)).sort()).toEqual(["GET 200", "GET 200", "GET 200", "PUT 200", "PUT 200", "PUT 200"]);

    position = mark();
    await destroy(plugin, updated.state, SET);
    expect(summarize(since(position))).toEqual(["DELETE 200", "DELETE 200", "DELETE 200"]);
    expect(await listed()).toEqual([]);
  });

  it("answers a set's partial failure as ErrorResourceInitFailed with what was made, and completes on the next up", async () => {
    const filters = { ...episodes(30), bad: { ...episode(99), category: "NOPE" } };
    const error = (await failure(up(plugin, { filters }, undefined, SET))) as ProviderCallError;
    expect(error).toBeInstanceOf(ProviderCallError);
    expect(error.message).toMatch(/1 of 31 member changes failed/);
    expect(error.partial?.reasons).toEqual([expect.stringMatching(/^filters\["bad"\](\.category)?: (create failed: )?unknown category "NOPE"/)]);
    const partial = stateAfterFailure(error, { filters })!;
    expect(Object.keys(partial.outputs.ids as object)).toHaveLength(30);
    expect(await listed()).toHaveLength(30);

    const completed = await up(plugin, { filters: { ...filters, bad: episode(99) } }, partial, SET);
    expect(Object.keys(completed.state.outputs.ids as object)).toHaveLength(31);
    await destroy(plugin, completed.state, SET);
    expect(await listed()).toEqual([]);
  });

  it("keeps the credential out of everything the plugin answers, logs and prints", async () => {
    const { state } = await up(plugin, { name: "US and Canada", rules: usRules }, undefined, FILTER);
    await emulator.control("POST", "faults", { path: "/bulk_filters*", status: 500, times: 10 });
    const refused = (await failure(up(plugin, { name: "Renamed", rules: usRules }, state, FILTER))) as Error;
    expect(refused.message).toMatch(/SavedFilter "Renamed": update failed/);
    await emulator.control("DELETE", "faults");
    const authorization = Buffer.from(`${DEV.clientId}:${DEV.clientSecret}`).toString("base64");
    const everything = JSON.stringify([state, refused.message, plugin.diagnostics, plugin.stdout, plugin.stderr]);
    expect(everything).not.toContain(DEV.clientSecret);
    expect(everything).not.toContain(authorization);
  });
});
