// @ts-check
"use strict";
/**
 * Which Pulumi CLI `npm start` can run (docs/dynamic-providers.md "Testing without the CLI"):
 * a `pulumi` on PATH; else the `pulumi` devDependency, the launcher of the npm registry, which
 * downloads the CLI of its own version into `$PULUMI_HOME/versions/<version>/bin` on first use;
 * else none, with the reason in one line. A download that cannot start (no route to get.pulumi.com)
 * is seen within {@link PROBE_TIMEOUT_MS}; one that starts and stalls is stopped after
 * {@link DOWNLOAD_TIMEOUT_MS}.
 */
const { spawn } = require("node:child_process");
const { accessSync, constants, realpathSync, statSync } = require("node:fs");
const { homedir } = require("node:os");
const path = require("node:path");

/** How long the reachability probe of the download site may take. */
const PROBE_TIMEOUT_MS = 5_000;
/** How long the launcher's download and install may take (the CLI and its language hosts, about 100 MB). */
const DOWNLOAD_TIMEOUT_MS = Number(process.env.INSIGHTS_DEMO_DOWNLOAD_TIMEOUT_MS ?? 120_000);
/** Where the launcher downloads from (its lib/download.js). */
const DOWNLOAD_SITE = "https://get.pulumi.com/install.sh";

/**
 * The path of an executable named `name` on PATH, or undefined.
 * @param {string} name
 * @param {string} [searchPath] the PATH to search; default the environment's
 * @param {string} [except] a file to pass over (also through a link to it)
 * @returns {string | undefined}
 */
function findOnPath(name, searchPath = process.env.PATH ?? "", except = undefined) {
  const extensions = process.platform === "win32" ? ["", ".exe", ".cmd"] : [""];
  const skipped = except === undefined ? undefined : realpathSync(except);
  for (const folder of searchPath.split(path.delimiter).filter(Boolean)) {
    for (const extension of extensions) {
      const candidate = path.join(folder, name + extension);
      if (isExecutableFile(candidate) && realpathSync(candidate) !== skipped) return candidate;
    }
  }
  return undefined;
}

/** @param {string} file */
function isExecutableFile(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile() && statSync(file).size > 0;
  } catch {
    return false;
  }
}

/**
 * Why the download site cannot be reached, or undefined when it answers.
 * @param {string} site
 * @param {number} timeoutMs
 * @returns {Promise<string | undefined>}
 */
async function unreachable(site, timeoutMs) {
  const host = new URL(site).host;
  try {
    const response = await fetch(site, { method: "HEAD", signal: AbortSignal.timeout(timeoutMs) });
    return response.ok ? undefined : `${host} answered HTTP ${response.status}`;
  } catch (error) {
    const cause = /** @type {{ cause?: { code?: string, message?: string } }} */ (error).cause;
    if (error instanceof Error && error.name === "TimeoutError") return `${host} did not answer within ${timeoutMs / 1000} s`;
    return `${host} cannot be reached (${cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))})`;
  }
}

/**
 * Runs the launcher once (`pulumi version`) so that it downloads the CLI, with a time limit; its
 * progress lines go to standard error. Resolves undefined on success, else the reason.
 * @param {string} launcher
 * @param {(line: string) => void} say
 * @returns {Promise<string | undefined>}
 */
function download(launcher, say) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [launcher, "version"], { stdio: ["ignore", "ignore", "pipe"] });
    let lastLine = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      for (const line of String(chunk).split("\n").filter((text) => text.trim() !== "")) {
        lastLine = line.trim();
        say(`  ${lastLine}`);
      }
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve(`the download did not finish within ${DOWNLOAD_TIMEOUT_MS / 1000} s`);
    }, DOWNLOAD_TIMEOUT_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve(`the launcher did not start (${error.message})`);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? undefined : `the download failed: ${lastLine || `exit code ${code}`}`);
    });
  });
}

/**
 * @typedef {{ command: string, args: string[], source: string }} PulumiCommand  how to run the CLI: `command ...args <arguments>`
 * @typedef {{ cli: PulumiCommand } | { cli: undefined, reason: string }} CliChoice
 */

/**
 * The CLI to use, or why there is none. The options after `say` are for tests: the PATH to search,
 * the Pulumi home (`PULUMI_HOME`, default ~/.pulumi), the download site to probe and the probe's limit.
 * @param {{ root: string, offline: boolean, say: (line: string) => void, searchPath?: string, pulumiHome?: string, downloadSite?: string, probeTimeoutMs?: number }} options
 * @returns {Promise<CliChoice>}
 */
async function choosePulumiCli({ root, offline, say, searchPath, pulumiHome, downloadSite = DOWNLOAD_SITE, probeTimeoutMs = PROBE_TIMEOUT_MS }) {
  if (offline) return { cli: undefined, reason: "`--offline` was given" };
  /** @type {string | undefined} */
  let launcher;
  let version = "";
  try {
    launcher = require.resolve("pulumi/run.js", { paths: [root] });
    version = /** @type {{ version: string }} */ (require(require.resolve("pulumi/package.json", { paths: [root] }))).version;
  } catch {
    launcher = undefined;
  }
  // `npm start` puts node_modules/.bin on PATH, where the launcher itself is a `pulumi`: not a CLI yet.
  const onPath = findOnPath("pulumi", searchPath, launcher);
  if (onPath !== undefined) return { cli: { command: onPath, args: [], source: `${onPath} (on PATH)` } };
  if (launcher === undefined) return { cli: undefined, reason: "no `pulumi` on PATH and the `pulumi` devDependency is not installed (run `npm ci`)" };
  const cli = { command: process.execPath, args: [launcher], source: `the pulumi ${version} launcher (node_modules/pulumi)` };
  const home = pulumiHome ?? (process.env.PULUMI_HOME || path.join(homedir(), ".pulumi"));
  const cached = path.join(home, "versions", version, "bin", process.platform === "win32" ? "pulumi.exe" : "pulumi");
  if (isExecutableFile(cached)) return { cli: { ...cli, source: `${cached} (downloaded by ${cli.source})` } };
  const noRoute = await unreachable(downloadSite, probeTimeoutMs);
  if (noRoute !== undefined) return { cli: undefined, reason: `no \`pulumi\` on PATH, and the launcher cannot download the CLI ${version}: ${noRoute}` };
  say(`Downloading the Pulumi CLI ${version} (node_modules/pulumi, once, into ${path.dirname(path.dirname(cached))})...`);
  const failed = await download(launcher, say);
  if (failed !== undefined) return { cli: undefined, reason: `no \`pulumi\` on PATH, and ${failed}` };
  return { cli };
}

module.exports = { choosePulumiCli, findOnPath, PROBE_TIMEOUT_MS, DOWNLOAD_TIMEOUT_MS, DOWNLOAD_SITE };
