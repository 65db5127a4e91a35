import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Every message README.md, the pages of docs/ and emulator/README.md quote is one the code prints: a
 * user who searches the documentation for what they see finds it, and a message reworded in the code
 * fails here until the documentation says it the new way.
 *
 * What counts as a quoted message:
 * - in a table whose first header cell is `you see` (README "Troubleshooting"), every code span of
 *   the first column, in the rows whose `printed by` cell is `pulumi-insights`, `pulumi-insights
 *   import`, `insights-emulator` or `npm start`; a row printed by another program names it (`Pulumi
 *   CLI`, `Node.js`, `npm`, `tsc`), and a row that describes a symptom rather than quoting a message says `-`;
 * - anywhere else outside fenced blocks, a code span shaped like a message: a colon and a space,
 *   then three words in a row (`account: no account named "x": ...`), and no `{`, `=>` or `${`.
 *
 * What "printed by the code" means: every word of the message (two letters or more) lies inside a
 * fixed text of the code found whole at that place in the message: a string literal, or a part of a
 * template literal between its `${...}` (what varies). A quote may begin or end inside such a text.
 * Left out of the check, as what varies: text in double quotes (names, values), URLs, a property
 * path before the first colon (`rules.rules[0].value`), and `...` or `…` where the README elides.
 * The code is that of the program the row names (PRINTED_BY: the package's provider/, which the
 * command `pulumi-insights import` is part of, the emulator's emulator/, `npm start`'s scripts/ and
 * the engine driver it runs offline), and all of them for a quote outside such a table.
 */
const ROOT = path.resolve(__dirname, "..");
const DOCUMENTS = [
  "README.md",
  "emulator/README.md",
  ...readdirSync(path.join(ROOT, "docs")).filter((file) => file.endsWith(".md")).sort().map((file) => `docs/${file}`),
];
/**
 * `printed by` values whose messages are ours, and the folders of the code that prints them. The
 * package's messages quote what the service answered (`HTTP 401: Unauthorized`), which the
 * emulator words as the service does.
 */
const PRINTED_BY: Readonly<Record<string, readonly string[]>> = {
  "pulumi-insights": ["provider", "emulator"],
  "pulumi-insights import": ["provider", "emulator"],
  "insights-emulator": ["emulator"],
  "npm start": ["scripts", "engine"],
};
const OURS = Object.keys(PRINTED_BY);
/** Every folder of our code: a quote outside a table of what users see may come from any of them. */
const SOURCES = [...new Set(Object.values(PRINTED_BY).flat())];
/** `printed by` values of other programs, and `-` for a row that is a symptom, not a message. */
const OTHERS = ["Pulumi CLI", "Node.js", "npm", "tsc", "-"];

interface Quote {
  /** `README.md:123`. */
  where: string;
  /** The code span as the reader sees it. */
  message: string;
  /** The folders of the code that prints it. */
  sources: readonly string[];
}

/** The code spans of a line of Markdown (single backticks; a `\|` inside a table cell is a `|`). */
function codeSpans(line: string): string[] {
  return [...line.matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)].map((match) => match[2]!.trim().replace(/\\\|/g, "|"));
}

/** The cells of a table row, split at `|` that are not escaped. */
function cells(line: string): string[] {
  return line.trim().replace(/^\||\|$/g, "").split(/(?<!\\)\|/).map((cell) => cell.trim());
}

/** A colon and a space, then three words in a row: `account: no account named "x": ...`. */
const MESSAGE_SHAPE = /^[^\s:][^:]*?: .*?\b[A-Za-z]+ [A-Za-z]+ [A-Za-z]+\b/;
const CODE = /[{]|=>|\$\{/;

/** The messages a document quotes (see the comment at the top), and the rows whose `printed by` is not one of the known values. */
function quotesOf(document: string): { quotes: Quote[]; unknownSources: string[] } {
  const lines = readFileSync(path.join(ROOT, document), "utf8").split("\n");
  const quotes: Quote[] = [];
  const unknownSources: string[] = [];
  let fenced = false;
  let table: { printedBy: number } | undefined;
  lines.forEach((line, index) => {
    const where = `${document}:${index + 1}`;
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) return;
    const row = line.trim().startsWith("|") ? cells(line) : undefined;
    if (row === undefined) table = undefined;
    else if (table === undefined && /^you see$/i.test(row[0]!)) {
      table = { printedBy: row.findIndex((cell) => /^printed by$/i.test(cell)) };
      if (table.printedBy < 0) unknownSources.push(`${where}: the table of what users see has no "printed by" column`);
      return;
    }
    if (table !== undefined && row !== undefined) {
      if (row.every((cell) => /^:?-+:?$/.test(cell))) return;
      const printedBy = row[table.printedBy] ?? "";
      if (OURS.includes(printedBy)) quotes.push(...codeSpans(row[0]!).map((message) => ({ where, message, sources: PRINTED_BY[printedBy]! })));
      else if (!OTHERS.includes(printedBy)) {
        unknownSources.push(`${where}: "printed by" is ${JSON.stringify(printedBy)}; write one of ${[...OURS, ...OTHERS].map((name) => JSON.stringify(name)).join(", ")}`);
      }
      return;
    }
    for (const span of codeSpans(line)) {
      if (MESSAGE_SHAPE.test(span) && !CODE.test(span)) quotes.push({ where, message: span, sources: SOURCES });
    }
  });
  return { quotes, unknownSources };
}

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(ts|cjs|js)$/.test(file) && !file.endsWith(".d.ts") && !file.split(path.sep).includes("node_modules"))
    .map((file) => path.join(folder, file));
}

/** The fixed texts of every string and template literal of the `folders` (a template's parts between its `${...}`). */
function codeTexts(folders: readonly string[]): string[] {
  const texts = new Set<string>();
  for (const file of folders.flatMap(sourceFiles)) {
    const source = ts.createSourceFile(file, readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.Latest, false, file.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS);
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
        if (/[A-Za-z]{2}/.test(node.text)) texts.add(withoutQuotedValues(node.text));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...texts];
}

/** Stands for a character the check leaves out; no text of the code holds it. */
const LEFT_OUT = "\u0000";

/** `text` with what it double-quotes left out (`"user-"` becomes `"` and five {@link LEFT_OUT}), in a quote and in the code alike. */
function withoutQuotedValues(text: string): string {
  return text.replace(/"[^"]*"/g, (quoted) => `"${LEFT_OUT.repeat(quoted.length - 2)}"`);
}

/**
 * The quote with what the check leaves out replaced by {@link LEFT_OUT}: double-quoted values, URLs,
 * a property path before the first colon (`rules.rules[0].value`, `[0].enabeld`: where in the
 * input), and elisions, which also cut the quote into parts.
 */
function maskedParts(message: string): string[] {
  const hide = (text: string) => LEFT_OUT.repeat(text.length);
  return withoutQuotedValues(message)
    .replace(/\b[a-z][a-z+.-]*:\/\/[^\s)]*/gi, hide)
    .replace(/^[^\s:]*[.[][^\s:]*(?=: )/, hide)
    .split(/\.\.\.|…/);
}

/** The texts of the code, sorted, and each reversed and sorted: to find texts by how they begin or end. */
interface CodeTexts {
  all: readonly string[];
  sorted: readonly string[];
  reversedSorted: readonly string[];
}

function indexed(texts: readonly string[]): CodeTexts {
  const reverse = (text: string) => [...text].reverse().join("");
  return { all: texts, sorted: [...texts].sort(), reversedSorted: texts.map(reverse).sort() };
}

/** True when one of the `sorted` texts begins with `start`. */
function someBeginsWith(sorted: readonly string[], start: string): boolean {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < start) low = middle + 1;
    else high = middle;
  }
  return low < sorted.length && sorted[low]!.startsWith(start);
}

/**
 * The spans of `part` that texts of the code cover: where a text occurs whole, and at the part's
 * ends, where the README starts or stops its quote inside a text (its end, or its beginning).
 */
function coveredSpans(part: string, texts: CodeTexts): Array<[number, number]> {
  const covered: Array<[number, number]> = [];
  for (const text of texts.all) {
    for (let at = part.indexOf(text); at >= 0; at = part.indexOf(text, at + 1)) covered.push([at, at + text.length]);
  }
  const boundary = (index: number) => index === 0 || index === part.length || !/[A-Za-z]/.test(part[index - 1]!) || !/[A-Za-z]/.test(part[index]!);
  const positions = Array.from({ length: part.length }, (_, index) => index);
  const tail = positions.find((start) => boundary(start) && someBeginsWith(texts.sorted, part.slice(start)));
  if (tail !== undefined) covered.push([tail, part.length]);
  const reversed = [...part].reverse().join("");
  const head = positions.map((index) => part.length - index).find((end) => boundary(end) && someBeginsWith(texts.reversedSorted, reversed.slice(part.length - end)));
  if (head !== undefined) covered.push([0, head]);
  return covered;
}

/** The words of `message` that no fixed text of the code covers whole, in place. */
function wordsNotPrinted(message: string, texts: CodeTexts): string[] {
  return maskedParts(message).flatMap((part) => wordsNotCovered(part, coveredSpans(part, texts)));
}

function wordsNotCovered(masked: string, covered: ReadonlyArray<[number, number]>): string[] {
  const inside = (start: number, end: number) => covered.some(([from, to]) => from <= start && end <= to);
  return [...masked.matchAll(/[A-Za-z]{2,}/g)]
    .filter((word) => {
      const start = word.index;
      const end = start + word[0].length;
      // A plural whose `s` a template adds, `after ${count} attempt${count === 1 ? "" : "s"}`: a
      // text that ends with the word's stem and begins before it.
      const plural = word[0].endsWith("s") && covered.some(([from, to]) => from < start && to === end - 1);
      return !inside(start, end) && !plural;
    })
    .map((word) => word[0]);
}

describe("messages the READMEs quote", () => {
  const textsOf = new Map(Object.entries(PRINTED_BY).map(([, folders]) => [folders.join(), indexed(codeTexts(folders))]));
  textsOf.set(SOURCES.join(), indexed(codeTexts(SOURCES)));
  const found = DOCUMENTS.map(quotesOf);
  const quotes = found.flatMap(({ quotes }) => quotes);

  it("reads the quotes and the code it checks them against", () => {
    expect(textsOf.get(SOURCES.join())!.all.length).toBeGreaterThan(1000);
    expect(quotes.filter(({ where }) => where.startsWith("README.md")).length).toBeGreaterThan(10);
    // The command's own messages are among them, held to the package's code.
    expect(quotes.filter(({ message }) => message.startsWith("pulumi-insights import: ")).length).toBeGreaterThan(3);
  });

  it("says which program prints each row of a table of what users see", () => {
    expect(found.flatMap(({ unknownSources }) => unknownSources)).toEqual([]);
  });

  it("quotes only messages the code prints", () => {
    const missing = quotes.flatMap(({ where, message, sources }) => {
      const words = wordsNotPrinted(message, textsOf.get(sources.join())!);
      return words.length === 0
        ? []
        : [
            `${where}: \`${message}\`: no text of ${sources.join("/, ")}/ writes ${words.map((word) => JSON.stringify(word)).join(", ")} there. ` +
              "Quote the message as the code prints it (`...` for what varies, values in double quotes), or change the code to match; " +
              "a message another program prints belongs in a table of what users see with its `printed by`; a code span that is no message needs no colon followed by words",
          ];
    });
    expect(missing).toEqual([]);
  });
});
