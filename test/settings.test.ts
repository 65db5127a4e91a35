import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSecret, REPOSITORY_ROOT, secret, startProviderPlugin, type ProviderHost } from "../engine";
import { SETTINGS, type SettingDeclaration } from "../provider/accounts/settings";

/**
 * The provider's settings are declared once (provider/accounts/settings.ts `SETTINGS`: key,
 * environment variable, type, default, secret, description). Held here against what each host
 * accepts and reads, and what the README lists: the provider plugin over gRPC (CheckConfig takes
 * every declared key and no other, its package schema declares each as a config variable), the
 * dynamic-provider host through the package's exports (its `configure` reads each key of the stack
 * config, and each environment variable), and the README's settings tables.
 */

const DECLARED = Object.entries(SETTINGS as Record<string, SettingDeclaration>);
const NAMES = DECLARED.map(([name]) => name);

/** A valid value of each setting, as a program's stack config gives it to the plugin. */
function exampleOf(name: string, setting: SettingDeclaration): unknown {
  switch (setting.type) {
    case "string":
      return name === "baseUrl" ? "https://api.example.com" : setting.secret ? secret(`${name}-value`) : `${name}-value`;
    case "integer":
      return setting.default;
    case "boolean":
      return !setting.default;
    case "accounts":
      return secret({ staging: { baseUrl: "https://staging.example.com", clientId: "staging", clientSecret: "staging-s3cr3t" } });
  }
}

/** The package as the dynamic-provider host resolves it from a project (host/shim.ts). */
const fromProject = createRequire(path.join(REPOSITORY_ROOT, "package.json"));

/** A value of `setting` as the stack config or the environment holds it: text. */
function textOf(setting: SettingDeclaration | undefined): string | undefined {
  if (setting === undefined || setting.type === "accounts") return undefined;
  return setting.type === "string" ? "https://api.example.com" : String(setting.default);
}

const BY_VARIABLE = new Map(DECLARED.flatMap(([, setting]) => (setting.env === undefined ? [] : [[setting.env, setting] as const])));

/**
 * The stack-config keys and the environment variables `work` reads through `config` and
 * `process.env`, with a value for each declared one in one of the two (`from`), so that the reading
 * goes on past the first setting.
 */
async function readsOf(from: "config" | "environment", work: (config: { get(key: string): string | undefined }) => unknown): Promise<{ keys: string[]; variables: string[] }> {
  const keys = new Set<string>();
  const variables = new Set<string>();
  const environment = process.env;
  process.env = new Proxy(environment, {
    get(target, key) {
      if (typeof key !== "string" || !key.startsWith("INSIGHTS_")) return Reflect.get(target, key);
      variables.add(key);
      return from === "environment" ? textOf(BY_VARIABLE.get(key)) : undefined;
    },
  });
  try {
    await work({
      get: (key) => {
        keys.add(key);
        return from === "config" ? textOf((SETTINGS as Record<string, SettingDeclaration>)[key.replace(/^insights:/, "")]) : undefined;
      },
    });
  } finally {
    process.env = environment;
  }
  return { keys: [...keys].sort(), variables: [...variables].sort() };
}

describe("the settings declaration", () => {
  let plugin: ProviderHost;
  beforeAll(async () => {
    plugin = await startProviderPlugin();
  });
  afterAll(async () => {
    await plugin?.close();
  });

  it("is what the plugin takes: CheckConfig accepts every declared key, reads each integer, and refuses any other key", async () => {
    const every = Object.fromEntries(DECLARED.map(([name, setting]) => [name, exampleOf(name, setting)]));
    expect(every.maxResponseBytes).toBe(6_000_000);
    expect((await plugin.checkConfig({}, every)).failures).toEqual([]);
    for (const [name, setting] of DECLARED.filter(([, setting]) => setting.type === "integer")) {
      const [, maximum] = setting.range!;
      expect((await plugin.checkConfig({}, { [name]: maximum + 1 })).failures, name).toEqual([{ property: name, reason: expect.stringContaining(`must be an integer from`) }]);
    }
    expect((await plugin.checkConfig({}, { maxResponseByte: 10 })).failures).toEqual([
      { property: "maxResponseByte", reason: 'unknown property; did you mean "maxResponseBytes"?' },
    ]);
  });

  it("is what the plugin's package schema declares: each config variable with its variable, default and secret", async () => {
    const schema = JSON.parse(await plugin.getSchema()) as { config: { variables: Record<string, Record<string, unknown>> }; provider: { inputProperties: unknown } };
    const variables = schema.config.variables;
    expect(Object.keys(variables)).toEqual(NAMES);
    for (const [name, setting] of DECLARED) {
      expect(variables[name], name).toMatchObject({
        description: setting.description,
        ...(setting.env === undefined ? {} : { defaultInfo: { environment: [setting.env] } }),
        ...(setting.default === undefined ? {} : { default: setting.default }),
        ...(setting.secret ? { secret: true } : {}),
      });
      if (!setting.secret) expect(variables[name]!.secret, name).toBeUndefined();
    }
    expect(schema.provider.inputProperties).toEqual(variables);
  });

  it("is what the dynamic-provider host reads: each key of the stack config, each environment variable", async () => {
    const { provider } = fromProject("pulumi-insights/dist/provider/resources/saved-filter/provider.js") as { provider: { configure(request: { config: unknown }): Promise<void> } };
    const fromConfig = await readsOf("config", (config) => provider.configure({ config }));
    expect(fromConfig.keys).toEqual(NAMES.map((name) => `insights:${name}`).sort());
    const fromEnvironment = await readsOf("environment", (config) => provider.configure({ config }));
    expect(fromEnvironment.keys).toEqual(fromConfig.keys);
    expect(fromEnvironment.variables).toEqual([...BY_VARIABLE.keys()].sort());
  });

  it("is what the README lists: each key with its environment variable and default, credentials set as secrets", () => {
    const readme = readFileSync(path.join(REPOSITORY_ROOT, "README.md"), "utf8").split("\n");
    const documented = new Map<string, { variable?: string; default?: string; line: string }>();
    let columns: string[] = [];
    for (const line of readme) {
      const cells = line.startsWith("|") ? line.slice(1, -1).split("|").map((cell) => cell.trim()) : [];
      if (cells[0] === "stack config") columns = cells;
      const row = /^`insights:(\w+)`$/.exec(cells[0] ?? "");
      if (row !== null) {
        const at = (column: string) => (columns.includes(column) ? cells[columns.indexOf(column)] : undefined);
        documented.set(row[1]!, { variable: at("environment variable")?.replace(/`/g, ""), default: at("default"), line });
        continue;
      }
      // A setting said in a sentence: `insights:matchEstimate` (`INSIGHTS_MATCH_ESTIMATE`).
      const sentence = /`insights:(\w+)`(?: \(`(INSIGHTS_\w+)`\))?/.exec(line);
      if (sentence !== null && (SETTINGS as Record<string, unknown>)[sentence[1]!] !== undefined && !documented.has(sentence[1]!)) {
        documented.set(sentence[1]!, { ...(sentence[2] === undefined ? {} : { variable: sentence[2] }), line });
      }
    }
    for (const [name, setting] of DECLARED) {
      const entry = documented.get(name);
      expect(entry, `README lists no insights:${name}`).toBeDefined();
      if (setting.env !== undefined) expect(entry!.variable, name).toBe(setting.env);
      // A setting without a default is `required` (the connection) or `none` (optional) in the table.
      if (entry!.default !== undefined && setting.default === undefined) expect(entry!.default, name).toMatch(/^(required|none)$/);
      else if (entry!.default !== undefined) expect(entry!.default, name).toBe(String(setting.default));
    }
    expect(documented.get("clientSecret")!.line).toContain("--secret");
    // No row documents a setting the hosts do not take.
    expect([...documented.keys()].filter((name) => !NAMES.includes(name))).toEqual([]);
  });

  it("answers the credentials as secrets whether or not the engine marked them, and quotes no secret value", async () => {
    const unmarked = { staging: { baseUrl: "https://staging.example.com", clientId: "staging", clientSecret: "staging-s3cr3t" } };
    const checked = await plugin.checkConfig({}, { baseUrl: "https://api.example.com", clientSecret: "plain-s3cr3t", accounts: unmarked, maxRetries: 2 });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toEqual({ baseUrl: "https://api.example.com", clientSecret: secret("plain-s3cr3t"), accounts: secret(unmarked), maxRetries: 2 });
    // Marked inside only (`pulumi config set --secret --path`): the whole map answered secret, nothing nested twice.
    const inside = { staging: { ...unmarked.staging, clientSecret: secret("staging-s3cr3t") } };
    expect((await plugin.checkConfig({}, { accounts: inside })).inputs).toEqual({ accounts: secret(unmarked) });
    expect((await plugin.checkConfig({}, { clientSecret: secret("marked") })).inputs.clientSecret).toEqual(secret("marked"));

    const refused = await plugin.checkConfig({}, { timeoutMs: secret("S3cr3t-timeout"), maxRetries: "plainly-wrong" });
    expect(refused.failures).toEqual([{ property: "timeoutMs", reason: "the stack config insights:timeoutMs must be an integer from 1 to 3600000, got a secret value (not shown)" }]);
    expect(JSON.stringify(refused.failures)).not.toContain("S3cr3t");
    expect(isSecret(refused.inputs.timeoutMs)).toBe(true);
    // A plain value is quoted, as the dynamic host quotes it.
    expect((await plugin.checkConfig({}, { maxRetries: "plainly-wrong" })).failures).toEqual([
      { property: "maxRetries", reason: 'the stack config insights:maxRetries must be an integer from 0 to 100, got "plainly-wrong"' },
    ]);
  });
});
