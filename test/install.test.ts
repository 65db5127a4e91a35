import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packPackage } from "./support/packed-package";

/**
 * The README's install, as on a fresh CI runner (README.md "Install"): a new
 * project runs the README's first install command with an empty npm cache, commits package.json,
 * package-lock.json and vendor/ and nothing else, and a clone of that on another machine (another
 * folder, another empty cache) passes `npm ci`. Both fetch @pulumi/pulumi's dependencies from the
 * npm registry, which is most of the time this takes.
 */

const ROOT = path.join(__dirname, "..");
const { version: VERSION } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };

let work: string;
let tarball: string;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "insights-install-"));
  tarball = packPackage(work);
});
// Two node_modules of @pulumi/pulumi's dependencies: some seconds to remove on a busy disk.
afterAll(() => rmSync(work, { recursive: true, force: true }), 300_000);

/** The first `npm install` of the README's "Install", as its words. */
function readmeInstallCommand(): string[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Install"));
  const line = /^```sh[^\n]*\n(?:.*\n)*?(npm install .*)$/m.exec(section)?.[1];
  expect(line, "README.md \"Install\" has no `npm install` in a sh block").toBeDefined();
  return line!.replace(/\s+#.*$/, "").split(/\s+/);
}

/** npm in `cwd` with an empty cache of its own, as on a runner that never installed anything. */
function npm(args: string[], cwd: string, cache: string): void {
  // Nothing of the npm that runs this suite (its cache, its configuration) reaches the project's npm.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  mkdirSync(cache);
  execFileSync("npm", args, {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...env, npm_config_cache: cache, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" },
  });
}

describe("the README's install on a fresh runner", () => {
  it("installs by the README's first command with an empty cache, and npm ci passes from what is committed", () => {
    const [tool, ...args] = readmeInstallCommand();
    expect([tool, ...args]).toEqual(["npm", "install", `./vendor/pulumi-insights-${VERSION}.tgz`]);
    const project = path.join(work, "project");
    mkdirSync(path.join(project, "vendor"), { recursive: true });
    copyFileSync(tarball, path.join(project, args[1]!));
    writeFileSync(path.join(project, "package.json"), `${JSON.stringify({ name: "insights-consumer", version: "1.0.0", private: true }, null, 2)}\n`);
    npm(args, project, path.join(work, "cache-of-the-developer"));

    // A path inside the project, which every clone has.
    const manifest = JSON.parse(readFileSync(path.join(project, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(manifest.dependencies).toEqual({ "pulumi-insights": `file:vendor/pulumi-insights-${VERSION}.tgz` });
    const lock = JSON.parse(readFileSync(path.join(project, "package-lock.json"), "utf8")) as { packages: Record<string, { resolved?: string; version?: string }> };
    expect(lock.packages["node_modules/pulumi-insights"]).toMatchObject({ version: VERSION, resolved: `file:vendor/pulumi-insights-${VERSION}.tgz` });

    // The runner: a clone of what is committed, no node_modules, another empty cache.
    const runner = path.join(work, "runner");
    mkdirSync(runner);
    for (const file of ["package.json", "package-lock.json", "vendor"]) cpSync(path.join(project, file), path.join(runner, file), { recursive: true });
    expect(readdirSync(runner).sort()).toEqual(["package-lock.json", "package.json", "vendor"]);
    npm(["ci"], runner, path.join(work, "cache-of-the-runner"));
    const installed = path.join(runner, "node_modules", ".bin", process.platform === "win32" ? "pulumi-insights.cmd" : "pulumi-insights");
    expect(execFileSync(installed, ["--version"], { encoding: "utf8" })).toBe(`${VERSION}\n`);
  }, 600_000);
});
