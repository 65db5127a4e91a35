import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateModule } from "../../provider/cli/generate-module";
import { SAVED_FILTER_TYPE } from "../../provider/cli/pulumi-import-file";
import { compareIds } from "../../provider/client/core/listing";
import type { JournalEntry } from "../../emulator";
import {
  createTestProject, REPOSITORY_ROOT, secret, startProviderHost, up,
  type ProviderHost, type Registration, type ResourceState, type TestProject,
} from "../../engine";
import { DEV, startTestEmulator, type Credentials, type TestEmulator } from "../support/emulator";
import { SPEC_FILTER_FIELDS } from "../support/spec-values";
import { STEADY_BATCHING } from "./fixture";
import { declaredResources, runCli, typeErrors, type CliResult } from "./import-cli";

/**
 * `pulumi-insights import` end to end: an account of more than 500 filters (the API's cap on one
 * listing, docs/api.md 10.1) of varied shapes, the command run as a user runs it, the module it
 * writes type-checked against the package's declarations and run through the real dynamic-provider
 * host: its `up` adopts every filter without a write and the next preview plans nothing. Both
 * dialects in one run (emulator/README.md "Dialects"): a second account of the emulator, in the
 * alternate dialect, holds the same filters, and the command must write the same files for it.
 */

const FILTER_COUNT = 520;
/** The account in the alternate dialect, beside the dev account in the standard one. */
const ALT = { clientId: "alt", clientSecret: "alt-secret" } as const;
/** Fields that accept only the values of a lookup (docs/api.md 2.7), and that lookup. */
const PRESET_LOOKUPS: Record<string, string> = { ASN: "asn", City: "cities", Continent: "continents", Country: "countries", DMA: "dma", ISP: "isp", State: "states" };

/** A small seeded generator (mulberry32), so the account is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Lookups {
  values: Record<string, string[]>;
  tags: string[];
  categories: string[];
}

/** Filters of every shape the console makes: deep nesting, tags, every field, names that collide once sanitised, unicode. */
function accountFilters(lookups: Lookups): Array<Record<string, unknown>> {
  const random = seeded(17);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const freeText = ["Live", "Zürich", "東京", "📺 sports", "a \"quoted\" word", "back\\slash", "Episode 7", "o'clock"];
  const leaf = (fieldName: string): Record<string, unknown> => {
    const op = pick(["contains", "not_contains", "equals"]);
    if (fieldName === "Tag") return { field: "Tag", key: pick(lookups.tags), op, value: pick(freeText) };
    const preset = PRESET_LOOKUPS[fieldName];
    return { field: fieldName, op, value: preset ? pick(lookups.values[preset]!) : pick(freeText) };
  };
  const tree = (depth: number, index: number): Record<string, unknown> => {
    const width = 1 + Math.floor(random() * 3);
    const rules = Array.from({ length: width }, (_, child) =>
      depth > 1 && (child === 0 || random() < 0.3) ? tree(depth - 1, index) : leaf(SPEC_FILTER_FIELDS[(index + child) % SPEC_FILTER_FIELDS.length]!));
    return { op: pick(["and", "or"]), rules };
  };
  const collidingNames = ["Roku devices", "roku-devices", "ROKU  Devices!", "Roku devices "];
  const unicodeNames = ["東京", "Zürich viewers", "📺 Live", "Ελλάδα", "Ça va — très bien"];
  return Array.from({ length: FILTER_COUNT }, (_, index) => {
    const name = index < collidingNames.length ? collidingNames[index]!
      : index < collidingNames.length + unicodeNames.length ? unicodeNames[index - collidingNames.length]!
        : `Filter ${index} ${pick(["GEO", "Devices", "Sports", "Ads"])}`;
    // Every field appears: leaves cycle through the field list; one filter in ten nests 14 groups deep.
    const rules = tree(index % 10 === 0 ? 14 : 1 + (index % 4), index);
    const category = random() < 0.7 ? pick(lookups.categories) : undefined;
    return {
      name,
      rules,
      ...(category === undefined ? {} : { category }),
      // Spread over the four advanced × enabled listings, each under the cap of 500.
      advanced: random() < 0.5,
      enabled: random() < 0.5,
      content: random() < 0.2,
    };
  });
}

const writes = (requests: readonly JournalEntry[]) => requests.filter((request) => request.method !== "GET").map((request) => `${request.method} ${request.path}`);

/** Odd filters no emulator account holds (it refuses them), as a lenient listing could answer them. */
const ODD_FILTERS = [
  { id: "7", name: "Odd leaves", rules: { op: "and", rules: [
    { field: "Region Code", op: "equals", value: "EU" },
    { field: "Country", op: "starts_with", value: "United" },
    { field: "Tag", op: "equals", value: "no key" },
    { field: "City", key: "x", op: "equals", value: "Paris" },
    { op: "or", rules: [] },
    { field: "CDN", op: "equals", value: "Akamai" },
  ] } },
  { id: "8", name: "Odd root", rules: { op: "xor", rules: [{ field: "CDN", op: "equals", value: "Fastly" }] } },
  { id: "9", name: "", rules: { op: "and", rules: [{ field: "CDN", op: "equals", value: "Fastly" }] } },
];

/** The command's runs that the tests read, in one account. */
interface Imports {
  every: CliResult;
  everyAgain: CliResult;
  asSet: CliResult;
  inAccount: CliResult;
  importFileOnly: CliResult;
}

describe("pulumi-insights import", () => {
  let emulator: TestEmulator;
  let project: TestProject;
  let host: ProviderHost;
  let env: Record<string, string>;
  let altEnv: Record<string, string>;
  let ids: string[];
  /** The ids of the same filters in the alternate account. */
  let altIds: string[];
  let every: CliResult;
  let everyAgain: CliResult;
  let asSet: CliResult;
  let inAccount: CliResult;
  let importFileOnly: CliResult;
  /** The same runs in the alternate account, writing under {@link altDir}. */
  let alternate: Imports;
  let oddModule: ReturnType<typeof generateModule>;
  /** Type errors of the three generated modules, checked in one program (loading the declarations once). */
  let errors: string[];
  /** What the program importing each module registers. */
  let everyResources: Registration[];
  let setResources: Registration[];
  const file = (name: string) => path.join(project.dir, name);
  const altDir = () => path.join(project.dir, "alternate");
  const altFile = (name: string) => path.join(altDir(), name);
  /** What the alternate account's run must show: the standard run's, its paths under {@link altDir}. */
  const inAltDir = (result: CliResult): CliResult => ({ ...result, stderr: result.stderr.replaceAll(`${project.dir}/`, `${altDir()}/`) });
  /** The runs of {@link Imports} in the account `accountEnv` names, writing with `out`. */
  const imports = async (out: (name: string) => string, accountEnv: Record<string, string>): Promise<Imports> => {
    const [every, everyAgain, asSet, inAccount] = await Promise.all([
      runCli(["import", "--out", out("filters.ts"), "--pulumi-import-file", out("filters.json")], accountEnv),
      runCli(["import"], accountEnv),
      runCli(["import", "--set", "console-filters", "--name", "Filter 1", "--out", out("set.ts")], accountEnv),
      runCli(["import", "--account", "staging", "--name", "Zürich", "--out", out("account.ts")], accountEnv),
    ]);
    const importFileOnly = await runCli(["import", "--id", ids.slice(0, 4).join(","), "--pulumi-import-file", out("roku.json")], accountEnv);
    return { every, everyAgain, asSet, inAccount, importFileOnly };
  };

  beforeAll(async () => {
    // A few hundred resources through the SDK and the host: seconds on a quiet machine, more on CI.
    // The dev account standard whatever the project's dialect: the alternate one is ALT's.
    emulator = await startTestEmulator({ dialect: "standard" });
    project = createTestProject();
    mkdirSync(altDir());
    host = await startProviderHost({ projectDir: project.dir, env: STEADY_BATCHING });
    await host.configure({
      "insights:baseUrl": emulator.url, "insights:clientId": DEV.clientId, "insights:clientSecret": secret(DEV.clientSecret),
      "insights:accounts": secret({ alternate: { baseUrl: emulator.url, clientId: ALT.clientId, clientSecret: ALT.clientSecret } }),
    });
    const lookup = async (name: string): Promise<string[]> => (await emulator.get(`/bulk_filters/${name}/`)).body.values;
    const values = Object.fromEntries(await Promise.all(Object.values(PRESET_LOOKUPS).map(async (name) => [name, await lookup(name)] as const)));
    const tags = await lookup("tags");
    const filters = accountFilters({ values, tags, categories: await lookup("categories") });
    // ALT's data world has other lookup values (a world is seeded by its account): it lists the dev account's too, so the same filters are valid in it.
    const added = await emulator.control("POST", "accounts", { ...ALT, dialect: "alternate", features: { bulkFilters: true }, lookupValues: { ...values, tags } });
    expect([added.status, added.body.dialect]).toEqual([201, "alternate"]);
    const createIn = async (account: Credentials): Promise<string[]> => {
      const created: string[] = [];
      for (let start = 0; start < filters.length; start += 100) {
        const answer = await emulator.call("POST", "/bulk_filters/", { body: filters.slice(start, start + 100), account });
        expect(answer.status).toBe(201);
        created.push(...answer.body.map((filter: { id: string | number }) => String(filter.id)));
      }
      return created;
    };
    [ids, altIds] = await Promise.all([createIn(DEV), createIn(ALT)]);
    env = { INSIGHTS_BASE_URL: emulator.url, INSIGHTS_CLIENT_ID: DEV.clientId, INSIGHTS_CLIENT_SECRET: DEV.clientSecret };
    altEnv = { ...env, INSIGHTS_CLIENT_ID: ALT.clientId, INSIGHTS_CLIENT_SECRET: ALT.clientSecret };
    let standard: Imports;
    [standard, alternate] = await Promise.all([imports(file, env), imports(altFile, altEnv)]);
    ({ every, everyAgain, asSet, inAccount, importFileOnly } = standard);
    oddModule = generateModule(ODD_FILTERS);
    writeFileSync(file("odd.ts"), oddModule.source);
    writeFileSync(file("account-set.ts"), generateModule(ODD_FILTERS.slice(1, 2), { set: "odd", account: "staging" }).source);
    // The captures run in child processes while the type checker holds this one. Of the standard
    // account's modules only: the alternate account's are byte-identical (asserted), so they hold for them.
    const captures = Promise.all([declaredResources(project, "filters.ts"), declaredResources(project, "set.ts")]);
    errors = typeErrors([file("filters.ts"), file("set.ts"), file("odd.ts"), file("account.ts"), file("account-set.ts")]);
    [everyResources, setResources] = await captures;
  }, 180_000);
  afterAll(async () => {
    await host?.close();
    project?.remove();
    await emulator?.close();
  });

  it("writes a module that adopts every filter of an account past the listing cap without a write, then plans nothing", { timeout: 120_000 }, async () => {
    expect(ids).toHaveLength(FILTER_COUNT);
    expect(every.stderr).toBe(
      `pulumi-insights import: ${FILTER_COUNT} saved filters written to ${file("filters.ts")}\n` +
        `pulumi-insights import: ${FILTER_COUNT} saved filters written to ${file("filters.json")} for \`pulumi import --file ${file("filters.json")}\`\n`,
    );
    expect(every.status).toBe(0);
    expect(every.stdout).toBe("");
    const source = readFileSync(file("filters.ts"), "utf8");
    // Deterministic: a second run against the same account writes the same bytes.
    expect(everyAgain.stdout).toBe(source);
    // The alternate dialect's account writes the same bytes: each account numbers its filters from the same first id, so the ids are equal.
    expect(altIds).toEqual(ids);
    expect(alternate.every).toEqual(inAltDir(every));
    expect(readFileSync(altFile("filters.ts"), "utf8")).toBe(source);
    expect(alternate.everyAgain).toEqual(everyAgain);
    // Readable, unique names: colliding names carry their id, names without a Latin letter fall back to "filter".
    for (const index of [0, 1, 2, 3]) expect(source).toContain(`new SavedFilter("roku-devices-${ids[index]}", {`);
    expect(source).toContain('new SavedFilter("zurich-viewers", {');
    expect(source).toContain(`new SavedFilter("filter-${ids[4]}", {\n  name: "東京",`);
    expect(source.split("\n").filter((line) => line.length > 100 && !line.includes('"'))).toEqual([]);
    expect(errors.filter((error) => error.includes("filters.ts"))).toEqual([]);

    const registrations = everyResources;
    expect(registrations.map((registration) => registration.inputs.adoptId).sort()).toEqual([...ids].sort());
    expect(new Set(registrations.map((registration) => registration.name)).size).toBe(FILTER_COUNT);

    let mark = emulator.state.journal.lastSeq();
    const adopted = await Promise.all(registrations.map((registration) => up(host, registration.inputs)));
    expect(writes(emulator.state.journal.list(mark))).toEqual([]);
    expect(adopted.map((result) => result.operation)).toEqual(registrations.map(() => "create"));
    expect(adopted.map((result) => result.state.id)).toEqual(registrations.map((registration) => registration.inputs.adoptId));

    mark = emulator.state.journal.lastSeq();
    const states: ResourceState[] = adopted.map((result) => result.state);
    const preview = await Promise.all(registrations.map((registration, index) => up(host, registration.inputs, states[index])));
    expect(preview.filter((result) => result.operation !== "same").map((result) => result.state.id)).toEqual([]);
    expect(writes(emulator.state.journal.list(mark))).toEqual([]);
  });

  it("with --pulumi-import-file, writes the file `pulumi import --file` takes: the module's filters by id, under its names", () => {
    // docs/provider-plugins.md rule 10: {"resources": [{type, name, id}]}, the type a resource of the plugin's schema.
    const schema = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, "provider/plugin/schema.json"), "utf8")) as { resources: Record<string, unknown> };
    const text = readFileSync(file("filters.json"), "utf8");
    expect(readFileSync(altFile("filters.json"), "utf8")).toBe(text);
    const { resources, ...rest } = JSON.parse(text) as { resources: Array<Record<string, unknown>> };
    expect(rest).toEqual({});
    expect(resources.every((resource) => Object.keys(resource).join() === "type,name,id")).toBe(true);
    expect(new Set(resources.map((resource) => resource.type))).toEqual(new Set([SAVED_FILTER_TYPE]));
    expect(Object.keys(schema.resources)).toContain(SAVED_FILTER_TYPE);
    // Each filter once, under the name its declaration in the module has: the same resources in any language.
    const moduleNames = new Map(everyResources.map((registration) => [registration.inputs.adoptId, registration.name]));
    expect(resources.map((resource) => [resource.id, resource.name])).toEqual([...ids].sort(compareIds).map((id) => [id, moduleNames.get(id)]));
    // Valid Pulumi names, unique in the file (Pulumi refuses an ambiguous name).
    expect(new Set(resources.map((resource) => resource.name)).size).toBe(FILTER_COUNT);
    expect(resources.filter((resource) => !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(resource.name as string))).toEqual([]);

    // Without --out, the file instead of the module.
    expect(importFileOnly.status).toBe(0);
    expect(importFileOnly.stdout).toBe("");
    expect(importFileOnly.stderr).toBe(`pulumi-insights import: 4 saved filters written to ${file("roku.json")} for \`pulumi import --file ${file("roku.json")}\`\n`);
    const roku = (JSON.parse(readFileSync(file("roku.json"), "utf8")) as { resources: unknown[] }).resources;
    expect(roku).toEqual(ids.slice(0, 4).map((id) => ({ type: SAVED_FILTER_TYPE, name: `roku-devices-${id}`, id })));
    expect(alternate.importFileOnly).toEqual(inAltDir(importFileOnly));
    expect(readFileSync(altFile("roku.json"), "utf8")).toBe(readFileSync(file("roku.json"), "utf8"));
  });

  it("writes one SavedFilterSet that adopts the selected filters with `adopt`", async () => {
    expect(asSet.status).toBe(0);
    const source = readFileSync(file("set.ts"), "utf8");
    expect(source).toContain('new SavedFilterSet("console-filters", {');
    expect(alternate.asSet).toEqual(inAltDir(asSet));
    expect(readFileSync(altFile("set.ts"), "utf8")).toBe(source);
    expect(errors.filter((error) => error.includes("set.ts"))).toEqual([]);
    const [set] = setResources;
    const adopt = set!.inputs.adopt as Record<string, string>;
    // Every filter whose name contains "Filter 1": 10 to 19 and 100 to 199 (docs/api.md 4.8: a substring match).
    expect(Object.keys(adopt).length).toBe(10 + 100);
    // The same module adopts in each account: the alternate one named in insights:accounts, as the host holds it.
    for (const [inputs, clientId] of [[set!.inputs, DEV.clientId], [{ ...set!.inputs, account: "alternate" }, ALT.clientId]] as const) {
      const mark = emulator.state.journal.lastSeq();
      const adopted = await up(host, inputs);
      expect(writes(emulator.state.journal.list(mark))).toEqual([]);
      expect(new Set(emulator.state.journal.list(mark).map((request) => request.account))).toEqual(new Set([clientId]));
      expect(Object.values(adopted.state.outputs.ids as Record<string, string>).sort()).toEqual(Object.values(adopt).sort());
      expect((await up(host, inputs, adopted.state)).operation).toBe("same");
    }
  });

  it("with --account, declares every filter in that account of insights:accounts (docs/configuration.md \"Accounts\")", () => {
    expect(inAccount.status).toBe(0);
    const source = readFileSync(file("account.ts"), "utf8");
    expect(alternate.inAccount).toEqual(inAltDir(inAccount));
    expect(readFileSync(altFile("account.ts"), "utf8")).toBe(source);
    expect(source).toContain('// They are in the account "staging" of the stack config insights:accounts.\n');
    const declarations = source.split("new SavedFilter(").slice(1);
    expect(declarations.length).toBeGreaterThan(0);
    for (const declaration of declarations) expect(declaration).toMatch(/ {2}adoptId: "\d+",\n {2}account: "staging",\n\}\);/);
    expect(readFileSync(file("account-set.ts"), "utf8")).toContain('  adopt: { "odd-root": "8" },\n  account: "staging",\n});');
    expect(errors.filter((error) => error.includes("account"))).toEqual([]);
  });

  it("writes rules the builder cannot express in the API's JSON form with a comment, and says so", () => {
    expect(oddModule.jsonForms.map((note) => `${note.filterId} ${note.path}`)).toEqual([
      "7 rules.rules[0]", "7 rules.rules[1]", "7 rules.rules[2]", "7 rules.rules[3]", "7 rules.rules[4]", "8 rules",
    ]);
    expect(oddModule.skipped).toEqual([{ filterId: "9", reason: expect.stringContaining("no name") }]);
    const source = oddModule.source;
    expect(source).toContain('    // The API\'s JSON form: field "Region Code" is not a filter field the builder knows (GET /bulk_filters/fields).\n    { field: "Region Code", op: "equals", value: "EU" },\n');
    expect(source).toContain('    { field: "Country", op: "starts_with", value: "United" } as unknown as RuleNode,\n');
    expect(source).toContain('    field("CDN").equals("Akamai"),\n');
    expect(source).toContain('  // The API\'s JSON form: group op "xor" is not one the builder has (and, or).\n  rules: {\n    op: "xor",\n');
    expect(errors.filter((error) => error.includes("odd.ts"))).toEqual([]);
  });

  it("refuses a secret given as a flag value without echoing it, and reads one from standard input", async () => {
    const account = { INSIGHTS_BASE_URL: emulator.url, INSIGHTS_CLIENT_ID: DEV.clientId };
    const [refused, fromStdin] = await Promise.all([
      runCli(["import", "--client-secret", "hunter2-secret"], account),
      runCli(["import", "--client-secret-stdin", "--id", ids[0]!], account, `${DEV.clientSecret}\n`),
    ]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("--client-secret is not accepted");
    expect(refused.stderr).not.toContain("hunter2-secret");
    expect(fromStdin.stderr).toBe("pulumi-insights import: 1 saved filter written to standard output\n");
    expect(fromStdin.stdout).toContain(`adoptId: "${ids[0]}",`);
  });

  it("writes no module when a part of the selection stays at the listing cap however narrowed, and says how to import in slices", async () => {
    // 500 filters alike (enabled, not advanced): "Stuck" answers the cap in every narrower part.
    for (let start = 0; start < 500; start += 100) {
      const body = Array.from({ length: 100 }, (_, index) => ({ name: `Stuck ${start + index}`, rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: "Stuck" }] } }));
      for (const account of [DEV, ALT]) expect((await emulator.call("POST", "/bulk_filters/", { body, account })).status).toBe(201);
    }
    const [stuck, altStuck] = await Promise.all([
      runCli(["import", "--name", "Stuck", "--out", file("stuck.ts")], env),
      runCli(["import", "--name", "Stuck", "--out", altFile("stuck.ts")], altEnv),
    ]);
    // The alternate dialect marks no answer as cut (no `truncated`): the command must still see the cap and refuse alike.
    expect(altStuck).toEqual(inAltDir(stuck));
    expect(existsSync(altFile("stuck.ts"))).toBe(false);
    expect(stuck.status).toBe(1);
    expect(stuck.stderr).toContain('the listing of saved filters whose name contains "Stuck" may be incomplete');
    expect(stuck.stderr).toContain("still answers 500 filters, the service's cap on one answer, also split by the enabled and advanced flags; no module was written\n");
    // Only the selections the command has (its --help lists them), not the client's options.
    expect(stuck.stderr).toContain("(import the account in slices that stay below the cap: --name, --category, --creator, --created or --id)");
    expect(stuck.stderr).not.toContain("creation date");
    expect(existsSync(file("stuck.ts"))).toBe(false);
  });
});
