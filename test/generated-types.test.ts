import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { generatedMembers, generatedText, ROOT, withMembers } from "../scripts/generate-types";
import { jsonSchemaOf } from "../provider/schema/meta";
import { PUBLIC_MEMBERS, PUBLIC_TYPE_FILES, type PublicTypeFile } from "../scripts/public-types";
import { RESOURCES } from "../provider/plugin/schema/declaration";
import * as schema from "../provider/schema";
import * as pii from "../provider/client/pii";

/**
 * The public interfaces are written from the zod schemas by scripts/generate-types.ts; the files in
 * the repository are what it writes (test/records.test.ts checks each interface against zod's own
 * type), and what it reads for them serves a Pulumi package schema too.
 */

describe("the generated interfaces", () => {
  it.each(PUBLIC_TYPE_FILES.map((file) => [file.path, file] as const))("%s is what the schemas give", (file, generated) => {
    const checkedIn = readFileSync(path.join(ROOT, file), "utf8");
    expect(checkedIn, `${file} differs from the zod schemas: run \`npm run types\` and commit the result`).toBe(generatedText(generated));
  });

  it.each(PUBLIC_MEMBERS.map((members) => [members.name, members] as const))("%s declares the outputs its declaration gives, described as it describes itself", (name, members) => {
    const checkedIn = readFileSync(path.join(ROOT, members.path), "utf8");
    expect(checkedIn, `${members.path} differs from the declaration: run \`npm run types\` and commit the result`).toBe(withMembers(checkedIn, generatedMembers(members), members.path));
    // The class's own comment is the declaration's description (what the plugin's package schema says of it).
    const comment = new RegExp(String.raw`/\*\*\n((?: \*.*\n)+) \*/\nexport class ${name} `).exec(checkedIn);
    expect(comment?.[1]!.replace(/^ \* ?/gm, "").replace(/\s+/g, " ").trim()).toBe(RESOURCES[name as keyof typeof RESOURCES].description);
  });

  it("documents every member: a schema member without a description is refused, naming it", () => {
    const undocumented: PublicTypeFile = {
      path: "provider/example.ts",
      description: "An example.",
      types: [{ name: "Example", mode: "output", schema: z.object({ said: z.string().describe("Said."), unsaid: z.number() }).describe("An example.") }],
    };
    expect(() => generatedText(undocumented, [undocumented])).toThrow("Example.unsaid: a member without a description");
    const misspelt: PublicTypeFile = { ...undocumented, types: [{ ...undocumented.types[0]!, schema: z.object({ said: z.string().meta({ description: "Said.", secrte: true }) }).describe("An example.") }] };
    expect(() => generatedText(misspelt, [misspelt])).toThrow('metadata key secrte is not one of description, secret');
  });

  it("writes what a parse gives for answers and what a caller writes for parameters, each member with its description", () => {
    const records = readFileSync(path.join(ROOT, "provider/schema/records.ts"), "utf8");
    // An id is read as a string or a number and always answered as a string (provider/schema/assumptions.ts).
    expect(records).toContain("  /** The filter's id (a number in some answers, always a string here). */\n  id: string;");
    const params = readFileSync(path.join(ROOT, "provider/client/params.ts"), "utf8");
    expect(params).toContain("  /** The id of the filter, as a string or a number (spec 2.7). */\n  id: string | number;");
    for (const text of [records, params]) {
      const lines = text.split("\n");
      const undocumented = lines.filter((line, index) => /^\s+["\w@]+\??: /.test(line) && !lines[index - 1]!.trim().endsWith("*/"));
      expect(undocumented).toEqual([]);
    }
  });
});

describe("what a Pulumi package schema is written from (JSON Schema of the same schemas)", () => {
  it("marks personal data secret, with its description", () => {
    const request = jsonSchemaOf(schema.PiiOptOutRequest, "output") as { properties: Record<string, { secret?: true; description?: string; properties?: Record<string, { secret?: true }> }> };
    expect(request.properties["@notification_email"]).toMatchObject({ secret: true, type: "array" });
    expect(request.properties.identifiers!.properties!.viewer_id).toMatchObject({ secret: true });
    expect(request.properties.status!.secret).toBeUndefined();
    const submit = jsonSchemaOf(pii.PiiSubmitArguments, "input") as { properties: Record<string, { secret?: true; description: string }>; required: string[] };
    expect(submit.properties.identifiers).toMatchObject({ secret: true, description: expect.stringContaining("Viewer ids or user ids") });
    expect(submit.required).toEqual(["identifiers"]);
    const session = jsonSchemaOf(schema.Session, "output") as { properties: Record<string, { secret?: true; properties?: Record<string, { secret?: true }> }> };
    expect(session.properties.viewer_id!.secret).toBe(true);
    expect(session.properties.network_info!.properties!.ip!.secret).toBe(true);
  });

  it("writes a transform as the shape it declares: ids are strings in answers, strings or numbers in parameters", () => {
    const filter = jsonSchemaOf(schema.SavedFilter, "output") as { properties: { id: object; category: object } };
    expect(filter.properties.id).toEqual({ type: "string", description: "The filter's id (a number in some answers, always a string here)." });
    expect(filter.properties.category).toEqual({ type: "string", description: "Its category (spec 2.7)." });
    const list = jsonSchemaOf(schema.SavedFilterList, "output") as { properties: { filters: { type: string } }; required: string[] };
    expect(list.properties.filters.type).toBe("array");
    expect(list.required).toEqual(["filters"]);
  });
});
