import { describe, expect, it } from "vitest";
import { BASIC, DEV, useTestEmulator } from "../support/emulator";
import { refusedLoopbackUrl } from "../support/hostile";
import { runCli } from "./import-cli";

/**
 * What `pulumi-insights import` says when it cannot read the account, run as a user runs it (the
 * built command): the account by its base URL and client id, what the service answered, and the fix
 * with the flag or variable that sets it, in the words of a program's preview and data sources
 * (provider/connection-check/words.ts); for a refused address on this machine, whether the emulator
 * is running; the nearest option or command for a mistyped one.
 */

const emulator = useTestEmulator();

describe("pulumi-insights import: a failed read names the account and the fix", () => {
  it("in the words of a program's preview, and the nearest option or command", async () => {
    const env = { INSIGHTS_BASE_URL: emulator.url, INSIGHTS_CLIENT_ID: DEV.clientId, INSIGHTS_CLIENT_SECRET: DEV.clientSecret };
    const offline = await refusedLoopbackUrl();
    const [wrongSecret, basic, refused, badValue, option, command] = await Promise.all([
      runCli(["import", "--client-id", DEV.clientId], { ...env, INSIGHTS_CLIENT_SECRET: "not-the-secret" }),
      runCli(["import"], { ...env, INSIGHTS_CLIENT_ID: BASIC.clientId, INSIGHTS_CLIENT_SECRET: BASIC.clientSecret }),
      runCli(["import", "--base-url", offline], env),
      runCli(["import", "--category", "GEOO"], env),
      runCli(["import", "--categroy", "GEO"], env),
      runCli(["imprt"], env),
    ]);
    expect(wrongSecret).toMatchObject({ status: 1, stdout: "" });
    expect(wrongSecret.stderr).toBe(
      `pulumi-insights import: the account ${emulator.url} (client id "dev") refused the client id and secret: GET /bulk_filters/ failed with HTTP 401: Unauthorized. ` +
        "Set the right secret with --client-secret-file <file>, --client-secret-stdin or INSIGHTS_CLIENT_SECRET (and check --client-id)\n",
    );
    expect(wrongSecret.stderr).not.toContain("not-the-secret");
    expect(basic.status).toBe(1);
    expect(basic.stderr).toMatch(new RegExp(`^pulumi-insights import: the account ${emulator.url} \\(client id "basic"\\) does not have the saved-filter management API \\(/bulk_filters\\) enabled: GET /bulk_filters/ failed with HTTP 403`));
    // The fix once: the service's own sentence, which says it again, is left out.
    expect(basic.stderr.match(/representative/g)).toHaveLength(1);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(
      `^pulumi-insights import: the account ${offline} \\(client id "dev"\\) could not be reached: GET /bulk_filters/: connection failed \\(ECONNREFUSED: .*\\)\\. ` +
        `Nothing listens there: is the emulator running\\? Start it with \`npx insights-emulator --port ${new URL(offline).port}\`, or check --base-url\n$`,
    ));
    // Any other refusal names the account too, and quotes the service's words.
    expect(badValue.status).toBe(1);
    expect(badValue.stderr).toContain(`pulumi-insights import: the account ${emulator.url} (client id "dev") could not be read: GET /bulk_filters/ failed with HTTP 400`);
    expect(option).toEqual({ status: 2, stdout: "", stderr: 'pulumi-insights import: unknown option "--categroy"; did you mean "--category"?\n(pulumi-insights import --help lists the options)\n' });
    expect(command.status).toBe(2);
    expect(command.stderr).toMatch(/^pulumi-insights: unknown command "imprt"; did you mean "import"\?\nusage: pulumi-insights/);
  });
});
