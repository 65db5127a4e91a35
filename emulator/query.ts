import { describeChoices } from "./text/suggest";
import { badRequest } from "./http";

/** How a {@link QueryReader} treats the names outside its `allowed` list. */
export interface QueryReaderOptions {
  /**
   * Leave other names to another parser instead of refusing them: the dimension and tag filters of
   * the sessions and metrics endpoints (spec 4.2, 4.6), an open-ended set whose keys may repeat (a
   * repeated filter key is OR). Names of `allowed` are still refused when given twice.
   */
  openEnded?: boolean;
}

/**
 * Strict reading of an endpoint's query string, shared by every route of the HTTP layer (spec 7:
 * 400 for invalid parameters). A parameter
 * the endpoint does not know, or one given twice, is a 400 rather than silently ignored: a typo
 * such as `enable=true` would otherwise return every filter, and `limit=1&limit=600` would leave
 * the caller guessing which one counted.
 */
export class QueryReader {
  constructor(
    private readonly query: URLSearchParams,
    allowed: readonly string[],
    endpoint: string,
    options: QueryReaderOptions = {},
  ) {
    for (const name of new Set(query.keys())) {
      if (!allowed.includes(name)) {
        if (options.openEnded) continue;
        const choices = allowed.length === 0 ? "it takes no query parameters" : describeChoices(name, allowed, "parameters");
        throw badRequest(`unknown query parameter "${name}" for ${endpoint}; ${choices}`, name);
      }
      if (query.getAll(name).length > 1) {
        throw badRequest(`query parameter "${name}" is given more than once; give it once (lists are comma-separated)`, name);
      }
    }
  }

  /** A string parameter, or undefined when absent. */
  string(name: string): string | undefined {
    return this.query.get(name) ?? undefined;
  }

  /** A boolean parameter: exactly `true` or `false`. */
  boolean(name: string): boolean | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (value === "true") return true;
    if (value === "false") return false;
    throw badRequest(`"${name}" must be true or false, got "${value}"`, name);
  }

  /** An integer parameter within [min, max]. */
  integer(name: string, min: number, max: number): number | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    const parsed = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      throw badRequest(`"${name}" must be an integer from ${min} to ${max}, got "${value}"`, name);
    }
    return parsed;
  }

  /** A comma-separated list parameter; empty items (`a,,b`, a trailing comma) are a 400. */
  list(name: string): string[] | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    const items = value.split(",").map((item) => item.trim());
    if (items.some((item) => item.length === 0)) {
      throw badRequest(`"${name}" must be a comma-separated list without empty items, got "${value}"`, name);
    }
    return items;
  }

  /**
   * A comma-separated list whose items come from a closed vocabulary (spec 4.9 severity, status,
   * alert_metric; spec 4.10 status; spec 4.8 fields): undefined when absent, else the distinct
   * items in the order given. An item outside the vocabulary is a 400 naming it, with a "did you
   * mean" for a near miss (case counts: `CRITICAL` is answered with `did you mean "critical"?`).
   */
  choices<Item extends string>(
    name: string,
    vocabulary: readonly Item[],
    /** The plural that names the items in the error, for example "severities". */
    noun: string,
  ): Set<Item> | undefined {
    const items = this.list(name);
    if (items === undefined) return undefined;
    for (const item of items) {
      if (!(vocabulary as readonly string[]).includes(item)) {
        throw badRequest(`"${name}" has an unknown item "${item}"; ${describeChoices(item, vocabulary, noun)}`, name);
      }
    }
    return new Set(items as Item[]);
  }
}
