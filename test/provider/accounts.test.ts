import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  captureDynamicResource, CheckFailedError, createTestProject, Deployment, destroy, refresh, REPOSITORY_ROOT, secret, startProviderHost, up,
  type PropertyMap, type ProviderHost, type ResourceState, type TestProject,
} from "../../engine";
import { DEV_ACCOUNT } from "../../emulator";
import { DEV, listedItems, type Credentials } from "../support/emulator";
import { failure } from "../support/failure";
import { NO_MATCH_ESTIMATE, QUICK_UNKNOWN_OUTCOME, STEADY_BATCHING, startProviderFixture, summarize, type ProviderFixture } from "./fixture";

/**
 * Accounts (docs/configuration.md "Accounts") through the real dynamic-provider host against two accounts of one
 * emulator: a program with two named accounts (`insights:accounts`) manages filters in both; a
 * resource whose settings now point at another account fails naming both; a state written before
 * accounts were recorded adopts the account it is in.
 */
const MODULE = "dist/provider/index.js";
const PROGRAM = "test/fixtures/two-accounts/program.cjs";

/** The second account, with the features the filters need (emulator/accounts.ts). */
const STAGING = { clientId: "staging", clientSecret: "staging-secret-7c1f", userName: "staging@example.com" } as const;
const SECRETS = [DEV.clientSecret, STAGING.clientSecret];

const rules = { op: "and", rules: [{ field: "Tag", key: "deviceId", op: "not_contains", value: "test-" }] };

/** `require` from the repository root: `pulumi-insights` resolves by self-reference to dist/, as in the program. */
const requireFromRoot = createRequire(path.join(REPOSITORY_ROOT, "package.json"));

describe("accounts through the dynamic-provider host", () => {
  let fixture: ProviderFixture;
  let host: ProviderHost;
  /** A second host whose settings point the default and "production" at the staging account. */
  let movedHost: ProviderHost;
  let project: TestProject;
  /** The `__provider` texts of SavedFilterSet and PiiOptOutRequest. */
  let setProvider: string;
  let optOutProvider: string;

  const settingsOf = ({ clientId, clientSecret }: Credentials) => ({ baseUrl: fixture.emulator.url, clientId, clientSecret });
  const accounts = (production: Credentials, staging: Credentials) => ({ production: settingsOf(production), staging: settingsOf(staging) });
  /** The filters an account lists: id, name and creator. */
  const listedIn = async (account: Credentials) =>
    ((await fixture.emulator.get("/bulk_filters/", undefined, account)).body.filters as Array<Record<string, unknown>>)
      .map((filter) => ({ id: String(filter.id), name: filter.name, creator: filter.creator }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name)));
  const inputs = (args: Record<string, unknown>): PropertyMap => fixture.inputs(args);

  beforeAll(async () => {
    fixture = await startProviderFixture({
      module: MODULE,
      exportName: "SavedFilter",
      args: ["f", { name: "f", rules }],
      emulatorOptions: { accounts: [DEV_ACCOUNT, { ...STAGING, features: { bulkFilters: true, adInsights: true, viewerModule: true } }] },
    });
    host = fixture.host;
    // Configure once more before the first call: the default settings, and the named accounts as a secret object.
    await host.configure({
      "insights:baseUrl": fixture.emulator.url,
      "insights:clientId": DEV.clientId,
      "insights:clientSecret": secret(DEV.clientSecret),
      "insights:accounts": secret(accounts(DEV, STAGING)),
    });
    project = createTestProject();
    [{ provider: setProvider }, { provider: optOutProvider }] = await Promise.all([
      captureDynamicResource({ module: MODULE, exportName: "SavedFilterSet", args: ["s", { filters: { a: { rules } } }] }),
      captureDynamicResource({ module: MODULE, exportName: "PiiOptOutRequest", args: ["p", { viewerIds: ["v"], waitForCompletion: false }] }),
    ]);
    movedHost = await startProviderHost({ projectDir: project.dir, env: { ...STEADY_BATCHING, ...QUICK_UNKNOWN_OUTCOME, ...NO_MATCH_ESTIMATE } });
    await movedHost.configure({
      "insights:baseUrl": `${fixture.emulator.url}/`,
      "insights:clientId": STAGING.clientId,
      "insights:clientSecret": secret(STAGING.clientSecret),
      "insights:accounts": secret(accounts(STAGING, STAGING)),
    });
  });
  afterAll(async () => {
    await (requireFromRoot("pulumi-insights") as typeof import("../../provider")).closeDataSourceClients();
    await movedHost?.close();
    project?.remove();
    await fixture?.close();
  });

  it("a program with two named accounts creates, updates and deletes filters in each, batching per account and keeping the secrets out", async () => {
    await fixture.emulator.control("POST", "reset");
    const lines: string[] = [];
    const stack = new Deployment({
      host,
      program: { module: PROGRAM, exportName: "twoAccounts" },
      project: "insights-test-project",
      stack: "dev",
      write: (line) => lines.push(line),
      config: { "insights:accounts": JSON.stringify(accounts(DEV, STAGING)) },
      secretConfigKeys: ["insights:accounts"],
    });

    const mark = fixture.mark();
    const created = await stack.update();
    expect(created.failed, lines.join("\n")).toBe(false);
    const outputs = created.outputs as Record<string, any>;
    const memberId = outputs.memberIds.roku as string;
    expect(await listedIn(DEV)).toEqual([{ id: outputs.productionId, name: "No test devices", creator: "dev@example.com" }]);
    expect(await listedIn(STAGING)).toEqual([
      { id: outputs.stagingId, name: "No test devices", creator: STAGING.userName },
      { id: memberId, name: "Roku devices", creator: STAGING.userName },
    ]);
    // The opt-out request was made in staging only.
    const optOuts = async (account: Credentials) => listedItems((await fixture.emulator.get("/pii-opt-out", undefined, account)).body, "requests");
    expect(await optOuts(STAGING)).toHaveLength(1);
    expect(await optOuts(DEV)).toEqual([]);
    // The data source read the staging account, where the program's filter is.
    expect(outputs.stagingFoundId).toBe(outputs.stagingId);
    // Every bulk call was sent with the credentials of one of the two accounts; each account got its own POST.
    const posts = fixture.requestsSince(mark).filter((entry) => entry.method === "POST" && entry.path.startsWith("/bulk_filters"));
    expect(posts.length).toBeGreaterThan(0);
    expect(new Set(posts.map((entry) => entry.account))).toEqual(new Set([DEV.clientId, STAGING.clientId]));

    const resources = stack.resources;
    expect(resources.get("production-no-test-devices")?.outputs).toMatchObject({ account: "production", recordedAccount: { baseUrl: fixture.emulator.url, clientId: DEV.clientId } });
    expect(resources.get("staging-no-test-devices")?.outputs).toMatchObject({ account: "staging", recordedAccount: { baseUrl: fixture.emulator.url, clientId: STAGING.clientId } });
    expect(resources.get("staging-platforms")?.outputs).toMatchObject({ account: "staging", recordedAccount: { clientId: STAGING.clientId } });
    expect(resources.get("staging-forget")?.outputs).toMatchObject({ account: "staging", recordedAccount: { clientId: STAGING.clientId } });

    stack.setConfig("insights:testDevicePrefix", "qa-");
    const updated = await stack.update();
    expect(updated.failed, lines.join("\n")).toBe(false);
    const operations = Object.fromEntries(updated.steps.map((step) => [step.name, step.operation]));
    expect(operations).toEqual({ "production-no-test-devices": "update", "staging-no-test-devices": "update", "staging-platforms": "same", "staging-forget": "same" });
    for (const account of [DEV, STAGING]) {
      const held = (await fixture.emulator.get("/bulk_filters/", undefined, account)).body.filters as Array<Record<string, any>>;
      const filter = held.find((candidate) => candidate.name === "No test devices");
      expect(JSON.stringify(filter?.rules)).toContain("qa-");
    }

    // Refresh reads each filter in its own account: none is missing or changed.
    const drifts = await stack.refresh();
    expect(drifts.filter((drift) => drift.type.endsWith("SavedFilter") || drift.type.endsWith("SavedFilterSet"))).toEqual([]);
    expect(stack.resources.size).toBe(4);
    // The opt-out request was read in staging, where it is: its creation time is known now (it is in no other account).
    expect(stack.resources.get("staging-forget")?.outputs.requests).toEqual([expect.objectContaining({ status: "ENQUEUED", createdAt: expect.any(String) })]);
    const everything = JSON.stringify([...stack.resources.values()]) + JSON.stringify(outputs) + lines.join("\n") + JSON.stringify(host.diagnostics);
    for (const text of SECRETS) expect(everything).not.toContain(text);

    await stack.destroy();
    expect(await listedIn(DEV)).toEqual([]);
    expect(await listedIn(STAGING)).toEqual([]);
  });

  it("refuses an account name that insights:accounts does not hold, naming the ones it does", async () => {
    const refused = await failure(up(host, inputs({ name: "x", rules, account: "stagign" })));
    expect(refused).toBeInstanceOf(CheckFailedError);
    expect((refused as CheckFailedError).failures).toEqual([
      { property: "account", reason: 'account: no account named "stagign": did you mean "staging"? (stack config insights:accounts)' },
    ]);
  });

  it("replaces a filter whose account input names another account, saying so in the preview", async () => {
    await fixture.emulator.control("POST", "reset");
    const created = await up(host, inputs({ name: "Moving", rules }));
    expect(created.state.outputs.recordedAccount).toEqual({ baseUrl: fixture.emulator.url, clientId: DEV.clientId });
    // "production" is the account the default settings point at: naming it changes no account.
    const renamed = await up(host, inputs({ name: "Moving", rules, account: "production" }), created.state);
    expect(renamed.operation).toBe("update");
    expect(renamed.diff?.replaces).toEqual([]);
    const moved = await up(host, inputs({ name: "Moving", rules, account: "staging" }), renamed.state);
    expect(moved.operation).toBe("replace");
    expect(moved.diff?.replaces).toEqual(["account"]);
    await host.waitForDiagnostic(`SavedFilter "Moving" (id ${created.state.id}): moves from the account ${fixture.emulator.url} (client id "dev") to ${fixture.emulator.url} (client id "staging")`);
    expect(await listedIn(DEV)).toEqual([]);
    expect((await listedIn(STAGING)).map((filter) => filter.id)).toEqual([moved.state.id]);
    await destroy(host, moved.state);
  });

  it("fails on settings that now point at another account, naming both, and reads nothing there", async () => {
    await fixture.emulator.control("POST", "reset");
    const byDefault = await up(host, inputs({ name: "Default account", rules }));
    const named = await up(host, inputs({ name: "Named account", rules, account: "production" }));
    const mark = fixture.mark();

    const refreshed = (await failure(refresh(movedHost, byDefault.state))) as Error;
    expect(refreshed.message).toContain(
      `SavedFilter "Default account" (id ${byDefault.state.id}) belongs to the account ${fixture.emulator.url} (client id "dev"), as its state records, ` +
        `but the stack's settings (insights:baseUrl and insights:clientId, else INSIGHTS_BASE_URL and INSIGHTS_CLIENT_ID) now point at ${fixture.emulator.url} (client id "staging")`,
    );
    expect(refreshed.message).toContain("`pulumi state delete <urn>`");
    expect(refreshed.message).toContain("`pulumi-insights import`");
    const namedMessage = ((await failure(up(movedHost, named.state.inputs, named.state))) as Error).message;
    expect(namedMessage).toContain(`but the account "production" of insights:accounts now points at ${fixture.emulator.url} (client id "staging")`);
    expect(((await failure(destroy(movedHost, byDefault.state))) as Error).message).toContain("belongs to the account");
    for (const text of SECRETS) expect(refreshed.message + namedMessage).not.toContain(text);
    // No filter was read, changed or deleted in either account (check read only the lookups): both are where they were.
    expect(summarize(fixture.requestsSince(mark))).toEqual([]);
    expect((await listedIn(DEV)).map((filter) => filter.id).sort()).toEqual([byDefault.state.id, named.state.id].sort());

    // A SavedFilterSet and a PiiOptOutRequest refuse the same way.
    const set = await up(host, { filters: { paris: { rules } }, account: "production", __provider: setProvider });
    const optOut = await up(host, { viewerIds: ["viewer-000123"], waitForCompletion: false, resourceName: "forget", __provider: optOutProvider });
    const markAfter = fixture.mark();
    expect(((await failure(refresh(movedHost, set.state))) as Error).message).toContain(`SavedFilterSet (id ${set.state.id}) belongs to the account ${fixture.emulator.url} (client id "dev")`);
    expect(((await failure(refresh(movedHost, optOut.state))) as Error).message).toContain(`PiiOptOutRequest "forget" belongs to the account ${fixture.emulator.url} (client id "dev")`);
    expect(((await failure(destroy(movedHost, set.state))) as Error).message).toContain("belongs to the account");
    // Not a request of any kind: neither resource needs a lookup to refuse.
    expect(fixture.requestsSince(markAfter)).toEqual([]);
  });

  it("keeps a state written before accounts were recorded working, and records its account on refresh and update", async () => {
    await fixture.emulator.control("POST", "reset");
    const created = await up(host, inputs({ name: "Legacy", rules }));
    const { recordedAccount: _recorded, ...legacyOutputs } = created.state.outputs;
    const legacy: ResourceState = { ...created.state, outputs: legacyOutputs };

    expect((await up(host, inputs({ name: "Legacy", rules }), legacy)).operation).toBe("same");
    const refreshed = await refresh(host, legacy);
    expect(refreshed?.outputs.recordedAccount).toEqual({ baseUrl: fixture.emulator.url, clientId: DEV.clientId });
    const updated = await up(host, inputs({ name: "Legacy, renamed", rules }), legacy);
    expect(updated.operation).toBe("update");
    expect(updated.state.outputs.recordedAccount).toEqual({ baseUrl: fixture.emulator.url, clientId: DEV.clientId });
    await destroy(host, legacy);
    expect(await listedIn(DEV)).toEqual([]);
  });
});
