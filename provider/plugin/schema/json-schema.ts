import { InsightsError } from "../../client/core/errors";

/**
 * JSON Schema (as zod 4's `z.toJSONSchema` writes it from the package's zod schemas) to the types of
 * a Pulumi package schema (docs/provider-plugins.md rule 12). Pure: it reads plain objects and
 * collects the named types it meets. The forms a Pulumi schema lacks are mapped as follows:
 *
 * - an object nested in a property becomes a named object type, referenced: its name is the one the
 *   declaration gave it (`x-pulumi-type`, see ./declaration.ts), else its owner's name and the
 *   property's (`RuleGroup` + `op` -> `RuleGroupOp`);
 * - a union of objects (a rule node: a group or a leaf) becomes one object type with every member's
 *   properties, required where every member requires it: generated SDKs type unions of objects
 *   poorly (Go has no union), and the provider's Check refuses what no member allows;
 * - a union of primitives, or of primitives and lists of them (one filter value or several), stays a
 *   union (`oneOf`); a union in a union is flattened; `null` in a union is dropped (absent means none);
 * - a string enum becomes a named enum type; a string `const`, a string;
 * - a member that may never be given (`z.never()`: the other formats of a time range) is left out;
 * - a map (`additionalProperties` without `properties`) stays a map; an object that also keeps
 *   unknown members (`looseObject`) is an object type of its known properties;
 * - a schema zod cannot represent (`{}`, a transform) becomes `pulumi.json#/Any`;
 * - bounds, patterns and formats are dropped (the provider's Check enforces them);
 * - `description`, `default` (of primitives) and zod metadata `secret: true` are kept; a named
 *   type's own description is `x-pulumi-description`, a use's description stays on the property.
 */

/** A JSON Schema node as `z.toJSONSchema` writes it. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  description?: string;
  default?: unknown;
  secret?: boolean;
  /** The name the declaration gives this schema's Pulumi type. */
  "x-pulumi-type"?: string;
  /** The description of that type (a use's own description stays on the property). */
  "x-pulumi-description"?: string;
  [key: string]: unknown;
}

/** A property spec of a Pulumi package schema. */
export interface PropertySpec {
  type?: "boolean" | "integer" | "number" | "string" | "array" | "object";
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  $ref?: string;
  oneOf?: PropertySpec[];
  description?: string;
  default?: boolean | number | string;
  defaultInfo?: { environment: string[] };
  secret?: boolean;
  replaceOnChanges?: boolean;
  willReplaceOnChanges?: boolean;
}

/** An object type of a Pulumi package schema. */
export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

/** An enum type of a Pulumi package schema. */
export interface EnumTypeSpec {
  type: "string";
  description?: string;
  enum: Array<{ value: string }>;
}

/** The `$ref` of Pulumi's type of any value. */
const ANY_TYPE = "pulumi.json#/Any";

const PRIMITIVES = new Set(["boolean", "integer", "number", "string"]);

/** The members of an object that may be given: a member that never may (`z.never()`, JSON Schema `{ not: {} }`) is left out. */
function givenMembers(properties: Record<string, JsonSchema>): Array<[string, JsonSchema]> {
  return Object.entries(properties).filter(([, schema]) => !(typeof schema.not === "object" && schema.not !== null && Object.keys(schema.not).length === 0));
}

/** A plain boolean, integer, number or string (no enum). */
function isPrimitive(node: JsonSchema): boolean {
  return typeof node.type === "string" && PRIMITIVES.has(node.type) && node.enum === undefined;
}

/** `RuleGroup` + `op` -> `RuleGroupOp`; `filters` -> `Filters`. */
function pascalCase(name: string): string {
  return name.replace(/(^|[^a-zA-Z0-9]+)([a-zA-Z0-9])/g, (_match, _separator: string, letter: string) => letter.toUpperCase());
}

/** The members of a union, `null` left out and a member that is itself a union spread into its members. */
function unionMembers(node: JsonSchema): JsonSchema[] | undefined {
  const members = node.anyOf ?? node.oneOf;
  if (members !== undefined) return members.flatMap((member) => (member.anyOf ?? member.oneOf) === undefined ? [member] : unionMembers(member)!).filter((member) => member.type !== "null");
  if (Array.isArray(node.type)) return node.type.filter((type) => type !== "null").map((type) => ({ type }));
  return undefined;
}

/**
 * Collects the named types of a package while its resources, functions and config are converted.
 * `token` makes a type's token from its name (`insights:index:RuleGroup`).
 */
export class PulumiTypeWriter {
  /** The named types met so far, by token. */
  readonly types: Record<string, ObjectTypeSpec | EnumTypeSpec> = {};
  /** The JSON node each type was made from, to tell a second use of a name from a clash. */
  private readonly origins = new Map<string, string>();

  /**
   * @param token Makes a type's token from its name.
   * @param enumName The name of an enum of these values, when the declaration gives one: the same
   *   closed list met in several places (a status) is one type.
   */
  constructor(
    private readonly token: (name: string) => string,
    private readonly enumName: (values: readonly string[]) => string | undefined = () => undefined,
  ) {}

  /**
   * The properties and required list of an object schema (a resource's inputs or outputs, a
   * function's arguments or result, the config), nested types named after `owner`.
   */
  objectOf(root: JsonSchema, owner: string): { description?: string; properties: Record<string, PropertySpec>; required: string[] } {
    const node = this.resolve(root, root);
    if (node.type !== "object" || node.properties === undefined) throw new InsightsError(`${owner}: an object schema with properties is expected`);
    // A named type used as a whole (a function answering one record) names its nested types as it does elsewhere.
    const base = node["x-pulumi-type"] ?? owner;
    const properties = Object.fromEntries(
      givenMembers(node.properties).map(([name, property]) => [name, this.propertyOf(property, root, `${base}${pascalCase(name)}`)]),
    );
    const required = (node.required ?? []).filter((name) => name in properties);
    return { ...(node.description === undefined ? {} : { description: node.description }), properties, required };
  }

  /** A `$ref` of the root's `$defs`, followed until a node that is not a reference. */
  private resolve(node: JsonSchema, root: JsonSchema): JsonSchema {
    let current = node;
    for (let hops = 0; current.$ref !== undefined; hops++) {
      const match = /^#\/\$defs\/(.+)$/.exec(current.$ref);
      const target = match === null ? undefined : root.$defs?.[match[1]!];
      if (target === undefined || hops > 32) throw new InsightsError(`unresolvable reference ${current.$ref}`);
      // A reference may carry its own description (a described use of a named schema).
      const { $ref: _ref, ...annotations } = current;
      current = {
        ...target,
        ...annotations,
        "x-pulumi-type": current["x-pulumi-type"] ?? target["x-pulumi-type"],
        "x-pulumi-description": current["x-pulumi-description"] ?? target["x-pulumi-description"],
      };
    }
    return current;
  }

  /** The property spec of `node`; `name` is the type name an unnamed nested object or enum gets. */
  private propertyOf(raw: JsonSchema, root: JsonSchema, name: string): PropertySpec {
    const node = this.resolve(raw, root);
    const annotations: PropertySpec = {
      ...(typeof node.description === "string" ? { description: node.description } : {}),
      ...(node.secret === true ? { secret: true } : {}),
      ...(["boolean", "number", "string"].includes(typeof node.default) ? { default: node.default as boolean | number | string } : {}),
    };
    return { ...this.typeOf(node, root, name), ...annotations };
  }

  /** The type part of a property spec. */
  private typeOf(node: JsonSchema, root: JsonSchema, name: string): PropertySpec {
    const typeName = node["x-pulumi-type"] ?? name;
    const typeDescription = node["x-pulumi-description"];
    const members = unionMembers(node);
    if (members !== undefined && members.length !== 1) {
      const resolved = members.map((member) => this.resolve(member, root));
      if (resolved.every((member) => member.type === "object" && member.properties !== undefined)) return this.named(typeName, resolved, root, typeDescription);
      // A value or a list of values (a filter's one value or several) is a union as well.
      if (resolved.every((member) => isPrimitive(member) || (member.type === "array" && member.items !== undefined && isPrimitive(this.resolve(member.items, root))))) {
        return { oneOf: resolved.map((member) => this.typeOf(member, root, name)) };
      }
      throw new InsightsError(`${name}: a union of ${resolved.map((member) => JSON.stringify(member.type)).join(", ")} has no Pulumi form`);
    }
    if (members !== undefined) {
      const { anyOf: _anyOf, oneOf: _oneOf, type: _type, ...rest } = node;
      return this.typeOf({ ...rest, ...this.resolve(members[0]!, root) }, root, name);
    }
    if (node.enum !== undefined) {
      if (!node.enum.every((value) => typeof value === "string")) throw new InsightsError(`${name}: only string enums have a Pulumi form here`);
      return this.enumType(typeName, node.enum as string[], typeDescription);
    }
    switch (node.type) {
      case "boolean":
      case "integer":
      case "number":
      case "string":
        return { type: node.type };
      case "array":
        if (node.items === undefined) throw new InsightsError(`${name}: an array without items`);
        return { type: "array", items: this.typeOf(this.resolve(node.items, root), root, name) };
      case "object":
        if (node.properties !== undefined) return this.named(typeName, [node], root, typeDescription);
        if (typeof node.additionalProperties === "object" && Object.keys(node.additionalProperties).length > 0) {
          return { type: "object", additionalProperties: this.typeOf(this.resolve(node.additionalProperties, root), root, name) };
        }
        return { $ref: ANY_TYPE };
      case undefined:
        return { $ref: ANY_TYPE };
      default:
        throw new InsightsError(`${name}: a JSON Schema type ${JSON.stringify(node.type)} has no Pulumi form`);
    }
  }

  /** An enum type named `name`. */
  private enumType(name: string, values: string[], description: string | undefined): PropertySpec {
    const token = this.token(this.enumName(values) ?? name);
    const spec: EnumTypeSpec = { type: "string", ...(description === undefined ? {} : { description }), enum: values.map((value) => ({ value })) };
    this.register(token, spec);
    return { $ref: `#/types/${token}` };
  }

  /** An object type named `name` with the properties of every variant (one for a plain object). */
  private named(name: string, variants: JsonSchema[], root: JsonSchema, description: string | undefined): PropertySpec {
    const token = this.token(name);
    const reference = { $ref: `#/types/${token}` };
    // A recursive type refers to itself while it is being written: the reference is enough.
    if (this.origins.get(token) === "pending") return reference;
    this.origins.set(token, "pending");
    const properties: Record<string, PropertySpec> = {};
    const enumValues: Record<string, string[]> = {};
    for (const variant of variants) {
      for (const [property, schema] of givenMembers(variant.properties ?? {})) {
        const resolved = this.resolve(schema, root);
        // Enums of the same property in several variants (a group's `op`, a leaf's `op`) merge.
        if (resolved.enum !== undefined && resolved["x-pulumi-type"] === undefined) {
          enumValues[property] = [...new Set([...(enumValues[property] ?? []), ...(resolved.enum as string[])])];
          if (properties[property] === undefined) properties[property] = {};
          const { description: propertyDescription } = resolved;
          if (propertyDescription !== undefined) properties[property].description ??= propertyDescription;
          continue;
        }
        properties[property] ??= this.propertyOf(schema, root, `${name}${pascalCase(property)}`);
      }
    }
    for (const [property, values] of Object.entries(enumValues)) {
      properties[property] = { ...this.enumType(`${name}${pascalCase(property)}`, values, undefined), ...properties[property] };
    }
    const required = Object.keys(properties).filter((property) => variants.every((variant) => variant.required?.includes(property)));
    const fingerprint = JSON.stringify({ properties, required });
    const spec: ObjectTypeSpec = {
      type: "object",
      ...(description === undefined ? {} : { description }),
      properties,
      ...(required.length === 0 ? {} : { required }),
    };
    this.origins.set(token, fingerprint);
    this.register(token, spec);
    return reference;
  }

  /** Adds a type; the same name twice must mean the same type. */
  private register(token: string, spec: ObjectTypeSpec | EnumTypeSpec): void {
    const existing = this.types[token];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(spec)) {
      throw new InsightsError(`two different types are named ${token}: name one of them in the declaration (provider/plugin/schema/declaration.ts)`);
    }
    this.types[token] = spec;
  }
}
