import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtModule, REPOSITORY_ROOT } from "../../engine";

/**
 * `npm start` (scripts/demo.cjs), as a new user runs it: without the pulumi CLI it must say how to
 * install it and leave nothing behind; with one, it must drive the stack against a running emulator
 * and clean up. Where no CLI can be installed, a stand-in records the commands the demo runs.
 */
const DEMO = path.join(REPOSITORY_ROOT, "scripts", "demo.cjs");
const STACK_CONFIG_FILE = path.join(REPOSITORY_ROOT, "Pulumi.demo.yaml");
const pulumiOnPath = spawnSync("pulumi", ["version"], { stdio: "ignore" }).status === 0;

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end. Resolves on "close", which comes only once every process that holds
 * its output pipes has exited: a process the command left running would keep this pending.
 */
function finish(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPOSITORY_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** PATH without any folder that holds a `pulumi` executable. */
function pathWithoutPulumi(): string {
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((folder) => folder !== "" && !existsSync(path.join(folder, "pulumi")) && !existsSync(path.join(folder, "pulumi.exe")))
    .join(path.delimiter);
}

describe("npm start without the pulumi CLI", () => {
  it("says how to install it, exits 1 and leaves nothing running or written", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: pathWithoutPulumi() };
    delete env.NODE_OPTIONS;
    const result = await finish("npm", ["start"], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("`pulumi` is not on PATH");
    expect(result.stderr).toContain("curl -fsSL https://get.pulumi.com | sh");
    expect(result.stderr).toContain("brew install pulumi/tap/pulumi");
    // Checked before anything else: no emulator, no stack; and "close" means no process was left holding the output.
    expect(result.stdout).not.toContain("listening on");
    expect(existsSync(STACK_CONFIG_FILE)).toBe(false);
  });
});

describe("npm start with a stand-in pulumi CLI that records its calls", () => {
  let binDir: string;
  let log: string;

  beforeAll(() => {
    builtModule("dist/emulator/index.js"); // the demo runs with --no-build: the build must be current
    binDir = mkdtempSync(path.join(tmpdir(), "fake-pulumi-"));
    log = path.join(binDir, "calls.jsonl");
    // Records argv, standard input and the backend; `up` checks the emulator it was configured
    // with answers; `stack init`/`rm` write and delete the stack's config file as the CLI does.
    const fake = `#!${process.execPath}
const fs = require("node:fs");
const args = process.argv.slice(2);
const input = args.includes("--secret") ? fs.readFileSync(0, "utf8") : undefined;
const calls = fs.existsSync(${JSON.stringify(log)}) ? fs.readFileSync(${JSON.stringify(log)}, "utf8").trim().split("\\n").map(JSON.parse) : [];
const record = (extra) => fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ args, input, backend: process.env.PULUMI_BACKEND_URL, passphrase: Boolean(process.env.PULUMI_CONFIG_PASSPHRASE), ...extra }) + "\\n");
(async () => {
  if (args[0] === "stack" && args[1] === "init") fs.writeFileSync(${JSON.stringify(STACK_CONFIG_FILE)}, "encryptionsalt: fake\\n");
  if (args[0] === "stack" && args[1] === "rm") fs.rmSync(${JSON.stringify(STACK_CONFIG_FILE)}, { force: true });
  if (args[0] === "up") {
    const baseUrl = calls.find((call) => call.args.includes("insights:baseUrl")).args.at(-1);
    const health = await fetch(baseUrl + "/_emulator/health");
    const filters = await fetch(baseUrl + "/bulk_filters/", { headers: { authorization: "Basic " + Buffer.from("dev:dev-secret").toString("base64") } });
    return record({ health: health.status, filters: (await filters.json()).filters.map((filter) => filter.name) });
  }
  if (args[0] === "stack" && args[1] === "output") process.stdout.write(JSON.stringify({ topIspsByRebuffering: [] }));
  record({});
})();
`;
    writeFileSync(path.join(binDir, "pulumi"), fake);
    chmodSync(path.join(binDir, "pulumi"), 0o755);
  });
  afterAll(() => {
    if (binDir) rmSync(binDir, { recursive: true, force: true });
  });

  it("configures the demo stack, runs up against the running emulator, prints the outputs and cleans up", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: [binDir, pathWithoutPulumi()].join(path.delimiter) };
    delete env.NODE_OPTIONS;
    const result = await finish(process.execPath, [DEMO, "--no-build"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const calls = readFileSync(log, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { args: string[]; input?: string; backend: string; passphrase: boolean; health?: number; filters?: string[] });
    expect(calls.map((call) => call.args.filter((arg) => !arg.startsWith("http") && !arg.startsWith("/")).join(" "))).toEqual([
      "stack init demo",
      "config set --stack demo insights:baseUrl",
      "config set --stack demo insights:clientId dev",
      "config set --stack demo insights:adoptFilterId 1001",
      "config set --stack demo insights:optOutViewerIdsFile",
      "config set --stack demo --secret insights:clientSecret",
      "config set --stack demo --secret insights:reportViewerId",
      "up --yes --stack demo",
      "stack output --json --stack demo",
      "stack rm --yes --force --stack demo",
    ]);
    // Every command: a local file backend in a temporary folder and a passphrase.
    const backend = calls[0]!.backend;
    expect(backend).toMatch(/^file:\/\/.*insights-demo-/);
    expect(calls.every((call) => call.backend === backend && call.passphrase)).toBe(true);
    // Secrets on standard input, never in the arguments.
    expect(calls.filter((call) => call.input !== undefined).map((call) => call.input)).toEqual(["dev-secret", "viewer-000001"]);
    expect(calls.flatMap((call) => call.args)).not.toContain("dev-secret");
    // During `up` the emulator answered, with the console-made filter to adopt.
    const upCall = calls.find((call) => call.args[0] === "up")!;
    expect(upCall).toMatchObject({ health: 200, filters: ["Roku (made in the console)"] });
    expect(result.stdout).toContain('{"topIspsByRebuffering":[]}');
    // Cleaned up: the stack's config file, the temporary folder; the emulator is closed (its port refuses).
    expect(existsSync(STACK_CONFIG_FILE)).toBe(false);
    expect(existsSync(backend.slice("file://".length))).toBe(false);
    const baseUrl = calls[1]!.args.at(-1)!;
    await expect(fetch(`${baseUrl}/_emulator/health`)).rejects.toSatisfy((error: Error & { cause?: { code?: string } }) =>
      ["ECONNREFUSED", "UND_ERR_SOCKET", "ECONNRESET"].includes(error.cause?.code ?? ""));
  });
});

describe.skipIf(!pulumiOnPath)("npm start with the real pulumi CLI (requires the pulumi CLI on PATH)", () => {
  it("runs the examples stack against the emulator and prints its outputs", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.NODE_OPTIONS;
    const result = await finish(process.execPath, [DEMO, "--no-build"], env);
    expect(result.code, result.stderr).toBe(0);
    const printed = /Stack outputs \(secrets show as "\[secret\]"\):\n([\s\S]*?)\nThe demo stack/.exec(result.stdout);
    const outputs = JSON.parse(printed![1]!) as Record<string, unknown>;
    expect(outputs).toMatchObject({ optOutStatus: "FINISHED", optOutIdentifierCount: 2, viewerSummary: "[secret]" });
    expect(Object.keys(outputs.filterIds as object).sort()).toEqual(["northAmerica", "premiumLiveSports", "rokuDevices"]);
    expect(existsSync(STACK_CONFIG_FILE)).toBe(false);
  }, 600_000);
});
