import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  builtModule, destroy, PLUGIN_PACKAGE, refresh, REPOSITORY_ROOT, secret, startProviderPlugin, up, type ProviderHost,
} from "../../engine";
import { servedSchema } from "../../provider/plugin/package-schema";
import { DEV, useTestEmulator } from "../support/emulator";
import { usRules, usRulesShuffled } from "../support/rule-trees";
import { NO_MATCH_ESTIMATE } from "../provider/fixture";

/**
 * The standalone plugin as a release ships it (`npm run plugin:package`, scripts/package-plugin.cjs):
 * the archive of this platform, under the name Pulumi downloads (docs/releasing.md), extracted into
 * an empty folder and started as the engine starts a plugin it installed, with no `node` on PATH.
 * It serves its version and schema and the lifecycle against the emulator. Built once for the file
 * (a bundle, a copy of Node.js and an archive of it take some seconds), or, with
 * `INSIGHTS_PLUGIN_RELEASE=<folder>`, the archive a release built there (.github/workflows/release.yml).
 */

const emulator = useTestEmulator();
const { version: VERSION } = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, "package.json"), "utf8")) as { version: string };
/** Pulumi's names of this platform (its plugin archives' names). */
const OS = ({ linux: "linux", darwin: "darwin", win32: "windows" } as Record<string, string>)[process.platform]!;
const ARCH = ({ x64: "amd64", arm64: "arm64" } as Record<string, string>)[process.arch]!;
const ARCHIVE = `pulumi-resource-insights-v${VERSION}-${OS}-${ARCH}.tar.gz`;
const EXECUTABLE = `pulumi-resource-insights${OS === "windows" ? ".exe" : ""}`;
const FILTER = { urn: "urn:pulumi:test::insights-test-project::insights:index:SavedFilter::us" };

let work: string;
let release: string;
let extracted: string;
/** A PATH of one empty folder: no `node`, nor anything else, to be found. */
let emptyPath: string;
let plugin: ProviderHost;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "insights-standalone-"));
  if (process.env.INSIGHTS_PLUGIN_RELEASE) {
    release = path.resolve(REPOSITORY_ROOT, process.env.INSIGHTS_PLUGIN_RELEASE);
  } else {
    builtModule("dist/provider/plugin/bin.js"); // the script bundles the build
    release = path.join(work, "release");
    execFileSync(process.execPath, [path.join(REPOSITORY_ROOT, "scripts", "package-plugin.cjs"), "--out", release], { cwd: REPOSITORY_ROOT, stdio: ["ignore", "pipe", "pipe"] });
  }
  extracted = path.join(work, "extracted");
  emptyPath = path.join(work, "empty-bin");
  mkdirSync(extracted);
  mkdirSync(emptyPath);
  // Through standard input: Git for Windows' tar reads a drive letter in a path as a remote host.
  execFileSync("tar", ["-xzf", "-"], { cwd: extracted, input: readFileSync(path.join(release, ARCHIVE)) });
  plugin = await startProviderPlugin({ launcher: "standalone", executable: path.join(extracted, EXECUTABLE), cwd: work, env: { PATH: emptyPath, ...NO_MATCH_ESTIMATE } });
}, 240_000);

afterAll(async () => {
  await plugin?.close();
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe("the standalone plugin of a release", () => {
  it("is archived as Pulumi installs plugins: the executable alone at the root, with its SHA-256 and the schema it serves", () => {
    // Nothing else: the bundle and the blob stay in a working folder that is removed.
    expect(readdirSync(release).sort()).toEqual([`pulumi-insights-v${VERSION}-schema.json`, ARCHIVE, `${ARCHIVE}.sha256`]);
    const entries = execFileSync("tar", ["-tzf", "-"], { input: readFileSync(path.join(release, ARCHIVE)), encoding: "utf8" });
    expect(entries.split("\n").filter(Boolean)).toEqual([EXECUTABLE]);
    if (OS !== "windows") expect(statSync(path.join(extracted, EXECUTABLE)).mode & 0o111).not.toBe(0);
    const digest = createHash("sha256").update(readFileSync(path.join(release, ARCHIVE))).digest("hex");
    expect(readFileSync(path.join(release, `${ARCHIVE}.sha256`), "utf8")).toBe(`${digest}  ${ARCHIVE}\n`);
    expect(JSON.parse(readFileSync(path.join(release, `pulumi-insights-v${VERSION}-schema.json`), "utf8"))).toEqual(servedSchema());
  });

  it("runs with no node on PATH and answers its version and the schema with the release's download URL", async () => {
    // The environment it was started with really has no node.
    expect(spawnSync("node", ["--version"], { env: { PATH: emptyPath } }).error).toMatchObject({ code: "ENOENT" });
    expect(await plugin.getPluginInfo()).toEqual({ version: VERSION });
    const schema = JSON.parse(await plugin.getSchema()) as Record<string, unknown>;
    expect(schema).toEqual(servedSchema());
    expect(schema).toMatchObject({ version: VERSION, pluginDownloadURL: expect.stringMatching(/^github:\/\/api\.github\.com\//) });
  });

  it("serves Check, Create, Read, Update, Delete and Invoke against the emulator", async () => {
    await plugin.configure({ baseUrl: emulator.url, clientId: DEV.clientId, clientSecret: secret(DEV.clientSecret) }, { package: PLUGIN_PACKAGE });
    const checked = await plugin.check({}, { name: "US", rules: { op: "and", rules: [{ field: "Contry", op: "equals", value: "Canada" }] } }, FILTER);
    expect(checked.failures).toEqual([{ property: "rules.rules[0].field", reason: expect.stringContaining('"Country"') }]);

    const created = await up(plugin, { name: "US and Canada", rules: usRules }, undefined, FILTER);
    expect(created.operation).toBe("create");
    expect(created.state.outputs).toMatchObject({ filterId: created.state.id, name: "US and Canada", rules: usRules });
    expect((await up(plugin, { name: "US and Canada", rules: usRulesShuffled }, created.state, FILTER)).operation).toBe("same");

    await emulator.call("PUT", "/bulk_filters/", { body: [{ id: created.state.id, name: "Edited in the console" }] });
    const read = await refresh(plugin, created.state, FILTER);
    expect(read?.outputs).toMatchObject({ name: "Edited in the console" });

    const updated = await up(plugin, { name: "US and Canada", rules: usRules, enabled: false }, read, FILTER);
    expect(updated.operation).toBe("update");
    expect(updated.state.outputs).toMatchObject({ name: "US and Canada", enabled: false });

    const values = await plugin.invoke("insights:index:getFilterFieldValues", { field: "countries", pattern: "united" });
    expect(values.failures).toEqual([]);
    expect(JSON.stringify(values.outputs)).toContain("United States");

    await destroy(plugin, updated.state, FILTER);
    expect((await emulator.get("/bulk_filters/")).body.filters).toEqual([]);
  });
});
