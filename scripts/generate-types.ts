import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { lineage, SCHEMA_META_KEYS, SHAPES, TYPESCRIPT_TYPES } from "../provider/schema/meta";
import { PUBLIC_MEMBERS, PUBLIC_TYPE_FILES, type PublicMembers, type PublicType, type PublicTypeFile } from "./public-types";

/**
 * Writes the public interfaces of the package from its zod schemas: provider/schema/records.ts
 * (what the client answers), provider/client/params.ts (what its methods take), what the resources
 * record (provider/schema/resource-records.ts) and take (provider/resources/args.ts, each value a
 * Pulumi `Input`), and the output members of the resource classes, plain TypeScript without zod, so
 * that the package's declarations never mention zod (provider/README.md).
 * `npm run types` writes them; test/generated-types.test.ts fails while a checked-in file differs
 * from what this writes, and test/records.test.ts checks each interface against zod's own type.
 *
 * What the schemas are read for (provider/schema/meta.ts), which the second generator, the Pulumi
 * package schema of the provider plugin, relies on as this one does (it reads them as JSON Schema
 * through meta.ts `jsonSchemaOf`, with the same shapes):
 * - the structure: zod 4's `_zod.def` (object shapes, optional members, arrays, unions, enums,
 *   records, `looseObject` for answers that keep unknown fields, `strictObject` for parameters);
 * - `description` of zod's global registry on every member and every named type: this script
 *   refuses a member without one, so each generated member has its TSDoc;
 * - `secret: true` on personal data and credentials (the only other key allowed there);
 * - `SHAPES`: what a transform gives (`output`, for answers) or takes (`input`, for parameters), and
 *   the portable form other languages use instead (read by the plugin's generator only);
 * - `TYPESCRIPT_TYPES`: a TypeScript-only spelling, which other languages ignore;
 * - scripts/public-types.ts: the name, the direction (input or output) and the file of each type;
 *   a schema met again below another one is written as a reference to its name.
 */

/** A zod schema as this generator reads it. */
type Node = z.core.$ZodType;

/** The members of `_zod.def` this generator reads, by zod type. */
interface Definition {
  type: string;
  innerType?: Node;
  shape?: Record<string, Node>;
  catchall?: Node;
  element?: Node;
  options?: Node[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  in?: Node;
  out?: Node;
  keyType?: Node;
  valueType?: Node;
  left?: Node;
  right?: Node;
}

function definitionOf(node: Node): Definition {
  return node._zod.def as unknown as Definition;
}

/** Where the types are written, by schema: the name a schema met below another is written as. */
interface Names {
  byNode: Map<Node, PublicType & { file: PublicTypeFile }>;
}

function namesOf(files: readonly PublicTypeFile[]): Names {
  const byNode = new Map<Node, PublicType & { file: PublicTypeFile }>();
  for (const file of files) {
    for (const type of file.types) if (!byNode.has(type.schema)) byNode.set(type.schema, { ...type, file });
  }
  return { byNode };
}

/**
 * What is being written: for error messages, the type and the path inside it. `args`: what a
 * program writes for a resource (its inputs), each value a Pulumi `Input` down to the named types.
 */
interface Place {
  mode: "input" | "output" | "args";
  names: Names;
  /** The name of the type being written: at its root, its own schema is written out, not named. */
  rootName: string;
  where: string;
  /** The named types written as references, for the imports of the file. */
  used: Set<PublicType & { file: PublicTypeFile }>;
}

function fail(place: Place, problem: string): never {
  throw new Error(`${place.where}: ${problem} (scripts/generate-types.ts)`);
}

/** The metadata of `node` in zod's global registry, its keys checked against provider/schema/meta.ts. */
function metaOf(node: Node, place: Place): { description?: string } | undefined {
  const meta = z.globalRegistry.get(node);
  if (meta === undefined) return undefined;
  const unknown = Object.keys(meta).filter((key) => !(SCHEMA_META_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) fail(place, `metadata key ${unknown.join(", ")} is not one of ${SCHEMA_META_KEYS.join(", ")} (provider/schema/meta.ts)`);
  return meta;
}

/** The wrappers a description may sit on, outermost first, down to the schema they wrap. */
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "nonoptional", "catch"]);

/** The description of a member: on the member's schema or on a wrapper of it. */
function descriptionOf(node: Node, place: Place): string | undefined {
  for (let current: Node | undefined = node; current !== undefined; ) {
    const description = metaOf(current, place)?.description;
    if (description !== undefined) return description;
    const definition = definitionOf(current);
    current = WRAPPERS.has(definition.type) ? definition.innerType : undefined;
  }
  return undefined;
}

/** The direction a mode reads schemas in: a resource's arguments are inputs. */
function direction(mode: Place["mode"]): "input" | "output" {
  return mode === "output" ? "output" : "input";
}

/** `Input<type>` for a resource's arguments (`args`), else `type`. */
function asInput(type: string, place: Place): string {
  return place.mode === "args" ? `Input<${type}>` : type;
}

/** The default a member takes when left out (`.default()` on it or a wrapper of it), if any. */
function defaultOf(node: Node): { value: unknown } | undefined {
  for (let current: Node | undefined = node; current !== undefined; ) {
    const definition = definitionOf(current) as Definition & { defaultValue?: unknown };
    if (definition.type === "default") return { value: definition.defaultValue };
    current = WRAPPERS.has(definition.type) ? definition.innerType : undefined;
  }
  return undefined;
}

/** Whether a member may be left out, as zod reads it in this direction (zod's own rule for JSON Schema). */
function isOptional(node: Node, mode: Place["mode"]): boolean {
  if (mode === "output") return node._zod.optout === "optional";
  const definition = definitionOf(node);
  if (definition.type === "pipe" && definition.in!._zod.traits.has("$ZodTransform")) return isOptional(definition.out!, mode);
  return node._zod.optin !== undefined;
}

/** A property name as TypeScript writes it. */
function propertyName(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

/**
 * `text` as a TSDoc comment at `indent`, wrapped at 100 columns. A `{@link ...}` and a citation
 * (`spec 4.8`, `docs/api.md 10.4`) stay on one line, as readers and test/docs-citations.test.ts read them.
 */
function docComment(text: string, indent: string): string {
  const joined = text
    .replace(/\*\//g, "*\\/")
    .replace(/\{@link [^}]*\}|\b(?:spec|api\.md`?) \d/g, (unbroken) => unbroken.replace(/ /g, "\u0000"));
  const words = joined.split(/\s+/).filter((word) => word !== "").map((word) => word.replace(/\u0000/g, " "));
  const width = 100 - indent.length - 3;
  const single = `${indent}/** ${words.join(" ")} */`;
  if (single.length <= 100) return single;
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return [`${indent}/**`, ...lines.map((text) => `${indent} * ${text}`), `${indent} */`].join("\n");
}

/** A type in a position where a union must be parenthesised (an array's element). */
function grouped(type: string): string {
  return /^[A-Za-z0-9_.$"<>, ]+$/.test(type) || /^\{[\s\S]*\}$/.test(type) || /^\([\s\S]*\)$/.test(type) ? type : `(${type})`;
}

/**
 * The type of `node` as TypeScript, at `indent`. `asRoot`: the node is the named type being
 * written, so its own name is not a reference.
 */
function typeOf(node: Node, place: Place, indent: string, asRoot = false): string {
  for (const ancestor of lineage(node)) {
    const named = place.names.byNode.get(ancestor);
    if (named !== undefined && !(asRoot && named.name === place.rootName)) {
      place.used.add(named);
      return named.name;
    }
    const spelt = TYPESCRIPT_TYPES.get(ancestor);
    if (spelt !== undefined) return spelt;
    const shape = SHAPES.get(ancestor)?.[direction(place.mode)];
    if (shape !== undefined) return typeOf(shape, place, indent);
  }
  const definition = definitionOf(node);
  const inner = (child: Node, where: string) => typeOf(child, { ...place, where: `${place.where}${where}` }, indent);
  switch (definition.type) {
    case "string":
      return "string";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "undefined":
      return "undefined";
    case "unknown":
      return "unknown";
    case "never":
      return "never";
    case "date":
      return "Date";
    case "enum":
      return Object.values(definition.entries!).map((value) => JSON.stringify(value)).join(" | ");
    case "literal":
      return definition.values!.map((value) => JSON.stringify(value)).join(" | ");
    case "array":
      return `${grouped(asInput(inner(definition.element!, "[]"), place))}[]`;
    case "readonly": {
      const type = inner(definition.innerType!, "");
      return type.endsWith("[]") ? `readonly ${type}` : `Readonly<${type}>`;
    }
    case "optional":
      return `${inner(definition.innerType!, "")} | undefined`;
    case "nullable":
      return `${inner(definition.innerType!, "")} | null`;
    case "default":
    case "prefault":
    case "nonoptional":
    case "catch":
      return inner(definition.innerType!, "");
    case "lazy":
      return typeOf((node as unknown as { _zod: { innerType: Node } })._zod.innerType, place, indent, asRoot);
    case "union":
      return definition.options!.map((option, index) => inner(option, `|${index}`)).join(" | ");
    case "intersection":
      return `${grouped(inner(definition.left!, "&0"))} & ${grouped(inner(definition.right!, "&1"))}`;
    case "record":
      return `Record<${inner(definition.keyType!, "{key}")}, ${asInput(inner(definition.valueType!, "{value}"), place)}>`;
    case "object":
      return objectType(definition, place, indent);
    case "pipe": {
      const fromTransform = definition.in!._zod.traits.has("$ZodTransform");
      if (direction(place.mode) === "input") return inner(fromTransform ? definition.out! : definition.in!, "");
      if (definition.out!._zod.traits.has("$ZodTransform")) fail(place, "a transform whose output shape is not declared (declareShape, provider/schema/meta.ts)");
      return inner(definition.out!, "");
    }
    default:
      return fail(place, `zod type "${definition.type}" is not read by this generator`);
  }
}

/**
 * An object type: its members, each with its description, and an index signature for unknown
 * fields. `bases`: the objects the written interface extends, whose members (the same schemas) and
 * index signature are not written again.
 */
function objectType(definition: Definition, place: Place, indent: string, bases: readonly Definition[] = []): string {
  const inside = `${indent}  `;
  const lines: string[] = [];
  const catchall = definition.catchall === undefined ? undefined : definitionOf(definition.catchall).type;
  const keys = Object.keys(definition.shape!);
  if (catchall === "never" && keys.length === 0) lines.push(`${inside}[key: string]: never;`);
  else if (catchall !== undefined && catchall !== "never" && !bases.some((base) => base.catchall === definition.catchall)) {
    lines.push(`${inside}[field: string]: ${typeOf(definition.catchall!, { ...place, where: `${place.where}.*` }, inside)};`);
  }
  for (const key of keys) {
    const member = definition.shape![key]!;
    if (bases.some((base) => base.shape?.[key] === member)) continue;
    const memberPlace = { ...place, where: `${place.where}.${key}` };
    const description = descriptionOf(member, memberPlace);
    if (description === undefined) fail(memberPlace, "a member without a description (.describe() or .meta({ description }))");
    const optional = isOptional(member, place.mode);
    // The `?` says the member may be missing; a wrapper that says the same is not written again.
    const definitionOfMember = definitionOf(member);
    const written = optional && definitionOfMember.type === "optional" ? definitionOfMember.innerType! : member;
    lines.push(docComment(withDefault(description, member, place.mode), inside));
    lines.push(`${inside}${propertyName(key)}${optional ? "?" : ""}: ${asInput(typeOf(written, memberPlace, inside), place)};`);
  }
  return lines.length === 0 ? "{}" : `{\n${lines.join("\n")}\n${indent}}`;
}

/** A member's description, with the default it takes when left out (`Default: true.`) where a caller writes it. */
function withDefault(description: string, member: Node, mode: Place["mode"]): string {
  const fallback = direction(mode) === "input" ? defaultOf(member) : undefined;
  return fallback === undefined ? description : `${description} Default: ${JSON.stringify(fallback.value)}.`;
}

/** The index of the brace that closes the one `text` opens with. */
function closingBrace(text: string): number {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    if (text[index] === "{") depth++;
    else if (text[index] === "}" && --depth === 0) return index;
  }
  return -1;
}

/** The object a schema is in this direction: through the transform that follows it in a parse, or a lazy. */
function objectDefinition(node: Node, mode: Place["mode"]): Definition | undefined {
  const definition = definitionOf(node);
  if (definition.type === "object") return definition;
  if (definition.type === "pipe") return objectDefinition(direction(mode) === "input" ? definition.in! : definition.out!, mode);
  if (definition.type === "lazy") return objectDefinition((node as unknown as { _zod: { innerType: Node } })._zod.innerType, mode);
  return undefined;
}

/** One named type: its description, then an interface (an object) or a type alias. */
function declaration(type: PublicType, names: Names, used: Place["used"]): string {
  const place: Place = { mode: type.mode, names, rootName: type.name, where: type.name, used };
  const description = type.description ?? metaOf(type.schema, place)?.description;
  if (description === undefined) fail(place, "a named type without a description (.describe() on its schema, or `description` in scripts/public-types.ts)");
  const parameters = type.typeParameters === undefined ? "" : `<${type.typeParameters}>`;
  if (type.extends !== undefined) {
    const bases = type.extends.map((extended) => {
      const base = [...names.byNode.values()].find((named) => named.name === extended.replace(/<.*$/, ""));
      const definition = base === undefined ? undefined : objectDefinition(base.schema, type.mode);
      if (base === undefined || definition === undefined) return fail(place, `extends ${extended}, which is not a named object type`);
      place.used.add(base);
      return definition;
    });
    const definition = objectDefinition(type.schema, type.mode) ?? fail(place, "extends other types but is not an object");
    const written = objectType(definition, place, "", bases);
    return `${docComment(description, "")}\nexport interface ${type.name}${parameters} extends ${type.extends.join(", ")} ${written}`;
  }
  const written = typeOf(type.schema, place, "", true);
  const isObject = written.startsWith("{") && closingBrace(written) === written.length - 1;
  const body = isObject ? `export interface ${type.name}${parameters} ${written}` : `export type ${type.name}${parameters} = ${written};`;
  return `${docComment(description, "")}\n${body}`;
}

/** The text of one generated file. */
export function generatedText(file: PublicTypeFile, files: readonly PublicTypeFile[] = PUBLIC_TYPE_FILES): string {
  const names = namesOf(files);
  const used: Place["used"] = new Set();
  const declarations = file.types.map((type) => declaration(type, names, used));
  const imports = new Map<string, Set<string>>();
  for (const named of used) {
    if (named.file === file) continue;
    const from = path.relative(path.dirname(file.path), named.file.path).replace(/\.ts$/, "").replace(/^(?!\.)/, "./");
    imports.set(from, (imports.get(from) ?? new Set()).add(named.name));
  }
  for (const [from, imported] of Object.entries(file.imports ?? {})) {
    for (const name of imported) imports.set(from, (imports.get(from) ?? new Set()).add(name));
  }
  const header = [
    ...[...imports].sort(([left], [right]) => left.localeCompare(right)).map(([from, imported]) => `import type { ${[...imported].sort().join(", ")} } from "${from}";`),
    "",
    "// Written by scripts/generate-types.ts from the zod schemas (`npm run types`): edit the schemas, not this file.",
    "",
    docComment(file.description, ""),
  ];
  return `${[header.join("\n").trimStart(), ...declarations].join("\n\n")}\n`;
}

/** The line before a resource class's written members, and the line after them. */
export const MEMBER_MARKERS = {
  start: "  // Written by scripts/generate-types.ts from the resource's declaration (`npm run types`): edit the declaration, not these lines.",
  end: "  // End of the written lines.",
} as const;

/**
 * The output members of a resource class (`declare readonly name: pulumi.Output<T>;`), each with its
 * description, as they stand between {@link MEMBER_MARKERS}: a member that may be missing is
 * `Output<T | undefined>`. Named types are written by their names (or the class file's `aliases`).
 */
export function generatedMembers(members: PublicMembers, files: readonly PublicTypeFile[] = PUBLIC_TYPE_FILES): string {
  const names = namesOf(files);
  for (const named of names.byNode.values()) {
    const alias = members.aliases?.[named.name];
    if (alias !== undefined) names.byNode.set(named.schema, { ...named, name: alias });
  }
  const place: Place = { mode: "output", names, rootName: members.name, where: members.name, used: new Set() };
  const definition = objectDefinition(members.schema, "output") ?? fail(place, "the outputs are not an object");
  const lines = Object.entries(definition.shape!).flatMap(([key, member]) => {
    const memberPlace = { ...place, where: `${place.where}.${key}` };
    const description = descriptionOf(member, memberPlace) ?? fail(memberPlace, "a member without a description (.describe() or .meta({ description }))");
    const type = typeOf(member, memberPlace, "  ");
    const written = isOptional(member, "output") && !type.endsWith("| undefined") ? `${type} | undefined` : type;
    return [docComment(description, "  "), `  declare readonly ${propertyName(key)}: pulumi.Output<${written}>;`];
  });
  return [MEMBER_MARKERS.start, ...lines, MEMBER_MARKERS.end].join("\n");
}

/** `text` with its written members replaced by `members` (the lines from one marker to the other). */
export function withMembers(text: string, members: string, where: string): string {
  const start = text.indexOf(MEMBER_MARKERS.start);
  const end = text.indexOf(MEMBER_MARKERS.end, start);
  if (start < 0 || end < 0) throw new Error(`${where}: no lines between the markers of scripts/generate-types.ts MEMBER_MARKERS`);
  return `${text.slice(0, start)}${members}${text.slice(end + MEMBER_MARKERS.end.length)}`;
}

/** The repository's root, from the source or from the build (dist/scripts). */
export const ROOT = path.resolve(__dirname, __dirname.includes(`${path.sep}dist${path.sep}`) ? "../.." : "..");

/** Each generated file that differs from its checked-in text (all of them when `write`, which writes them). */
export function generateTypes(write: boolean): string[] {
  const changed: string[] = [];
  const written = (file: string, text: (current: string) => string) => {
    const target = path.join(ROOT, file);
    let current = "";
    try {
      current = readFileSync(target, "utf8");
    } catch {
      // not written yet
    }
    const next = text(current);
    if (current === next) return;
    changed.push(file);
    if (write) writeFileSync(target, next);
  };
  for (const file of PUBLIC_TYPE_FILES) written(file.path, () => generatedText(file));
  for (const members of PUBLIC_MEMBERS) written(members.path, (current) => withMembers(current, generatedMembers(members), members.path));
  return changed;
}

if (require.main === module) {
  const changed = generateTypes(true);
  console.log(changed.length === 0 ? "the generated types are current" : `wrote ${changed.join(", ")}`);
}
