/**
 * The TypeScript module that `pulumi-insights import` writes for an account's saved filters: one
 * `SavedFilter` per filter with `adoptId`, or one `SavedFilterSet` with `adopt`, the rules written
 * with the rule builder (provider/rules/builder.ts). Every declaration states the filter exactly as
 * the account holds it, so the first `pulumi up` adopts it without a write (docs/api.md 4.8: the
 * provider compares canonical rule trees and fills the API's defaults before deciding to update).
 */
import { FILTER_FIELDS, RULE_GROUP_OPS, RULE_LEAF_OPS } from "../schema/names";
import { isJsonObject } from "../schema/common";
import { declaredProperties } from "../saved-filters/model/state";
import { TAG_FIELD } from "../rules/tree";
import { typeScriptStringLiteral } from "../text/inert";
import { compareIds } from "../client/core/listing";
import { resourceNames } from "./resource-names";
import {
  atom, call, jsonExpression, printStatement, stringLiteral,
  type Expression, type Item, type ObjectLiteral,
} from "./source-layout";

/** A saved filter as listed (docs/api.md 2.7), read leniently: any member may be missing or odd. */
export type ListedFilter = { readonly id: string } & Readonly<Record<string, unknown>>;

/** What to write. */
export interface GenerateOptions {
  /** One SavedFilterSet with this resource name instead of one SavedFilter per filter. */
  set?: string;
  /**
   * The name in `insights:accounts` of the account the filters are in: every declaration gets
   * `account: "<name>"` (docs/configuration.md "Accounts"). Left out, they use the stack's settings.
   */
  account?: string;
}

/** A part of a rule tree written in the API's JSON form because the builder cannot express it. */
export interface JsonFormNote {
  filterId: string;
  /** Where in the tree, in the `rules.rules[2]` notation of check failures. */
  path: string;
  reason: string;
}

/** A filter left out of the module, and why. */
export interface SkippedFilter {
  filterId: string;
  reason: string;
}

/** The generated module and what the summary reports. */
export interface GeneratedModule {
  /** The module text, formatted, ending with a newline. */
  source: string;
  /** The filters declared, in the order written (by id). */
  declared: Array<{ filterId: string; resourceName: string }>;
  jsonForms: JsonFormNote[];
  skipped: SkippedFilter[];
}

/** The package the generated module imports from: a user's program names it like this. */
const PACKAGE = "pulumi-insights";

const LEAF_METHODS: Record<(typeof RULE_LEAF_OPS)[number], string> = {
  contains: "contains",
  not_contains: "notContains",
  equals: "equals",
};

const GROUP_KEYS = ["op", "rules"];
const LEAF_KEYS = ["field", "op", "value", "key"];

/** The names the generated code uses, so that the import lists exactly those. */
class Imports {
  private readonly values = new Set<string>();
  private readonly types = new Set<string>();

  value(name: string): string {
    this.values.add(name);
    return name;
  }

  type(name: string): string {
    this.types.add(name);
    return name;
  }

  statement(): string {
    // A module without declarations still has to be a module (its importers name it).
    if (this.values.size === 0 && this.types.size === 0) return "export {};\n";
    const names = [...[...this.values].map((name) => ({ name, text: name })), ...[...this.types].map((name) => ({ name, text: `type ${name}` }))];
    names.sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0));
    const line = `import { ${names.map((entry) => entry.text).join(", ")} } from ${typeScriptStringLiteral(PACKAGE)};\n`;
    if (line.length <= 101) return line;
    return `import {\n${names.map((entry) => `  ${entry.text},\n`).join("")}} from ${typeScriptStringLiteral(PACKAGE)};\n`;
  }
}

/**
 * A value of the listing as a comment and the summary quote it: a string as the module writes it
 * (provider/text/inert.ts, so nothing in it can end the comment or hide in it), anything else by
 * its kind.
 */
function quoted(value: unknown): string {
  if (typeof value === "string") return typeScriptStringLiteral(value);
  if (value === undefined) return "(missing)";
  if (value === null || typeof value === "number" || typeof value === "boolean") return String(value);
  return Array.isArray(value) ? "(a list)" : "(an object)";
}

/** Why the builder cannot write this leaf, or undefined when it can. */
function leafProblem(leaf: Record<string, unknown>): string | undefined {
  const extra = Object.keys(leaf).find((key) => !LEAF_KEYS.includes(key));
  if (extra !== undefined) return `property ${quoted(extra)} is not one the builder writes (field, op, value, key)`;
  if (typeof leaf.field !== "string" || !(FILTER_FIELDS as readonly string[]).includes(leaf.field)) {
    return `field ${quoted(leaf.field)} is not a filter field the builder knows (GET /bulk_filters/fields)`;
  }
  if (typeof leaf.op !== "string" || !(RULE_LEAF_OPS as readonly string[]).includes(leaf.op)) {
    return `op ${quoted(leaf.op)} is not one the builder has (${RULE_LEAF_OPS.join(", ")})`;
  }
  if (typeof leaf.value !== "string") return "the value is not a string";
  if (leaf.field === TAG_FIELD && (typeof leaf.key !== "string" || leaf.key === "")) return "a Tag leaf without a key";
  if (leaf.field !== TAG_FIELD && "key" in leaf) return `a key on field ${quoted(leaf.field)} (only Tag takes one)`;
  return undefined;
}

/** Why the builder cannot write this group itself (its children are judged one by one), or undefined. */
function groupProblem(group: Record<string, unknown>): string | undefined {
  const extra = Object.keys(group).find((key) => !GROUP_KEYS.includes(key));
  if (extra !== undefined) return `property ${quoted(extra)} is not one the builder writes (op, rules)`;
  if (typeof group.op !== "string" || !(RULE_GROUP_OPS as readonly string[]).includes(group.op)) {
    return `group op ${quoted(group.op)} is not one the builder has (${RULE_GROUP_OPS.join(", ")})`;
  }
  if (!Array.isArray(group.rules)) return "the group's rules are not a list";
  if (group.rules.length === 0) return "an empty group (and() and or() take at least one rule)";
  return undefined;
}

/**
 * True when a JSON node has the static type of a rule node as it stands (so it needs no cast):
 * known ops, string values, only the wire's properties.
 */
function fitsRuleTypes(node: unknown): boolean {
  if (!isJsonObject(node)) return false;
  if ("rules" in node) {
    return Object.keys(node).every((key) => GROUP_KEYS.includes(key))
      && (RULE_GROUP_OPS as readonly unknown[]).includes(node.op)
      && Array.isArray(node.rules) && node.rules.every(fitsRuleTypes);
  }
  return Object.keys(node).every((key) => LEAF_KEYS.includes(key))
    && typeof node.field === "string" && typeof node.value === "string"
    && (RULE_LEAF_OPS as readonly unknown[]).includes(node.op)
    && (!("key" in node) || typeof node.key === "string");
}

/** Writes rule trees with the builder, falling back to JSON (with a note) node by node. */
class RuleWriter {
  constructor(
    private readonly imports: Imports,
    private readonly notes: JsonFormNote[],
    private readonly filterId: string,
  ) {}

  /** The JSON form of a node the builder cannot express, cast when its types do not fit. */
  private jsonForm(node: unknown, path: string, reason: string, type: "RuleNode" | "RuleGroup"): Item {
    this.notes.push({ filterId: this.filterId, path, reason });
    const expression = jsonExpression(node);
    const typed: Expression = fitsRuleTypes(node) ? expression : { kind: "cast", expression, type: this.imports.type(type) };
    return { expression: typed, comment: `The API's JSON form: ${reason}.` };
  }

  /** The rule tree at the top of a filter. */
  root(rules: unknown): Item {
    if (!isJsonObject(rules) || !("rules" in rules)) return this.jsonForm(rules, "rules", "the rule tree is not a group", "RuleGroup");
    const problem = groupProblem(rules);
    if (problem !== undefined) return this.jsonForm(rules, "rules", problem, "RuleGroup");
    return { expression: this.group(rules as { op: string; rules: unknown[] }, "rules") };
  }

  private node(node: unknown, path: string): Item {
    if (!isJsonObject(node)) return this.jsonForm(node, path, "the node is neither a group nor a leaf", "RuleNode");
    if ("rules" in node) {
      const problem = groupProblem(node);
      if (problem !== undefined) return this.jsonForm(node, path, problem, "RuleNode");
      return { expression: this.group(node as { op: string; rules: unknown[] }, path) };
    }
    const problem = leafProblem(node);
    if (problem !== undefined) return this.jsonForm(node, path, problem, "RuleNode");
    // leafProblem answered nothing: field, op, value (and a Tag's key) are strings.
    const leaf = node as { field: string; op: keyof typeof LEAF_METHODS; value: string; key?: string };
    const head = leaf.field === TAG_FIELD
      ? `${this.imports.value("tag")}(${typeScriptStringLiteral(leaf.key!)})`
      : `${this.imports.value("field")}(${typeScriptStringLiteral(leaf.field)})`;
    return { expression: atom(`${head}.${LEAF_METHODS[leaf.op]}(${typeScriptStringLiteral(leaf.value)})`) };
  }

  private group(group: { op: string; rules: unknown[] }, path: string): Expression {
    return call(this.imports.value(group.op), group.rules.map((child, index) => this.node(child, `${path}.rules[${index}]`)));
  }
}

/** Why a filter cannot be declared at all, or undefined. Rules are never a reason: odd ones become JSON. */
function skipReason(filter: ListedFilter): string | undefined {
  if (typeof filter.name !== "string" || filter.name.trim() === "") return "it has no name, which a declaration requires (docs/api.md 4.8)";
  if (filter.rules === undefined) return "the listing carried no rule tree for it";
  return undefined;
}

/** The properties of one declared filter, in the order a reviewer reads them. */
function filterProperties(filter: ListedFilter, writer: RuleWriter): ObjectLiteral["entries"] {
  const entries: ObjectLiteral["entries"] = [{ key: "name", value: stringLiteral(filter.name as string) }];
  // As a program declares it: an empty category and flags at the API's defaults are left out (saved-filters/model/state.ts).
  const declared = declaredProperties(filter);
  for (const key of ["category", "subcategory"] as const) {
    const value = declared[key];
    if (typeof value === "string") entries.push({ key, value: stringLiteral(value) });
    else if (value !== undefined) entries.push({ key, value: jsonExpression(value), comment: `The API's JSON form: ${key} is not a string.` });
  }
  for (const key of ["advanced", "content", "enabled"] as const) {
    const value = declared[key];
    if (value !== undefined) entries.push({ key, value: jsonExpression(value) });
  }
  const rules = writer.root(filter.rules);
  entries.push({ key: "rules", value: rules.expression, ...(rules.comment === undefined ? {} : { comment: rules.comment }) });
  return entries;
}

/** The comment at the top of the module. */
function header(count: number, options: GenerateOptions): string {
  const filters = `${count} saved filter${count === 1 ? "" : "s"}`;
  const what = options.set === undefined
    ? [`// ${filters}, one SavedFilter each, taken over by \`adoptId\`.`]
    : [`// ${filters} as the members of one SavedFilterSet, taken over by \`adopt\`.`];
  if (options.account !== undefined) what.push(`// They are in the account ${typeScriptStringLiteral(options.account)} of the stack config insights:accounts.`);
  return [
    "// Written by `pulumi-insights import`.",
    ...what,
    "// Each declaration states its filter as the account holds it, so the first `pulumi up` adopts",
    "// them without a change; from then on this file is where they change. Flags at the API's",
    "// defaults (advanced false, content false, enabled true) are left out.",
    "",
  ].join("\n");
}

/**
 * The module declaring `filters`: sorted by id (so a filter added to the account adds lines at the
 * end), resource names from ./resource-names.ts, formatted by ./source-layout.ts. The same
 * filters always give the same bytes.
 */
export function generateModule(filters: readonly ListedFilter[], options: GenerateOptions = {}): GeneratedModule {
  const sorted = [...filters].sort((a, b) => compareIds(a.id, b.id));
  const skipped: SkippedFilter[] = [];
  const kept = sorted.filter((filter) => {
    const reason = skipReason(filter);
    if (reason !== undefined) skipped.push({ filterId: filter.id, reason });
    return reason === undefined;
  });
  const names = resourceNames(kept.map((filter) => ({ id: filter.id, name: filter.name as string })));
  const imports = new Imports();
  const jsonForms: JsonFormNote[] = [];
  const declared = kept.map((filter) => ({ filterId: filter.id, resourceName: names.get(filter.id)! }));
  const properties = (filter: ListedFilter) => filterProperties(filter, new RuleWriter(imports, jsonForms, filter.id));
  const account: ObjectLiteral["entries"] = options.account === undefined ? [] : [{ key: "account", value: stringLiteral(options.account) }];
  let body: string;
  if (options.set === undefined) {
    const callee = `new ${imports.value("SavedFilter")}`;
    body = kept.map((filter) => printStatement(call(callee, [
      { expression: stringLiteral(names.get(filter.id)!) },
      { expression: { kind: "object", entries: [...properties(filter), { key: "adoptId", value: stringLiteral(filter.id) }, ...account] } },
    ]))).join("\n");
  } else {
    const members: ObjectLiteral = { kind: "object", entries: kept.map((filter) => ({ key: names.get(filter.id)!, value: { kind: "object", entries: properties(filter) } })) };
    const adopt: ObjectLiteral = { kind: "object", entries: kept.map((filter) => ({ key: names.get(filter.id)!, value: stringLiteral(filter.id) })) };
    body = printStatement(call(`new ${imports.value("SavedFilterSet")}`, [
      { expression: stringLiteral(options.set) },
      { expression: { kind: "object", entries: [{ key: "filters", value: members }, { key: "adopt", value: adopt }, ...account] } },
    ]));
  }
  const source = `${header(kept.length, options)}${imports.statement()}\n${body}`;
  return { source, declared, jsonForms, skipped };
}
