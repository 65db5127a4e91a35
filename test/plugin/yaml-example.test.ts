import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { captureRegistrations, PLUGIN_FOLDER, PLUGIN_PACKAGE, REPOSITORY_ROOT, secret, startProviderPlugin, up, type UpResult } from "../../engine";
import { DEV, useTestEmulator } from "../support/emulator";

/**
 * examples/yaml/Pulumi.yaml, the examples' saved filters in Pulumi YAML for the provider plugin
 * alone. No Pulumi CLI runs here (docs/provider-plugins.md "Testing without the CLI"), so what the
 * CLI would check first is checked against the committed package schema: the plugin folder it names,
 * each resource's type and properties, each value's type down to the rule trees, the function it
 * calls and the outputs it reads; and its filters are those the TypeScript example declares. Its
 * resources then go through the plugin as `pulumi up` would send them, against the emulator.
 */

const PROGRAM_FOLDER = path.join(REPOSITORY_ROOT, "examples/yaml");
// js-yaml, as the SDK itself depends on it (test/examples.test.ts reads Pulumi.yaml the same way).
const yaml = createRequire(require.resolve("@pulumi/pulumi"))("js-yaml") as { load(text: string): unknown };
const program = yaml.load(readFileSync(path.join(PROGRAM_FOLDER, "Pulumi.yaml"), "utf8")) as {
  name: string;
  runtime: string;
  plugins: { providers: Array<{ name: string; path: string }> };
  variables: Record<string, { "fn::invoke": { function: string; arguments: Record<string, unknown>; return: string } }>;
  resources: Record<string, { type: string; properties: Record<string, unknown> }>;
  outputs: Record<string, unknown>;
};

type Spec = { type?: string; $ref?: string; items?: Spec; additionalProperties?: Spec; oneOf?: Spec[]; properties?: Record<string, Spec>; required?: string[]; enum?: Array<{ value: unknown }> };
const schema = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, "provider/plugin/schema.json"), "utf8")) as {
  types: Record<string, Spec>;
  resources: Record<string, { inputProperties: Record<string, Spec>; requiredInputs: string[]; properties: Record<string, Spec> }>;
  functions: Record<string, { inputs: { properties: Record<string, Spec>; required?: string[] }; outputs: { properties: Record<string, Spec> } }>;
};

/** An interpolation (`${resource.property}`): its type is the engine's to check, not ours. */
const isExpression = (value: unknown) => typeof value === "string" && value.includes("${");

/** Where `value` does not fit `spec`, as `path: what`. */
function misfits(value: unknown, spec: Spec, where: string): string[] {
  if (isExpression(value)) return [];
  if (spec.$ref !== undefined) {
    if (spec.$ref === "pulumi.json#/Any") return [];
    const type = schema.types[spec.$ref.replace("#/types/", "")];
    if (type === undefined) return [`${where}: ${spec.$ref} is not a type of the schema`];
    return misfits(value, type, where);
  }
  if (spec.enum !== undefined) return spec.enum.some((member) => member.value === value) ? [] : [`${where}: ${JSON.stringify(value)} is not one of ${spec.enum.map((member) => member.value).join(", ")}`];
  if (spec.oneOf !== undefined) return spec.oneOf.some((member) => misfits(value, member, where).length === 0) ? [] : [`${where}: fits no member of the union`];
  switch (spec.type) {
    case "string":
    case "boolean":
    case "number":
      return typeof value === spec.type ? [] : [`${where}: ${JSON.stringify(value)} is not a ${spec.type}`];
    case "integer":
      return Number.isInteger(value) ? [] : [`${where}: ${JSON.stringify(value)} is not an integer`];
    case "array":
      return Array.isArray(value) ? value.flatMap((item, index) => misfits(item, spec.items!, `${where}[${index}]`)) : [`${where}: not a list`];
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${where}: not an object`];
      const entries = Object.entries(value);
      if (spec.properties === undefined) return entries.flatMap(([key, item]) => misfits(item, spec.additionalProperties ?? { type: "string" }, `${where}.${key}`));
      return [
        ...entries.flatMap(([key, item]) => (spec.properties![key] === undefined ? [`${where}.${key}: not a property`] : misfits(item, spec.properties![key]!, `${where}.${key}`))),
        ...(spec.required ?? []).filter((key) => !(key in value)).map((key) => `${where}.${key}: required`),
      ];
    }
    default:
      return [`${where}: the schema's spec ${JSON.stringify(spec)} has no check here`];
  }
}

/** The inputs of a resource or function as an object type, for {@link misfits}. */
const objectOf = (properties: Record<string, Spec>, required: string[] = []): Spec => ({ type: "object", properties, required });

describe("examples/yaml/Pulumi.yaml, for the provider plugin alone", () => {
  it("is a Pulumi YAML program that points at the package's plugin folder", () => {
    expect(program.runtime).toBe("yaml");
    expect(program.plugins.providers).toEqual([{ name: "insights", path: "../../plugin" }]);
    const folder = path.resolve(PROGRAM_FOLDER, program.plugins.providers[0]!.path);
    expect(folder).toBe(PLUGIN_FOLDER);
    expect(existsSync(path.join(folder, "PulumiPlugin.yaml"))).toBe(true);
    expect(existsSync(path.join(folder, "pulumi-resource-insights"))).toBe(true);
  });

  it("declares resources of the schema's types with their properties, each value of its type", () => {
    expect(Object.keys(program.resources).length).toBeGreaterThanOrEqual(3);
    const problems = Object.entries(program.resources).flatMap(([name, resource]) => {
      const declared = schema.resources[resource.type];
      if (declared === undefined) return [`${name}: ${resource.type} is not a resource of the schema`];
      return misfits(resource.properties, objectOf(declared.inputProperties, declared.requiredInputs), name);
    });
    expect(problems).toEqual([]);
  });

  it("calls functions of the schema with their arguments, and reads outputs the schema declares", () => {
    const problems = Object.entries(program.variables).flatMap(([name, variable]) => {
      const { function: token, arguments: args, return: returned } = variable["fn::invoke"];
      const declared = schema.functions[token];
      if (declared === undefined) return [`${name}: ${token} is not a function of the schema`];
      return [
        ...misfits(args, objectOf(declared.inputs.properties, declared.inputs.required), name),
        ...(returned in declared.outputs.properties ? [] : [`${name}: ${token} has no result ${returned}`]),
      ];
    });
    const references = JSON.stringify(program.outputs).match(/\$\{[^}]+\}/g) ?? [];
    expect(references.length).toBeGreaterThan(2);
    for (const reference of references) {
      const [subject, property] = reference.slice(2, -1).split(".");
      if (property === undefined) {
        if (!(subject! in program.variables)) problems.push(`${reference}: no such variable`);
        continue;
      }
      const resource = program.resources[subject!];
      if (resource === undefined || !(property in schema.resources[resource.type]!.properties)) problems.push(`${reference}: no such output`);
    }
    expect(problems).toEqual([]);
  });

  it("and the check of values refuses what does not fit", () => {
    const savedFilter = schema.resources["insights:index:SavedFilter"]!;
    const inputs = objectOf(savedFilter.inputProperties, savedFilter.requiredInputs);
    expect(misfits({ name: "x", rules: { op: "and", rules: [{ field: "Country", op: "is", value: "Canada" }] }, enabled: "yes", colour: "red" }, inputs, "f")).toEqual([
      "f.rules.rules[0].op: \"is\" is not one of and, or, contains, not_contains, equals",
      "f.enabled: \"yes\" is not a boolean",
      "f.colour: not a property",
    ]);
    expect(misfits({ rules: { op: "and", rules: [] } }, inputs, "f")).toEqual(["f.name: required"]);
  });

  it("declares the saved filters of examples/filters.ts", async () => {
    const registrations = await captureRegistrations({ module: "dist/examples/filters.js", exportName: "filtersAsCode", args: [], construct: "call" });
    for (const name of ["north-america", "premium-live-sports"]) {
      const declared = program.resources[name]!.properties;
      const registered = registrations.find((registration) => registration.name === name);
      expect(registered, name).toBeDefined();
      const fromTypeScript = Object.fromEntries(Object.keys(declared).map((key) => [key, registered!.inputs[key]]));
      expect(declared, name).toEqual(fromTypeScript);
    }
  });

  describe("through the plugin, against the emulator", () => {
    const emulator = useTestEmulator();

    it("passes the plugin's check, lookups included, is made, and then plans no change", async () => {
      const plugin = await startProviderPlugin();
      try {
        await plugin.configure({ baseUrl: emulator.url, clientId: DEV.clientId, clientSecret: secret(DEV.clientSecret) }, { package: PLUGIN_PACKAGE });
        const urnOf = (name: string) => `urn:pulumi:dev::${program.name}::${program.resources[name]!.type}::${name}`;
        const names = Object.keys(program.resources);
        // No property of a resource is an interpolation: each is sent as written.
        expect(names.filter((name) => JSON.stringify(program.resources[name]!.properties).includes("${"))).toEqual([]);
        const made = new Map<string, UpResult>();
        for (const name of names) made.set(name, await up(plugin, program.resources[name]!.properties, undefined, { urn: urnOf(name) }));
        expect([...made.values()].map((result) => result.operation)).toEqual(names.map(() => "create"));
        const again = await Promise.all(names.map((name) => up(plugin, program.resources[name]!.properties, made.get(name)!.state, { urn: urnOf(name) })));
        expect(again.map((result) => result.operation)).toEqual(names.map(() => "same"));
      } finally {
        await plugin.close();
      }
    });
  });
});
