import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  captureDynamicResource, isSecret, PLUGIN_PACKAGE, ProviderCallError, REPOSITORY_ROOT, secret, startProviderHost, startProviderPlugin, up,
  type CallOptions, type PropertyMap, type ProviderHost,
} from "../../engine";
import { DEV, startTestEmulator, type TestEmulator } from "../support/emulator";
import { failure } from "../support/failure";
import { startRawServer, type RawServer } from "../support/raw-server";
import { runCli } from "./import-cli";

/**
 * What a service echoes never leaks (docs/api.md 11.7): a service that refuses a PII opt-out request
 * quoting the identifiers it got, written with invisible separators (no-break space, zero-width
 * space, word joiner) and cut at its own length, and quoting the request's `Authorization` header,
 * its base64 and the secret; and a gateway whose 401 quotes the credential. Through the provider
 * plugin, the dynamic-provider host and `pulumi-insights import`, no identifier (raw, escaped, with
 * its separators changed or dropped, or a cut fragment of one) and no form of the credential appears
 * in an error, a line the engine shows, standard output or standard error.
 */

/** Identifiers holding invisible separators, and a run of plain ones long enough that a cut at 500 characters falls inside one. */
const HIDDEN = ["viewer\u00a0000777", "viewer\u200b000778", "viewer\u2060000779"];
const PLAIN = Array.from({ length: 40 }, (_, index) => `viewer-1000${String(index).padStart(2, "0")}`);
const IDENTIFIERS = [...HIDDEN, ...PLAIN];
const AUTHORIZATION = `Basic ${Buffer.from(`${DEV.clientId}:${DEV.clientSecret}`).toString("base64")}`;
/** Any identifier in any form, whole or cut: `viewer`, separators or escapes, then a digit. */
const ANY_IDENTIFIER = /viewer(?:[\s\-_.\u00a0\u200b\u2060]|\\u[0-9a-fA-F]{4}|%[0-9A-F]{2})*[0-9０-９]/i;
/** The credential in every form: the header's base64 (or its beginning), the secret, `id:secret`. */
const CREDENTIAL_FORMS = [AUTHORIZATION.slice(6, 15), DEV.clientSecret, `${DEV.clientId}:${DEV.clientSecret}`];

/** The service's refusal, quoting what it got; padded so that a cut at 500 characters falls inside an identifier. */
function refusal(authorization: string): string {
  const decoded = Buffer.from(authorization.replace(/^Basic /, ""), "base64").toString("utf8");
  return `xx identifiers refused: ${IDENTIFIERS.join(", ")} (request by ${authorization}, that is ${decoded})`;
}

function expectNothingEchoed(texts: readonly unknown[]): void {
  const text = JSON.stringify(texts, (_key, member: unknown) => (isSecret(member) ? "[secret]" : member));
  expect(text).not.toMatch(ANY_IDENTIFIER);
  for (const form of CREDENTIAL_FORMS) expect(text, form).not.toContain(form);
}

let emulator: TestEmulator;
/** In front of the emulator: refuses every PII opt-out request, quoting it; forwards everything else. */
let proxy: RawServer;
/** A gateway that answers every request 401, quoting its credential. */
let gateway: RawServer;

beforeAll(async () => {
  emulator = await startTestEmulator();
  proxy = await startRawServer(async (request, response, body) => {
    const authorization = request.headers.authorization ?? "";
    if (request.method === "POST" && request.url?.startsWith("/pii-opt-out")) {
      response.writeHead(400, { "content-type": "application/json", "x-echo-authorization": authorization });
      response.end(JSON.stringify({ error: "bad_request", message: refusal(authorization), parameter: "identifiers" }));
      return;
    }
    const forwarded = await fetch(new URL(request.url ?? "/", emulator.url), {
      method: request.method ?? "GET",
      headers: { authorization, ...(body.length > 0 ? { "content-type": "application/json" } : {}) },
      ...(body.length > 0 ? { body } : {}),
    });
    response.writeHead(forwarded.status, { "content-type": forwarded.headers.get("content-type") ?? "application/json" }).end(await forwarded.text());
  });
  gateway = await startRawServer((request, response) => {
    const authorization = request.headers.authorization ?? "";
    response.writeHead(401, { "content-type": "application/json", "www-authenticate": `Basic realm="${authorization}"` });
    response.end(JSON.stringify({ message: `Unauthorized: ${authorization} (${Buffer.from(authorization.slice(6), "base64").toString("utf8")})` }));
  });
});
afterAll(async () => {
  await Promise.all([proxy?.close(), gateway?.close()]);
  await emulator?.close();
});

describe("a PII opt-out request the service refuses, quoting the identifiers and the credential", () => {
  it("the refusal reads as it came when nothing redacts it (the test's own check)", () => {
    const message = refusal(AUTHORIZATION);
    expect(message.slice(0, 499)).toMatch(/, viewer-\d{1,5}$/);
    expect(message).toMatch(ANY_IDENTIFIER);
  });

  it("through the provider plugin: nothing of either in the error, the lines or the output", async () => {
    const plugin = await startProviderPlugin();
    try {
      await plugin.configure({ baseUrl: proxy.url, clientId: DEV.clientId, clientSecret: secret(DEV.clientSecret) }, { package: PLUGIN_PACKAGE });
      const options: CallOptions = { urn: "urn:pulumi:test::insights-test-project::insights:index:PiiOptOutRequest::forget" };
      const error = (await failure(up(plugin, { viewerIds: secret(IDENTIFIERS), verifyDeletion: false, waitForCompletion: false, resourceName: "forget" }, undefined, options))) as ProviderCallError;
      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error.message).toMatch(/^PiiOptOutRequest "forget": .*HTTP 400 \(bad_request\): xx identifiers refused: \[redacted\], \[redacted\], \[redacted\], \[redacted\]/);
      expectNothingEchoed([error.message, error.partial, plugin.diagnostics, plugin.stdout, plugin.stderr]);
    } finally {
      await plugin.close();
    }
  });

  it("through the dynamic-provider host: nothing of either in the error, the lines or the output", async () => {
    const [captured, host] = await Promise.all([
      captureDynamicResource({ module: "dist/provider/index.js", exportName: "PiiOptOutRequest", args: ["forget", { viewerIds: ["viewer-x"] }] }),
      startProviderHost({ projectDir: REPOSITORY_ROOT }),
    ]);
    try {
      await host.configure({ "insights:baseUrl": proxy.url, "insights:clientId": DEV.clientId, "insights:clientSecret": secret(DEV.clientSecret) });
      const inputs: PropertyMap = { viewerIds: secret(IDENTIFIERS), verifyDeletion: false, waitForCompletion: false, resourceName: "forget", __provider: captured.provider };
      const error = (await failure(up(host, inputs))) as ProviderCallError;
      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error.message).toMatch(/HTTP 400 \(bad_request\): xx identifiers refused: \[redacted\], \[redacted\], \[redacted\], \[redacted\]/);
      expectNothingEchoed([error.message, error.partial, host.diagnostics, host.stdout, host.stderr]);
    } finally {
      await host.close();
    }
  });
});

describe("a gateway whose 401 quotes the credential", () => {
  it("`pulumi-insights import` fails saying so, and its standard error holds no form of the credential", async () => {
    const run = await runCli(["import"], { INSIGHTS_BASE_URL: gateway.url, INSIGHTS_CLIENT_ID: DEV.clientId, INSIGHTS_CLIENT_SECRET: DEV.clientSecret });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^pulumi-insights import: the account \S+ \(client id "dev"\) refused the client id and secret: GET \/bulk_filters\/ failed with HTTP 401: Unauthorized: Basic \[redacted\]/);
    expectNothingEchoed([run.stdout, run.stderr]);
  });
});
