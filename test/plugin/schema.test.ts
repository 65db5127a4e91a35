import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { REPOSITORY_ROOT } from "../../engine";
import "../../provider/data";
import { dataSourceDefinitions } from "../../provider/data/define";
import type { RecordedAccount } from "../../provider/accounts/binding";
import type { GroupByData, GroupByEntity as GroupByEntityType, MetricData } from "../../provider/data/metric-data";
import { FUNCTIONS, GroupByEntity, GroupBySeriesResult, MetricSeriesResult, PENDING_FUNCTIONS, RESOURCES } from "../../provider/plugin/schema/declaration";
import { gitHubRepository, servedSchema } from "../../provider/plugin/package-schema";
import { packageSchema, packageSchemaText } from "../../provider/plugin/schema/generate";
import { PiiOptOutReceipt, type PiiOptOutReceipt as ReceiptType } from "../../provider/pii/receipt";
import { DeletionVerification, type DeletionVerification as VerificationType } from "../../provider/pii/verification";
import type { SavedFilterArgs } from "../../provider/resources/saved-filter/resource";
import type { SavedFilterSetArgs } from "../../provider/resources/saved-filter/set-resource";
import type { PiiOptOutRequestArgs } from "../../provider/resources/pii-opt-out-request/resource";
import { FilterState } from "../../provider/saved-filters/model/state";

/**
 * The package schema of the provider plugin (docs/provider-plugins.md rule 12): the committed
 * provider/plugin/schema.json is what the declaration writes, it keeps the rules of Pulumi's package
 * metaschema (stated below, in our words: the metaschema itself is not copied here), and it says
 * what the package has: every data source, descriptions, secrets.
 */

const SCHEMA_FILE = path.join(REPOSITORY_ROOT, "provider/plugin/schema.json");

// The rules of the metaschema (pkg/codegen/schema/pulumi.json) that a schema of ours could break.
const PACKAGE_NAME = /^[a-zA-Z][-a-zA-Z0-9_]*$/;
const SEMVER = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
const TOKEN = /^[a-zA-Z][-a-zA-Z0-9_]*:([^0-9][a-zA-Z0-9._/-]*)?:[^0-9][a-zA-Z0-9._/-]*$/;
const PACKAGE_KEYS = [
  "name", "displayName", "version", "description", "keywords", "homepage", "license", "attribution", "repository", "logoUrl", "pluginDownloadURL",
  "configurationDocsUrl", "validateCredentialsOnNew", "publisher", "namespace", "meta", "config", "types", "dependencies", "provider", "resources",
  "functions", "language", "parameterization", "allowedPackageNames",
];
const PRIMITIVES = ["boolean", "integer", "number", "string"];
/** The keys of a type reference: one form of primitive, array, map, named reference or union. */
const TYPE_KEYS = ["type", "items", "additionalProperties", "$ref", "oneOf", "discriminator", "plain"];
const PROPERTY_KEYS = [...TYPE_KEYS, "description", "const", "default", "defaultInfo", "deprecationMessage", "language", "secret", "replaceOnChanges", "willReplaceOnChanges"];
const OBJECT_TYPE_KEYS = ["type", "description", "properties", "required", "language", "isOverlay", "overlaySupportedLanguages"];
const ENUM_TYPE_KEYS = ["type", "description", "enum", "language", "isOverlay"];
const RESOURCE_KEYS = [...OBJECT_TYPE_KEYS.filter((key) => key !== "type"), "inputProperties", "requiredInputs", "stateInputs", "listInputs", "aliases", "deprecationMessage", "isComponent", "methods"];
const FUNCTION_KEYS = ["description", "inputs", "multiArgumentInputs", "outputs", "returnType", "deprecationMessage", "language", "isOverlay", "overlaySupportedLanguages", "plain"];
/** The built-in types a reference may name besides this schema's types. */
const BUILT_IN_TYPES = ["pulumi.json#/Any", "pulumi.json#/Archive", "pulumi.json#/Asset", "pulumi.json#/Json"];

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** Every break of the rules above in `schema`, as `where: what`. */
function metaschemaViolations(schema: unknown): string[] {
  const problems: string[] = [];
  const fail = (where: string, what: string) => problems.push(`${where}: ${what}`);
  if (!isObject(schema)) return ["schema: not an object"];
  const types = isObject(schema.types) ? schema.types : {};
  const unknownKeys = (where: string, value: Json, allowed: string[]) => {
    for (const key of Object.keys(value)) if (!allowed.includes(key)) fail(where, `unknown key ${key}`);
  };

  const typeReference = (where: string, spec: Json): void => {
    const forms: string[] = [];
    if (spec.$ref !== undefined) {
      forms.push("reference");
      const target = typeof spec.$ref === "string" ? spec.$ref : "";
      const local = /^#\/types\/(.+)$/.exec(target);
      if (!(local !== null ? local[1]! in types : BUILT_IN_TYPES.includes(target))) fail(where, `reference ${target} names no type`);
    }
    if (spec.oneOf !== undefined) {
      forms.push("union");
      if (!Array.isArray(spec.oneOf) || spec.oneOf.length < 2) fail(where, "a union needs two or more types");
      else spec.oneOf.forEach((member, index) => (isObject(member) ? typeReference(`${where}.oneOf[${index}]`, member) : fail(where, "a union member is not an object")));
    } else if (spec.type === "array") {
      forms.push("array");
      if (!isObject(spec.items)) fail(where, "an array needs items");
      else typeReference(`${where}.items`, spec.items);
    } else if (spec.type === "object") {
      forms.push("map");
      if (spec.additionalProperties !== undefined) {
        if (isObject(spec.additionalProperties)) typeReference(`${where}.additionalProperties`, spec.additionalProperties);
        else fail(where, "additionalProperties must be a type");
      }
    } else if (spec.$ref === undefined) {
      if (PRIMITIVES.includes(spec.type as string)) forms.push("primitive");
      else fail(where, `type ${JSON.stringify(spec.type)} is not boolean, integer, number, string, array or object`);
    }
    if (spec.items !== undefined && spec.type !== "array") fail(where, "items outside an array");
    if (spec.additionalProperties !== undefined && spec.type !== "object") fail(where, "additionalProperties outside a map");
    if (forms.length > 1) fail(where, `more than one type form (${forms.join(", ")})`);
  };

  const property = (where: string, spec: unknown): void => {
    if (!isObject(spec)) return void fail(where, "not an object");
    unknownKeys(where, spec, PROPERTY_KEYS);
    typeReference(where, spec);
    if (spec.default !== undefined && !["boolean", "number", "string"].includes(typeof spec.default)) fail(where, "default must be a boolean, number or string");
    if (spec.default !== undefined && PRIMITIVES.includes(spec.type as string) && typeof spec.default !== (spec.type === "integer" ? "number" : spec.type)) fail(where, "default does not fit the type");
    if (spec.defaultInfo !== undefined && !(isObject(spec.defaultInfo) && Array.isArray(spec.defaultInfo.environment))) fail(where, "defaultInfo needs environment");
    for (const flag of ["secret", "replaceOnChanges", "willReplaceOnChanges"]) if (spec[flag] !== undefined && typeof spec[flag] !== "boolean") fail(where, `${flag} must be a boolean`);
    if (spec.description !== undefined && typeof spec.description !== "string") fail(where, "description must be text");
  };

  const properties = (where: string, value: unknown, required: unknown, requiredKey: string): void => {
    if (value === undefined) return;
    if (!isObject(value)) return void fail(where, "properties must be a map");
    for (const [name, spec] of Object.entries(value)) property(`${where}.${name}`, spec);
    if (required === undefined) return;
    if (!Array.isArray(required)) return void fail(where, `${requiredKey} must be a list`);
    for (const name of required) if (typeof name !== "string" || !(name in value)) fail(where, `${requiredKey} names ${String(name)}, which is not a property`);
    if (new Set(required).size !== required.length) fail(where, `${requiredKey} repeats a name`);
  };

  const tokens = (where: string, value: unknown, each: (where: string, spec: Json) => void) => {
    if (value === undefined) return;
    if (!isObject(value)) return void fail(where, "must be a map");
    for (const [token, spec] of Object.entries(value)) {
      if (!TOKEN.test(token)) fail(`${where}.${token}`, "not a token <package>:<module>:<Name>");
      if (!token.startsWith(`${String(schema.name)}:`)) fail(`${where}.${token}`, "not a token of this package");
      if (isObject(spec)) each(`${where}.${token}`, spec);
      else fail(`${where}.${token}`, "not an object");
    }
  };

  unknownKeys("schema", schema, PACKAGE_KEYS);
  if (typeof schema.name !== "string" || !PACKAGE_NAME.test(schema.name)) fail("name", "missing or not a package name");
  if (schema.version !== undefined && (typeof schema.version !== "string" || !SEMVER.test(schema.version))) fail("version", "not semver");
  if (schema.config !== undefined) {
    if (!isObject(schema.config)) fail("config", "not an object");
    else {
      unknownKeys("config", schema.config, ["variables", "defaults"]);
      properties("config.variables", schema.config.variables, undefined, "");
    }
  }
  if (schema.provider !== undefined) {
    if (!isObject(schema.provider)) fail("provider", "not an object");
    else {
      unknownKeys("provider", schema.provider, RESOURCE_KEYS);
      properties("provider.inputProperties", schema.provider.inputProperties, schema.provider.requiredInputs, "requiredInputs");
    }
  }
  tokens("types", schema.types, (where, spec) => {
    if (Array.isArray(spec.enum)) {
      unknownKeys(where, spec, ENUM_TYPE_KEYS);
      if (!PRIMITIVES.includes(spec.type as string)) fail(where, "an enum needs a primitive type");
      for (const value of spec.enum) {
        if (!isObject(value) || !("value" in value)) fail(where, "an enum value needs value");
        else if (typeof value.value !== (spec.type === "integer" ? "number" : spec.type)) fail(where, `enum value ${JSON.stringify(value.value)} is not a ${String(spec.type)}`);
      }
    } else {
      unknownKeys(where, spec, OBJECT_TYPE_KEYS);
      if (spec.type !== "object") fail(where, "an object type needs type object");
      properties(`${where}.properties`, spec.properties, spec.required, "required");
    }
  });
  tokens("resources", schema.resources, (where, spec) => {
    unknownKeys(where, spec, RESOURCE_KEYS);
    properties(`${where}.inputProperties`, spec.inputProperties, spec.requiredInputs, "requiredInputs");
    properties(`${where}.properties`, spec.properties, spec.required, "required");
  });
  tokens("functions", schema.functions, (where, spec) => {
    unknownKeys(where, spec, FUNCTION_KEYS);
    for (const part of ["inputs", "outputs"] as const) {
      const object = spec[part];
      if (object === undefined) continue;
      if (!isObject(object)) fail(`${where}.${part}`, "not an object type");
      else {
        unknownKeys(`${where}.${part}`, object, OBJECT_TYPE_KEYS);
        properties(`${where}.${part}.properties`, object.properties, object.required, "required");
      }
    }
  });
  return problems;
}

/** The committed schema. */
const committed = JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as ReturnType<typeof packageSchema>;

/** Every property spec of the schema with its place: resources (inputs and outputs), functions, types, config. */
function everyProperty(schema: ReturnType<typeof packageSchema>): Array<{ owner: string; where: string; spec: Record<string, unknown> }> {
  const of = (owner: string, where: string, properties: Record<string, unknown> | undefined) =>
    Object.entries(properties ?? {}).map(([name, spec]) => ({ owner, where: `${where}.${name}`, spec: spec as Record<string, unknown> }));
  return [
    ...of("config", "config", schema.config.variables),
    ...Object.entries(schema.resources).flatMap(([token, resource]) => [...of(token, `${token} input`, resource.inputProperties), ...of(token, `${token} output`, resource.properties)]),
    ...Object.entries(schema.functions).flatMap(([token, fn]) => [...of(token, `${token} argument`, fn.inputs.properties), ...of(token, `${token} result`, fn.outputs.properties)]),
    ...Object.entries(schema.types).flatMap(([token, type]) => ("properties" in type ? of(token, token, type.properties) : [])),
  ];
}

describe("the package schema of the plugin", () => {
  it("is committed as the declaration writes it (`npm run schema` writes it)", () => {
    expect(readFileSync(SCHEMA_FILE, "utf8"), "provider/plugin/schema.json is not current: run `npm run schema`").toBe(packageSchemaText());
  });

  it("keeps the rules of Pulumi's package metaschema, as committed and as served", () => {
    expect(metaschemaViolations(committed)).toEqual([]);
    expect(metaschemaViolations(servedSchema())).toEqual([]);
  });

  it("and the check of those rules refuses what breaks them", () => {
    const broken = structuredClone(committed) as unknown as Record<string, any>;
    broken.homepageUrl = "https://example.com";
    broken.resources["insights:index:1Filter"] = { inputProperties: { a: { type: "string", items: { type: "string" } } }, requiredInputs: ["b"] };
    broken.types["insights:index:RuleGroup"].properties.op = { $ref: "#/types/insights:index:Missing", type: "array", items: { type: "string" } };
    broken.functions["insights:index:getFilterFields"].outputs.properties.fields.description = 3;
    broken.config.variables.timeoutMs.default = "30000";
    expect(metaschemaViolations(broken)).toEqual([
      "schema: unknown key homepageUrl",
      "config.variables.timeoutMs: default does not fit the type",
      "types.insights:index:RuleGroup.properties.op: reference #/types/insights:index:Missing names no type",
      "types.insights:index:RuleGroup.properties.op: more than one type form (reference, array)",
      "resources.insights:index:1Filter: not a token <package>:<module>:<Name>",
      "resources.insights:index:1Filter.inputProperties.a: items outside an array",
      "resources.insights:index:1Filter.inputProperties: requiredInputs names b, which is not a property",
      "functions.insights:index:getFilterFields.outputs.properties.fields: description must be text",
    ]);
  });

  it("names the package and the three resources by their tokens; the version is package.json's, added where it is served", () => {
    const manifest = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, "package.json"), "utf8")) as { version: string; repository: { url: string } };
    expect(committed.name).toBe("insights");
    // Written in package.json alone: the committed schema does not change from one release to the next.
    expect(committed).not.toHaveProperty("version");
    // Where the release's archives are, and the module its Go SDK is tagged in: package.json's repository (docs/releasing.md).
    const { owner, repository } = /github\.com\/(?<owner>[\w.-]+)\/(?<repository>[\w.-]+?)\.git$/.exec(manifest.repository.url)!.groups!;
    expect(servedSchema()).toEqual({
      ...committed,
      version: manifest.version,
      pluginDownloadURL: `github://api.github.com/${owner}/${repository}`,
      language: { go: { importBasePath: `github.com/${owner}/${repository}/sdk/go/insights` } },
    });
    expect(Object.keys(committed.resources)).toEqual(["insights:index:SavedFilter", "insights:index:SavedFilterSet", "insights:index:PiiOptOutRequest"]);
    expect(committed.resources["insights:index:SavedFilter"]!.requiredInputs).toEqual(["name", "rules"]);
    expect(committed.resources["insights:index:SavedFilterSet"]!.requiredInputs).toEqual(["filters"]);
  });

  it("reads the GitHub repository of package.json's repository.url in npm's forms, and no other host's", () => {
    const acme = { owner: "acme", name: "pulumi-insights" };
    for (const url of ["git+https://github.com/acme/pulumi-insights.git", "https://github.com/acme/pulumi-insights", "git+ssh://git@github.com/acme/pulumi-insights.git", "github:acme/pulumi-insights"]) {
      expect(gitHubRepository(url), url).toEqual(acme);
    }
    for (const url of [undefined, "", "https://gitlab.com/acme/pulumi-insights.git", "https://github.com/acme", "https://github.com.evil.example/acme/x.git"]) {
      expect(gitHubRepository(url), String(url)).toBeUndefined();
    }
  });

  it("declares every data source as a function by its mocks' token, or says why not yet", () => {
    const tokens = [...dataSourceDefinitions().keys()].map((token) => token.replace(/^insights:index:/, ""));
    const declared = [...Object.keys(FUNCTIONS), ...Object.keys(PENDING_FUNCTIONS)];
    expect([...tokens].sort()).toEqual([...declared].sort());
    expect(Object.keys(committed.functions).sort()).toEqual(Object.keys(FUNCTIONS).map((name) => `insights:index:${name}`).sort());
    expect(Object.keys(committed.functions)).toContain("insights:index:getFilterFieldValues");
    for (const [name, reason] of Object.entries(PENDING_FUNCTIONS)) expect(reason, name).toMatch(/\([\w-]+\/[\w-]+\.ts\)/);
    // A function of personal data is declared so, as its data source answers it (data/define.ts personalDataSource).
    for (const [name, declaration] of Object.entries(FUNCTIONS)) {
      expect(declaration.personalData ?? false, name).toBe(dataSourceDefinitions().get(`insights:index:${name}`)!.personalData);
    }
  });

  it("describes every property", () => {
    const undescribed = everyProperty(committed).filter(({ spec }) => spec.description === undefined);
    expect(undescribed.map(({ where }) => where)).toEqual([]);
    for (const [token, resource] of Object.entries(committed.resources)) expect(resource.description, token).toMatch(/\w/);
    for (const [token, fn] of Object.entries(committed.functions)) expect(fn.description, token).toMatch(/\w/);
  });

  it("marks the credentials and the personal data secret, and gives each setting its default and variable", () => {
    const variables = committed.config.variables;
    expect(variables.clientSecret).toMatchObject({ secret: true, defaultInfo: { environment: ["INSIGHTS_CLIENT_SECRET"] } });
    expect(variables.accounts).toMatchObject({ secret: true, additionalProperties: { $ref: "#/types/insights:index:Account" } });
    expect(committed.types["insights:index:Account"]).toMatchObject({ properties: { clientSecret: { secret: true } } });
    expect(variables.timeoutMs).toMatchObject({ type: "integer", default: 30_000, defaultInfo: { environment: ["INSIGHTS_TIMEOUT_MS"] } });
    expect(committed.provider.inputProperties).toEqual(variables);
    const pii = committed.resources["insights:index:PiiOptOutRequest"]!;
    for (const property of ["viewerIds", "userIds", "notificationEmails"]) {
      expect(pii.inputProperties[property], property).toMatchObject({ secret: true, willReplaceOnChanges: true });
      expect(pii.properties[property], property).toMatchObject({ secret: true });
    }
    for (const token of ["insights:index:getPiiOptOutRequests", "insights:index:getPiiOptOutRequest"]) {
      for (const [name, spec] of Object.entries(committed.functions[token]!.outputs.properties)) expect(spec.secret, `${token} ${name}`).toBe(true);
    }
    // Sessions carry viewer ids and IP addresses, a viewer summary names its viewer: every result property is secret, and so are the identities asked for.
    const personal = ["getContentSessions", "getAdSessions", "getViewerSessions", "getViewerSummary"].map((name) => `insights:index:${name}`);
    for (const token of personal) {
      for (const [name, spec] of Object.entries(committed.functions[token]!.outputs.properties)) expect(spec.secret, `${token} ${name}`).toBe(true);
    }
    for (const token of ["insights:index:getViewerSessions", "insights:index:getViewerSummary"]) {
      expect(committed.functions[token]!.inputs.properties, token).toMatchObject({ viewerId: { type: "string", secret: true }, viewerIp: { type: "string", secret: true } });
    }
    expect(committed.types["insights:index:Session"]).toMatchObject({ properties: { viewer_id: { secret: true }, network_info: { $ref: "#/types/insights:index:SessionNetworkInfo" } } });
    expect(committed.types["insights:index:SessionNetworkInfo"]).toMatchObject({ properties: { ip: { secret: true }, ipv6: { secret: true } } });
    expect(committed.types["insights:index:ViewerSummaryMetaQueries"]).toMatchObject({ properties: { viewer_id: { secret: true }, viewer_ip: { secret: true } } });
    const secrets = everyProperty(committed).filter(({ spec }) => spec.secret === true).map(({ where }) => where.split(".").pop());
    expect(new Set(secrets)).toEqual(
      new Set([
        "clientSecret", "accounts", "viewerIds", "userIds", "notificationEmails", ...Object.keys(committed.functions["insights:index:getPiiOptOutRequest"]!.outputs.properties), "requests",
        "viewer_id", "viewerId", "viewerIp", "ip", "ipv6", "viewer_ip", ...personal.flatMap((token) => Object.keys(committed.functions[token]!.outputs.properties)),
      ]),
    );
  });

  it("types rule trees as named object types, a node being a group or a leaf", () => {
    expect(committed.resources["insights:index:SavedFilter"]!.inputProperties.rules).toMatchObject({ $ref: "#/types/insights:index:RuleGroup" });
    expect(committed.types["insights:index:RuleGroup"]).toMatchObject({
      properties: { op: { $ref: "#/types/insights:index:RuleGroupOperator" }, rules: { type: "array", items: { $ref: "#/types/insights:index:RuleNode" } } },
      required: ["op", "rules"],
    });
    expect(committed.types["insights:index:RuleNode"]).toMatchObject({ properties: { rules: { items: { $ref: "#/types/insights:index:RuleNode" } }, field: { type: "string" } }, required: ["op"] });
    expect(committed.types["insights:index:RuleOperator"]).toEqual({ type: "string", enum: ["and", "or", "contains", "not_contains", "equals"].map((value) => ({ value })) });
  });

  it("declares the inputs the resources take and the outputs they record, as the TypeScript resources do", () => {
    expectTypeOf<keyof z.input<(typeof RESOURCES)["SavedFilter"]["inputs"]>>().toEqualTypeOf<keyof SavedFilterArgs>();
    expectTypeOf<keyof z.input<(typeof RESOURCES)["SavedFilterSet"]["inputs"]>>().toEqualTypeOf<keyof SavedFilterSetArgs>();
    expectTypeOf<keyof z.input<(typeof RESOURCES)["PiiOptOutRequest"]["inputs"]>>().toEqualTypeOf<keyof PiiOptOutRequestArgs>();
    expectTypeOf<z.infer<typeof FilterState>>().toEqualTypeOf<FilterState>();
    expectTypeOf<z.infer<typeof DeletionVerification>>().toEqualTypeOf<VerificationType>();
    expectTypeOf<z.infer<typeof PiiOptOutReceipt>>().toEqualTypeOf<ReceiptType>();
    expectTypeOf<z.infer<(typeof RESOURCES)["SavedFilter"]["outputs"]>["recordedAccount"]>().toEqualTypeOf<RecordedAccount>();
  });

  it("declares the metric series' results as the client answers them, but the wire answer", () => {
    // Every member the data source answers is declared, but `response` (data/metric-data.ts), and what it answers fits the declaration.
    expectTypeOf<keyof z.infer<typeof MetricSeriesResult>>().toEqualTypeOf<Exclude<keyof MetricData<string>, "response">>();
    expectTypeOf<Omit<MetricData<string>, "response">>().toExtend<z.infer<typeof MetricSeriesResult>>();
    expectTypeOf<keyof z.infer<typeof GroupBySeriesResult>>().toEqualTypeOf<Exclude<keyof GroupByData<string>, "response">>();
    expectTypeOf<Omit<GroupByData<string>, "response">>().toExtend<z.infer<typeof GroupBySeriesResult>>();
    expectTypeOf<keyof z.infer<typeof GroupByEntity>>().toEqualTypeOf<keyof GroupByEntityType<string>>();
    const metric = committed.functions["insights:index:getMetric"]!;
    expect(Object.keys(metric.outputs.properties)).toEqual(["series", "total", "windows"]);
    expect(metric.outputs.properties.series).toMatchObject({ type: "object", additionalProperties: { type: "object", additionalProperties: { type: "array", items: { $ref: "#/types/insights:index:MetricPoint" } } } });
    expect(metric.inputs.properties.range).toMatchObject({ $ref: "#/types/insights:index:MetricRange" });
    expect(Object.keys((committed.types["insights:index:MetricRange"] as { properties: object }).properties)).toEqual(["start", "end", "lastDays", "lastMinutes"]);
  });
});
