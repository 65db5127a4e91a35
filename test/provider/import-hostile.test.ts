import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pulumiImportFile } from "../../provider/cli/pulumi-import-file";
import { createTestProject, type Registration, type TestProject } from "../../engine";
import { DEV, startTestEmulator, type TestEmulator } from "../support/emulator";
import {
  BIDI, C0, C1, EXIT_71, EXIT_72, LONE_SURROGATES, rawHidden, READABLE, startFakeService, SYNTAX, TERMINAL, ZERO_WIDTH,
  type FakeService,
} from "../support/hostile";
import { declaredResources, runCli, typeErrors, type CliResult } from "./import-cli";

/**
 * `pulumi-insights import` against hostile text: names, values, tag keys, fields, ids and categories
 * of the service, and the `--account` and `--set` names of the command line, that try to run code
 * when the module loads (a U+2028 ends a `//` comment), to hide from a reviewer (bidi controls,
 * zero-width characters, controls, lone surrogates) or to drive the terminal. A fake service on
 * loopback answers what the emulator refuses to hold (fields outside the lookup, odd ids, any
 * category); the emulator serves the names and values it accepts. Every module type-checks with
 * `tsc --strict`, holds none of those characters raw, is only imports and declarations whose
 * arguments are literals and builder calls (so loading it runs nothing but those), and gives back
 * every value exactly; the summary and the errors on standard error hold none of them raw either,
 * and the file of `--pulumi-import-file` is printable ASCII that gives every id back.
 */

const ODD_ID = `104${TERMINAL}`;
const SKIPPED_ID = `105${TERMINAL}`;
/** Through argv, which cannot carry NUL or lone surrogates: everything else. */
const ACCOUNT = `staging\u2028(0, eval)('process.exit(73)')//${BIDI}${ZERO_WIDTH}${TERMINAL}\u0085`;
const SET_NAME = `set\u2029(0, eval)('process.exit(74)')//${BIDI}${TERMINAL}`;

/** The listing of the hostile service: every kind of value holds every kind of hostile text. */
const LISTED = [
  {
    id: "101", name: EXIT_71, category: BIDI, subcategory: ZERO_WIDTH,
    rules: { op: "and", rules: [
      { field: EXIT_71, op: "equals", value: C0 },
      { field: "Tag", key: BIDI, op: "contains", value: LONE_SURROGATES },
      { field: "Asset Name", op: "contains", value: C1 },
      { op: "or", rules: [{ field: "Device Name", op: "equals", value: SYNTAX }, { field: EXIT_72, op: "not_contains", value: TERMINAL }] },
    ] },
  },
  { id: "102", name: C0, category: C1, rules: { op: "and", rules: [{ field: "Tag", key: ZERO_WIDTH, op: "not_contains", value: EXIT_72 }] } },
  { id: "103", name: LONE_SURROGATES, category: LONE_SURROGATES, subcategory: TERMINAL, rules: { op: "or", rules: [{ field: BIDI, op: "equals", value: ZERO_WIDTH }] } },
  { id: ODD_ID, name: SYNTAX, rules: { op: "and", rules: [{ field: TERMINAL, op: "equals", value: BIDI }] } },
  { id: SKIPPED_ID, name: "", rules: { op: "and", rules: [{ field: "CDN", op: "equals", value: "x" }] } },
  { id: "106", name: SYNTAX, rules: { op: "and", rules: [{ field: "Tag", key: "deviceId", op: "equals", value: READABLE }] } },
  { id: "107", name: READABLE, rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: READABLE }] } },
];
const DECLARED = LISTED.filter((filter) => filter.name !== "");

/** The names and free-text values the emulator holds as they are. */
const EMULATOR_TEXTS = [EXIT_71, EXIT_72, BIDI, ZERO_WIDTH, C0, C1, LONE_SURROGATES, SYNTAX, READABLE, TERMINAL];

/** What the service answers when a listing is asked with this name: an error whose message is hostile. */
const FAILING_NAME = "fail";
const REFUSAL = `refused ${TERMINAL} ${BIDI}\nforged line ${C1}`;

/**
 * Problems that make `source` more than imports and declarations: every top-level statement must be
 * an import from the package, `export {}`, or `new SavedFilter(...)` / `new SavedFilterSet(...)`
 * whose arguments are literals (strings, numbers, booleans, null, objects and arrays of them, a
 * rule node cast with `as unknown as`) and rule-builder calls with literal arguments. Anything
 * else (a call of something else, an identifier, an operator, a template) is reported.
 */
function statementsBeyondDeclarations(source: string): string[] {
  const file = ts.createSourceFile("module.ts", source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const problems = ((file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics).map((diagnostic) => `parse: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`);
  const isName = (node: ts.Node, names: readonly string[]) => ts.isIdentifier(node) && names.includes(node.text);
  const literal = (node: ts.Expression): boolean => {
    if (ts.isStringLiteral(node) || ts.isNumericLiteral(node)) return true;
    if ([ts.SyntaxKind.TrueKeyword, ts.SyntaxKind.FalseKeyword, ts.SyntaxKind.NullKeyword].includes(node.kind)) return true;
    if (ts.isPrefixUnaryExpression(node)) return node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand);
    if (ts.isArrayLiteralExpression(node)) return node.elements.every(literal);
    if (ts.isObjectLiteralExpression(node)) {
      return node.properties.every((property) => ts.isPropertyAssignment(property)
        && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) && literal(property.initializer));
    }
    if (ts.isAsExpression(node)) {
      // `node as unknown as RuleNode`: the only cast the generator writes.
      return ts.isTypeReferenceNode(node.type) && isName(node.type.typeName, ["RuleNode", "RuleGroup"])
        && ts.isAsExpression(node.expression) && node.expression.type.kind === ts.SyntaxKind.UnknownKeyword && literal(node.expression.expression);
    }
    if (ts.isCallExpression(node)) {
      if (isName(node.expression, ["and", "or"])) return node.arguments.every(literal);
      // field("x").equals("y"), tag("k").contains("v"): one string literal each.
      const method = node.expression;
      return ts.isPropertyAccessExpression(method) && ["contains", "notContains", "equals"].includes(method.name.text)
        && ts.isCallExpression(method.expression) && isName(method.expression.expression, ["field", "tag"])
        && method.expression.arguments.length === 1 && ts.isStringLiteral(method.expression.arguments[0]!)
        && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]!);
    }
    return false;
  };
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier) && statement.moduleSpecifier.text === "pulumi-insights"
      && statement.importClause?.name === undefined && statement.importClause?.namedBindings !== undefined && ts.isNamedImports(statement.importClause.namedBindings)) continue;
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier === undefined && statement.exportClause !== undefined
      && ts.isNamedExports(statement.exportClause) && statement.exportClause.elements.length === 0) continue;
    if (ts.isExpressionStatement(statement) && ts.isNewExpression(statement.expression)
      && isName(statement.expression.expression, ["SavedFilter", "SavedFilterSet"]) && (statement.expression.arguments ?? []).every(literal)) continue;
    problems.push(statement.getText(file));
  }
  return problems;
}

/** The inputs a declaration of `filter` registers (flags at the API's defaults are left out of both). */
function declaredInputs(filter: (typeof LISTED)[number]): Record<string, unknown> {
  const { id: _id, ...fields } = filter;
  return fields;
}

/** Lines of standard error with a raw hidden character, and which. */
const hiddenLines = (text: string) => text.split("\n").filter((line) => rawHidden(line).length > 0).map((line) => `${line}: ${rawHidden(line).join(" ")}`);

describe("pulumi-insights import of hostile text", () => {
  let service: FakeService;
  let emulator: TestEmulator;
  let project: TestProject;
  let every: CliResult;
  let asSet: CliResult;
  let fromEmulator: CliResult;
  let refused: CliResult;
  let errors: string[];
  let everyResources: Registration[];
  let setResources: Registration[];
  let emulatorResources: Registration[];
  const file = (name: string) => path.join(project.dir, name);
  const source = (name: string) => readFileSync(file(name), "utf8");

  beforeAll(async () => {
    service = await startFakeService(({ query }) => query.get("name") === FAILING_NAME
      ? { status: 400, body: { error: "bad_request", message: REFUSAL } }
      : { status: 200, body: { status: "ok", filters: LISTED } });
    emulator = await startTestEmulator();
    project = createTestProject();
    const created = await emulator.call("POST", "/bulk_filters/", {
      body: EMULATOR_TEXTS.map((text) => ({ name: text, rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: text }] } })),
    });
    expect(created.status).toBe(201);
    const account = (url: string) => ({ INSIGHTS_BASE_URL: url, INSIGHTS_CLIENT_ID: DEV.clientId, INSIGHTS_CLIENT_SECRET: DEV.clientSecret });
    [every, asSet, fromEmulator, refused] = await Promise.all([
      runCli(["import", "--out", file("hostile.ts"), "--pulumi-import-file", file("hostile.json")], account(service.url)),
      runCli(["import", "--set", SET_NAME, "--account", ACCOUNT, "--out", file("hostile-set.ts")], account(service.url)),
      runCli(["import", "--account", ACCOUNT, "--out", file("emulator.ts")], account(emulator.url)),
      runCli(["import", "--name", FAILING_NAME], account(service.url)),
    ]);
    for (const run of [every, asSet, fromEmulator]) expect(run.stderr).toMatch(/ written to /);
    // The captures run the modules in child processes (under Pulumi's mocks) while the type checker holds this one.
    const captures = Promise.all([declaredResources(project, "hostile.ts"), declaredResources(project, "hostile-set.ts"), declaredResources(project, "emulator.ts")]);
    errors = typeErrors([file("hostile.ts"), file("hostile-set.ts"), file("emulator.ts")]);
    [everyResources, setResources, emulatorResources] = await captures;
  }, 120_000);
  afterAll(async () => {
    project?.remove();
    await service?.close();
    await emulator?.close();
  });

  it("writes modules that type-check, hold no hidden character raw and are only imports and declarations", () => {
    expect(errors).toEqual([]);
    for (const name of ["hostile.ts", "hostile-set.ts", "emulator.ts"]) {
      expect(rawHidden(source(name)), name).toEqual([]);
      expect(statementsBeyondDeclarations(source(name)), name).toEqual([]);
    }
    // The hostile field stays inside its comment and its literal: `(0, eval)` is text, never code.
    expect(source("hostile.ts")).toContain(`    // The API's JSON form: field "Country \\u2028(0, eval)('process.exit(71)') as never,//" is not a filter field the builder knows (GET /bulk_filters/fields).\n`);
    expect(source("hostile-set.ts")).toContain(`// They are in the account "staging\\u2028(0, eval)('process.exit(73)')//access\\u202e\\u2066 // admin only`);
    // What is not hostile stays readable: other scripts, an accent on its letter, emoji.
    expect(source("hostile.ts")).toContain(`  name: "${READABLE}",\n`);
    expect(source("emulator.ts")).toContain(`  name: "${READABLE}",\n`);
  });

  it("gives back every name, value, tag key, field, id, category and account exactly when a program loads the module", () => {
    // The inputs as the program gave them (the resource adds its `__provider`).
    const declared = ({ __provider: _provider, ...inputs }: Record<string, unknown>) => inputs;
    const byId = new Map(everyResources.map((registration) => [registration.inputs.adoptId, declared(registration.inputs)]));
    expect([...byId.keys()].sort()).toEqual(DECLARED.map((filter) => filter.id).sort());
    for (const filter of DECLARED) expect({ id: filter.id, ...byId.get(filter.id) }).toEqual({ id: filter.id, ...declaredInputs(filter), adoptId: filter.id });
    const [set] = setResources;
    expect(set!.name).toBe(SET_NAME);
    expect(set!.inputs.account).toBe(ACCOUNT);
    const adopt = set!.inputs.adopt as Record<string, string>;
    const members = set!.inputs.filters as Record<string, Record<string, unknown>>;
    expect(Object.values(adopt).sort()).toEqual(DECLARED.map((filter) => filter.id).sort());
    for (const [key, id] of Object.entries(adopt)) {
      const filter = DECLARED.find((candidate) => candidate.id === id)!;
      expect(members[key]).toEqual(declaredInputs(filter));
    }
    const fromAccount = emulatorResources.map((registration) => registration.inputs);
    expect(fromAccount.map((inputs) => inputs.account)).toEqual(EMULATOR_TEXTS.map(() => ACCOUNT));
    expect(fromAccount.map((inputs) => inputs.name).sort()).toEqual([...EMULATOR_TEXTS].sort());
    for (const inputs of fromAccount) expect(inputs.rules).toEqual({ op: "and", rules: [{ field: "Asset Name", op: "contains", value: inputs.name }] });

    // And as TypeScript reads the literals of each module, without running it.
    const literals = (name: string) => {
      const values = new Set<string>();
      const visit = (node: ts.Node): void => {
        if (ts.isStringLiteral(node)) values.add(node.text);
        node.forEachChild(visit);
      };
      visit(ts.createSourceFile(name, source(name), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS));
      return values;
    };
    const inHostile = literals("hostile.ts");
    for (const text of [EXIT_71, EXIT_72, BIDI, ZERO_WIDTH, C0, C1, LONE_SURROGATES, SYNTAX, READABLE, TERMINAL, ODD_ID]) expect(inHostile.has(text), JSON.stringify(text)).toBe(true);
    expect(literals("emulator.ts").has(LONE_SURROGATES)).toBe(true);
    expect(literals("hostile-set.ts").has(ACCOUNT)).toBe(true);
    // Resource names stay plain ASCII, an odd id included (Pulumi prints them in URNs).
    expect(everyResources.map((registration) => registration.name).filter((name) => !/^[a-z0-9-]+$/.test(name))).toEqual([]);
  });

  it("writes the file of `pulumi import --file` in printable ASCII, every id read back exactly under the module's names", () => {
    const text = source("hostile.json");
    expect(text).toMatch(/^[\x20-\x7e\n]*$/);
    const { resources } = JSON.parse(text) as { resources: Array<{ type: string; name: string; id: string }> };
    const names = new Map(everyResources.map((registration) => [registration.inputs.adoptId, registration.name]));
    expect(resources.map(({ id, name }) => [id, name])).toEqual(DECLARED.map(({ id }) => [id, names.get(id)]));
    expect(resources.map(({ id }) => id)).toContain(ODD_ID);
    // Whatever an id holds, the file keeps it ASCII and gives it back.
    const hidden = `1${BIDI}${ZERO_WIDTH}${C1}${LONE_SURROGATES}\u{1f4fa}`;
    const written = pulumiImportFile([{ filterId: hidden, resourceName: "x" }]);
    expect(written).toMatch(/^[\x20-\x7e\n]*$/);
    expect(JSON.parse(written)).toEqual({ resources: [{ type: "insights:index:SavedFilter", name: "x", id: hidden }] });
  });

  it("writes the summary and the errors to standard error with every hidden character escaped", () => {
    expect(every.status).toBe(0);
    expect(hiddenLines(every.stderr)).toEqual([]);
    expect(every.stderr).toContain(`    filter 104\\u001b[2J\\u001b[31mPWNED\\u001b[0m rules.rules[0]: field "\\u001b[2J\\u001b[31mPWNED\\u001b[0m" is not a filter field`);
    expect(every.stderr).toContain("    filter 105\\u001b[2J\\u001b[31mPWNED\\u001b[0m: it has no name");
    for (const run of [asSet, fromEmulator]) expect(hiddenLines(run.stderr)).toEqual([]);
    expect(refused.status).toBe(1);
    expect(hiddenLines(refused.stderr)).toEqual([]);
    // The service's line break is escaped too: its message is one line, which cannot forge another.
    expect(refused.stderr).toBe(`pulumi-insights import: the account ${service.url} (client id "dev") could not be read: GET /bulk_filters/ failed with HTTP 400 (bad_request): refused \\u001b[2J\\u001b[31mPWNED\\u001b[0m access\\u202e\\u2066 // admin only \\u2069\\u2066 \\u202a\\u202b\\u202c\\u202d \\u2067\\u2068 \\u200e\\u200f\\u061c\\nforged line del\\u007f c1\\u0080 nel\\u0085 csi\\u009b31m\\u009f\n`);
  });
});
