import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestProject, REPOSITORY_ROOT, type TestProject } from "../../engine";
import { DEV, useTestEmulator } from "../support/emulator";

/**
 * Every implementation specifier a state of an earlier version names in `__provider` keeps loading
 * (docs/dynamic-providers.md rule 2): a stack made with 0.1.0 refreshes and destroys with today's
 * package, its filters neither forgotten nor left in the account. Each specifier is resolved as the
 * dynamic-provider host resolves it, through the package's exports from a user's project (the
 * serialized shim of host/shim.ts, run in the project directory), and each answers as a provider.
 */

/** The specifiers states name, by the version that wrote them, for each resource. */
const SPECIFIERS = {
  SavedFilter: { "0.1.0": "resources/saved-filter-provider.js", today: "resources/saved-filter/provider.js" },
  SavedFilterSet: { "0.1.0": "resources/saved-filter-set-provider.js", today: "resources/saved-filter/set-provider.js" },
  PiiOptOutRequest: { "0.1.0": "resources/pii-opt-out-request-provider.js", today: "resources/pii-opt-out-request/provider.js" },
} as const;

/** A dynamic provider as the host calls it. */
interface DynamicProvider {
  configure(request: { config: { get(key: string): string | undefined } }): Promise<void>;
  diff(id: string, olds: object, news: object): Promise<{ changes?: boolean; replaces?: string[] }>;
  read(id: string, props: object): Promise<{ id?: string; props?: Record<string, any> }>;
}

const emulator = useTestEmulator();

describe("the implementation specifiers of every version's state", () => {
  let project: TestProject;
  let workingDirectory: string;
  let hostedProvider: (implementation: string) => DynamicProvider;

  beforeAll(() => {
    project = createTestProject();
    // The shim resolves from the host's working directory, the Pulumi project's.
    workingDirectory = process.cwd();
    process.chdir(project.dir);
    const fromProject = createRequire(path.join(project.dir, "package.json"));
    hostedProvider = (fromProject("pulumi-insights/dist/provider/host/shim.js") as { hostedProvider: typeof hostedProvider }).hostedProvider;
  });
  afterAll(() => {
    process.chdir(workingDirectory);
    project?.remove();
  });

  it("today's are the ones the resource classes write into __provider", () => {
    const built = (file: string) => readFileSync(path.join(REPOSITORY_ROOT, "dist/provider/resources", file), "utf8");
    expect(built("saved-filter/resource.js")).toContain('packageModule)("resources/saved-filter/provider")');
    expect(built("saved-filter/set-resource.js")).toContain('packageModule)("resources/saved-filter/set-provider")');
    expect(built("pii-opt-out-request/resource.js")).toContain('packageModule)("resources/pii-opt-out-request/provider")');
  });

  it.each(Object.entries(SPECIFIERS))("%s: 0.1.0's and today's load through the package's exports as the same provider", (_resource, { "0.1.0": old, today }) => {
    const fromProject = createRequire(path.join(project.dir, "package.json"));
    const load = (specifier: string) => (fromProject(`pulumi-insights/dist/provider/${specifier}`) as { provider: DynamicProvider }).provider;
    const provider = load(today);
    for (const method of ["configure", "check", "diff", "create", "read", "update", "delete"]) expect(typeof (provider as unknown as Record<string, unknown>)[method], method).toBe("function");
    expect(load(old)).toBe(provider);
  });

  it("each answers as its resource's provider: a filter read by either SavedFilter's, a set's member by either set's, an unchanged opt-out by either's", async () => {
    const created = await emulator.call("POST", "/bulk_filters/", { body: [{ name: "Kept since 0.1.0", enabled: true, rules: { op: "and", rules: [{ field: "Country", op: "equals", value: "Canada" }] } }] });
    expect(created.status).toBe(201);
    const filterId = String((created.body as Array<{ id: unknown }>)[0]!.id);
    const settings: Record<string, string> = { "insights:baseUrl": emulator.url, "insights:clientId": DEV.clientId, "insights:clientSecret": DEV.clientSecret };
    const identifiers = { viewerIds: ["viewer-since-0.1.0"] };
    for (const version of ["0.1.0", "today"] as const) {
      const [filter, set, optOut] = [SPECIFIERS.SavedFilter, SPECIFIERS.SavedFilterSet, SPECIFIERS.PiiOptOutRequest].map((specifiers) =>
        hostedProvider(`pulumi-insights/dist/provider/${specifiers[version]}`));
      await filter!.configure({ config: { get: (key) => settings[key] } });
      expect(await filter!.read(filterId, { name: "Kept since 0.1.0" }), version).toMatchObject({ id: filterId, props: { filterId, name: "Kept since 0.1.0" } });
      expect(await set!.read("set-0", { ids: { kept: filterId } }), version).toMatchObject({ id: "set-0", props: { ids: { kept: filterId }, filters: { kept: { filterId } } } });
      expect(await optOut!.diff("pii-0", identifiers, identifiers), version).toMatchObject({ changes: false, replaces: [] });
    }
  });
});
