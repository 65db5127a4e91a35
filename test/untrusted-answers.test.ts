import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthenticationError, BadRequestError, InsightsClient, InternalServerError, ResponseValidationError, type InsightsClientOptions } from "../provider/client";
import { isOutcomeUnknown } from "../provider/client/core/retry";
import { boundedText, ENGINE_BUDGET, engineFailures, engineProperties } from "../provider/text/bounded";
import { REDACTED, redactor } from "../provider/text/redaction";
import { failure } from "./support/failure";
import { startRawServer, type RawHandler, type RawServer } from "./support/raw-server";

// What an answer holds is not trusted (docs/api.md 11.7): a service or gateway that echoes the
// client's credential or the identifiers it was sent, in whatever form; ids beyond 2^53; a
// successful write whose answer cannot be read. Against a hand-written server on loopback (the
// emulator echoes none of this), so this file runs once.

const CLIENT_ID = "echo-client";
const SECRET = "s3cr3t-echo-never-print-me";
const BASE64 = Buffer.from(`${CLIENT_ID}:${SECRET}`).toString("base64");
const CREDENTIAL_FORMS = [BASE64.slice(0, 12), BASE64.slice(-12), SECRET, `${CLIENT_ID}:${SECRET}`];
/** Identifiers with an invisible or look-alike separator, and one long enough to be cut. */
const IDENTIFIERS = ["viewer\u00a0000777", "viewer\u200b000778", "viewer\u2060000779", "viewer-100031"];

let respond: RawHandler = (_request, response) => void response.writeHead(500).end();
let server: RawServer;
const clients: InsightsClient[] = [];

beforeAll(async () => {
  server = await startRawServer((request, response, body) => respond(request, response, body));
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server.close();
});

function client(options: InsightsClientOptions = {}): InsightsClient {
  const made = new InsightsClient({ baseUrl: server.url, clientId: CLIENT_ID, clientSecret: SECRET, env: {}, rateBudget: false, retry: { maxRetries: 0 }, ...options });
  clients.push(made);
  return made;
}

/** Every rendering of `error` a log, a message or a debugger may make. */
const renderings = (error: unknown) => [String(error), (error as Error).stack ?? "", JSON.stringify(error), inspect(error, { depth: 5, showHidden: true })].join("\n");

describe("the redaction of values that must never be shown (provider/text/redaction.ts)", () => {
  const redact = redactor(["viewer-000777", "jane.doe@example.com", "ZGV2OmRldi1zZWNyZXQ=", "viewer-100031"]);

  it("sees through invisible, look-alike and escaped separators, case, fullwidth and other scripts' letters and digits", () => {
    for (const form of [
      "viewer-000777", "VIEWER-000777", "viewer\u00a0000777", "viewer\u200b000777", "viewer\u2060000777", "viewer 000777",
      "viewer000777", "viewer\u2011000777", "ｖｉｅｗｅｒ－０００７７７", "vi\u0435wer-000777", "viewer-\u0660\u0660\u0660\u0667\u0667\u0667",
      "viewer\\u00a0000777", "viewer%C2%A0000777", "jane.doe@EXAMPLE.com", "Basic ZGV2OmRldi1zZWNyZXQ",
    ]) {
      expect(redact(`refused: ${form}; retry`), JSON.stringify(form)).toMatch(/^refused: (Basic )?\[redacted\]=?; retry$/);
    }
  });

  it("redacts a fragment that begins a value where the text was cut, and leaves other words alone", () => {
    expect(redact("identifiers: viewer-100")).toBe(`identifiers: ${REDACTED}`);
    expect(redact("identifiers: viewer-1000…")).toBe(`identifiers: ${REDACTED}…`);
    expect(redact("the viewer module is off.")).toBe("the viewer module is off.");
    expect(redact("in the viewer.")).toBe("in the viewer.");
  });

  it("takes thousands of values without building a pattern of them", () => {
    const many = Array.from({ length: 20_000 }, (_, index) => `viewer-${String(index).padStart(6, "0")}`);
    expect(redactor(many)(`a, viewer-019999 and viewer\u00a0000042, b`)).toBe(`a, ${REDACTED} and ${REDACTED}, b`);
  });
});

describe("what a host hands its engine (provider/text/bounded.ts)", () => {
  it("keeps a text's beginning and end around a note of what was cut, within its budget", () => {
    const text = `${"a".repeat(50_000)} says what to do`;
    const bounded = boundedText(text, 1_000);
    expect(Buffer.byteLength(bounded)).toBeLessThanOrEqual(1_000);
    expect(bounded).toMatch(/^a+… \[cut: 4\d,\d{3} characters\] …a+ says what to do$/);
    expect(boundedText("short", 1_000)).toBe("short");
    // Never half of a character or of an inert escape.
    expect(boundedText("\u{1F4FA}".repeat(1_000), 500)).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(boundedText("\\u200b".repeat(1_000), 500)).toMatch(/^(\\u200b)+… \[cut: [\d,]+ characters\] …(\\u200b)+$/);
  });

  it("bounds check failures in number and size, and a partial failure's outputs, largest first, keeping what must stay", () => {
    const failures = engineFailures(Array.from({ length: 1_000 }, (_, index) => ({ property: `p${index}`.repeat(1_000), reason: "r".repeat(10_000) })));
    expect(failures).toHaveLength(ENGINE_BUDGET.failures);
    expect(failures.at(-1)!.reason).toBe("… and 801 more failures, not shown: fix these and check again");
    const { properties, leftOut } = engineProperties({ __provider: "p".repeat(5_000), ids: "i".repeat(20_000), status: "FINISHED" }, ["__provider"]);
    expect(leftOut).toEqual(["ids"]);
    expect(properties).toEqual({ __provider: "p".repeat(5_000), status: "FINISHED" });
  });
});

describe("an answer that echoes the credential", () => {
  it("keeps the header's value, its base64, the secret and id:secret out of the error, its body and its headers", async () => {
    respond = (request, response) => {
      const authorization = request.headers.authorization ?? "";
      response.writeHead(401, { "content-type": "application/json", "x-echo": authorization, "x-request-id": authorization });
      response.end(JSON.stringify({ message: `Unauthorized: ${authorization} (${CLIENT_ID}:${SECRET})`, secret: SECRET, nested: { header: authorization } }));
    };
    const error = await failure(client().filters.fields());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toBe(`GET /bulk_filters/fields failed with HTTP 401: Unauthorized: Basic ${REDACTED} (${REDACTED}) (request id Basic ${REDACTED})`);
    for (const form of CREDENTIAL_FORMS) expect(renderings(error), form).not.toContain(form);
  });

  it("keeps it out of a plain-text body cut at the reading limit", async () => {
    respond = (request, response) => void response.writeHead(502, { "content-type": "text/plain" }).end(`${"gateway ".repeat(8_191)}${request.headers.authorization}`);
    const error = await failure(client().filters.fields());
    // The body was read and cut, not lost to a connection error: the absences below say something.
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toMatch(/^GET \/bulk_filters\/fields failed with HTTP 502: gateway gateway /);
    for (const form of CREDENTIAL_FORMS) expect(renderings(error), form).not.toContain(form);
  });
});

describe("an answer that echoes the identifiers a PII request sent", () => {
  it("redacts each from the service's text before it is cut or escaped, fragments included", async () => {
    respond = (_request, response) => {
      const message = `${"x".repeat(470)} refused: ${IDENTIFIERS.join(", ")}`;
      response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "bad_request", message, identifiers: IDENTIFIERS }));
    };
    const error = await failure(client().pii.submit({ identifiers: IDENTIFIERS }));
    expect(error).toBeInstanceOf(BadRequestError);
    // Redacted first, then cut at 500 characters: what is cut is the marker, never an identifier.
    expect((error as BadRequestError).detail).toMatch(/ refused: \[redacted\], \[re[a-z]*…$/);
    expect(renderings(error)).not.toMatch(/viewer(?:[\s\-\u00a0\u200b\u2060]|\\u[0-9a-f]{4})*\d/i);
  });
});

describe("ids beyond 2^53", () => {
  const filter = (id: string) => `{"id":${id},"name":"f${id}","rules":{"op":"and","rules":[{"field":"Asset Name","op":"contains","value":"x"}]},"advanced":false,"enabled":true,"creator":"dev@example.com","created":"2026-11-20T12:30:00.000+00:00"}`;

  it("reads an id written as a number beyond 2^53 exactly, as its digits", async () => {
    respond = (_request, response) => void response.writeHead(200, { "content-type": "application/json" }).end(`{"filters":[${filter("9007199254740993")},${filter("9007199254740992")},${filter("12")}]}`);
    const listed = await client().filters.list({ limit: 10 });
    expect(listed.map((item) => item.id)).toEqual(["9007199254740993", "9007199254740992", "12"]);
  });

  it("refuses, naming it, an id that reached it as a number whose digits are lost", async () => {
    respond = (_request, response) => void response.writeHead(200, { "content-type": "application/json" }).end(`{"filters":[${filter("9007199254740993.0")}]}`);
    const error = await failure(client().filters.list({ limit: 10 }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toContain("filters[0].id: the id 9007199254740992 is beyond 2^53 and not written as an integer, so its exact digits are lost");
  });
});

describe("a write whose answer cannot be read", () => {
  it("is an unknown outcome, also when the answer is too deep to parse", async () => {
    const deep = `${'{"op":"and","rules":['.repeat(100_000)}{"field":"Asset Name","op":"contains","value":"x"}${"]}".repeat(100_000)}`;
    respond = (_request, response) => void response.writeHead(201, { "content-type": "application/json" }).end(`{"filters":[{"id":1,"name":"n","rules":${deep}}]}`);
    const error = await failure(client().filters.create({ filters: [{ name: "n", rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: "x" }] } }] }));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(/^POST \/bulk_filters\/: the HTTP 201 response does not match its schema: \(body\): cannot be read \(RangeError: Maximum call stack size exceeded\)/);
    expect(isOutcomeUnknown(error)).toBe(true);
  });
});
