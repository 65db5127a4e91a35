import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtModule, REPOSITORY_ROOT } from "../../engine";

/**
 * `npm start` (scripts/demo.cjs), as a new user runs it: without a Pulumi CLI it runs the examples
 * offline through the engine driver and the real dynamic-provider host, printing what a Pulumi user
 * reads, and leaves nothing behind; with one, it drives the stack against a running emulator and
 * cleans up. Where no CLI can be installed, a stand-in records the commands the demo runs.
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

/** The `pulumi` version the launcher devDependency pins (package.json): the CLI it would download. */
const LAUNCHER_VERSION = (JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies.pulumi!;
const { choosePulumiCli } = createRequire(__filename)(path.join(REPOSITORY_ROOT, "scripts", "pulumi-cli.cjs")) as {
  choosePulumiCli(options: { root: string; offline: boolean; say: (line: string) => void; searchPath?: string; pulumiHome?: string; downloadSite?: string; probeTimeoutMs?: number }): Promise<{ cli?: { command: string; args: string[]; source: string }; reason?: string }>;
};

/** The lines of one section of the offline run: from its heading to the next. */
function section(stdout: string, heading: string): string[] {
  const start = stdout.indexOf(`\u2500\u2500 ${heading}`);
  expect(start, `no section "${heading}"`).toBeGreaterThanOrEqual(0);
  const end = stdout.indexOf("\u2500\u2500 ", start + 3);
  return stdout.slice(start, end < 0 ? undefined : end).split("\n").slice(1).filter((line) => line.trim() !== "");
}

/** The resource lines of a section: ` <symbol> <type>  <name>  <what>`. */
function stepLines(lines: string[]): string[] {
  return lines.filter((line) => /^ (\+|~|-|\+-| ) +pulumi-nodejs:dynamic\//.test(line));
}

describe("npm start without a Pulumi CLI (the offline path, from the build)", () => {
  let result: Finished;
  let temporary: string;
  let emulatorUrl: string;

  beforeAll(async () => {
    builtModule("dist/engine/index.js"); // the demo runs with --no-build: the build must be current
    builtModule("dist/examples/program.js");
    // Its own temporary folder, so that the test sees whether the run left anything there.
    temporary = mkdtempSync(path.join(tmpdir(), "insights-start-"));
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: pathWithoutPulumi(), TMPDIR: temporary };
    delete env.NODE_OPTIONS;
    result = await finish(process.execPath, [DEMO, "--no-build", "--offline", "--pii-finish-after", "0"], env);
    emulatorUrl = /emulator: listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(result.stdout)?.[1] ?? "";
  }, 120_000);
  afterAll(() => {
    if (temporary) rmSync(temporary, { recursive: true, force: true });
  });

  it("exits 0 and says first that this is not the Pulumi engine, why, and how to get the real path", () => {
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const [first] = result.stdout.split("\n");
    // The opt-out requests of the demo finish as --pii-finish-after says (emulator/README.md "PII opt-out").
    expect(result.stdout).toMatch(/^emulator: listening on \S+ \(dev account: dev \/ dev-secret\); opt-out requests finish 0 s after they are made \(--pii-finish-after 0\)$/m);
    expect(first).toMatch(/^This is not the Pulumi engine: `--offline` was given, /);
    expect(first).toContain("curl -fsSL https://get.pulumi.com | sh");
  });

  it("previews every resource of the examples as a create", () => {
    const steps = stepLines(section(result.stdout, "pulumi preview\n"));
    for (const name of ["north-america", "premium-live-sports", "roku-devices", "san-cities", "forget-viewers"]) {
      expect(steps.some((line) => line.startsWith(" +  ") && line.includes(`  ${name}  create`)), name).toBe(true);
    }
    expect(steps.every((line) => line.startsWith(" +  ") && line.endsWith("  create"))).toBe(true);
    const preview = section(result.stdout, "pulumi preview\n");
    expect(preview).toContain(`    + ${steps.length} to create`);
    // What the rules of each filter to create match (docs/resources.md "Match-rate estimates in previews"), set members included.
    const estimate = String.raw`matches ≈ \d+\.\d% of sampled sessions \(95%: \d+\.\d-\d+\.\d%, n = [1-9]\d*\)`;
    // The host's lines travel on its stdout pipe and may come after the gRPC answer: anywhere in the run.
    expect(result.stdout).toMatch(new RegExp(`^    SavedFilter "North America, no test devices": ${estimate}$`, "m"));
    expect(result.stdout).toMatch(new RegExp(`^      filters\\["san-diego"\\]: ${estimate}$`, "m"));
  });

  it("applies them with the resources' own progress lines and prints the outputs, secrets as [secret]", () => {
    const lines = section(result.stdout, "pulumi up --yes\n");
    const steps = stepLines(lines);
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.every((line) => line.startsWith(" +  ") && /  created \(\d+\.\d+s\)$/.test(line))).toBe(true);
    // The host's own lines travel on its stdout pipe and may come after the gRPC answer: anywhere in the run.
    expect(result.stdout).toMatch(/^ {4}PiiOptOutRequest "forget-viewers": 1 request: 1 FINISHED/m);
    expect(lines).toContain('    optOutStatus: "FINISHED"');
    expect(lines).toContain("    optOutIdentifierCount: 2");
    expect(lines).toContain('    viewerSummary: "[secret]"');
    expect(lines.some((line) => /^ {8}"northAmerica": "\d+",?$/.test(line))).toBe(true);
    expect(lines).toContain(`    + ${steps.length} created`);
    // The viewers to forget never show, anywhere.
    for (const viewer of ["viewer-000123", "viewer-000456", "viewer-000001"]) expect(result.stdout).not.toContain(viewer);
  });

  it("previews no change when nothing changed", () => {
    const lines = section(result.stdout, "pulumi preview (nothing changed");
    expect(stepLines(lines)).toEqual([]);
    expect(lines.some((line) => /^ {4}\d+ unchanged$/.test(line))).toBe(true);
  });

  it("refuses a setting that is not valid in the preview, with the property's path", () => {
    const lines = section(result.stdout, "pulumi config set insights:adoptFilterId");
    expect(lines).toContain("    error: roku-devices: adoptId: must be the numeric id of an existing saved filter");
    expect(lines).toContain("    1 failed");
  });

  it("shows a change made in the console as drift on refresh, in one direction, and the next update puts it back", () => {
    const refreshed = section(result.stdout, "pulumi refresh --yes");
    expect(refreshed.find((line) => line.includes("  north-america  updated"))).toMatch(/\[diff: .*~name, ~rules\]/);
    // One direction of change: the refresh names what changed, and its only values are the
    // provider's rule-tree diff (- in the account, + declared), never the same change the other way
    // round (+ Mexico, - Canada, or `declared => in the account`).
    expect(refreshed.filter((line) => line.includes(" => "))).toEqual([]);
    expect(result.stdout).not.toMatch(/^ *\+ +value: "Mexico"$/m);
    expect(result.stdout).not.toMatch(/^ *- +value: "Canada"$/m);
    const putBack = section(result.stdout, "pulumi up --yes (puts the declaration back)");
    // The same rule-tree diff twice: on refresh (the CLI asks the provider's diff then too) and on
    // the update that puts the filter back. (The host's lines may come after the gRPC answer: anywhere in the run.)
    const header = '    SavedFilter "North America, no test devices": rules change (- in the account, + declared)\n';
    const change = ['    -          value: "Mexico"', '    +          value: "Canada"', "             }", "           ]", "         }", "    +    {", '    +      field: "Tag"'].join("\n");
    expect(result.stdout.split(header).slice(1).map((after) => after.slice(0, after.indexOf("matches")).includes(change))).toEqual([true, true]);
    expect(result.stdout).toMatch(/^ {4}matches ≈ \d+\.\d% of sampled sessions .*, was ≈ \d+\.\d%$/m);
    expect(stepLines(putBack).map((line) => line.replace(/ \(\d+\.\d+s\)$/, ""))).toEqual([" ~  pulumi-nodejs:dynamic/insights:SavedFilter  north-america  updated"]);
    expect(putBack).toContain("    ~ 1 updated");
  });

  it("destroys the stack and leaves nothing behind: no stack file, no temporary folder, the emulator stopped", async () => {
    const destroyed = stepLines(section(result.stdout, "pulumi destroy --yes"));
    expect(destroyed.length).toBe(stepLines(section(result.stdout, "pulumi preview\n")).length);
    expect(destroyed.every((line) => line.startsWith(" -  ") && line.endsWith("  deleted"))).toBe(true);
    expect(existsSync(STACK_CONFIG_FILE)).toBe(false);
    expect(readdirSync(temporary)).toEqual([]);
    expect(emulatorUrl).not.toBe("");
    await expect(fetch(`${emulatorUrl}/_emulator/health`)).rejects.toThrow();
  });
});

describe("choosing the Pulumi CLI (scripts/pulumi-cli.cjs)", () => {
  const say = () => undefined;
  let home: string;
  beforeAll(() => {
    home = mkdtempSync(path.join(tmpdir(), "pulumi-home-"));
  });
  afterAll(() => {
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("says at once why the launcher cannot download the CLI when the download site refuses", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const choice = await choosePulumiCli({ root: REPOSITORY_ROOT, offline: false, say, searchPath: pathWithoutPulumi(), pulumiHome: home, downloadSite: `http://127.0.0.1:${port}/install.sh` });
    expect(choice.cli).toBeUndefined();
    expect(choice.reason).toBe(`no \`pulumi\` on PATH, and the launcher cannot download the CLI ${LAUNCHER_VERSION}: 127.0.0.1:${port} cannot be reached (ECONNREFUSED)`);
  });

  it("gives up on a download site that does not answer, with the limit it waited", async () => {
    // Accepts connections and never answers.
    const sockets: Socket[] = [];
    const server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const choice = await choosePulumiCli({ root: REPOSITORY_ROOT, offline: false, say, searchPath: pathWithoutPulumi(), pulumiHome: home, downloadSite: `http://127.0.0.1:${port}/install.sh`, probeTimeoutMs: 300 });
      expect(choice.cli).toBeUndefined();
      expect(choice.reason).toContain(`127.0.0.1:${port} did not answer within 0.3 s`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("uses a CLI the launcher downloaded before, and a pulumi on PATH before anything", async () => {
    const bin = path.join(home, "versions", LAUNCHER_VERSION, "bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, "pulumi"), "#!/bin/sh\n", { mode: 0o755 });
    const cached = await choosePulumiCli({ root: REPOSITORY_ROOT, offline: false, say, searchPath: pathWithoutPulumi(), pulumiHome: home, downloadSite: "http://127.0.0.1:1/" });
    expect(cached.cli).toEqual({ command: process.execPath, args: [require.resolve("pulumi/run.js", { paths: [REPOSITORY_ROOT] })], source: `${path.join(bin, "pulumi")} (downloaded by the pulumi ${LAUNCHER_VERSION} launcher (node_modules/pulumi))` });
    const onPath = await choosePulumiCli({ root: REPOSITORY_ROOT, offline: false, say, searchPath: bin, pulumiHome: home });
    expect(onPath.cli).toEqual({ command: path.join(bin, "pulumi"), args: [], source: `${path.join(bin, "pulumi")} (on PATH)` });
    // The launcher in node_modules/.bin, which `npm start` puts on PATH, is not taken for a CLI.
    const launcherOnPath = await choosePulumiCli({ root: REPOSITORY_ROOT, offline: false, say, searchPath: path.join(REPOSITORY_ROOT, "node_modules", ".bin"), pulumiHome: home });
    expect(launcherOnPath.cli?.source).toBe(cached.cli?.source);
    const offline = await choosePulumiCli({ root: REPOSITORY_ROOT, offline: true, say, searchPath: bin, pulumiHome: home });
    expect(offline).toEqual({ cli: undefined, reason: "`--offline` was given" });
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
    expect(result.stdout.split("\n")[0]).toBe(`npm start: the Pulumi CLI is ${path.join(binDir, "pulumi")} (on PATH).`);
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
