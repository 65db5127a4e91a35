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
 *   (a transform is a function);
 * - a TypeScript-only spelling of a node ({@link typeScriptType}): a type parameter of a generic
 *   interface or a hand-written alias, which the plain interfaces use and a schema for other
 *   languages ignores.
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

/** @internal The shapes of transforming schemas: what they take (`input`) and give (`output`). */
export const SHAPES = new WeakMap<z.core.$ZodType, { input?: z.core.$ZodType; output?: z.core.$ZodType }>();

/**
 * @internal
 * Declares the shape that a transforming schema takes (`input`) or gives (`output`), for readers of
 * the schema: zod sees a transform as a function. test/records.test.ts checks the interfaces written
 * from the declared shapes against zod's own types of the schemas.
 */
export function declareShape<Schema extends z.core.$ZodType>(schema: Schema, shape: { input?: z.core.$ZodType; output?: z.core.$ZodType }): Schema {
  SHAPES.set(schema, shape);
  return schema;
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
