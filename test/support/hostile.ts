import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Text that tries to run, hide or drive a terminal, as a hostile service or user would send it, and
 * a fake service on loopback that answers whatever a test gives it (for what the emulator refuses
 * to hold: unknown fields, odd ids, any category).
 */

/** Ends a `//` comment (U+2028) and turns the rest of the line into a call that exits 71. */
export const EXIT_71 = "Country \u2028(0, eval)('process.exit(71)') as never,//";
/** The same with the paragraph separator (U+2029). */
export const EXIT_72 = "City \u2029(0, eval)('process.exit(72)') as never,//";
/** Bidi controls: embeddings, overrides, isolates and marks, which reorder what a reviewer sees. */
export const BIDI = "access\u202E\u2066 // admin only \u2069\u2066 \u202A\u202B\u202C\u202D \u2067\u2068 \u200E\u200F\u061C";
/** Zero-width characters and the BOM. */
export const ZERO_WIDTH = "zero\u200Bwidth\u200C\u200Djoin\u2060er \uFEFFbom";
/** C0 controls: NUL, bell, terminal escapes, CR, LF, tab, VT, FF, US. */
export const C0 = "nul\u0000 bell\u0007 esc\u001b[2J\u001b[31mred\u001b[0m cr\r lf\n tab\t vt\u000b ff\u000c us\u001f";
/** DEL and C1 controls (U+0085 is a line break to some readers, U+009B opens an escape sequence). */
export const C1 = "del\u007f c1\u0080 nel\u0085 csi\u009b31m\u009f";
/** Lone surrogates: halves of a character outside the BMP with no other half. */
export const LONE_SURROGATES = "lone \uD800 high, \uDC00 low, reversed \uDC00\uD800";
/** The syntax of string literals and comments. */
export const SYNTAX = "quote \" backslash \\ */ /* ${1} `tick`";
/** Text that is not hostile and stays readable: other scripts, a combining accent on its letter, emoji. */
export const READABLE = "Zürich 東京 Ελλάδα e\u0301 📺";
/** Clears the screen and paints what follows red. */
export const TERMINAL = "\u001b[2J\u001b[31mPWNED\u001b[0m";

/**
 * Characters that change how code reads or parses, or what a terminal does, when written raw: C0
 * controls but the line feed, DEL, C1, soft hyphen, U+061C, zero-width characters, LRM/RLM, line
 * and paragraph separators, bidi embeddings, overrides and isolates, word joiner, BOM, and lone
 * surrogates. Written from the hostile strings above, not from the code under test.
 */
const RAW_HIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Each raw hidden character of `text` (a line feed is a line feed, not hidden), as `U+XXXX`. */
export function rawHidden(text: string): string[] {
  return [...text.matchAll(RAW_HIDDEN)].map((match) => `U+${match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`);
}

/** A request as the fake service received it. */
export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/** A fake service on loopback. */
export interface FakeService {
  url: string;
  /** What it was asked, in order. */
  requests: FakeRequest[];
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let text = "";
    request.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    request.on("end", () => resolve(text === "" ? undefined : JSON.parse(text)));
    request.on("error", reject);
  });
}

/** Starts a service on 127.0.0.1 that answers every request with what `answer` gives, as JSON. */
export async function startFakeService(answer: (request: FakeRequest) => { status: number; body: unknown }): Promise<FakeService> {
  const requests: FakeRequest[] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const url = new URL(request.url ?? "/", "http://fake");
      const received = { method: request.method ?? "GET", path: url.pathname, query: url.searchParams, body };
      requests.push(received);
      const { status, body: answerBody } = answer(received);
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(answerBody));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The URL of a loopback port nothing listens on (a service started, then stopped): every connection to it is refused. */
export async function refusedLoopbackUrl(): Promise<string> {
  const service = await startFakeService(() => ({ status: 200, body: {} }));
  await service.close();
  return service.url;
}
