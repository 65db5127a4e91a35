import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { InsightsError, PartialFailureError } from "../provider/client";
import { ResourcePartialFailureError } from "../provider/accounts/calls";
import { AccountMovedError } from "../provider/accounts/binding";
import { ResourceInitFailedError } from "../provider/host/dynamic-provider";
import { WaitTimeoutError } from "../provider/pii/waiting";
import { NotServedError } from "../provider/plugin/resources";
import { FilterItemError } from "../provider/saved-filters/gateway/refusals";
import { LookupUnreadableError } from "../provider/saved-filters/model/declared";

/**
 * One error root (README "Data sources": `InsightsError`, every error of this package): nothing the
 * package's code makes is a bare `Error`, and every error class extends `InsightsError`, each concept
 * with a name of its own.
 */

const PROVIDER = path.resolve(__dirname, "../provider");
const BUILT_INS = new Set(["Error", "TypeError", "RangeError", "SyntaxError", "EvalError", "ReferenceError", "URIError"]);

/** The TypeScript sources of provider/. */
function sources(folder = PROVIDER): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return sources(file);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [file] : [];
  });
}

/** Each place a source makes a built-in error or extends one, as `file:line: text`. */
function builtInErrors(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node) => `${path.relative(PROVIDER, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText().slice(0, 80)}`;
  const visit = (node: ts.Node) => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && BUILT_INS.has(node.expression.text)) {
      // The status a gRPC callback takes (`Object.assign(new Error(...), { code, details })`) is no error the package throws.
      const parent = node.parent;
      const grpcStatus = ts.isCallExpression(parent) && parent.expression.getText() === "Object.assign" && parent.arguments[0] === node;
      if (!grpcStatus) found.push(at(node));
    }
    if (ts.isClassDeclaration(node)) {
      const extended = node.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
      if (extended !== undefined && ts.isIdentifier(extended) && BUILT_INS.has(extended.text) && node.name?.text !== "InsightsError") found.push(at(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("one error root", () => {
  it("nothing in provider/ makes or extends a built-in error but InsightsError itself", () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(builtInErrors)).toEqual([]);
  });

  it("every error class is an InsightsError named for its concept: a partial failure of one API call and of a resource are two", () => {
    const classes = [PartialFailureError, ResourcePartialFailureError, ResourceInitFailedError, AccountMovedError, WaitTimeoutError, NotServedError, FilterItemError, LookupUnreadableError];
    for (const ErrorClass of classes) expect(ErrorClass.prototype, ErrorClass.name).toBeInstanceOf(InsightsError);
    expect(new Set(classes.map((ErrorClass) => ErrorClass.name)).size).toBe(classes.length);
    const partial = new ResourcePartialFailureError("SavedFilterSet: 1 of 2 member changes failed", "set-1", {}, ["one"]);
    expect(partial).toMatchObject({ name: "ResourcePartialFailureError", id: "set-1", reasons: ["one"] });
    expect(partial).not.toBeInstanceOf(PartialFailureError);
  });
});
