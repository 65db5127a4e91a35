#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * `npm start`: the examples (examples/), the program of this repository's own Pulumi stack, applied
 * against the emulator in one command, on any machine:
 *
 * 1. chooses the Pulumi CLI (scripts/pulumi-cli.cjs): a `pulumi` on PATH, else the `pulumi`
 *    devDependency's launcher, which downloads the CLI once; `--offline`, or no CLI to be had (no
 *    internet), takes the offline path, saying why in its first line;
 * 2. builds with tsc as `npm run build` does, which rebuilds nothing when the build is current (the
 *    examples import the package by name, which resolves to dist/); skipped with `--no-build`;
 * 3. starts the emulator in this process on a free loopback port, with demo data: a saved filter
 *    "made in the console" for the adoption example, two viewers to forget (in a temporary file, never
 *    in the repository) and opt-out requests that finish within seconds (`--pii-finish-after MS`,
 *    4000 by default; the emulator's own flag of the same name, emulator/README.md "PII opt-out");
 * 4. with a CLI: creates the stack `demo` in a temporary local backend (file://) with a throwaway
 *    passphrase, sets its config, runs `pulumi up --yes` and prints `pulumi stack output --json`;
 *    offline: runs the program under Pulumi's SDK with every resource through the real
 *    dynamic-provider host (scripts/demo-offline.cjs): preview, up, a no-change preview, a console
 *    change seen by refresh and put back by up, destroy;
 * 5. cleans up whatever happens, Ctrl-C included: removes the stack (and its Pulumi.demo.yaml), the
 *    temporary directory, the provider host, and stops the emulator.
 */
const { spawn } = require("node:child_process");
const { randomBytes } = require("node:crypto");
const { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const path = require("node:path");
const { choosePulumiCli } = require("./pulumi-cli.cjs");

const ROOT = path.resolve(__dirname, "..");
const STACK = "demo";
const STACK_CONFIG_FILE = path.join(ROOT, `Pulumi.${STACK}.yaml`);
/** Viewers of the emulator's data world: the opt-out example deletes their data. */
const VIEWERS_TO_FORGET = ["viewer-000123", "viewer-000456"];
/** The viewer whose summary the report example exports (as a secret). */
const REPORTED_VIEWER = "viewer-000001";

/** How to get the real path, for the first line of the offline path. */
const REAL_PATH_HINT = "for the real `pulumi up`, put a `pulumi` on PATH (curl -fsSL https://get.pulumi.com | sh) or run `npm start` where get.pulumi.com is reachable";

/** @param {string} line */
const say = (line) => process.stdout.write(`${line}\n`);

/** Set by Ctrl-C: the running command stops on its own (it gets the signal too), then we clean up. */
let interrupted = false;

/**
 * Runs a command to completion; rejects when it fails. Its output goes to ours unless captured.
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, input?: string, capture?: boolean, quiet?: boolean }} [options]
 * @returns {Promise<string>} the captured standard output
 */
function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    if (interrupted) throw new Error("interrupted");
    const child = spawn(command, args, {
      cwd: ROOT,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? "inherit" : "pipe", options.capture ? "pipe" : options.quiet ? "ignore" : "inherit", options.quiet ? "ignore" : "inherit"],
    });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    // A secret travels on standard input, never in the arguments (which `ps` shows).
    if (options.input !== undefined) child.stdin?.end(options.input);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolve(output);
      else reject(new Error(`\`${[command, ...args].join(" ")}\` ${interrupted ? "was interrupted" : `failed (${signal ?? `exit code ${code}`})`}`));
    });
  });
}

/**
 * The demo data a new user sees: a saved filter "made in the console" to adopt, and the file of
 * viewers to forget, outside the repository.
 * @param {{ url: string }} emulator
 * @param {{ clientId: string, clientSecret: string }} account
 * @param {string} workDir
 */
async function seedDemoData(emulator, account, workDir) {
  const { InsightsClient } = require(path.join(ROOT, "dist", "provider", "client"));
  const client = new InsightsClient({ baseUrl: emulator.url, clientId: account.clientId, clientSecret: account.clientSecret });
  try {
    const [made] = await client.filters.create({
      filters: [
        { name: "Roku (made in the console)", rules: { op: "and", rules: [{ field: "Device Manufacturer", op: "contains", value: "Roku" }] } },
      ],
    });
    const viewersFile = path.join(workDir, "viewers-to-forget.txt");
    writeFileSync(viewersFile, `# viewers who asked to be forgotten (demo data)\n${VIEWERS_TO_FORGET.join("\n")}\n`);
    return { adoptFilterId: String(made.id), viewersFile };
  } finally {
    await client.close();
  }
}

/**
 * `npm start` with the CLI: the stack `demo` in a temporary file backend, `pulumi up`, the outputs.
 * @param {import("./pulumi-cli.cjs").PulumiCommand} cli
 * @param {NodeJS.ProcessEnv} env
 * @param {Record<string, string>} config the plain settings
 * @param {string} clientSecret
 * @param {{ stackMade: boolean }} progress
 */
async function runWithCli(cli, env, config, clientSecret, progress) {
  /** @param {string[]} args @param {{ input?: string, capture?: boolean }} [options] */
  const pulumi = (args, options = {}) => run(cli.command, [...cli.args, ...args], { env, ...options });
  const stack = ["--stack", STACK];
  await pulumi(["stack", "init", STACK]);
  progress.stackMade = true;
  for (const [key, value] of Object.entries(config)) await pulumi(["config", "set", ...stack, key, value]);
  await pulumi(["config", "set", ...stack, "--secret", "insights:clientSecret"], { input: clientSecret });
  await pulumi(["config", "set", ...stack, "--secret", "insights:reportViewerId"], { input: REPORTED_VIEWER });
  await pulumi(["up", "--yes", ...stack]);
  const outputs = await pulumi(["stack", "output", "--json", ...stack], { capture: true });
  process.stdout.write(`\nStack outputs (secrets show as "[secret]"):\n${outputs}\n`);
}

/**
 * `--pii-finish-after MS`: how long the emulator's opt-out requests take to reach FINISHED
 * (default 4000: a `pulumi up` waits seconds, not the emulator's 5 minutes).
 * @param {string[]} argv
 * @returns {number}
 */
function piiFinishAfterMs(argv) {
  const index = argv.indexOf("--pii-finish-after");
  if (index < 0) return 4_000;
  const text = argv[index + 1] ?? "";
  const value = Number(text);
  if (text === "" || !Number.isInteger(value) || value < 0) throw new Error(`--pii-finish-after must be a non-negative integer of milliseconds, got "${text}"`);
  return value;
}

async function main() {
  const started = Date.now();
  const offlineRequested = process.argv.includes("--offline");
  if (existsSync(STACK_CONFIG_FILE)) {
    process.stderr.write(`${path.basename(STACK_CONFIG_FILE)} exists: the demo makes and removes the stack "${STACK}" itself. Remove that file, then run \`npm start\` again.\n`);
    return 1;
  }
  /** @type {Array<() => Promise<void>>} clean-up steps, last added first */
  const cleanups = [];
  let cleaned = false;
  const cleanUp = async () => {
    if (cleaned) return;
    cleaned = true;
    for (const step of cleanups.reverse()) await step().catch(() => undefined);
  };
  const onSignal = (/** @type {NodeJS.Signals} */ signal) => {
    interrupted = true;
    // The offline path runs in this process: stop it here. The CLI gets the signal itself and stops.
    if (!usesCli) void cleanUp().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  let usesCli = false;
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  const choice = await choosePulumiCli({ root: ROOT, offline: offlineRequested, say });
  usesCli = choice.cli !== undefined;
  if (choice.cli === undefined) {
    say(`This is not the Pulumi engine: ${choice.reason}, so the examples run offline under Pulumi's SDK, each resource through the real dynamic-provider host, against the emulator; ${REAL_PATH_HINT}.`);
  } else {
    say(`npm start: the Pulumi CLI is ${choice.cli.source}.`);
  }

  // `npm run build` (tsc's build mode: nothing is rebuilt when the build is current), without depending on how npm is installed.
  const buildArgs = /** @type {{ scripts: { build: string } }} */ (require(path.join(ROOT, "package.json"))).scripts.build.split(" ").slice(1);
  if (!process.argv.includes("--no-build")) await run(process.execPath, [require.resolve("typescript/bin/tsc"), ...buildArgs]);

  // The demo's account is the emulator's documented dev account (every feature enabled).
  const { startEmulator, DEV_ACCOUNT: DEV } = require(path.join(ROOT, "dist", "emulator"));
  // Real time; opt-out requests finish 4 s after they are made instead of the emulator's 5 minutes
  // (`--pii-finish-after 0`: at once, as the test of `npm start` runs it).
  const finishAfterMs = piiFinishAfterMs(process.argv);
  const emulator = await startEmulator({ port: 0, seed: 1, piiTiming: { finishAfterMs } });
  cleanups.push(() => emulator.close());
  const workDir = mkdtempSync(path.join(tmpdir(), "insights-demo-"));
  cleanups.push(async () => rmSync(workDir, { recursive: true, force: true }));
  try {
    say(`\nemulator: listening on ${emulator.url} (dev account: ${DEV.clientId} / ${DEV.clientSecret}); opt-out requests finish ${finishAfterMs / 1000} s after they are made (--pii-finish-after ${finishAfterMs})`);
    const demo = await seedDemoData(emulator, DEV, workDir);
    const config = {
      "insights:baseUrl": emulator.url,
      "insights:clientId": DEV.clientId,
      "insights:adoptFilterId": demo.adoptFilterId,
      "insights:optOutViewerIdsFile": demo.viewersFile,
    };
    if (choice.cli === undefined) {
      const { runOffline } = require("./demo-offline.cjs");
      cleanups.push(async () => {
        const { closeDataSourceClients } = require(path.join(ROOT, "dist", "provider"));
        await closeDataSourceClients();
      });
      await runOffline({
        root: ROOT,
        emulatorUrl: emulator.url,
        account: DEV,
        config: { ...config, "insights:clientSecret": DEV.clientSecret, "insights:reportViewerId": REPORTED_VIEWER },
        secretKeys: ["insights:clientSecret", "insights:reportViewerId"],
        write: say,
        onHost: (close) => cleanups.push(close),
      });
    } else {
      const backend = path.join(workDir, "state");
      mkdirSync(backend);
      /** @type {NodeJS.ProcessEnv} */
      const env = {
        ...process.env,
        PULUMI_BACKEND_URL: `file://${backend}`,
        // Throwaway: it encrypts the demo stack's secrets, which are deleted at the end.
        PULUMI_CONFIG_PASSPHRASE: randomBytes(16).toString("hex"),
        PULUMI_SKIP_UPDATE_CHECK: "true",
      };
      const progress = { stackMade: false };
      const cli = choice.cli;
      // The stack goes with its state; `stack rm` also deletes Pulumi.demo.yaml.
      cleanups.push(async () => {
        if (progress.stackMade) {
          interrupted = false; // the clean-up runs even after Ctrl-C
          await run(cli.command, [...cli.args, "stack", "rm", "--yes", "--force", "--stack", STACK], { env, quiet: true }).catch(() => undefined);
        }
        rmSync(STACK_CONFIG_FILE, { force: true });
      });
      await runWithCli(cli, env, config, DEV.clientSecret, progress);
    }
    say(`\nDone in ${((Date.now() - started) / 1000).toFixed(0)} s. The demo stack, its state and the emulator are thrown away now. README.md shows how to run a stack of your own.`);
    return 0;
  } finally {
    await cleanUp();
  }
}

main().then(
  (code) => (process.exitCode = code),
  (error) => {
    process.stderr.write(interrupted ? "npm start: interrupted; everything it made is removed\n" : `npm start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = interrupted ? 130 : 1;
  },
);
