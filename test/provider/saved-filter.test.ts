import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CheckFailedError, destroy, ProviderCallError, refresh, up, type PropertyMap, type ProviderHost } from "../../engine";
import { DEV, DIALECT_ANSWERS, type TestEmulator } from "../support/emulator";
import { failure } from "../support/failure";
import { usRules, usRulesShuffled } from "../support/rule-trees";
import { startProviderFixture, type ProviderFixture } from "./fixture";

/**
 * SavedFilter through the real dynamic-provider host over gRPC, from the tsc build, against the
 * emulator: what `pulumi preview/up/refresh/destroy` would do (docs/dynamic-providers.md "Testing without the CLI").
 */
const MODULE = "dist/provider/index.js";

describe("SavedFilter through the dynamic-provider host", () => {
  let fixture: ProviderFixture;
  let emulator: TestEmulator;
  let host: ProviderHost;
  let providerText: string;

  /** The inputs the engine would send for `new SavedFilter(name, args)`. */
  const inputs = (args: Record<string, unknown>): PropertyMap => fixture.inputs(args);
  const listed = async (): Promise<Array<Record<string, any>>> => fixture.listed();

  beforeAll(async () => {
    fixture = await startProviderFixture({ module: MODULE, exportName: "SavedFilter", args: ["us", { name: "US and Canada", rules: usRules }] });
    ({ emulator, host, providerText } = fixture);
  });
  afterAll(() => fixture?.close());
  beforeEach(async () => {
    await emulator.control("POST", "reset");
  });

  it("serializes a small provider that names its implementation and holds no setting", () => {
    expect(providerText).toContain("pulumi-insights/dist/provider/resources/saved-filter/provider.js");
    expect(providerText.length).toBeLessThan(4_000);
    expect(providerText).not.toContain(DEV.clientSecret);
    expect(providerText).not.toContain(emulator.url);
  });

  it("creates, leaves an equivalent reordering alone, updates in place, clears a removed field and deletes", async () => {
    const created = await up(host, inputs({ name: "US and Canada", rules: usRules, category: "GEO", subcategory: "Country" }));
    expect(created.operation).toBe("create");
    expect(created.state.outputs).toMatchObject({
      filterId: created.state.id, name: "US and Canada", category: "GEO", subcategory: "Country",
      advanced: false, content: false, enabled: true, creator: "dev@example.com", created: expect.any(String),
    });
    expect((await listed()).map((filter) => filter.id)).toEqual([created.state.id]);

    const same = await up(host, inputs({ name: "US and Canada", rules: usRulesShuffled, category: "GEO", subcategory: "Country" }), created.state);
    expect(same.operation).toBe("same");

    const mark = fixture.mark();
    const renamed = await up(host, inputs({ name: "North America", rules: usRulesShuffled, subcategory: "Country", category: "GEO", advanced: true }), created.state);
    expect(renamed.operation).toBe("update");
    expect(renamed.state.id).toBe(created.state.id);
    expect(renamed.state.outputs).toMatchObject({ name: "North America", advanced: true });
    // Only what changed is sent (spec 4.8: PUT merges).
    const puts = fixture.requestsSince(mark).filter((entry) => entry.method === "PUT");
    expect(puts).toHaveLength(1);

    const withoutCategory = inputs({ name: "North America", rules: usRules, advanced: true });
    if (!DIALECT_ANSWERS.nullClearsAField) {
      // A service that refuses null cannot clear a field by a PUT: the update says so and what to do.
      const refused = await failure(up(host, withoutCategory, renamed.state));
      expect((refused as Error).message).toContain("the change clears category and subcategory by sending null (docs/api.md 11.2), which the service refused");
      expect((await listed())[0]).toMatchObject({ category: "GEO", subcategory: "Country" });
      await destroy(host, renamed.state);
      expect(await listed()).toEqual([]);
      return;
    }
    const cleared = await up(host, withoutCategory, renamed.state);
    expect(cleared.operation).toBe("update");
    expect(cleared.state.outputs).not.toHaveProperty("category");
    const [stored] = await listed();
    expect(stored).not.toHaveProperty("category");
    expect(stored).not.toHaveProperty("subcategory");

    await destroy(host, cleared.state);
    expect(await listed()).toEqual([]);
  });

  it("prints the change of the rules as a rule-tree diff during preview", async () => {
    const { state } = await up(host, inputs({ name: "US and Canada", rules: usRules }));
    const changed = { op: "and", rules: [{ field: "Country", op: "equals", value: "Mexico" }] };
    const diff = await host.diff(state.id, state.outputs, inputs({ name: "US and Canada", rules: changed }));
    expect(diff.changes).toBe("some");
    expect(diff.replaces).toEqual([]);
    const printed = await host.waitForDiagnostic((line) => line.message.includes("Mexico"));
    expect(printed.severity).toBe("info");
    const shown = host.diagnostics.map((line) => line.message).join("\n");
    expect(shown).toContain('SavedFilter "US and Canada": rules change');
    expect(shown).toMatch(/-.*United States/);
  });

  it("shows drift made in the console on refresh, and the next up puts the declared state back", async () => {
    const { state } = await up(host, inputs({ name: "US and Canada", rules: usRules }));
    await emulator.call("PUT", "/bulk_filters/", { body: [{ id: state.id, name: "Edited in the console", enabled: false }] });

    const refreshed = await refresh(host, state);
    expect(refreshed?.outputs).toMatchObject({ name: "Edited in the console", enabled: false });

    const repaired = await up(host, inputs({ name: "US and Canada", rules: usRules }), refreshed);
    expect(repaired.operation).toBe("update");
    expect((await listed())[0]).toMatchObject({ name: "US and Canada", enabled: true });
  });

  it("records when the filter was last edited, so a refresh after an update finds nothing changed", async () => {
    const { state } = await up(host, inputs({ name: "US and Canada", rules: usRules }));
    await emulator.control("POST", "clock", { advance: "PT1H" });
    const updated = await up(host, inputs({ name: "US and Canada", rules: usRules, enabled: false }), state);
    expect(updated.operation).toBe("update");
    expect(updated.state.outputs.edited).not.toBe(state.outputs.edited);
    // What a scheduled `pulumi preview --refresh --expect-no-changes` relies on: no change to report.
    expect((await refresh(host, updated.state))?.outputs).toEqual(updated.state.outputs);
  });

  it("drops a filter deleted outside Pulumi on refresh, and a second delete succeeds", async () => {
    const { state } = await up(host, inputs({ name: "US and Canada", rules: usRules }));
    await emulator.call("DELETE", "/bulk_filters/", { query: { id: state.id } });
    expect(await refresh(host, state)).toBeUndefined();
    await expect(destroy(host, state)).resolves.toBeUndefined();
  });

  it("adopts an existing filter by adoptId instead of creating one", async () => {
    const existing = await emulator.call("POST", "/bulk_filters/", {
      body: [{ name: "Made in the console", rules: { op: "and", rules: [{ field: "CDN", op: "contains", value: "Akamai" }] } }],
    });
    const id = String(existing.body[0].id);
    const adopted = await up(host, inputs({ name: "Managed now", rules: usRules, adoptId: id }));
    expect(adopted.state.id).toBe(id);
    expect(adopted.state.outputs).toMatchObject({ filterId: id, name: "Managed now", adoptId: id });
    expect((await listed()).map((filter) => [filter.id, filter.name])).toEqual([[id, "Managed now"]]);

    await expect(up(host, inputs({ name: "Nothing to adopt", rules: usRules, adoptId: "999999" }))).rejects.toThrow(/adoptId 999999/);
  });

  it("does not leave two filters behind when the create answer is lost after the server committed", async () => {
    await emulator.control("POST", "faults", { method: "POST", path: "/bulk_filters*", reset: "after-write", times: 1 });
    const mark = fixture.mark();
    const created = await up(host, inputs({ name: "US and Canada", rules: usRules }));
    const filters = await listed();
    expect(filters).toHaveLength(1);
    expect(created.state.id).toBe(filters[0]!.id);
    const posts = fixture.requestsSince(mark).filter((entry) => entry.method === "POST");
    expect(posts).toEqual([expect.objectContaining({ reset: true })]);
  });

  it("after a reset, sends nothing again and fails saying the outcome is unknown; the next up creates the filter once", async () => {
    await emulator.control("POST", "faults", { method: "POST", path: "/bulk_filters*", reset: "before", times: 1 });
    const mark = fixture.mark();
    const attempt = await up(host, inputs({ name: "US and Canada", rules: usRules })).catch((error: unknown) => error);
    expect(attempt).toBeInstanceOf(ProviderCallError);
    expect((attempt as Error).message).toContain('SavedFilter "US and Canada": create failed: the outcome of the create of saved filter "US and Canada" is unknown');
    expect((attempt as Error).message).toContain("the next `pulumi up` looks for the filter by its name and declared content and adopts it if it was made, else creates it");
    expect(fixture.requestsSince(mark).filter((entry) => entry.method === "POST")).toHaveLength(1);
    const created = await up(host, inputs({ name: "US and Canada", rules: usRules }));
    expect((await listed()).map((filter) => filter.id)).toEqual([created.state.id]);
    expect(fixture.requestsSince(mark).filter((entry) => entry.method === "POST")).toHaveLength(2);
  });

  it("fails check with the exact path and a suggestion, before anything is sent", async () => {
    const bad = {
      name: "",
      enabled: "yes",
      rules: {
        op: "and",
        rules: [
          { op: "or", rules: [{ field: "Country", op: "equals", value: "Untied States" }, { field: "Contry", op: "equals", value: "Canada" }] },
          { field: "Tag", key: "deviceid", op: "contains", value: "x" },
        ],
      },
    };
    const attempt = up(host, inputs(bad));
    await expect(attempt).rejects.toBeInstanceOf(CheckFailedError);
    const failures = ((await attempt.catch((error: CheckFailedError) => error)) as CheckFailedError).failures;
    const reasons = failures.map((failure) => `${failure.property}: ${failure.reason}`);
    expect(reasons).toEqual(expect.arrayContaining([
      expect.stringMatching(/^name: /),
      expect.stringMatching(/^enabled: /),
      expect.stringMatching(/^rules: rules\.rules\[0\]\.rules\[1\]\.field: .*did you mean "Country"/),
    ]));
    // The structure is wrong, so the values are not looked up yet; once it is fixed they are.
    const values = await host.check({}, inputs({ name: "x", rules: { op: "and", rules: [{ field: "Country", op: "equals", value: "Untied States" }, { field: "Tag", key: "deviceid", op: "contains", value: "x" }] } }));
    expect(values.failures.map((failure) => failure.reason)).toEqual([
      expect.stringMatching(/^rules\.rules\[0\]\.value: .*did you mean "United States"/),
      expect.stringMatching(/^rules\.rules\[1\]\.key: .*did you mean "deviceId"/),
    ]);
    expect(await listed()).toEqual([]);
  });

  it("fails check on a misspelt property instead of dropping it, and on rule groups nested deeper than 16", async () => {
    const misspelt = await host.check({}, inputs({ name: "US and Canada", rules: usRules, enabeld: false }));
    expect(misspelt.failures).toEqual([{ property: "enabeld", reason: 'enabeld: unknown property; did you mean "enabled"?' }]);
    // 16 groups deep is accepted, 17 is what the service refuses (docs/api.md 11.2).
    const nested = (depth: number): Record<string, unknown> =>
      depth === 1 ? { op: "and", rules: [{ field: "Country", op: "equals", value: "Canada" }] } : { op: depth % 2 === 0 ? "or" : "and", rules: [nested(depth - 1)] };
    expect((await host.check({}, inputs({ name: "deep", rules: nested(16) }))).failures).toEqual([]);
    const deep = await host.check({}, inputs({ name: "deep", rules: nested(17) }));
    expect(deep.failures.map((failure) => failure.reason)).toEqual([
      `rules${".rules[0]".repeat(16)}: rule groups nest at most 16 deep (docs/api.md 11.2); merge nested groups of the same op, or split the filter`,
    ]);
    expect(await listed()).toEqual([]);
  });

  it("keeps the credential out of outputs, diagnostics and errors", async () => {
    const { state } = await up(host, inputs({ name: "US and Canada", rules: usRules }));
    await emulator.control("POST", "faults", { path: "/bulk_filters*", status: 500, times: 10 });
    const error = await failure(up(host, inputs({ name: "Renamed", rules: usRules }), state));
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toMatch(/SavedFilter "Renamed": update failed/);
    const authorization = Buffer.from(`${DEV.clientId}:${DEV.clientSecret}`).toString("base64");
    const everything = JSON.stringify([state, (error as Error).message, host.diagnostics, host.stdout, host.stderr]);
    expect(everything).not.toContain(DEV.clientSecret);
    expect(everything).not.toContain(authorization);
  });
});
