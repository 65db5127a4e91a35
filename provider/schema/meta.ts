import { z } from "zod";

/**
 * What the zod schemas of this package say about themselves, for the programs that read them
 * instead of parsing with them: scripts/generate-types.ts writes the public interfaces
 * (schema/records.ts, client/params.ts) from them, and the provider plugin's package schema is
 * written from the same schemas. Three kinds of facts, each in one place:
 *
 * - zod's own metadata (`.meta({ description })` or `.describe()`, held in `z.globalRegistry`),
 *   with one key of ours, `secret` ({@link SchemaMeta});
 * - the shape a transforming schema takes or gives ({@link declareShape}), where zod cannot know it
 *   (a transform is a function), and its portable form, where a program in another language gives
 *   and gets something else than TypeScript's type says;
 * - a TypeScript-only spelling of a node ({@link typeScriptType}): a type parameter of a generic
 *   interface or a hand-written alias, which the plain interfaces use and a schema for other
 *   languages ignores.
 *
 * Both generators read the schemas through it: scripts/generate-types.ts (the public TypeScript
 * interfaces) walks their structure with {@link lineage} and the shapes, and the provider plugin's
 * package schema (provider/plugin/schema/generate.ts) reads them as JSON Schema through
 * {@link jsonSchemaOf}, the one walker from zod to JSON Schema.
 *
 * This module imports nothing of ours, so every schema module (assumptions.ts too)
 * can use it.
 */

/**
 * The metadata a schema of this package may carry in zod's global registry, set with
 * `.describe(text)` or `.meta({ description, secret: true })`: zod's `description`, and `secret` on
 * a value that is personal data (viewer ids, IP addresses, e-mail addresses) or a credential, which
 * a Pulumi schema marks secret and the provider keeps only as a secret.
 */
export interface SchemaMeta {
  /** What the value is, one or more sentences; the TSDoc of the generated member. */
  description?: string;
  /** Personal data or a credential: held only as a secret, never printed. */
  secret?: true;
}

/** Every key {@link SchemaMeta} knows: a generator refuses others, so a misspelt key cannot pass unseen. */
export const SCHEMA_META_KEYS: readonly (keyof SchemaMeta)[] = ["description", "secret"];

/**
 * The shapes declared of a schema: what it takes (`input`) and gives (`output`), and its portable
 * form (`portable`): what a program in another language gives and gets for it, in both directions
 * (an id is text there, a point in time text or a number).
 */
export interface DeclaredShape {
  input?: z.core.$ZodType;
  output?: z.core.$ZodType;
  portable?: z.core.$ZodType;
}

/** @internal The shapes of schemas ({@link DeclaredShape}), the one registry both generators read. */
export const SHAPES = new WeakMap<z.core.$ZodType, DeclaredShape>();

/**
 * @internal
 * Declares the shape that a transforming schema takes (`input`) or gives (`output`), or its portable
 * form, for readers of the schema: zod sees a transform as a function. test/records.test.ts checks
 * the interfaces written from the declared shapes against zod's own types of the schemas.
 */
export function declareShape<Schema extends z.core.$ZodType>(schema: Schema, shape: DeclaredShape): Schema {
  SHAPES.set(schema, shape);
  return schema;
}

/** @internal `schema` and the schemas it was cloned from by `.describe()` or `.meta()`, nearest first. */
export function lineage(schema: z.core.$ZodType): z.core.$ZodType[] {
  const nodes: z.core.$ZodType[] = [];
  for (let current: z.core.$ZodType | undefined = schema; current !== undefined; current = current._zod.parent) nodes.push(current);
  return nodes;
}

/** Which side of a schema is read: what a caller gives (`input`) or what a parse answers (`output`). */
export type Direction = "input" | "output";

/** How {@link jsonSchemaOf} reads. */
export interface JsonSchemaOptions {
  /** Read the portable forms (for other languages) before the shapes of the direction. */
  portable?: boolean;
  /** Adds what a reader needs beside JSON Schema to each node (a type's name), given the schema it was written from. */
  annotate?: (schema: z.core.$ZodType, node: Record<string, unknown>) => void;
}

/** The shape declared for `schema` in `io` (the portable one first, when asked), found on it or on a schema it was cloned from. */
function declaredShape(schema: z.core.$ZodType, io: Direction, portable: boolean): z.core.$ZodType | undefined {
  const shapes = lineage(schema).map((ancestor) => SHAPES.get(ancestor));
  return (portable ? shapes.map((shape) => shape?.portable).find((shape) => shape !== undefined) : undefined) ?? shapes.map((shape) => shape?.[io]).find((shape) => shape !== undefined);
}

/**
 * @internal
 * `schema` as JSON Schema (draft 2020-12) in one direction, as `z.toJSONSchema` writes it, with the
 * declared shapes ({@link declareShape}) in place of what zod cannot write; recursive types go to
 * `$defs`, a recursive shape's too. Each property keeps its `description` and `secret`, a use's own
 * over its shape's.
 */
export function jsonSchemaOf(schema: z.core.$ZodType, io: Direction, options: JsonSchemaOptions = {}): Record<string, unknown> {
  const shapes: Record<string, unknown> = {};
  const document = readJsonSchema(schema, io, options, shapes, "shape");
  if (Object.keys(shapes).length > 0) document.$defs = { ...(document.$defs as object | undefined), ...shapes };
  return document;
}

/**
 * {@link jsonSchemaOf} of one document: each declared shape is read as a document of its own, whose
 * references (`#`, `#/$defs/x`) are moved below `$defs/<id>` of the whole, collected in `shapes`.
 */
function readJsonSchema(schema: z.core.$ZodType, io: Direction, options: JsonSchemaOptions, shapes: Record<string, unknown>, prefix: string): Record<string, unknown> {
  let count = 0;
  return z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    cycles: "ref",
    override: ({ zodSchema, jsonSchema }) => {
      const node = jsonSchema as Record<string, unknown>;
      const shape = declaredShape(zodSchema, io, options.portable ?? false);
      if (shape !== undefined) {
        // The use's own description and secret stay (`Identifier.describe("The filter's id.")`).
        const { description, secret } = node;
        for (const key of Object.keys(node)) delete node[key];
        const id = `${prefix}-${count++}`;
        const { $schema: _dialect, $defs, ...declared } = readJsonSchema(shape, io, options, shapes, id);
        const moved = moveReferences(declared, id) as Record<string, unknown>;
        for (const [name, definition] of Object.entries(($defs ?? {}) as Record<string, unknown>)) shapes[`${id}-${name}`] = moveReferences(definition, id);
        shapes[id] = moved;
        Object.assign(node, moved, description === undefined ? {} : { description }, secret === undefined ? {} : { secret });
      }
      options.annotate?.(zodSchema, node);
    },
  }) as Record<string, unknown>;
}

/** `value` with the references of its own document (`#`, `#/$defs/x`) moved to `#/$defs/<id>` and `#/$defs/<id>-x`. */
function moveReferences(value: unknown, id: string): unknown {
  if (Array.isArray(value)) return value.map((item) => moveReferences(item, id));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (key !== "$ref" || typeof item !== "string") return [key, moveReferences(item, id)];
      if (item === "#") return [key, `#/$defs/${id}`];
      return [key, item.startsWith("#/$defs/") ? `#/$defs/${id}-${item.slice("#/$defs/".length)}` : item];
    }),
  );
}

/**
 * @internal
 * A schema whose check is `check`: a transform that reports its own issues (in words zod's own
 * checks cannot give) and answers what it read, taking what `shape` describes. `Input` and
 * `Output` are its types for the compiler; the generators read `shape`.
 */
export function checked<Input, Output>(shape: z.core.$ZodType, check: (value: unknown, context: z.RefinementCtx) => Output): z.ZodType<Output, Input> {
  return declareShape(z.unknown().transform(check), { input: shape }) as unknown as z.ZodType<Output, Input>;
}

/** @internal TypeScript-only spellings of schema nodes ({@link typeScriptType}). */
export const TYPESCRIPT_TYPES = new WeakMap<z.core.$ZodType, string>();

/**
 * @internal
 * `schema`, spelt `type` in the generated TypeScript interfaces: a type parameter (`Metric`), or an
 * alias written by hand because TypeScript says more than the schema can (`MetricFilters`, whose
 * keys are template-literal types). Other readers use the schema's structure.
 */
export function typeScriptType<Schema extends z.core.$ZodType>(schema: Schema, type: string): Schema {
  TYPESCRIPT_TYPES.set(schema, type);
  return schema;
}

/**
 * @internal
 * Members of one schema, each with its description: `{ key: schema.describe(description) }`, for
 * objects of many members of one type (a session's flags, its lifetime numbers).
 */
export function membersOf<Schema extends z.ZodType, Key extends string>(schema: Schema, descriptions: Record<Key, string>): Record<Key, Schema> {
  return Object.fromEntries(Object.entries<string>(descriptions).map(([key, description]) => [key, schema.describe(description)])) as Record<Key, Schema>;
}
