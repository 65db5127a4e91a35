import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  captureDynamicResource, ProviderCallError, REPOSITORY_ROOT, secret, startProviderHost, startProviderPlugin, stateAfterFailure, up,
  PLUGIN_PACKAGE, type CallOptions, type PropertyMap, type ProviderHost,
} from "../../engine";
import { DEV, startEmulatorProcess, type EmulatorProcess } from "../support/emulator";
import { failure } from "../support/failure";
import { NO_MATCH_ESTIMATE, QUICK_UNKNOWN_OUTCOME, STEADY_BATCHING } from "./fixture";

/**
 * Every answer reaches the engine, whatever its size (docs/provider-plugins.md and
 * docs/dynamic-providers.md "Every answer reaches the engine"), through both hosts over gRPC: a
 * SavedFilterSet of 5,000 members with one member the service refuses (a partial failure whose
 * outputs are far more than a gRPC trailer carries), a property name and a member key of 100,000
 * characters in Check, an Invoke token of 100,000 characters. Each call is answered, the connection
 * answers the next call, and the next `up` completes the set with none of its filters made twice or
 * lost. Members are as small as declarations get: each value of a property bag costs both sides of
 * the wire time in google-protobuf's Struct conversions, seconds for thousands of members.
 */

const SET: CallOptions = { urn: "urn:pulumi:test::insights-test-project::insights:index:SavedFilterSet::episodes" };
const MEMBERS = 5_000;
const LONG = "p".repeat(100_000);
/** The engine records a failure from gRPC trailers; what the hosts send stays far below the 70,000 characters one carries. */
const TRAILER_BOUND = 30_000;

/** A member as small as a declaration gets: every value of a property bag costs the hosts' Struct conversions time. */
const episode = (index: number) => ({ rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: `E${index}` }] } });
/** 4,999 members and one the service refuses (an unknown category, which only the service knows), and the same with it fixed. */
const declared = Object.fromEntries(Array.from({ length: MEMBERS - 1 }, (_, index) => [`episode-${index}`, episode(index)]));
const refused = { ...declared, bad: { ...episode(MEMBERS), category: "NOPE" } };
const fixed = { ...declared, bad: episode(MEMBERS) };

/** In a process of its own: the driver's Struct conversions of thousands of members block this one for seconds. */
let emulator: EmulatorProcess;
let providerText: string;
const hostEnv = { ...STEADY_BATCHING, ...QUICK_UNKNOWN_OUTCOME, ...NO_MATCH_ESTIMATE };

beforeAll(async () => {
  emulator = await startEmulatorProcess();
  providerText = (await captureDynamicResource({ module: "dist/provider/index.js", exportName: "SavedFilterSet", args: ["episodes", { filters: { a: episode(1) } }] })).provider;
});
afterAll(async () => {
  await emulator?.close();
});
beforeEach(async () => {
  await emulator.reset();
});

/** The two hosts as the engine starts them for one `pulumi up`, and the inputs each takes. */
const HOSTS = {
  plugin: {
    start: async () => {
      const plugin = await startProviderPlugin({ env: hostEnv });
      await plugin.configure({ baseUrl: emulator.url, clientId: DEV.clientId, clientSecret: secret(DEV.clientSecret) }, { package: PLUGIN_PACKAGE });
      return plugin;
    },
    inputs: (args: PropertyMap): PropertyMap => args,
    options: SET,
  },
  "dynamic-provider host": {
    start: async () => {
      const host = await startProviderHost({ projectDir: REPOSITORY_ROOT, env: hostEnv });
      await host.configure({ "insights:baseUrl": emulator.url, "insights:clientId": DEV.clientId, "insights:clientSecret": secret(DEV.clientSecret) });
      return host;
    },
    inputs: (args: PropertyMap): PropertyMap => ({ ...args, __provider: providerText }),
    options: {} as CallOptions,
  },
} as const;

/** Every saved filter of the dev account, as the emulator's state export holds them (a listing stops at 500). */
async function everyFilter(): Promise<Array<{ id: string; name: string }>> {
  const { accounts } = (await emulator.control("GET", "state")).body as { accounts: Array<{ config: { clientId: string }; filters: { filters: Array<{ id: number; name: string }> } }> };
  return accounts.find((account) => account.config.clientId === DEV.clientId)!.filters.filters.map(({ id, name }) => ({ id: String(id), name }));
}

for (const [hostName, host] of Object.entries(HOSTS)) {
  describe(`through the ${hostName}`, () => {
    let first: ProviderHost;
    beforeAll(async () => {
      first = await host.start();
    });
    afterAll(async () => {
      await first?.close();
    });

    it(`answers a SavedFilterSet of ${MEMBERS} members with one refused, and the next up completes it, none made twice or lost`, async () => {
      // Create, the call whose failure must reach the engine (Check passes: only the service knows the category).
      const error = (await failure(first.create(host.inputs({ filters: refused }), host.options))) as ProviderCallError;
      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error.message).toMatch(new RegExp(
        `^SavedFilterSet: 1 of ${MEMBERS} member changes failed \\(the others were applied\\):\\n` +
          "The state records (\\d+) members' ids, all that a failure can carry; the (\\d+) others this run made were deleted again, " +
          "and the next `pulumi up` makes them anew: none is made twice\\.\\nfilters\\[\"bad\"\\]",
      ));
      expect(error.partial?.reasons).toEqual([expect.stringMatching(/^filters\["bad"\](\.category)?: (create failed: )?unknown category "NOPE"/)]);
      const partial = error.partial!;
      const recorded = Object.keys(partial.properties.ids as object).length;
      expect(recorded).toBeGreaterThan(100);
      expect(partial.properties.unrecorded).toBeUndefined();
      // The dynamic host's outputs keep what loads the provider for a later delete or refresh.
      if (hostName !== "plugin") expect(partial.properties.__provider).toBe(providerText);
      expect(JSON.stringify(partial).length + error.message.length).toBeLessThan(TRAILER_BOUND);
      // The account holds what the state records, nothing else.
      expect(new Set((await everyFilter()).map((filter) => filter.id))).toEqual(new Set(Object.values(partial.properties.ids as object)));
      // The same connection answers the next call.
      expect((await first.check({}, host.inputs({ filters: { a: episode(1) } }), host.options)).failures).toEqual([]);

      // The next `pulumi up`, the refused member fixed: what the state records is kept, the rest made anew.
      const completed = await up(first, host.inputs({ filters: fixed }), stateAfterFailure(error, host.inputs({ filters: refused }))!, host.options);
      expect(completed.operation).toBe("update");
      const ids = completed.state.outputs.ids as Record<string, string>;
      expect(Object.keys(ids).sort()).toEqual(Object.keys(fixed).sort());
      for (const [key, id] of Object.entries(partial.properties.ids as Record<string, string>)) expect(ids[key]).toBe(id);
      const account = await everyFilter();
      // None made twice (one filter per name), none lost (every filter the set's own).
      expect(account.length).toBe(MEMBERS);
      expect(new Set(account.map((filter) => filter.name)).size).toBe(MEMBERS);
      expect(new Set(account.map((filter) => filter.id))).toEqual(new Set(Object.values(ids)));
    }, 300_000);

    if (hostName === "plugin") {
      it("records what fits of an update too large, and the next up finds the rest by name and declared content, none made twice", async () => {
        // Every other key, so that each name's listing stays small (the `name` query matches substrings).
        const spread = (change: Record<string, unknown> = {}) =>
          Object.fromEntries(Array.from({ length: 1_000 }, (_, index) => [`city-${String(2 * index).padStart(4, "0")}`, { ...episode(index), ...change }]));
        const created = await up(first, host.inputs({ filters: spread() }), undefined, host.options);
        // Every member changes; one change the service refuses.
        const changed = { ...spread({ enabled: false }), "city-0000": { ...episode(0), category: "NOPE" } };
        const error = (await failure(up(first, host.inputs({ filters: changed }), created.state, host.options))) as ProviderCallError;
        expect(error.message).toMatch(/^SavedFilterSet: 1 of 1000 member changes failed \(the others were applied\):\nThe state records \d+ members' ids, all that a failure can carry; \d+ more are found by the next `pulumi up` in the account by their name and declared content: none is made twice\./);
        const partial = error.partial!;
        const unrecorded = partial.properties.unrecorded as number;
        expect(unrecorded).toBeGreaterThan(100);
        expect(Object.keys(partial.properties.ids as object).length + unrecorded).toBe(1_000);
        // The member whose change failed is recorded: its filter is not what it declares, so no name would find it.
        expect((partial.properties.ids as Record<string, string>)["city-0000"]).toBe((created.state.outputs.ids as Record<string, string>)["city-0000"]);
        expect(JSON.stringify(partial).length + error.message.length).toBeLessThan(TRAILER_BOUND);

        const next = await host.start();
        try {
          const fixedChange = { ...changed, "city-0000": { ...episode(0), enabled: false } };
          const completed = await up(next, host.inputs({ filters: fixedChange }), stateAfterFailure(error, host.inputs({ filters: changed }))!, host.options);
          expect(completed.state.outputs.ids).toEqual(created.state.outputs.ids);
          expect(completed.state.outputs.unrecorded).toBeUndefined();
          expect(new Set((await everyFilter()).map((filter) => filter.id))).toEqual(new Set(Object.values(created.state.outputs.ids as object)));
          expect(next.diagnostics.filter((line) => / it is adopted, not created again$/.test(line.message))).toHaveLength(unrecorded);
        } finally {
          await next.close();
        }
      }, 120_000);
    }

    it("answers a property name and a member key of 100,000 characters in Check, then the next call", async () => {
      const checked = await first.check({}, host.inputs({ filters: { [LONG]: { rules: { op: "and", rules: [{ field: "Contry", op: "equals", value: "x" }] } } }, [LONG]: 1 }), host.options);
      const unknown = checked.failures.find((failure) => failure.reason.includes("unknown property"))!;
      expect(unknown.property.length).toBeLessThan(600);
      expect(unknown.property).toMatch(/^p+… \[cut: 9\d,\d{3} characters\] …p+$/);
      expect(unknown.reason).toMatch(/unknown property; valid properties are "filters"/);
      for (const failure of checked.failures) expect(failure.property.length + failure.reason.length).toBeLessThan(2_000);
      expect(checked.failures.map((failure) => failure.reason).join("\n")).toMatch(/field/);
      expect((await first.check({}, host.inputs({ filters: { a: episode(1) } }), host.options)).failures).toEqual([]);
    });
  });
}

describe("Invoke and resource types of 100,000 characters through the plugin", () => {
  let plugin: ProviderHost;
  beforeAll(async () => {
    plugin = await HOSTS.plugin.start();
  });
  afterAll(async () => {
    await plugin?.close();
  });

  it("answers an Invoke token and a type token of 100,000 characters, then the next call", async () => {
    const invoked = (await failure(plugin.invoke(LONG, {}))) as ProviderCallError;
    expect(invoked.message).toMatch(/^"p+… \[cut: 9\d,\d{3} characters\] …p+" is not a function of the insights package; valid functions are /);
    expect(invoked.message.length).toBeLessThan(4_100);
    const typed = (await failure(plugin.check({}, {}, { urn: `urn:pulumi:test::insights-test-project::insights:index:${LONG}::x` }))) as ProviderCallError;
    expect(typed.message.length).toBeLessThan(4_100);
    expect((await plugin.getPluginInfo()).version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
