import { readFileSync } from "node:fs";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  isSecret, PLUGIN_PACKAGE, ProviderCallError, REPOSITORY_ROOT, secret, startProviderPlugin, type PropertyMap, type ProviderHost,
} from "../../engine";
import { servedSchema } from "../../provider/plugin/package-schema";
import { BASIC, DEV, useTestEmulator } from "../support/emulator";
import { usRules } from "../support/rule-trees";

/**
 * The provider plugin `pulumi-resource-insights` over gRPC, started as the engine starts it
 * (docs/provider-plugins.md rule 1) and called as the engine calls it, against the emulator: its
 * version and schema, its settings (CheckConfig, DiffConfig, Configure), the functions through
 * Invoke, a resource type it does not have, and its lines through the engine's `Log` (the resources:
 * ./resources.test.ts).
 */

const emulator = useTestEmulator();
const PACKAGE_VERSION = (JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, "package.json"), "utf8")) as { version: string }).version;
/** The schema the plugin serves: the committed one with package.json's version and its release's download URL (provider/plugin/package-schema.ts). */
const SERVED_SCHEMA = servedSchema();
const SAVED_FILTER_URN = "urn:pulumi:test::insights-test-project::insights:index:SavedFilter::north-america";
/** An account of its own lookup values, added to the emulator and named in the provider's `accounts`. */
const TOWNS = { clientId: "plugin-towns", clientSecret: "plugin-towns-secret", features: { bulkFilters: true }, lookupValues: { cities: ["Town A", "Town B"] } };

/** The error a call failed with. */
async function failure(call: Promise<unknown>): Promise<ProviderCallError> {
  const error = await call.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(ProviderCallError);
  return error as ProviderCallError;
}

describe("pulumi-resource-insights, started as the engine starts it", () => {
  let plugin: ProviderHost;
  let settings: PropertyMap;

  beforeAll(async () => {
    expect((await emulator.control("POST", "accounts", TOWNS)).status).toBe(201);
    // The flags the engine may put before its address (rule 1) are skipped.
    plugin = await startProviderPlugin({ flags: ["--logtostderr", "-v=9", "--tracing", "http://127.0.0.1:1/trace"] });
    settings = {
      baseUrl: emulator.url,
      clientId: DEV.clientId,
      clientSecret: secret(DEV.clientSecret),
      accounts: secret({ towns: { baseUrl: emulator.url, clientId: TOWNS.clientId, clientSecret: TOWNS.clientSecret }, basic: { baseUrl: emulator.url, ...BASIC } }),
      maxRetries: 0,
    };
    expect(await plugin.configure(settings, { package: PLUGIN_PACKAGE })).toEqual({ acceptSecrets: true, supportsPreview: false, acceptResources: false, acceptOutputs: false });
  });
  afterAll(async () => {
    await plugin?.close();
  });

  it("answers its version and its schema, and no other schema version", async () => {
    expect(await plugin.getPluginInfo()).toEqual({ version: PACKAGE_VERSION });
    expect(JSON.parse(await plugin.getSchema())).toEqual(SERVED_SCHEMA);
    expect((await failure(plugin.getSchema(1))).message).toContain("unsupported schema version 1");
  });

  it("checks its settings as the client would refuse them, naming the setting and never the secret", async () => {
    const valid = await plugin.checkConfig({}, { ...settings, version: "0.1.0" });
    expect(valid).toEqual({ inputs: { ...settings, version: "0.1.0" }, failures: [] });
    // Nothing set is no failure: the environment may hold the settings (rule 5).
    expect((await plugin.checkConfig({}, {})).failures).toEqual([]);

    const checked = await plugin.checkConfig({}, {
      baseURL: "https://api.example.com",
      baseUrl: "http://api.example.com",
      clientId: "platform",
      clientSecret: secret("s3cr3t-value"),
      timeoutMs: "soon",
      accounts: secret({ staging: { baseUrl: "https://staging.example.com", clientId: "staging:team", clientSecret: "other-s3cr3t" } }),
    });
    expect(checked.failures).toEqual([
      { property: "baseURL", reason: 'unknown property; did you mean "baseUrl"?' },
      { property: "timeoutMs", reason: expect.stringContaining("must be an integer from 1 to 3600000") },
      { property: "baseUrl", reason: expect.stringContaining("uses plain HTTP: HTTPS is required") },
      { property: "accounts.staging.clientId", reason: expect.stringContaining("clientId must not contain ':'") },
    ]);
    expect(JSON.stringify(checked.failures)).not.toMatch(/s3cr3t/);
    const malformed = await plugin.checkConfig({}, { accounts: "{not json" });
    expect(malformed.failures).toEqual([{ property: "accounts", reason: expect.stringContaining("is not valid JSON") }]);
  });

  it("diffs its settings key by key and never replaces the provider", async () => {
    expect(await plugin.diffConfig(settings, { ...settings })).toMatchObject({ changes: "none", replaces: [] });
    const moved = await plugin.diffConfig(settings, { ...settings, clientId: "another", timeoutMs: 5000 });
    expect(moved).toMatchObject({
      changes: "some",
      replaces: [],
      diffs: ["clientId", "timeoutMs"],
      hasDetailedDiff: true,
      detailedDiff: { clientId: { kind: "update", inputDiff: true }, timeoutMs: { kind: "add", inputDiff: true } },
    });
  });

  it("answers getFilterFieldValues through Invoke, with the provider's settings or a named account's", async () => {
    const countries = (await emulator.get("/bulk_filters/countries/")).body as { values: string[] };
    expect(await plugin.invoke("insights:index:getFilterFieldValues", { field: "countries" })).toEqual({
      outputs: { values: countries.values, complete: true },
      failures: [],
    });
    const united = await plugin.invoke("insights:index:getFilterFieldValues", { field: "countries", pattern: "United" });
    expect(united.outputs.values).toEqual(countries.values.filter((country) => country.includes("United")));
    const towns = await plugin.invoke("insights:index:getFilterFieldValues", { field: "cities", account: "towns" });
    const townsCities = (await emulator.get("/bulk_filters/cities/", undefined, TOWNS)).body as { values: string[] };
    expect(townsCities.values).toEqual(expect.arrayContaining(["Town A", "Town B"]));
    expect(towns).toEqual({ outputs: { values: townsCities.values, complete: true }, failures: [] });
    const devCities = await plugin.invoke("insights:index:getFilterFieldValues", { field: "cities" });
    expect(devCities.outputs.values).not.toContain("Town A");
  });

  it("refuses arguments at their path, settings in the arguments, and unknown functions with the nearest", async () => {
    // Every SDK prints a failure as `reason (property)`: the reason does not repeat the path.
    const unknownField = await plugin.invoke("insights:index:getFilterFieldValues", { field: "countrys" });
    expect(unknownField.failures).toEqual([{ property: "field", reason: '"countrys" is not a known lookup; did you mean "countries"?' }]);
    const unknownArgument = await plugin.invoke("insights:index:getKpis", { rnage: {} });
    expect(unknownArgument.failures).toEqual([{ property: "rnage", reason: expect.stringMatching(/^is not an argument of this method/) }]);
    const connection = await plugin.invoke("insights:index:getFilterFieldValues", { field: "countries", connection: { clientSecret: secret("x") } });
    expect(connection.failures).toEqual([{ property: "connection", reason: expect.stringMatching(/^the plugin's functions take their settings from the provider/) }]);
    const account = await plugin.invoke("insights:index:getFilterFieldValues", { field: "countries", account: 3 });
    expect(account.failures).toEqual([{ property: "account", reason: expect.stringMatching(/^must be the name of an account/) }]);
    const unknownAccount = await failure(plugin.invoke("insights:index:getFilterFieldValues", { field: "countries", account: "town" }));
    expect(unknownAccount.message).toContain('no account named "town": did you mean "towns"?');
    const unknownFunction = await failure(plugin.invoke("insights:index:getFilterFieldValue", {}));
    expect(unknownFunction.message).toContain('did you mean "insights:index:getFilterFieldValues"?');
  });

  it("answers personal data as secrets", async () => {
    const submitted = await emulator.call("POST", "/pii-opt-out", { body: { viewer_id: ["plugin-viewer-1"] } });
    expect(submitted.status).toBe(201);
    const read = await plugin.invoke("insights:index:getPiiOptOutRequest", { id: submitted.body.id });
    expect(read.failures).toEqual([]);
    expect(Object.keys(read.outputs)).toContain("identifiers");
    for (const value of Object.values(read.outputs)) expect(isSecret(value)).toBe(true);
  });

  it("serves Check, Diff, Create, Read, Update and Delete that carry only the URN, as engines before Pulumi 3.131 send them", async () => {
    // No type or name beside the URN: the plugin reads them from it (docs/provider-plugins.md).
    const call = { urn: SAVED_FILTER_URN, urnOnly: true };
    const inputs = { name: "Only a URN", rules: usRules };
    const checked = await plugin.check({}, inputs, call);
    expect(checked.failures).toEqual([]);
    const created = await plugin.create(checked.inputs, call);
    expect(created.outputs).toMatchObject({ filterId: created.id, name: "Only a URN", enabled: true });
    const disabled = { ...checked.inputs, enabled: false };
    expect(await plugin.diff(created.id, created.outputs, disabled, call)).toMatchObject({ changes: "some", replaces: [], detailedDiff: { enabled: { kind: "update" } } });
    const updated = await plugin.update(created.id, created.outputs, disabled, call);
    expect(updated.outputs).toMatchObject({ filterId: created.id, enabled: false });
    expect(await plugin.read(created.id, updated.outputs, call)).toMatchObject({ id: created.id, outputs: { enabled: false } });
    await plugin.delete(created.id, updated.outputs, call);
    expect(await plugin.read(created.id, updated.outputs, call)).toMatchObject({ id: undefined });
    // A URN of a type the package does not have is refused as a type field naming it would be.
    const typo = await failure(plugin.check({}, inputs, { urn: SAVED_FILTER_URN.replace("SavedFilter", "SavedFiltr"), urnOnly: true }));
    expect(typo.message).toContain('did you mean "insights:index:SavedFilter"?');
  });

  it("refuses a type it does not have with the nearest token", async () => {
    const typo = await failure(plugin.check({}, {}, { urn: SAVED_FILTER_URN.replace("SavedFilter", "SavedFiltr") }));
    expect(typo.code).toBe(grpc.status.UNIMPLEMENTED);
    expect(typo.message).toContain('did you mean "insights:index:SavedFilter"?');
  });

  it("speaks through the engine's Log, never its stdout, and words a failed connection as the data sources do, inert", async () => {
    // The service's words hold a terminal's escape sequence and a bidi override (provider/text/inert.ts).
    const body = { error: "unavailable", message: "down \u001b[2J\u202e for maintenance" };
    await emulator.control("POST", "faults", { method: "GET", path: "/bulk_filters/isp/", status: 503, times: 1, body });
    const refused = await failure(plugin.invoke("insights:index:getFilterFieldValues", { field: "isp" }));
    // The words of a TypeScript program's getFilterFieldValues (connection-check/words.ts): the account, the answer, what to do.
    expect(refused.message).toMatch(
      new RegExp(`^getFilterFieldValues: the account ${emulator.url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(client id "${DEV.clientId}"\\) could not be read: the service failed: .*HTTP 503.*This may pass: try again$`),
    );
    expect(refused.message).toContain("down \\u001b[2J\\u202e for maintenance");
    const line = await plugin.waitForDiagnostic((diagnostic) => diagnostic.source === "engine" && diagnostic.message.includes("giving up after 1 attempt"));
    expect(line).toMatchObject({ severity: "info", urn: "" });
    expect(plugin.stdout).toEqual([]);
    const shown = [refused.message, ...plugin.diagnostics.map((diagnostic) => diagnostic.message)].join("\n");
    expect(shown).not.toContain(DEV.clientSecret);
    expect(shown).not.toMatch(/[\u001b\u202e]/);
  });

  it("says once what an account without bulk filters needs, in the words of the preview and the data sources", async () => {
    const refused = await failure(plugin.invoke("insights:index:getFilterFieldValues", { field: "countries", account: "basic" }));
    expect(refused.message).toContain(`getFilterFieldValues: the account ${emulator.url} (client id "basic") does not have the saved-filter management API (/bulk_filters) enabled: GET /bulk_filters/countries/ failed with HTTP 403`);
    expect(refused.message).toMatch(/\. SavedFilter, SavedFilterSet and the saved-filter data sources need it: ask the account's representative to enable the bulk-filters feature, or use an account that has it$/);
    expect(refused.message.match(/representative/g)).toHaveLength(1);
  });

  it("names the account of a named account's refused secret with the command that sets it", async () => {
    const wrongSecret = await plugin.configure({ ...settings, accounts: secret({ towns: { baseUrl: emulator.url, clientId: TOWNS.clientId, clientSecret: "not-the-secret" } }) }, { package: PLUGIN_PACKAGE });
    expect(wrongSecret.acceptSecrets).toBe(true);
    try {
      const refused = await failure(plugin.invoke("insights:index:getFilterFieldValues", { field: "cities", account: "towns" }));
      expect(refused.message).toContain(`getFilterFieldValues: the account ${emulator.url} (client id "${TOWNS.clientId}") refused the client id and secret: `);
      expect(refused.message).toContain("Set the right secret with `pulumi config set --secret --path 'insights:accounts.towns.clientSecret'`");
      expect(refused.message).not.toContain("not-the-secret");
    } finally {
      await plugin.configure(settings, { package: PLUGIN_PACKAGE });
    }
  });
});

describe("pulumi-resource-insights, started from its folder as Pulumi starts it", () => {
  it.each(["executable", "run-plugin"] as const)("%s: serves its version and schema", async (launcher) => {
    const plugin = await startProviderPlugin({ launcher });
    try {
      expect(await plugin.getPluginInfo()).toEqual({ version: PACKAGE_VERSION });
      expect(JSON.parse(await plugin.getSchema())).toEqual(SERVED_SCHEMA);
    } finally {
      await plugin.close();
    }
  });

  it("stops the functions in flight when the engine cancels", async () => {
    await emulator.control("POST", "faults", { method: "GET", path: "/bulk_filters/dma/", latencyMs: 60_000, times: 1 });
    const plugin = await startProviderPlugin({ launcher: "run-plugin" });
    try {
      await plugin.configure({ baseUrl: emulator.url, clientId: DEV.clientId, clientSecret: secret(DEV.clientSecret) }, { package: PLUGIN_PACKAGE });
      const pending = failure(plugin.invoke("insights:index:getFilterFieldValues", { field: "dma" }));
      await plugin.cancel();
      expect((await pending).message).toMatch(/cancel|abort/i);
    } finally {
      await plugin.close();
    }
  });
});
