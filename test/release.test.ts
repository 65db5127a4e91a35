import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtModule, REPOSITORY_ROOT, startProviderPlugin } from "../engine";

/**
 * One version, package.json's, wherever a user reads one (docs/releasing.md "One version"), and a
 * build that happens once: `npm run build` is tsc's build mode, which `npm start` and
 * `npm run emulator` go through, and rebuilds nothing that is current.
 */

const manifest = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, "package.json"), "utf8")) as {
  version: string;
  repository: { url: string };
  scripts: Record<string, string>;
};
const VERSION = manifest.version;
/** `owner/name` of package.json's repository. */
const REPOSITORY = /github\.com\/([\w.-]+\/[\w.-]+?)\.git$/.exec(manifest.repository.url)![1]!;

/** Runs a command of the repository; its status and output. */
function run(command: string, args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_OPTIONS;
  const result = spawnSync(command, args, { cwd: REPOSITORY_ROOT, encoding: "utf8", env });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every file under dist/ with its modification time. */
function distFiles(): Map<string, number> {
  const dist = path.join(REPOSITORY_ROOT, "dist");
  return new Map(
    readdirSync(dist, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !path.relative(dist, entry.parentPath).startsWith("release"))
      .map((entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return [path.relative(dist, file), statSync(file).mtimeMs];
      }),
  );
}

describe("one version: package.json's", () => {
  it("is semver, CHANGELOG.md's first release (dated), and the one tag the release accepts", () => {
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    const changelog = readFileSync(path.join(REPOSITORY_ROOT, "CHANGELOG.md"), "utf8");
    expect(/^## \[(?!unreleased)([^\]]+)\] - (\d{4}-\d{2}-\d{2})$/im.exec(changelog)?.[1]).toBe(VERSION);
    const accepted = run(process.execPath, ["scripts/release-check.cjs", "--tag", `v${VERSION}`, "--repository", REPOSITORY]);
    expect(accepted).toMatchObject({ status: 0, stdout: `${VERSION}\n` });
    const refused = run(process.execPath, ["scripts/release-check.cjs", "--tag", `v${VERSION}.1`, "--repository", "someone/else"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`the tag v${VERSION}.1 is not v${VERSION}, package.json's version`);
    expect(refused.stderr).toContain(`does not name someone/else, where this release runs`);
  });

  it("is what the plugin answers and the version of the schema it serves", async () => {
    const plugin = await startProviderPlugin();
    try {
      expect(await plugin.getPluginInfo()).toEqual({ version: VERSION });
      expect(JSON.parse(await plugin.getSchema())).toMatchObject({ version: VERSION });
    } finally {
      await plugin.close();
    }
  });

  it("is what `pulumi-insights --version` prints", () => {
    builtModule("dist/provider/cli/bin.js");
    expect(run(process.execPath, ["dist/provider/cli/bin.js", "--version"])).toEqual({ status: 0, stdout: `${VERSION}\n`, stderr: "" });
    expect(run(process.execPath, ["dist/provider/cli/bin.js", "--help"]).stdout).toMatch(/^ {2}--version +print the package's version$/m);
  });

  it("names the tarball of the README's install command", () => {
    const readme = readFileSync(path.join(REPOSITORY_ROOT, "README.md"), "utf8");
    const install = /^npm install (\S+)$/m.exec(readme)?.[1];
    expect(install).toBe(`./vendor/pulumi-insights-${VERSION}.tgz`);
  });
});

describe("a build that happens once", () => {
  it("npm run build is tsc's build mode, and npm start builds with the same arguments", () => {
    expect(manifest.scripts.build).toMatch(/^tsc -b /);
    expect(manifest.scripts.emulator).toMatch(/^npm run build && /);
    // scripts/demo.cjs runs tsc with the arguments of package.json's build script.
    expect(readFileSync(path.join(REPOSITORY_ROOT, "scripts", "demo.cjs"), "utf8")).toContain("scripts.build.split(\" \").slice(1)");
  });

  it("`npm run emulator -- --version` on a current build rebuilds nothing and prints the version", () => {
    const [, ...buildArgs] = manifest.scripts.build!.split(" ");
    const dry = run(process.execPath, [require.resolve("typescript/bin/tsc", { paths: [REPOSITORY_ROOT] }), ...buildArgs, "--dry", "--verbose"]);
    expect(dry.stdout, "the build is not current: run `npm run build` first (`npm test` does)").toMatch(/Project 'tsconfig\.json' is up to date/);
    const before = distFiles();
    expect(before.size).toBeGreaterThan(100);
    const emulator = run("npm", ["run", "--silent", "emulator", "--", "--version"]);
    expect(emulator).toMatchObject({ status: 0, stdout: `${VERSION}\n` });
    expect(distFiles()).toEqual(before);
  });
});
