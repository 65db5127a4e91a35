import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS, HELP_OPTIONS, main, USAGE } from "../provider/cli/bin";
import { IMPORT_OPTIONS, IMPORT_USAGE, type CommandIo } from "../provider/cli/import-command";
import { DEV, startTestEmulator, TEST_NOW, type TestEmulator } from "./support/emulator";
import { rawHidden, TERMINAL } from "./support/hostile";

/**
 * The `pulumi-insights` command line as a user meets it: `--help` and `import --help` describe every
 * option the parsers accept (the lists are read from the parsers) and the exit statuses, and the
 * import's messages name only what the command offers (its flags and environment variables, its
 * selections), never the client's options. Run in process against the emulator.
 */

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs the command line `argv` with `env` as its environment. */
async function run(argv: string[], env: Record<string, string> = {}): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const io: CommandIo = {
    env,
    readStdin: () => Promise.resolve(""),
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  };
  const status = await main(argv, io);
  return { status, stdout, stderr };
}

/** The options of IMPORT_OPTIONS as a user types them: `--name`, and `-h` for those with a short form. */
const importFlags = Object.entries(IMPORT_OPTIONS).flatMap(([name, option]) => [`--${name}`, ...("short" in option ? [`-${option.short}`] : [])]);

describe("pulumi-insights --help", () => {
  it("describes every command, its own options, the environment and the exit statuses", async () => {
    for (const argv of [["--help"], ["-h"], ["help"]]) expect(await run(argv)).toEqual({ status: 0, stdout: USAGE, stderr: "" });
    for (const option of HELP_OPTIONS) expect(USAGE).toMatch(new RegExp(`(^|[\\s,])${option}\\b`, "m"));
    for (const command of Object.keys(COMMANDS)) expect(USAGE).toMatch(new RegExp(`^ {2}${command} {2,}\\S`, "m"));
    for (const variable of ["INSIGHTS_BASE_URL", "INSIGHTS_CLIENT_ID", "INSIGHTS_CLIENT_SECRET", "INSIGHTS_LOG"]) expect(USAGE).toContain(variable);
    expect(USAGE).toMatch(/^exit status:\n {2}0 {2}\S.*\n {2}1 {2}\S.*\n {2}2 {2}\S/m);
  });

  it("says a missing or unknown command on standard error with exit status 2, the unknown name inert", async () => {
    expect(await run([])).toEqual({ status: 2, stdout: "", stderr: USAGE });
    const unknown = await run([`deploy${TERMINAL}`]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe(`pulumi-insights: unknown command "deploy\\u001b[2J\\u001b[31mPWNED\\u001b[0m"\n${USAGE}`);
    expect((await run(["help", "deploy"])).status).toBe(2);
  });
});

describe("pulumi-insights import --help", () => {
  it("names every option the parser accepts, and the exit statuses", async () => {
    for (const argv of [["import", "--help"], ["import", "-h"], ["help", "import"]]) expect(await run(argv)).toEqual({ status: 0, stdout: IMPORT_USAGE, stderr: "" });
    expect(importFlags).toContain("--client-secret-stdin");
    // Each option at the start of its line (or after the short form), followed by its value or description.
    for (const flag of importFlags) expect(IMPORT_USAGE).toMatch(new RegExp(`^ {2}(-h, )?${flag}( <[^>]+>)?( {2,}|, |\\n)`, "m"));
    expect(IMPORT_USAGE).toMatch(/^exit status:\n {2}0 {2}\S.*\n(.*\n)* {2}1 {2}\S.*\n(.*\n)* {2}2 {2}\S/m);
  });
});

describe("pulumi-insights import: messages that name only what the command offers", () => {
  let emulator: TestEmulator;
  let env: Record<string, string>;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    env = { INSIGHTS_BASE_URL: emulator.url, INSIGHTS_CLIENT_ID: DEV.clientId, INSIGHTS_CLIENT_SECRET: DEV.clientSecret };
    const body = ["Harbor Lights", "Night Shift"].map((name) => ({ name, rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: name }] } }));
    expect((await emulator.call("POST", "/bulk_filters/", { body })).status).toBe(201);
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("names the flags and variable of a missing setting, never the client's options", async () => {
    const { INSIGHTS_CLIENT_SECRET: _secret, ...withoutSecret } = env;
    const noSecret = await run(["import"], withoutSecret);
    expect(noSecret).toEqual({
      status: 2,
      stdout: "",
      stderr: "pulumi-insights import: no client secret: pass --client-secret-file <file> or --client-secret-stdin, or set INSIGHTS_CLIENT_SECRET\n(pulumi-insights import --help lists the options)\n",
    });
    const noBaseUrl = await run(["import"], { INSIGHTS_CLIENT_ID: "dev", INSIGHTS_CLIENT_SECRET: "x" });
    expect(noBaseUrl.stderr).toContain("pulumi-insights import: no base URL: pass --base-url <url>, or set INSIGHTS_BASE_URL\n");
  });

  it("words a setting the client refuses with the flag or the variable that gave it", async () => {
    const byFlag = await run(["import", "--base-url", "http://api.example.com"], env);
    expect(byFlag.status).toBe(2);
    expect(byFlag.stderr).toBe("pulumi-insights import: --base-url http://api.example.com uses plain HTTP: HTTPS is required except for loopback hosts (localhost, 127.0.0.0/8, ::1), because credentials travel with every request\n(pulumi-insights import --help lists the options)\n");
    const byVariable = await run(["import"], { ...env, INSIGHTS_BASE_URL: "not a url" });
    expect(byVariable.stderr).toContain("pulumi-insights import: INSIGHTS_BASE_URL is not an absolute URL such as https://api.example.com\n");
    const withUser = await run(["import", "--base-url", "https://user:password@api.example.com"], env);
    expect(withUser.stderr).toContain("pulumi-insights import: --base-url must not contain user information: pass INSIGHTS_CLIENT_ID and INSIGHTS_CLIENT_SECRET instead\n");
    for (const result of [byFlag, byVariable, withUser]) expect(result.stderr).not.toMatch(/baseUrl|clientId|clientSecret|option`/);
  });

  it("selects by creator and creation day (docs/api.md 4.8), the narrowing the cap message offers", async () => {
    const day = TEST_NOW.slice(0, 10);
    const both = await run(["import", "--creator", "dev@example.com", "--created", day], env);
    expect(both.stderr).toBe("pulumi-insights import: 2 saved filters written to standard output\n");
    const mark = emulator.state.journal.lastSeq();
    const none = await run(["import", "--creator", "someone@example.com"], env);
    expect(none.stderr).toBe("pulumi-insights import: 0 saved filters written to standard output\n");
    expect(emulator.state.journal.list(mark).map((request) => `${request.path}?${request.query}`)).toEqual([expect.stringContaining("creator=someone%40example.com")]);
    expect((await run(["import", "--created", "2026-11-19"], env)).stderr).toBe("pulumi-insights import: 0 saved filters written to standard output\n");
    const badDay = await run(["import", "--created", "2026-02-30"], env);
    expect(badDay.status).toBe(2);
    expect(badDay.stderr).toContain('pulumi-insights import: --created "2026-02-30" is not a day written YYYY-MM-DD, such as 2026-11-20\n');
  });

  it("refuses --pulumi-import-file with what `pulumi import` by id cannot declare, saying why", async () => {
    const withSet = await run(["import", "--set", "all", "--pulumi-import-file", "import.json"], env);
    expect(withSet).toEqual({
      status: 2,
      stdout: "",
      stderr: "pulumi-insights import: --set cannot be combined with --pulumi-import-file: `pulumi import` takes one SavedFilter per filter id (a SavedFilterSet has no id of the account to import by)\n(pulumi-insights import --help lists the options)\n",
    });
    const withAccount = await run(["import", "--account", "staging", "--pulumi-import-file", "import.json"], env);
    expect(withAccount.status).toBe(2);
    expect(withAccount.stderr).toContain("--account cannot be combined with --pulumi-import-file: `pulumi import` reads each filter with the provider's own settings");
    const sameFile = await run(["import", "--out", "filters.json", "--pulumi-import-file", "./filters.json"], env);
    expect(sameFile.stderr).toContain("pulumi-insights import: --out and --pulumi-import-file name the same file\n");
  });

  it("writes every message to standard error inert", async () => {
    // JSON's quoting escapes C0 controls, not a bidi override or a C1 control.
    const result = await run(["import", "--id", "1\u202e\u009b2J"], env);
    expect(result.status).toBe(2);
    expect(rawHidden(result.stderr)).toEqual([]);
    expect(result.stderr).toContain('--id "1\\u202e\\u009b2J" is not a filter id');
  });
});
