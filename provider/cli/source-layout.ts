/**
 * A small layout engine for the TypeScript that `pulumi-insights import` writes: expressions are
 * built as a tree, then printed on one line when they fit in {@link LINE_WIDTH} columns and broken
 * one item per line (two-space indent, trailing commas) when they do not, as Prettier prints with
 * its defaults and `printWidth: 100`. Written here rather than depending on a formatter: the
 * generated code uses four shapes (calls, objects, literals, comments), and output that is already
 * formatted is what makes it byte-identical from one run to the next.
 *
 * Nothing a value holds can change what the code does or how it reads: every string, key and
 * comment is written through provider/text/inert.ts, so no value brings a line terminator, a bidi
 * control or an invisible character into the module (a U+2028 would end a `//` comment and turn the
 * rest of the line into code).
 */
import { inertText, typeScriptStringLiteral } from "../text/inert";

/** The widest line the printer aims for (a long string literal may still exceed it: it is never split). */
export const LINE_WIDTH = 100;

const INDENT = "  ";

/** A piece of source that is printed as it is (a literal, an identifier, a builder leaf). */
export interface Atom {
  kind: "atom";
  text: string;
}

/** `callee(arguments)`. */
export interface Call {
  kind: "call";
  callee: string;
  arguments: Item[];
}

/** `{ key: value, ... }`; keys are printed as identifiers where they can be, else quoted. */
export interface ObjectLiteral {
  kind: "object";
  entries: Array<{ key: string; value: Expression; comment?: string }>;
}

/** `[items]`. */
export interface ArrayLiteral {
  kind: "array";
  items: Item[];
}

/** `expression as unknown as Type`: a value the types cannot describe, kept as it is. */
export interface Cast {
  kind: "cast";
  expression: Expression;
  type: string;
}

/** An expression of the generated code. */
export type Expression = Atom | Call | ObjectLiteral | ArrayLiteral | Cast;

/** An argument or array item, with an optional line comment printed above it. */
export interface Item {
  expression: Expression;
  comment?: string;
}

/** An {@link Atom}. */
export function atom(text: string): Atom {
  return { kind: "atom", text };
}

/** A string literal that evaluates to exactly `value` and shows what it holds (provider/text/inert.ts). */
export function stringLiteral(value: string): Atom {
  return atom(typeScriptStringLiteral(value));
}

/** A {@link Call}. */
export function call(callee: string, items: Item[]): Call {
  return { kind: "call", callee, arguments: items };
}

/** A JSON value as an expression: objects and arrays keep their key and item order. */
export function jsonExpression(value: unknown): Expression {
  if (Array.isArray(value)) return { kind: "array", items: value.map((item) => ({ expression: jsonExpression(item) })) };
  if (value !== null && typeof value === "object") {
    return { kind: "object", entries: Object.entries(value).map(([key, member]) => ({ key, value: jsonExpression(member) })) };
  }
  if (typeof value === "string") return stringLiteral(value);
  // JSON writes -0 as 0; a listing's -0 is kept as it came.
  if (Object.is(value, -0)) return atom("-0");
  // undefined cannot occur in parsed JSON; null, booleans and (finite) numbers print as JSON.
  return atom(JSON.stringify(value) ?? "null");
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** An object key as TypeScript writes it: bare when it is an identifier, else a string literal. */
export function propertyKey(key: string): string {
  return IDENTIFIER.test(key) ? key : typeScriptStringLiteral(key);
}

/** True when the expression holds a comment, which forces its enclosing lists to break. */
function hasComment(expression: Expression): boolean {
  switch (expression.kind) {
    case "atom":
      return false;
    case "cast":
      return hasComment(expression.expression);
    case "call":
      return expression.arguments.some((item) => item.comment !== undefined || hasComment(item.expression));
    case "array":
      return expression.items.some((item) => item.comment !== undefined || hasComment(item.expression));
    case "object":
      return expression.entries.some((entry) => entry.comment !== undefined || hasComment(entry.value));
  }
}

/** The expression on one line (no comments inside; see {@link hasComment}). */
function flat(expression: Expression): string {
  switch (expression.kind) {
    case "atom":
      return expression.text;
    case "cast":
      return `${flat(expression.expression)} as unknown as ${expression.type}`;
    case "call":
      return `${expression.callee}(${expression.arguments.map((item) => flat(item.expression)).join(", ")})`;
    case "array":
      return `[${expression.items.map((item) => flat(item.expression)).join(", ")}]`;
    case "object":
      return expression.entries.length === 0
        ? "{}"
        : `{ ${expression.entries.map((entry) => `${propertyKey(entry.key)}: ${flat(entry.value)}`).join(", ")} }`;
  }
}

/**
 * A comment as `//` lines. The generator quotes values in comments as string literals; each line is
 * made inert besides, so a comment can never hold what would end it.
 */
function commentLines(comment: string | undefined, indent: string): string {
  return comment === undefined ? "" : comment.split("\n").map((line) => `${indent}// ${inertText(line)}\n`).join("");
}

/**
 * Prints `expression` starting at column `column` of a line indented by `indent`, with `suffix`
 * (such as `,` or `;`) after it: on one line when that fits, else broken across lines.
 */
export function print(expression: Expression, indent: string, column: number, suffix: string): string {
  if (!hasComment(expression)) {
    const line = flat(expression);
    if (column + line.length + suffix.length <= LINE_WIDTH || expression.kind === "atom") return line;
  }
  const inner = indent + INDENT;
  const items = (list: Array<{ text: (at: number) => string; comment: string | undefined }>) =>
    list.map((item) => `${commentLines(item.comment, inner)}${inner}${item.text(inner.length)},\n`).join("");
  switch (expression.kind) {
    case "atom":
      return expression.text;
    case "cast": {
      const tail = ` as unknown as ${expression.type}`;
      return `${print(expression.expression, indent, column, tail + suffix)}${tail}`;
    }
    case "call": {
      // Prettier's "last argument hugging": `f("name", {` on one line, the object broken below it.
      const last = expression.arguments.at(-1);
      const leading = expression.arguments.slice(0, -1);
      if (last !== undefined && last.comment === undefined && last.expression.kind === "object"
        && leading.every((item) => item.comment === undefined && item.expression.kind === "atom")) {
        const head = `${expression.callee}(${leading.map((item) => `${flat(item.expression)}, `).join("")}`;
        if (column + head.length + 1 <= LINE_WIDTH) return `${head}${print(last.expression, indent, column + head.length, `)${suffix}`)})`;
      }
      return `${expression.callee}(\n${items(expression.arguments.map((item) => ({
        text: (at) => print(item.expression, inner, at, ","),
        comment: item.comment,
      })))}${indent})`;
    }
    case "array":
      return `[\n${items(expression.items.map((item) => ({
        text: (at) => print(item.expression, inner, at, ","),
        comment: item.comment,
      })))}${indent}]`;
    case "object":
      if (expression.entries.length === 0) return "{}";
      return `{\n${items(expression.entries.map((entry) => {
        const key = `${propertyKey(entry.key)}: `;
        return { text: (at) => key + print(entry.value, inner, at + key.length, ","), comment: entry.comment };
      }))}${indent}}`;
  }
}

/** A whole statement at the top level: `expression;` and a newline. */
export function printStatement(expression: Expression): string {
  return `${print(expression, "", 0, ";")};\n`;
}
