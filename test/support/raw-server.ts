import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A hand-written HTTP server on loopback, for answers no emulator gives: endless or oversized
 * bodies, redirects, answers swapped after the emulator applied a request. It shares nothing with
 * the client under test.
 */

/** One request as a {@link RawServer} received it. */
export interface ReceivedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  /** Whether it carried an `Authorization` header (its value is never kept). */
  authorized: boolean;
}

/** Answers one request; `body` is the whole request body. */
export type RawHandler = (request: IncomingMessage, response: ServerResponse, body: Buffer) => void | Promise<void>;

/** A running {@link startRawServer}. */
export interface RawServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** `127.0.0.1:<port>`, as a URL's `host`. */
  host: string;
  /** Every request received, in order. */
  requests: ReceivedRequest[];
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Starts a {@link RawServer} on a free loopback port; `handle` answers each request. */
export async function startRawServer(handle: RawHandler): Promise<RawServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests.push({ method: request.method ?? "", url: request.url ?? "", authorized: request.headers.authorization !== undefined });
      Promise.resolve(handle(request, response, Buffer.concat(chunks))).catch((error: unknown) => {
        response.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How a {@link streamBody} ended. */
export interface Streamed {
  /** Bytes handed to the socket. */
  written: number;
  /** True when the client closed the connection before the body's end. */
  closedByClient: boolean;
}

/**
 * Writes `chunk` again and again as the body of `response` (whose head the caller has set), honouring
 * backpressure, until `total` bytes were written (`Infinity`: never) or the client closes the
 * connection, then `tail` (counted in `total`) and the end. Answers how it ended, once the connection
 * or the response is closed.
 */
export function streamBody(response: ServerResponse, chunk: Buffer, total = Number.POSITIVE_INFINITY, tail = ""): Promise<Streamed> {
  const last = Buffer.from(tail);
  const body = total - last.length;
  return new Promise((resolve) => {
    let written = 0;
    let closed = false;
    let ended = false;
    response.on("close", () => {
      closed = true;
      resolve({ written, closedByClient: !response.writableFinished });
    });
    const pump = () => {
      while (!closed && written < body) {
        const piece = body - written < chunk.length ? chunk.subarray(0, body - written) : chunk;
        written += piece.length;
        if (!response.write(piece)) return;
      }
      if (!closed && !ended) {
        ended = true;
        written += last.length;
        response.end(last);
      }
    };
    response.on("drain", pump);
    pump();
  });
}
