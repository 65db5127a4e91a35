import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * The layering checker (test/README.md "Layering tables"): it reads the table of a folder's README
 * that has a "may import" column, finds every import of every source file of the folder, and
 * answers the imports that break the table and the cycles of value imports. Imports are found by
 * TypeScript's own parser, so `import type`, `export ... from`, `import()` and `require()` are all
 * seen, and a string that merely looks like an import is not.
 */

/** The repository's root. */
const REPOSITORY = path.resolve(__dirname, "..", "..");

/** The source files the checker reads; `.d.ts` declarations and JSON are not sources. */
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;
/** Where a relative specifier may point, tried in this order (TypeScript's node10 resolution of our files). */
const CANDIDATES = ["", ".ts", ".d.ts", "/index.ts", ".js", ".cjs"];
/** The words of a "may import" cell that are not a reference. */
const NOTHING = "nothing of ours";
const ABOVE = "all of the above";
const ANYTHING = "anything";
/** The first cell of the row for the files directly in the folder that no other row names. */
const TOP_LEVEL = "top level";

/** One import of one file. */
interface Import {
  /** The importing file, relative to the repository. */
  from: string;
  /** The specifier as written. */
  specifier: string;
  /** The file it resolves to, relative to the repository; undefined for a package. */
  target: string | undefined;
  /** A type-only import (`import type`, `export type ... from`, every name `type`, `import("x").T`). */
  typeOnly: boolean;
}

/** One row of a layering table. */
export interface Row {
  /** The row's first cell, as written. */
  label: string;
  /** The folders (ending in `/`) and files the row is about, relative to the repository; `top level` is the folder itself. */
  units: string[];
  /** The row's "may import" cell, as written. */
  mayImport: string;
  /** The folders and files it names, relative to the repository. */
  allowed: string[];
  /** "all of the above": every unit of the rows above. */
  above: boolean;
  /** "anything". */
  anything: boolean;
  /** Files directly in the folder that no other row names (`top level`). */
  topLevel: boolean;
}

/** A folder's layering table. */
export interface Table {
  folder: string;
  rows: Row[];
}

/** What breaks a table. */
export interface Report {
  /** The table is not in the form of test/README.md "Layering tables". */
  form: string[];
  /** Imports the table does not allow, one line each: file, import, row. */
  breaks: string[];
  /** Cycles of value imports (of any import, with `typeCycles`), each as `a.ts -> b.ts -> a.ts`. */
  cycles: string[];
}

const relativeTo = (root: string, file: string) => path.relative(root, file).split(path.sep).join("/");
const isDirectory = (file: string) => existsSync(file) && statSync(file).isDirectory();
const isFile = (file: string) => existsSync(file) && statSync(file).isFile();

/** The source files under `folder` (relative to `root`), without node_modules or dist. */
function sourceFiles(folder: string, root = REPOSITORY): string[] {
  const found: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const file = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "dist") walk(file);
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) found.push(relativeTo(root, file));
    }
  };
  walk(path.join(root, folder));
  return found.sort();
}

/** The package's own names as the type checker resolves them (tsconfig.json `paths`): `pulumi-insights/client` and the like. */
function selfReferences(root: string): Map<string, string> {
  const { config } = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
  const paths = (config?.compilerOptions?.paths ?? {}) as Record<string, string[]>;
  return new Map(Object.entries(paths).map(([name, [target]]) => [name, relativeTo(root, path.join(root, target!))]));
}

/** The file `specifier` names from `from`, or undefined for a package of node_modules (or a file that is not there). */
function resolve(root: string, packageNames: ReadonlyMap<string, string>, from: string, specifier: string): string | undefined {
  const named = packageNames.get(specifier);
  if (named !== undefined) return named;
  if (!specifier.startsWith(".")) return undefined;
  const base = path.join(root, path.dirname(from), specifier);
  for (const ending of CANDIDATES) if (isFile(base + ending)) return relativeTo(root, base + ending);
  if (base.endsWith(".js") && isFile(base.replace(/\.js$/, ".ts"))) return relativeTo(root, base.replace(/\.js$/, ".ts"));
  return undefined;
}

/** Every import of a file (relative to `root`), value and type, in the order written. */
function importsOf(file: string, root = REPOSITORY, packageNames: ReadonlyMap<string, string> = selfReferences(root)): Import[] {
  const text = readFileSync(path.join(root, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) =>
    found.push({ from: file, specifier, target: resolve(root, packageNames, file, specifier), typeOnly });
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const everyNameType = !!clause && !clause.name && !!bindings && ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
      add(node.moduleSpecifier.text, !!clause && (clause.isTypeOnly || everyNameType));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const everyNameType = !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
      add(node.moduleSpecifier.text, node.isTypeOnly || everyNameType);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      add(node.moduleReference.expression.text, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0]!) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === "require"))) {
      add((node.arguments[0] as ts.StringLiteralLike).text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The cells of a Markdown table line; a `|` inside a code span does not split. */
function cells(line: string): string[] {
  const found: string[] = [];
  let current = "";
  let code = false;
  for (const character of line.trim().replace(/^\||\|$/g, "")) {
    if (character === "`") code = !code;
    if (character === "|" && !code) {
      found.push(current.trim());
      current = "";
    } else current += character;
  }
  found.push(current.trim());
  return found;
}

/** The items of a cell: split at commas and at "and" outside code spans and parentheses. */
function items(cell: string): string[] {
  const found: string[] = [];
  let current = "";
  let depth = 0;
  let code = false;
  const push = () => {
    if (current.trim()) found.push(current.trim());
    current = "";
  };
  for (let index = 0; index < cell.length; index++) {
    const character = cell[index]!;
    if (character === "`") code = !code;
    else if (!code && character === "(") depth++;
    else if (!code && character === ")") depth--;
    if (!code && depth === 0 && character === ",") {
      push();
      continue;
    }
    if (!code && depth === 0 && cell.startsWith(" and ", index)) {
      push();
      index += " and".length;
      continue;
    }
    current += character;
  }
  push();
  return found;
}

const codeSpans = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

/**
 * The layering table of `folder`'s README (test/README.md "Layering tables"): the first table with
 * a "may import" column. `form` collects what is not in the table's form.
 */
export function readTable(folder: string, form: string[] = [], root = REPOSITORY): Table {
  const readme = `${folder}/README.md`;
  const lines = readFileSync(path.join(root, readme), "utf8").split("\n");
  const header = lines.findIndex((line) => line.trimStart().startsWith("|") && cells(line).some((cell) => cell.toLowerCase() === "may import"));
  if (header < 0) {
    form.push(`${readme}: no table with a "may import" column`);
    return { folder, rows: [] };
  }
  const column = cells(lines[header]!).findIndex((cell) => cell.toLowerCase() === "may import");
  const rows: Row[] = [];
  const exists = (reference: string) => {
    const full = path.join(root, folder, reference);
    return isDirectory(full) || (!reference.endsWith("/") && CANDIDATES.some((ending) => isFile(full + ending)));
  };
  // A folder is named with or without its trailing slash (`../provider`, `world/`); anything else is a file.
  const named = (reference: string) => {
    const full = path.join(root, folder, reference);
    return isDirectory(full) ? `${relativeTo(root, full)}/` : relativeTo(root, full);
  };
  for (const line of lines.slice(header + 2)) {
    if (!line.trimStart().startsWith("|")) break;
    const row = cells(line);
    const label = row[0] ?? "";
    const mayImport = row[column] ?? "";
    const where = `${readme}, row "${label}"`;
    const topLevel = label.toLowerCase() === TOP_LEVEL;
    const units = topLevel ? [`${folder}/`] : codeSpans(label).map(named);
    if (!topLevel && (units.length === 0 || items(label).some((item) => !/^`[^`]+`$/.test(item)))) {
      form.push(`${where}: the first cell lists folders (\`name/\`) and files (\`name.ts\`) in code spans, or says "${TOP_LEVEL}"`);
    }
    for (const unit of topLevel ? [] : codeSpans(label)) if (!exists(unit)) form.push(`${where}: \`${unit}\` is no folder or file of ${folder}/`);
    const allowed: string[] = [];
    let above = false;
    let anything = false;
    for (const item of items(mayImport)) {
      const phrase = item.toLowerCase();
      if (phrase === NOTHING) continue;
      if (phrase === ABOVE) above = true;
      else if (phrase === ANYTHING) anything = true;
      else {
        const references = codeSpans(item);
        if (references.length !== 1) {
          form.push(`${where}: "${item}" names no folder or file in a code span (or several); say "${NOTHING}", "${ABOVE}" or "${ANYTHING}" otherwise`);
          continue;
        }
        if (!exists(references[0]!)) form.push(`${where}: \`${references[0]}\` is no folder or file`);
        allowed.push(named(references[0]!));
      }
    }
    rows.push({ label, units, mayImport, allowed, above, anything, topLevel });
  }
  if (rows.length === 0) form.push(`${readme}: the "may import" table has no rows`);
  return { folder, rows };
}

/** Whether `file` is `reference` (a file, extension optional) or under it (a folder). */
function names(reference: string, file: string): boolean {
  if (reference.endsWith("/")) return file.startsWith(reference);
  return file === reference || CANDIDATES.some((ending) => ending && file === reference + ending);
}

/** The row a file belongs to: the one naming it most closely; `top level` only for files directly in the folder. */
function rowOf(table: Table, file: string): { row: Row; unit: string } | undefined {
  let best: { row: Row; unit: string } | undefined;
  for (const row of table.rows) {
    for (const unit of row.units) {
      const matches = row.topLevel ? path.posix.dirname(file) === table.folder : names(unit, file);
      if (matches && (!best || (!row.topLevel && (best.row.topLevel || unit.length > best.unit.length)))) best = { row, unit };
    }
  }
  return best;
}

/** Whether the table lets `file` import `target`. */
function allows(table: Table, file: string, target: string): boolean {
  const own = rowOf(table, file);
  if (!own) return false;
  const theirs = target.startsWith(`${table.folder}/`) ? rowOf(table, target) : undefined;
  if (theirs && theirs.unit === own.unit) return true;
  if (own.row.anything) return true;
  if (own.row.allowed.some((reference) => names(reference, target))) return true;
  if (own.row.above && theirs && table.rows.indexOf(theirs.row) < table.rows.indexOf(own.row)) return true;
  return false;
}

/**
 * The cycles of imports among `files` (value imports only, or type imports too when `types`), one
 * per strongly connected set, each as a closed path.
 */
function importCycles(imports: readonly Import[], types = false): string[] {
  const edges = new Map<string, Set<string>>();
  for (const { from, target, typeOnly } of imports) {
    if ((typeOnly && !types) || target === undefined) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(target);
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || edges.get(node)?.has(node)) components.push(component);
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) connect(node);
  // One closed path through each component: the shortest way back to its first file.
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0]!;
    const previous = new Map<string, string>();
    const queue = [start];
    for (let at = 0; at < queue.length; at++) {
      for (const next of [...(edges.get(queue[at]!) ?? [])].sort()) {
        if (!members.has(next)) continue;
        if (next === start) {
          const cycle = [start];
          for (let node: string | undefined = queue[at]; node !== undefined && node !== start; node = previous.get(node)) cycle.splice(1, 0, node);
          return [...cycle, start].join(" -> ");
        }
        if (!previous.has(next)) {
          previous.set(next, queue[at]!);
          queue.push(next);
        }
      }
    }
    return component.join(" -> ");
  });
}

/**
 * Checks one folder (relative to `root`) against its README's table, and its imports for cycles:
 * value imports, or every import, type-only ones too, when `typeCycles`.
 */
export function checkLayering(folder: string, root = REPOSITORY, { typeCycles = false }: { typeCycles?: boolean } = {}): Report {
  const form: string[] = [];
  const table = readTable(folder, form, root);
  const files = sourceFiles(folder, root);
  const packageNames = selfReferences(root);
  const imports = files.flatMap((file) => importsOf(file, root, packageNames));
  const breaks: string[] = [];
  for (const file of files) if (!rowOf(table, file)) breaks.push(`${file}: in no row of ${folder}/README.md`);
  for (const { from, specifier, target, typeOnly } of imports) {
    const written = `${typeOnly ? "import type" : "import"} "${specifier}"`;
    if (target === undefined) {
      if (specifier.startsWith(".")) breaks.push(`${from}: ${written} resolves to no file`);
      continue;
    }
    if (allows(table, from, target)) continue;
    const own = rowOf(table, from);
    if (!own) continue;
    breaks.push(`${from}: ${written} (${target}) breaks the row "${own.row.label}" of ${folder}/README.md, which may import: ${own.row.mayImport}`);
  }
  const inside = imports.filter(({ target }) => target?.startsWith(`${folder}/`));
  return { form, breaks, cycles: importCycles(inside, typeCycles) };
}
