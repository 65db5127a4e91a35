import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import { HttpError } from "./http";

/**
 * The control plane (`/_emulator/`) is for the emulator's own machine: it resets the state, moves the
 * clock, adds accounts and shows every account's secret and the viewer ids submitted. A web page
 * open in the developer's browser can send requests to a loopback port (a cross-site form or
 * `fetch`), and through DNS rebinding even read the answers under a name of its own. The defence
 * local development servers use: answer only a `Host` that names a loopback address or the address
 * the emulator is bound to (a rebound name is refused), refuse a foreign `Origin` (a cross-site
 * request carries one), and take writes only as `application/json` (which a page cannot send
 * without the browser asking first).
 */

/** True for `localhost` and the loopback addresses (127.0.0.0/8, ::1, ::ffff:127.x.x.x). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1" || /^::ffff:127\./.test(host);
}

/** The host name of a `Host` header (`127.0.0.1:8080`, `[::1]:8080`), without its port. */
function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}/`).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return undefined;
  }
}

/**
 * The addresses besides loopback that name this emulator: the one it is bound to, or every address
 * of the machine's interfaces when it is bound to all of them (`0.0.0.0`, `::`). Only addresses:
 * a name could be rebound to this machine by a page's DNS.
 */
function boundAddresses(bound: string): string[] {
  if (bound !== "0.0.0.0" && bound !== "::") return [bound];
  return [bound, ...Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address))];
}

/** True when `hostname` names this emulator: loopback, or one of its bound addresses. */
function namesThisEmulator(hostname: string, bound: string): boolean {
  return isLoopbackHost(hostname) || (isIP(hostname) !== 0 && boundAddresses(bound).includes(hostname));
}

/**
 * The refusal of a control-plane request from elsewhere, or undefined when it may be answered: a
 * `Host` that names neither a loopback address nor the bound address (403 `foreign_host`), an
 * `Origin` that is not such a host (403 `foreign_origin`), a POST whose body is not declared
 * `application/json` (415 `unsupported_media_type`). Nothing of what was sent is echoed.
 */
export function foreignControlRequest(request: IncomingMessage, method: string, bound: string): HttpError | undefined {
  const hostname = hostnameOf(request.headers.host ?? "");
  if (hostname === undefined || !namesThisEmulator(hostname, bound)) {
    return new HttpError(403, "foreign_host", "the control plane answers only requests whose Host is a loopback address (localhost, 127.0.0.1, [::1]) or the address the emulator is bound to", "Host");
  }
  const origin = request.headers.origin;
  if (origin !== undefined) {
    let originHost: string | undefined;
    try {
      const url = new URL(origin);
      originHost = url.protocol === "http:" || url.protocol === "https:" ? url.hostname.replace(/^\[|\]$/g, "") : undefined;
    } catch {
      originHost = undefined;
    }
    if (originHost === undefined || !namesThisEmulator(originHost, bound)) {
      return new HttpError(403, "foreign_origin", "the control plane refuses requests from web pages of other origins (Origin)", "Origin");
    }
  }
  if (method === "POST") {
    const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json") {
      return new HttpError(415, "unsupported_media_type", "the control plane takes writes only as application/json (Content-Type)", "Content-Type");
    }
  }
  return undefined;
}
