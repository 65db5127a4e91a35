#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * `npm start`: the examples (examples/), which are the program of this repository's own Pulumi
 * stack, run for real by the pulumi CLI against the emulator, in one command:
 *
 * 1. checks that `pulumi` is on PATH, before anything else: without it, says how to install it and
 *    exits 1, having started nothing;
 * 2. builds with tsc (the examples import the package by name, which resolves to dist/); skipped
 *    with `--no-build`;
 * 3. starts the emulator in this process on a free loopback port, with demo data: a saved filter
 *    "made in the console" for the adoption example, two viewers to forget (in a temporary file, never
 *    in the repository) and opt-out requests that finish within seconds;
 * 4. creates the stack `demo` in a temporary local backend (file://) with a throwaway passphrase,
 *    sets its config, runs `pulumi up --yes` and prints `pulumi stack output --json`;
 * 5. cleans up whatever happens, Ctrl-C included: removes the stack (and its Pulumi.demo.yaml), the
 *    temporary directory, and stops the emulator.
 */
const { spawn } = require("node:child_process");
const { randomBytes } = require("node:crypto");
const { accessSync, constants, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const STACK = "demo";
const STACK_CONFIG_FILE = path.join(ROOT, `Pulumi.${STACK}.yaml`);
/** Viewers of the emulator's data world: the opt-out example deletes their data. */
const VIEWERS_TO_FORGET = ["viewer-000123", "viewer-000456"];
/** The viewer whose summary the report example exports (as a secret). */
const REPORTED_VIEWER = "viewer-000001";

const INSTALL_HELP = `npm start runs the examples with the Pulumi CLI, and \`pulumi\` is not on PATH.
Install it, then open a new shell and run \`npm start\` again:
  curl -fsSL https://get.pulumi.com | sh        # Linux, macOS
  brew install pulumi/tap/pulumi                # macOS with Homebrew
  (Windows and other ways: https://www.pulumi.com/docs/install/)
Without the CLI, \`npm test\` exercises every example against the emulator,
and \`npm run emulator\` starts the emulator on its own.
`;

/**
 * The path of an executable named `name` on PATH, or undefined.
 * @param {string} name
 * @returns {string | undefined}
 */
function findOnPath(name) {
  const extensions = process.platform === "win32" ? ["", ".exe", ".cmd"] : [""];
  for (const folder of (process.env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    for (const extension of extensions) {
      const candidate = path.join(folder, name + extension);
      try {
        accessSync(candidate, constants.X_OK);
        if (statSync(candidate).isFile()) return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

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

async function main() {
  const pulumi = findOnPath("pulumi");
  if (pulumi === undefined) {
    process.stderr.write(INSTALL_HELP);
    return 1;
  }
  if (existsSync(STACK_CONFIG_FILE)) {
    process.stderr.write(`${path.basename(STACK_CONFIG_FILE)} exists: the demo makes and removes the stack "${STACK}" itself. Remove that file, then run \`npm start\` again.\n`);
    return 1;
  }
  process.on("SIGINT", () => (interrupted = true));
  process.on("SIGTERM", () => (interrupted = true));

  // `npm run build`, without depending on how npm is installed.
  if (!process.argv.includes("--no-build")) await run(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.json"]);

  // The demo's account is the emulator's documented dev account (every feature enabled).
  const { startEmulator, DEV_ACCOUNT: DEV } = require(path.join(ROOT, "dist", "emulator"));
  // Real time; opt-out requests finish 4 s after they are made instead of 5 minutes.
  const emulator = await startEmulator({ port: 0, seed: 1, piiTiming: { startAfterMs: 2_000, finishAfterMs: 4_000 } });
  const workDir = mkdtempSync(path.join(tmpdir(), "insights-demo-"));
  const backend = path.join(workDir, "state");
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${backend}`,
    // Throwaway: it encrypts the demo stack's secrets, which are deleted at the end.
    PULUMI_CONFIG_PASSPHRASE: randomBytes(16).toString("hex"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  const stack = ["--stack", STACK];
  let stackMade = false;
  try {
    process.stdout.write(`\nemulator: listening on ${emulator.url} (dev account: ${DEV.clientId} / ${DEV.clientSecret})\n`);
    const demo = await seedDemoData(emulator, DEV, workDir);
    mkdirSync(backend);
    await run(pulumi, ["stack", "init", STACK], { env });
    stackMade = true;
    const config = {
      "insights:baseUrl": emulator.url,
      "insights:clientId": DEV.clientId,
      "insights:adoptFilterId": demo.adoptFilterId,
      "insights:optOutViewerIdsFile": demo.viewersFile,
    };
    for (const [key, value] of Object.entries(config)) await run(pulumi, ["config", "set", ...stack, key, value], { env });
    await run(pulumi, ["config", "set", ...stack, "--secret", "insights:clientSecret"], { env, input: DEV.clientSecret });
    await run(pulumi, ["config", "set", ...stack, "--secret", "insights:reportViewerId"], { env, input: REPORTED_VIEWER });

    await run(pulumi, ["up", "--yes", ...stack], { env });
    const outputs = await run(pulumi, ["stack", "output", "--json", ...stack], { env, capture: true });
    process.stdout.write(`\nStack outputs (secrets show as "[secret]"):\n${outputs}\n`);
    process.stdout.write("The demo stack, its state and the emulator are thrown away now. README.md shows how to run a stack of your own.\n");
    return 0;
  } finally {
    // The stack goes with its state; `stack rm` also deletes Pulumi.demo.yaml.
    if (stackMade) {
      interrupted = false; // the clean-up runs even after Ctrl-C
      await run(pulumi, ["stack", "rm", "--yes", "--force", ...stack], { env, quiet: true }).catch(() => undefined);
    }
    rmSync(STACK_CONFIG_FILE, { force: true });
    rmSync(workDir, { recursive: true, force: true });
    await emulator.close();
  }
}

main().then(
  (code) => (process.exitCode = code),
  (error) => {
    process.stderr.write(`npm start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
