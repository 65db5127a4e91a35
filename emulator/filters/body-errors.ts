import type { z } from "zod";
import { isJsonObject } from "../http";
import { describeChoices } from "../text/suggest";
import { badRequest, type HttpError } from "../http";

/** A path into a request body: array indexes and object keys. */
export type BodyPath = readonly PropertyKey[];

/**
 * A body path as the error's `parameter` names it: `[0].rules.rules[2].field`. It starts with the
 * index of the filter in the batch, which is how a client attributes a failed batch to one item.
 */
export function formatPath(path: BodyPath): string {
  return path.map((segment, index) => (typeof segment === "number" ? `[${segment}]` : `${index === 0 ? "" : "."}${String(segment)}`)).join("");
}

/** The value at `path` inside `root`, or undefined. */
export function valueAt(root: unknown, path: BodyPath): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

/** Says why a key the schema does not know is refused (see {@link unknownKeyMessage}). */
export type UnknownKeyExplainer = (key: string, objectPath: BodyPath) => string;

/**
 * A 400 for a zod issue of `root` (spec 7: 400 for invalid parameters of bulk filters), naming the
 * exact body path: `rootPath` (where `root` sits in the body) followed by the issue's path. A failed
 * union names the types it takes when the value has none of them (an id that is neither string nor
 * number); a failed rule-node union is resolved to the branch the client meant (a node with `rules`
 * is a group, others are leaves), so the path points at the real mistake, not at "invalid input".
 *
 * @internal
 */
export function issueError(
  issue: z.core.$ZodIssue,
  root: unknown,
  rootPath: BodyPath,
  explainUnknownKey: UnknownKeyExplainer,
  within: BodyPath = [],
): HttpError {
  const relative = [...within, ...issue.path];
  const parameter = formatPath([...rootPath, ...relative]);
  const value = valueAt(root, relative);
  switch (issue.code) {
    case "invalid_union": {
      if (value === undefined) return badRequest(`${parameter} is required`, parameter);
      // Every branch refused the value's type: name the types the branches take.
      const rootTypes = issue.errors.map((branch) => branch.find((inner) => inner.path.length === 0 && inner.code === "invalid_type"));
      if (rootTypes.every((inner) => inner !== undefined)) {
        const expected = [...new Set(rootTypes.map((inner) => (inner as z.core.$ZodIssueInvalidType).expected))];
        const ruleHint = expected.join() === "object" ? " (a rule: a group {op, rules} or a leaf {field, op, value})" : "";
        return badRequest(`${parameter} must be ${expected.map(article).join(" or ")}${ruleHint}, got ${JSON.stringify(value)}`, parameter);
      }
      // The only object unions are rule nodes: a node with `rules` is meant as a group, others as leaves.
      const branch = issue.errors[isJsonObject(value) && "rules" in value ? 0 : 1] ?? issue.errors[0];
      const first = branch?.[0];
      if (first) return issueError(first, root, rootPath, explainUnknownKey, relative);
      break;
    }
    case "invalid_type":
      return badRequest(
        value === undefined ? `${parameter} is required` : `${parameter} must be ${article(issue.expected)}, got ${JSON.stringify(value)}`,
        parameter,
      );
    case "invalid_value":
      return badRequest(`${parameter} is ${JSON.stringify(value)}; ${describeChoices(String(value), issue.values.map(String), "values")}`, parameter);
    case "unrecognized_keys": {
      const key = issue.keys[0] ?? "";
      const keyParameter = formatPath([...rootPath, ...relative, key]);
      return badRequest(`${keyParameter}: ${explainUnknownKey(key, relative)}`, keyParameter);
    }
    case "too_small":
      if (typeof value === "string") return badRequest(`${parameter} must not be empty`, parameter);
      break;
    default:
      break;
  }
  return badRequest(`${parameter}: ${issue.message}`, parameter);
}

/** The message for a key outside `known`: a suggestion for a near miss, else the known keys. */
export function unknownKeyMessage(key: string, known: readonly string[]): string {
  return `unknown field "${key}"; ${describeChoices(key, known, "fields")}`;
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}
