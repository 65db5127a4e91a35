import type { AccountRequest } from "./accounts";
import type { EmulatorState } from "./state";
import { badRequest, type RouteResult } from "./http";

/**
 * What a route handler receives: the request as an account's data is read from it (`path` without
 * trailing slash, so `/bulk_filters/` and `/bulk_filters` are one route; `query`; the authenticated
 * `account`; `nowMs`, read once per request) and the rest of the request.
 */
export interface RequestContext extends AccountRequest {
  method: string;
  /** Values of `:name` segments of the route pattern. */
  params: Record<string, string>;
  /** The parsed JSON body, or undefined. */
  body: unknown;
  /** The whole emulator (clock, options). */
  emulator: EmulatorState;
}

/** A route handler: answers a result or throws an HttpError. */
export type RouteHandler = (context: RequestContext) => RouteResult | Promise<RouteResult>;

interface Route {
  method: string;
  segments: string[];
  handler: RouteHandler;
}

/**
 * A small method + path router. Patterns are literal segments and `:name` parameters; literal
 * routes win over parameter routes, so `/bulk_filters/fields` is not taken for an id.
 */
export class Router {
  private routes: Route[] = [];

  /** Registers a handler for `method` and `pattern`. */
  on(method: string, pattern: string, handler: RouteHandler): this {
    this.routes.push({ method, segments: splitPath(pattern), handler });
    return this;
  }

  /** Shorthand for {@link on} with GET. */
  get(pattern: string, handler: RouteHandler): this {
    return this.on("GET", pattern, handler);
  }

  /**
   * The handler for a request and its parameters; `methodNotAllowed` when the path exists with other
   * methods, undefined when the path is unknown.
   */
  resolve(method: string, path: string):
    | { handler: RouteHandler; params: Record<string, string> }
    | { methodNotAllowed: string[] }
    | undefined {
    const segments = splitPath(path);
    let best: { route: Route; params: Record<string, string>; literals: number } | undefined;
    const allowed = new Set<string>();
    for (const route of this.routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.method !== method) {
        allowed.add(route.method);
        continue;
      }
      const literals = route.segments.filter((segment) => !segment.startsWith(":")).length;
      if (!best || literals > best.literals) best = { route, params, literals };
    }
    if (best) return { handler: best.route.handler, params: best.params };
    if (allowed.size > 0) return { methodNotAllowed: [...allowed] };
    return undefined;
  }
}

function splitPath(path: string): string[] {
  return path.split("/").filter((segment) => segment.length > 0);
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let index = 0; index < pattern.length; index++) {
    const expected = pattern[index]!;
    const value = actual[index]!;
    if (expected.startsWith(":")) params[expected.slice(1)] = decodeSegment(value, expected.slice(1));
    else if (expected !== value) return undefined;
  }
  return params;
}

/** A %-decoded path segment; a malformed escape (`%zz`, a lone `%E2`) is the client's error: 400. */
function decodeSegment(value: string, name: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw badRequest(`the path segment for ${name} has a malformed %-escape; encode "%" as %25`, name, "invalid_path");
  }
}
