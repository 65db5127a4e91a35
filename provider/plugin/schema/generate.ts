import { z } from "zod";
import { InsightsError } from "../../client/core/errors";
import { jsonSchemaOf as readJsonSchema, lineage, type Direction } from "../../schema/meta";
import { functionToken, PACKAGE_NAME, typeToken } from "../tokens";
import { CONFIG, enumName, FUNCTIONS, RESOURCES, TYPE_NAMES, type TypeName } from "./declaration";
import { PulumiTypeWriter, type EnumTypeSpec, type JsonSchema, type ObjectTypeSpec, type PropertySpec } from "./json-schema";

/**
 * The package schema of the plugin (docs/provider-plugins.md rule 12), written from ./declaration.ts:
 * `npm run schema` writes it to provider/plugin/schema.json, which the plugin serves (GetSchema) and
 * test/plugin/schema.test.ts holds current and valid.
 */

/** A resource of the schema. */
export interface ResourceSpec {
  description: string;
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
  properties: Record<string, PropertySpec>;
  required: string[];
}

/** A function of the schema. */
export interface FunctionSpec {
  description: string;
  inputs: { properties: Record<string, PropertySpec>; required?: string[] };
  outputs: { properties: Record<string, PropertySpec>; required?: string[] };
}

/** The package schema; the plugin serves it with package.json's version (../package-schema.ts). */
export interface PackageSpec {
  name: string;
  displayName: string;
  description: string;
  keywords: string[];
  license: string;
  config: { variables: Record<string, PropertySpec> };
  provider: { description: string; inputProperties: Record<string, PropertySpec> };
  resources: Record<string, ResourceSpec>;
  functions: Record<string, FunctionSpec>;
  types: Record<string, ObjectTypeSpec | EnumTypeSpec>;
}

/**
 * The name a schema is declared under, found on it or on a schema it was cloned from (`.describe()`),
 * with the description the declaration gives the type, else the one of the schema so named.
 */
function declaredName(schema: z.core.$ZodType): TypeName | undefined {
  for (const ancestor of lineage(schema)) {
    const name = TYPE_NAMES.get(ancestor as unknown as z.ZodType);
    if (name === undefined) continue;
    const description = name.description ?? z.globalRegistry.get(ancestor)?.description;
    return { name: name.name, ...(description === undefined ? {} : { description }) };
  }
  return undefined;
}

/**
 * `schema` as JSON Schema in one direction (provider/schema/meta.ts `jsonSchemaOf`): the portable
 * forms other languages use and the shapes its source declares, each named type marked with its
 * declared name, outputs without defaults.
 */
function jsonSchemaOf(schema: z.core.$ZodType, io: Direction): JsonSchema {
  return readJsonSchema(schema, io, {
    portable: true,
    annotate: (zodSchema, node) => {
      // A default says what an input left out means; an output is always there.
      if (io === "output") delete node.default;
      const name = declaredName(zodSchema);
      if (name !== undefined) Object.assign(node, { "x-pulumi-type": name.name, ...(name.description === undefined ? {} : { "x-pulumi-description": name.description }) });
    },
  }) as JsonSchema;
}

/** Properties with `secret: true`, each. */
function allSecret(properties: Record<string, PropertySpec>): Record<string, PropertySpec> {
  return Object.fromEntries(Object.entries(properties).map(([name, spec]) => [name, { ...spec, secret: true }]));
}

/** The required list, left out when empty (the metaschema's form). */
function requiredPart(required: string[]): { required?: string[] } {
  return required.length === 0 ? {} : { required };
}

/** The package schema, without the release's version, which package.json alone holds. */
export function packageSchema(): PackageSpec {
  const writer = new PulumiTypeWriter(typeToken, enumName);

  const settings = writer.objectOf(jsonSchemaOf(CONFIG.settings, "input"), "Provider");
  const variables = Object.fromEntries(
    Object.entries(settings.properties).map(([name, spec]) => {
      const environment = CONFIG.environment[name];
      return [name, environment === undefined ? spec : { ...spec, defaultInfo: { environment: [environment] } }];
    }),
  );

  const resources = Object.fromEntries(
    Object.entries(RESOURCES).map(([name, declaration]): [string, ResourceSpec] => {
      const inputs = writer.objectOf(jsonSchemaOf(declaration.inputs, "input"), name);
      const outputs = writer.objectOf(jsonSchemaOf(declaration.outputs, "output"), name);
      for (const replaced of declaration.replacedBy ?? []) {
        const spec = inputs.properties[replaced];
        if (spec === undefined) throw new InsightsError(`${name}: replacedBy names ${replaced}, which is not an input`);
        spec.willReplaceOnChanges = true;
      }
      return [
        typeToken(name),
        { description: declaration.description, inputProperties: inputs.properties, requiredInputs: inputs.required, properties: outputs.properties, required: outputs.required },
      ];
    }),
  );

  const functions = Object.fromEntries(
    Object.entries(FUNCTIONS).map(([name, declaration]): [string, FunctionSpec] => {
      const owner = name.replace(/^get/, "Get");
      const inputs = writer.objectOf(jsonSchemaOf(declaration.inputs, "input"), `${owner}Args`);
      const outputs = writer.objectOf(jsonSchemaOf(declaration.outputs, "output"), `${owner}Result`);
      return [
        functionToken(name),
        {
          description: declaration.description,
          inputs: { properties: inputs.properties, ...requiredPart(inputs.required) },
          outputs: { properties: declaration.personalData ? allSecret(outputs.properties) : outputs.properties, ...requiredPart(outputs.required) },
        },
      ];
    }),
  );

  return {
    name: PACKAGE_NAME,
    displayName: "Insights",
    description: "Saved filters and PII opt-out requests of the video-analytics Insights API as code, and its data as functions.",
    keywords: ["pulumi", "insights", "video-analytics", "category/monitoring", "kind/native"],
    license: "Apache-2.0",
    config: { variables },
    provider: {
      description: "The provider of the Insights API: where the API is and its credentials, and the client's tuning. Each setting left out falls back to its environment variable.",
      inputProperties: variables,
    },
    resources,
    functions,
    types: Object.fromEntries(Object.entries(writer.types).sort(([left], [right]) => left.localeCompare(right))),
  };
}

/** The schema as the committed file holds it: two-space JSON and a final newline. */
export function packageSchemaText(): string {
  return `${JSON.stringify(packageSchema(), null, 2)}\n`;
}
