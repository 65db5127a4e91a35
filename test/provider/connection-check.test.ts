import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  captureDynamicResource, createTestProject, REPOSITORY_ROOT, secret, startProviderHost, UNKNOWN_VALUE, up,
  type CheckFailure, type PropertyMap, type ProviderHost, type TestProject,
} from "../../engine";
import { BASIC_ACCOUNT, DEV_ACCOUNT } from "../../emulator";
import { BASIC, DEV } from "../support/emulator";
import { failure } from "../support/failure";
import { refusedLoopbackUrl } from "../support/hostile";
import { NO_MATCH_ESTIMATE, startProviderFixture, type ProviderFixture } from "./fixture";

/**
 * The preview's check of each account's connection (docs/configuration.md "What a preview
 * checks of each account"), through the real dynamic-provider host against the emulator: a wrong secret, an account
 * without bulk filters, a plain-HTTP base URL and an unreachable API each fail `check` on `account`,
 * naming the account and what to do and never the secret, for SavedFilter, SavedFilterSet and
 * PiiOptOutRequest; one request per account and need, however many resources; data sources fail in
 * the same words.
 */
const MODULE = "dist/provider/index.js";
const PROBE_PATH = "/bulk_filters/fields";
const WRONG_SECRET = "h8-wrong-secret-4d1e";
/** Accounts with bulk filters and the viewer module besides dev, each for one test: a probe is made once per account. */
const STAGING = { clientId: "staging", clientSecret: "staging-secret-91ab" } as const;
const PRODUCTION = { clientId: "production", clientSecret: "production-secret-3c70" } as const;
const FLAKY = { clientId: "flaky", clientSecret: "flaky-secret-0e42" } as const;
const ALL_FEATURES = { bulkFilters: true, adInsights: true, viewerModule: true };

/** Rules on a free-text field only: checking them reads no lookup. */
const freeText = { op: "and", rules: [{ field: "Asset Name", op: "contains", value: "Episode" }] };
/** Rules on a pre-set field: checking them reads the countries lookup. */
const presetField = { op: "and", rules: [{ field: "Country", op: "equals", value: "Canada" }] };

/** `require` from the repository root: `pulumi-insights` resolves by self-reference to dist/, as in a program. */
const requireFromRoot = createRequire(path.join(REPOSITORY_ROOT, "package.json"));
type Package = typeof import("../../provider");
type Client = typeof import("../../provider/client");
type Pulumi = typeof import("@pulumi/pulumi");
/** The SDK the package's data sources read the stack config from, in this process. */
const pulumiOfPackage = () => requireFromRoot("@pulumi/pulumi") as Pulumi;

describe("the preview checks the connection of every account it uses", () => {
  let fixture: ProviderFixture;
  /** The host with good default settings and one named account for each cause. */
  let host: ProviderHost;
  /** A host whose default settings (`insights:baseUrl`, ...) carry a wrong secret. */
  let wrongSecretHost: ProviderHost;
  let project: TestProject;
  let setProvider: string;
  let optOutProvider: string;
  let unreachable: string;

  const filterInputs = (args: Record<string, unknown>): PropertyMap => fixture.inputs(args);
  const setInputs = (args: Record<string, unknown>): PropertyMap => ({ ...args, __provider: setProvider });
  const optOutInputs = (args: Record<string, unknown>): PropertyMap => ({ resourceName: "forget", ...args, __provider: optOutProvider });
  const checkFailures = async (news: PropertyMap, on: ProviderHost = host): Promise<CheckFailure[]> => (await on.check({}, news)).failures;
  const probesSince = (mark: number) => fixture.requestsSince(mark).filter((entry) => entry.path === PROBE_PATH);

  /** The stack config of {@link host}: the dev account by default, and the named accounts; one retry instead of three (docs/configuration.md "Timeouts and retries"). */
  const stackConfig = () => {
    const url = fixture.emulator.url;
    const accounts = {
      "wrong-secret": { baseUrl: url, clientId: DEV.clientId, clientSecret: WRONG_SECRET },
      basic: { baseUrl: url, ...BASIC },
      "plain-http": { baseUrl: "http://api.example.com", ...DEV },
      unreachable: { baseUrl: unreachable, ...DEV },
      staging: { baseUrl: url, ...STAGING },
      production: { baseUrl: url, ...PRODUCTION },
      flaky: { baseUrl: url, ...FLAKY },
    };
    return { "insights:baseUrl": url, "insights:clientId": DEV.clientId, "insights:clientSecret": DEV.clientSecret, "insights:maxRetries": "1", "insights:accounts": JSON.stringify(accounts) };
  };
  /** The config as the engine sends it to a host: secrets as secret values. */
  const asSent = (config: Record<string, string>) => ({ ...config, "insights:clientSecret": secret(config["insights:clientSecret"]), "insights:accounts": secret(JSON.parse(config["insights:accounts"]!)) });

  beforeAll(async () => {
    fixture = await startProviderFixture({
      module: MODULE,
      exportName: "SavedFilter",
      args: ["f", { name: "f", rules: freeText }],
      emulatorOptions: {
        accounts: [DEV_ACCOUNT, BASIC_ACCOUNT, ...[STAGING, PRODUCTION, FLAKY].map((account) => ({ ...account, features: ALL_FEATURES }))],
      },
    });
    host = fixture.host;
    project = createTestProject();
    [{ provider: setProvider }, { provider: optOutProvider }, unreachable, wrongSecretHost] = await Promise.all([
      captureDynamicResource({ module: MODULE, exportName: "SavedFilterSet", args: ["s", { filters: { a: { rules: freeText } } }] }),
      captureDynamicResource({ module: MODULE, exportName: "PiiOptOutRequest", args: ["p", { viewerIds: ["v"], waitForCompletion: false }] }),
      refusedLoopbackUrl(),
      startProviderHost({ projectDir: project.dir, env: NO_MATCH_ESTIMATE }),
    ]);
    // Settings reach a provider when it is first loaded (docs/dynamic-providers.md rule 3): set before the first call.
    await host.configure(asSent(stackConfig()));
    await wrongSecretHost.configure({ "insights:baseUrl": fixture.emulator.url, "insights:clientId": DEV.clientId, "insights:clientSecret": secret(WRONG_SECRET) });
  });
  afterAll(async () => {
    await wrongSecretHost?.close();
    project?.remove();
    await fixture?.close();
  });

  /** Each cause: the named account of {@link stackConfig} that has it, and the reason the check gives on `account`. */
  const causes = () => {
    const url = fixture.emulator.url;
    return [
      {
        cause: "a wrong client secret",
        account: "wrong-secret",
        reason: `account: the account ${url} (client id "dev") refused the client id and secret: GET /bulk_filters/fields failed with HTTP 401: Unauthorized. ` +
          "Set the right secret with `pulumi config set --secret --path 'insights:accounts.wrong-secret.clientSecret'` (and check insights:accounts.wrong-secret.clientId)",
      },
      {
        cause: "an account without bulk filters",
        account: "basic",
        reason: new RegExp(
          `^account: the account ${url} \\(client id "basic"\\) does not have the saved-filter management API \\(/bulk_filters\\) enabled: ` +
            "GET /bulk_filters/fields failed with HTTP 403.*\\. SavedFilter, SavedFilterSet and the saved-filter data sources need it: " +
            "ask the account's representative to enable the bulk-filters feature, or use an account that has it$",
        ),
      },
      {
        cause: "a plain-HTTP base URL to a host that is not loopback",
        account: "plain-http",
        reason: 'account: the account http://api.example.com (client id "dev") cannot be used: baseUrl http://api.example.com uses plain HTTP: ' +
          "HTTPS is required except for loopback hosts (localhost, 127.0.0.0/8, ::1), because credentials travel with every request. " +
          "Use HTTPS: `pulumi config set --path 'insights:accounts.plain-http.baseUrl' https://api.example.com`",
      },
      {
        cause: "an unreachable API on this machine",
        account: "unreachable",
        reason: new RegExp(
          `^account: the account ${unreachable} \\(client id "dev"\\) could not be reached: GET /bulk_filters/fields: connection failed \\(ECONNREFUSED: .*\\) ` +
            `\\(after 2 attempts\\)\\. Nothing listens there: is the emulator running\\? Start it with \`npx insights-emulator --port ${new URL(unreachable).port}\`, ` +
            "or check insights:accounts\\.unreachable\\.baseUrl$",
        ),
      },
    ];
  };

  describe.each(["SavedFilter", "SavedFilterSet"] as const)("%s", (kind) => {
    const inputsOf = (rules: unknown, account?: string) =>
      kind === "SavedFilter"
        ? filterInputs({ name: "Episodes", rules, ...(account === undefined ? {} : { account }) })
        : setInputs({ filters: { episodes: { rules }, canada: { rules: presetField } }, ...(account === undefined ? {} : { account }) });

    it("fails the preview on `account` for each cause, naming the account and what to do, never the secret nor the rules", async () => {
      for (const { cause, account, reason } of causes()) {
        const failures = await checkFailures(inputsOf(freeText, account));
        expect(failures, cause).toEqual([{ property: "account", reason: typeof reason === "string" ? reason : expect.stringMatching(reason) }]);
        // The fix said once: the service's own sentence, which would say it again, is left out.
        expect(failures[0]!.reason.match(/representative/g)?.length ?? 0, cause).toBeLessThanOrEqual(1);
        expect(JSON.stringify([failures, host.diagnostics]), cause).not.toContain(WRONG_SECRET);
      }
    });

    it("with the stack's settings and a wrong secret, says which command sets it; with rules on pre-set fields it reads no lookup and blames only the account", async () => {
      const mark = fixture.mark();
      const failures = await checkFailures(inputsOf(presetField), wrongSecretHost);
      expect(failures).toEqual([{
        property: "account",
        reason: `account: the account ${fixture.emulator.url} (client id "dev") refused the client id and secret: GET /bulk_filters/fields failed with HTTP 401: Unauthorized. ` +
          "Set the right secret with `pulumi config set --secret insights:clientSecret` (and check insights:clientId)",
      }]);
      // No lookup is read (the refusal, kept for the host's life, is shared by SavedFilter and SavedFilterSet).
      expect(fixture.requestsSince(mark).filter((entry) => entry.path !== PROBE_PATH)).toEqual([]);
      expect(probesSince(mark).length).toBeLessThanOrEqual(1);
      expect(JSON.stringify([failures, wrongSecretHost.diagnostics])).not.toContain(WRONG_SECRET);
    });
  });

  it("passes with good settings, with one request per account and host however many resources, and none when up checks again", async () => {
    const mark = fixture.mark();
    // A stack of 1000 filters, half in a named account; the engine checks them in turn, or 100 at a
    // time with PULUMI_PARALLEL_DIFF (then the checks share the request in flight).
    const stack = Array.from({ length: 1000 }, (_, index) => filterInputs({ name: `Episode ${index}`, rules: freeText, ...(index % 2 === 0 ? {} : { account: "production" }) }));
    for (let start = 0; start < stack.length; start += 100) {
      const checked = await Promise.all(stack.slice(start, start + 100).map((news) => checkFailures(news)));
      expect(checked.flat()).toEqual([]);
    }
    expect(probesSince(mark).map((entry) => `${entry.account} ${entry.status}`).sort()).toEqual(["dev 200", "production 200"]);
    expect(fixture.requestsSince(mark)).toHaveLength(2);

    // `pulumi up` checks each resource again before it creates it: nothing more is sent for the check.
    const created = await up(host, stack[1]!);
    expect(created.operation).toBe("create");
    expect(await checkFailures(setInputs({ filters: { a: { rules: freeText } }, account: "production" }))).toEqual([]);
    expect(probesSince(mark)).toHaveLength(2);
  });

  it("skips an account not known until apply", async () => {
    const mark = fixture.mark();
    expect(await checkFailures(filterInputs({ name: "Later", rules: presetField, account: UNKNOWN_VALUE }))).toEqual([]);
    expect(fixture.requestsSince(mark)).toEqual([]);
  });

  it("says when the service fails the check, and asks again at the next check", async () => {
    await fixture.emulator.control("POST", "faults", { method: "GET", path: PROBE_PATH, status: 503, times: 2 });
    const mark = fixture.mark();
    const inputs = filterInputs({ name: "Episodes", rules: freeText, account: "flaky" });
    expect(await checkFailures(inputs)).toEqual([{
      property: "account",
      reason: expect.stringMatching(new RegExp(
        `^account: the account ${fixture.emulator.url} \\(client id "flaky"\\) could not be read: the service failed: ` +
          "GET /bulk_filters/fields failed with HTTP 503.* \\(after 2 attempts\\)\\. This may pass: try again$",
      )),
    }]);
    // Not kept: the next check asks again, and passes.
    expect(await checkFailures(inputs)).toEqual([]);
    expect(probesSince(mark).map((entry) => entry.status)).toEqual([503, 503, 200]);
  });

  it("blames the account, not the rules, when a lookup fails for a reason of the connection", async () => {
    await fixture.emulator.control("POST", "faults", { method: "GET", path: "/bulk_filters/countries*", status: 503, times: 2 });
    const failures = await checkFailures(filterInputs({ name: "Canada", rules: presetField, account: "staging" }));
    expect(failures).toEqual([{
      property: "account",
      reason: expect.stringMatching(new RegExp(
        `^account: the account ${fixture.emulator.url} \\(client id "staging"\\) could not be read: the service failed: GET /bulk_filters/countries/ failed with HTTP 503`,
      )),
    }]);
    // A typo is still the rules' own failure.
    const typo = await checkFailures(filterInputs({ name: "Canada", rules: { op: "and", rules: [{ field: "Country", op: "equals", value: "Canda" }] }, account: "staging" }));
    expect(typo.map((item) => item.property)).toEqual(["rules"]);
  });

  describe("PiiOptOutRequest", () => {
    it("fails the preview on `account` with a wrong secret", async () => {
      const failures = await checkFailures(optOutInputs({ viewerIds: secret(["forget-viewer-1"]) }), wrongSecretHost);
      expect(failures).toEqual([{
        property: "account",
        reason: `account: the account ${fixture.emulator.url} (client id "dev") refused the client id and secret: GET /pii-opt-out failed with HTTP 401: Unauthorized. ` +
          "Set the right secret with `pulumi config set --secret insights:clientSecret` (and check insights:clientId)",
      }]);
      expect(JSON.stringify(failures)).not.toContain(WRONG_SECRET);
    });

    it("checks the viewer module that verifyDeletion reads with, only when it is on and the identifiers are viewer ids", async () => {
      const mark = fixture.mark();
      const [refused, ...others] = await checkFailures(optOutInputs({ viewerIds: secret(["forget-viewer-1"]), account: "basic" }));
      expect(others).toEqual([]);
      expect(refused).toEqual({
        property: "account",
        reason: expect.stringMatching(new RegExp(
          `^account: the account ${fixture.emulator.url} \\(client id "basic"\\) does not have the viewer module enabled: GET /insights/3.0/sessions/content/viewer failed with HTTP 403.*\\. ` +
            "A PiiOptOutRequest's verifyDeletion \\(on by default\\) reads each viewer's sessions with it once the requests are FINISHED: " +
            "ask the account's representative for the viewer module \\(docs/api.md 4.3\\), or set `verifyDeletion: false`$",
        )),
      });
      expect(refused!.reason.match(/representative/g)).toHaveLength(1);
      // No request of the check reads anybody's data: the viewer asked for is the check's own.
      expect(fixture.requestsSince(mark).map((entry) => entry.path)).toEqual(["/pii-opt-out", "/insights/3.0/sessions/content/viewer"]);
      expect(fixture.requestsSince(mark)[1]!.query).toContain("viewer_id=pulumi-insights-connection-check");
      expect(await checkFailures(optOutInputs({ viewerIds: secret(["forget-viewer-1"]), verifyDeletion: false, account: "basic" }))).toEqual([]);
      expect(await checkFailures(optOutInputs({ userIds: secret(["user-000001"]), account: "basic" }))).toEqual([]);
      expect(fixture.requestsSince(mark)).toHaveLength(2);
    });

    it("passes with good settings, once per account and need", async () => {
      const mark = fixture.mark();
      for (let index = 0; index < 3; index++) expect(await checkFailures(optOutInputs({ viewerIds: secret([`forget-viewer-${index}`]) }))).toEqual([]);
      expect(fixture.requestsSince(mark).map((entry) => `${entry.path} ${entry.status}`)).toEqual(["/pii-opt-out 200", "/insights/3.0/sessions/content/viewer 200"]);
    });
  });

  describe("data sources, in the program's process", () => {
    afterEach(async () => {
      pulumiOfPackage().runtime.setAllConfig({});
      await (requireFromRoot("pulumi-insights") as Package).closeDataSourceClients();
    });

    it("fail in the same words as the preview's check, with the client's error classes", async () => {
      const { getFilterFields } = requireFromRoot("pulumi-insights") as Package;
      const client = requireFromRoot("pulumi-insights/client") as Client;
      const classes = [client.AuthenticationError, client.PermissionDeniedError, client.SettingsError, client.ConnectionError];
      pulumiOfPackage().runtime.setAllConfig(stackConfig(), ["insights:clientSecret", "insights:accounts"]);
      for (const [index, { cause, account }] of causes().entries()) {
        const [checked] = await checkFailures(filterInputs({ name: "Episodes", rules: freeText, account }));
        const error = await failure(getFilterFields({ account }));
        expect(error, cause).toBeInstanceOf(classes[index]!);
        expect((error as Error).message, cause).toBe(`getFilterFields: ${checked!.reason.slice("account: ".length)}`);
        expect(JSON.stringify(error) + String((error as Error).stack), cause).not.toContain(WRONG_SECRET);
      }
      // The stack's settings, as the check on a host with them says it.
      const [checked] = await checkFailures(filterInputs({ name: "Episodes", rules: freeText }), wrongSecretHost);
      pulumiOfPackage().runtime.setAllConfig({ ...stackConfig(), "insights:clientSecret": WRONG_SECRET }, ["insights:clientSecret", "insights:accounts"]);
      expect(((await failure(getFilterFields())) as Error).message).toBe(`getFilterFields: ${checked!.reason.slice("account: ".length)}`);
    });

    it("name the settings a `connection` argument gave, and the others where they come from", async () => {
      const { getFilterFields } = requireFromRoot("pulumi-insights") as Package;
      pulumiOfPackage().runtime.setAllConfig(stackConfig(), ["insights:clientSecret", "insights:accounts"]);
      const url = fixture.emulator.url;
      const refused = `getFilterFields: the account ${url} (client id "dev") refused the client id and secret: GET /bulk_filters/fields failed with HTTP 401: Unauthorized. Set the right secret with \`connection.clientSecret\``;
      const given = await failure(getFilterFields({ connection: { baseUrl: url, clientId: DEV.clientId, clientSecret: WRONG_SECRET } }));
      expect((given as Error).message).toBe(`${refused} (and check connection.clientId)`);
      const named = await failure(getFilterFields({ account: "production", connection: { clientSecret: WRONG_SECRET } }));
      expect((named as Error).message).toContain("Set the right secret with `connection.clientSecret` (and check insights:accounts.production.clientId)");
    });
  });
});
