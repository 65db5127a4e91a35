import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runImport } from "../../provider/cli/import-command";
import { createTestProject, type TestProject } from "../../engine";
import { startRawServer, type RawServer } from "../support/raw-server";

/**
 * `pulumi-insights import` never makes two resources of one filter: ids the service writes as JSON
 * numbers beyond 2^53 (9007199254740993 and 9007199254740992 read alike as numbers) are kept
 * exactly, each filter one resource; a listing that names one id twice is refused, nothing written.
 * The command runs in process (its built form is run by import-command.test.ts).
 */

/** Runs `pulumi-insights import` with `args` against `env`: its exit status and standard error. */
async function importWith(args: string[], env: Record<string, string>): Promise<{ status: number; stderr: string }> {
  let stderr = "";
  const status = await runImport(args, { env, readStdin: async () => "", stdout: () => undefined, stderr: (text) => void (stderr += text) });
  return { status, stderr };
}

const filter = (id: string, name: string) =>
  `{"id":${id},"name":"${name}","rules":{"op":"and","rules":[{"field":"Asset Name","op":"contains","value":"${name}"}]},"advanced":false,"enabled":true,"creator":"dev@example.com","created":"2026-11-20T12:30:00.000+00:00"}`;
const LISTINGS: Record<string, string> = {
  big: `{"filters":[${filter("9007199254740993", "Odd")},${filter("9007199254740992", "Even")}]}`,
  repeated: `{"filters":[${filter("77", "First")},${filter("77", "Second")}]}`,
};

describe("pulumi-insights import of ids beyond 2^53 and repeated ids", () => {
  let project: TestProject;
  let service: RawServer;
  const env = (listing: string) => ({ INSIGHTS_BASE_URL: `${service.url}/${listing}`, INSIGHTS_CLIENT_ID: "dev", INSIGHTS_CLIENT_SECRET: "dev-secret" });

  beforeAll(async () => {
    project = createTestProject();
    service = await startRawServer((request, response) => {
      const listing = LISTINGS[request.url!.split("/")[1]!] ?? "{}";
      response.writeHead(200, { "content-type": "application/json" }).end(listing);
    });
  });
  afterAll(async () => {
    project?.remove();
    await service?.close();
  });

  it("writes one resource per filter, each adopting its id exactly", async () => {
    const file = path.join(project.dir, "big.json");
    const run = await importWith(["--pulumi-import-file", file], env("big"));
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/ written to /);
    const { resources } = JSON.parse(readFileSync(file, "utf8")) as { resources: Array<{ name: string; id: string }> };
    expect(resources.map(({ id }) => id).sort()).toEqual(["9007199254740992", "9007199254740993"]);
    expect(new Set(resources.map(({ name }) => name)).size).toBe(2);
  });

  it("refuses a listing that names one id twice, naming it, and writes nothing", async () => {
    const file = path.join(project.dir, "repeated.json");
    const run = await importWith(["--pulumi-import-file", file], env("repeated"));
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('pulumi-insights import: the account lists the saved filter id "77" more than once: importing it would make two resources adopt one filter, so nothing was written\n');
    expect(() => readFileSync(file)).toThrow();
  });
});
