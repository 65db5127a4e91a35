import { describe, expect, it } from "vitest";
import ts from "typescript";
import path from "node:path";
import { runtime } from "@pulumi/pulumi";
import {
  and, canonicalRules, describeRulesDiff, field, lookupsForRules, or, PREVIEW_UNKNOWN, rulesEqual, tag,
  validateRuleValues, validateRules, type RuleGroup,
} from "../provider/rules";
import { RuleGroup as RuleGroupSchema } from "../provider/schema";

const review = and(
  field("Country").contains("United States"),
  or(field("CDN").equals("Akamai"), field("CDN").equals("Fastly")),
  tag("deviceId").notContains("test-"),
);

describe("rule builder (spec 2.7)", () => {
  it("builds the plain JSON the service takes, with key only on Tag", () => {
    expect(review).toEqual({
      op: "and",
      rules: [
        { field: "Country", op: "contains", value: "United States" },
        { op: "or", rules: [{ field: "CDN", op: "equals", value: "Akamai" }, { field: "CDN", op: "equals", value: "Fastly" }] },
        { field: "Tag", key: "deviceId", op: "not_contains", value: "test-" },
      ],
    });
    expect(Object.keys(review.rules[0]!)).not.toContain("key");
    expect(JSON.parse(JSON.stringify(review))).toEqual(review);
    expect(RuleGroupSchema.parse(review)).toEqual(review);
    expect(validateRules(review)).toEqual([]);
  });

  it("types field names as FilterField, so a typo or a keyless Tag fails to compile", () => {
    const source = [
      `import { field, and } from "./provider/rules";`,
      `and(field("Country").contains("x"));`,
      `field("Contry").contains("x");`,
      `field("Tag").equals("x");`,
      `and();`,
    ].join("\n");
    const root = path.resolve(__dirname, "..");
    const fileName = path.join(root, "typo-check.ts");
    const options: ts.CompilerOptions = { strict: true, noEmit: true, types: [], skipLibCheck: true, module: ts.ModuleKind.CommonJS };
    const host = ts.createCompilerHost(options);
    const readFile = host.readFile.bind(host);
    host.readFile = (name) => (path.resolve(name) === fileName ? source : readFile(name));
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (name) => path.resolve(name) === fileName || fileExists(name);
    const program = ts.createProgram([fileName], options, host);
    const errors = ts.getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file?.fileName === fileName.replace(/\\/g, "/"))
      .map((diagnostic) => ({
        line: diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start!).line + 1,
        text: ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"),
      }));
    expect(errors.map((error) => error.line)).toEqual([3, 4, 5]);
    expect(errors[0]!.text).toContain(`"Contry"`);
  });
});

describe("canonicalRules / rulesEqual", () => {
  const a = field("Country").contains("France");
  const b = field("CDN").equals("Akamai");
  const c = tag("deviceId").equals("tv-1");
  const d = field("City").notContains("Paris");

  it("ignores order, duplicates and same-op nesting", () => {
    expect(rulesEqual(and(a, b, c), and(c, and(b, a), a))).toBe(true);
    expect(rulesEqual(and(a, or(b, c)), and(or(c, or(b)), a, a))).toBe(true);
  });

  it("collapses a nested one-child group and keeps the root a group", () => {
    expect(canonicalRules(and(or(a)))).toEqual({ op: "and", rules: [a] });
    expect(canonicalRules(or(a))).toEqual(canonicalRules(and(a)));
    expect(canonicalRules(and(or(a, b)))).toEqual(canonicalRules(or(b, a)));
    expect(canonicalRules(and(or(a, b))).op).toBe("or");
  });

  it("keeps the meaning of and/or and of empty groups", () => {
    expect(rulesEqual(and(a, b), or(a, b))).toBe(false);
    expect(rulesEqual(and(a, or(b, c)), or(a, and(b, c)))).toBe(false);
    expect(rulesEqual({ op: "and", rules: [] }, { op: "or", rules: [] })).toBe(false);
    // or() is or's identity, and() is and's: flattening them away is exact.
    expect(canonicalRules({ op: "and", rules: [a, b, { op: "and", rules: [] }] })).toEqual(canonicalRules(and(a, b)));
    expect(canonicalRules({ op: "and", rules: [a, { op: "or", rules: [] }] }).rules).toHaveLength(2);
  });

  it("keeps key only for Tag, drops stray properties and never rewrites values", () => {
    const stray = { field: "Country", op: "contains", value: "France", key: "x", note: "mine" } as RuleGroup["rules"][number];
    expect(canonicalRules(and(stray))).toEqual(canonicalRules(and(a)));
    expect(rulesEqual(and(tag("deviceId").equals("1")), and(tag("DeviceId").equals("1")))).toBe(false);
    expect(rulesEqual(and(field("Country").equals("france")), and(field("Country").equals("France")))).toBe(false);
  });

  it("sorts children by their canonical JSON, groups and leaves alike", () => {
    const canonical = canonicalRules(and(d, or(c, b), a));
    const keys = canonical.rules.map((node) => JSON.stringify(node));
    expect(keys).toEqual([...keys].sort());
    expect(canonical.rules).toHaveLength(3);
  });
});

describe("validateRules (check)", () => {
  it("accepts plain JSON as the service stores it (docs/api.md 10.2 example)", () => {
    const plain = { op: "and", rules: [{ op: "or", rules: [{ field: "Asset Name", op: "contains", value: "news" }] }] };
    expect(validateRules(plain)).toEqual([]);
  });

  it("names the exact path of a near-miss field with a did-you-mean", () => {
    const city = { field: "City", op: "equals", value: "Paris" };
    const cdn = { field: "CDN", op: "equals", value: "Akamai" };
    const input = { op: "and", rules: [city, cdn, { op: "or", rules: [cdn, { field: "Contry", op: "contains", value: "France" }] }] };
    expect(validateRules(input)).toEqual([
      { path: "rules.rules[2].rules[1].field", reason: expect.stringContaining(`did you mean "Country"?`), suggestion: "Country" },
    ]);
  });

  it("reports every problem at once, under the base path given", () => {
    const input = {
      op: "xor",
      rules: [
        { field: "Tag", op: "equals", value: "tv" },
        { op: "or", rules: [] },
        { field: "country", op: "not-contains", value: 7922 },
        { field: "Country", op: "and", value: "x", key: "region" },
        { feild: "ASN", op: "contains", value: "1" },
        "Country",
      ],
    };
    const failures = validateRules(input, "filter.rules");
    expect(failures.map((failure) => failure.path)).toEqual([
      "filter.rules.op",
      "filter.rules.rules[0].key",
      "filter.rules.rules[1].rules",
      "filter.rules.rules[2].field",
      "filter.rules.rules[2].op",
      "filter.rules.rules[2].value",
      "filter.rules.rules[3].op",
      "filter.rules.rules[3].key",
      "filter.rules.rules[4].feild",
      "filter.rules.rules[4].field",
      "filter.rules.rules[5]",
    ]);
    const reason = (at: string) => failures.find((failure) => failure.path === `filter.rules${at}`)!.reason;
    expect(reason(".op")).toContain(`did you mean "or"?`);
    expect(reason(".rules[0].key")).toContain("Tag leaf needs key");
    expect(reason(".rules[1].rules")).toContain("at least one rule");
    expect(reason(".rules[2].field")).toContain(`did you mean "Country"?`);
    expect(reason(".rules[2].op")).toContain(`did you mean "not_contains"?`);
    expect(reason(".rules[2].value")).toContain(`write "7922"`);
    expect(reason(".rules[3].op")).toContain("group op");
    expect(reason(".rules[3].key")).toContain(`only to field "Tag"`);
    expect(reason(".rules[4].feild")).toContain(`did you mean "field"?`);
    expect(reason(".rules[5]")).toContain("expected a group");
  });

  it("rejects a root that is not a group", () => {
    expect(validateRules([])[0]).toMatchObject({ path: "rules", reason: expect.stringContaining("must be a group") });
    expect(validateRules(field("ASN").equals("7922"))[0]!.reason).toContain("wrap it");
    expect(validateRules({ op: "and" })).toEqual([{ path: "rules.rules", reason: expect.stringContaining("needs rules") }]);
  });

  it("skips values not known yet in a preview", () => {
    // The sentinel is the SDK's own, so what the engine sends in a preview is what is skipped.
    expect(PREVIEW_UNKNOWN).toBe(runtime.unknownValue);
    const unknown = PREVIEW_UNKNOWN;
    expect(validateRules(unknown)).toEqual([]);
    expect(validateRules({ op: "and", rules: [{ field: unknown, op: "equals", value: unknown }, unknown] })).toEqual([]);
  });
});

describe("validateRuleValues (lookup values)", () => {
  const lookups = new Map([
    ["countries", new Set(["United States", "France", "Germany"])],
    ["asn", new Set(["7922", "3320"])],
    ["tags", new Set(["deviceId", "specialContentId"])],
  ]);
  const tree = and(
    field("Country").contains("united states"),
    or(field("ASN").equals("7922"), field("City").equals("Nowhere")),
    tag("deviceID").equals("x"),
    field("Asset Name").contains("anything"),
  );

  it("names the lookups a tree needs", () => {
    expect(lookupsForRules(tree)).toEqual(["asn", "cities", "countries", "tags"]);
  });

  it("reports values outside the lookups with paths and suggestions, skipping lookups not fetched", () => {
    expect(validateRuleValues(tree, lookups)).toEqual([
      { path: "rules.rules[0].value", reason: expect.stringContaining(`did you mean "United States"?`), suggestion: "United States" },
      { path: "rules.rules[2].key", reason: expect.stringContaining(`not in the tags lookup`), suggestion: "deviceId" },
    ]);
    const far = validateRuleValues(and(field("ASN").equals("1")), lookups, "spec.rules");
    expect(far).toEqual([{ path: "spec.rules.rules[0].value", reason: expect.stringContaining(`valid values are "7922", "3320"`) }]);
    expect(validateRuleValues(review, new Map([["countries", new Set(["United States"])], ["tags", new Set(["deviceId"])]]))).toEqual([]);
  });
});

describe("describeRulesDiff", () => {
  it("is empty for equivalent trees and shows the changed leaf with its field", () => {
    const reordered = and(tag("deviceId").notContains("test-"), or(field("CDN").equals("Fastly"), field("CDN").equals("Akamai")), field("Country").contains("United States"));
    expect(describeRulesDiff(review, reordered)).toBe("");
    const changed = and(field("Country").contains("France"), or(field("CDN").equals("Akamai"), field("CDN").equals("Fastly")), tag("deviceId").notContains("test-"));
    const diff = describeRulesDiff(review, changed);
    expect(diff).toContain(`-      value: "United States"`);
    expect(diff).toContain(`+      value: "France"`);
    expect(diff).toContain(`field: "Country"`);
    expect(diff).not.toContain("Akamai");
  });

  it("matches children by content wherever they moved: a changed leaf is one leaf, a removed rule is removed", () => {
    // json-diff paired children by position: the moved Tag leaf and the removed Country leaf read as
    // one leaf whose every property changed.
    const changed = and(tag("deviceId").notContains("qa-"), or(field("CDN").equals("Fastly"), field("CDN").equals("Akamai")), field("ISP").equals("BT"));
    expect(describeRulesDiff(review, changed).split("\n")).toEqual([
      " {",
      '   op: "and"',
      "   rules: [",
      "-    {",
      '-      field: "Country"',
      '-      op: "contains"',
      '-      value: "United States"',
      "-    }",
      "     {",
      '       field: "Tag"',
      '       key: "deviceId"',
      '       op: "not_contains"',
      '-      value: "test-"',
      '+      value: "qa-"',
      "     }",
      "     ...",
      "+    {",
      '+      field: "ISP"',
      '+      op: "equals"',
      '+      value: "BT"',
      "+    }",
      "   ]",
      " }",
      "",
    ]);
  });

  it("reads a root of another op as a one-child group when the other tree nests that op", () => {
    // The account may hold or(a, b) where the program wrote and(or(a, c), d): the or-groups meet.
    const held = or(field("Country").equals("United States"), field("Country").equals("Mexico"));
    const declared = and(or(field("Country").equals("United States"), field("Country").equals("Canada")), tag("deviceId").notContains("test-"));
    const diff = describeRulesDiff(held, declared);
    expect(diff).toContain('-          value: "Mexico"\n+          value: "Canada"');
    expect(diff).toContain('+      key: "deviceId"');
    expect(diff).not.toMatch(/^[-+] *op: "(and|or)"/m);
  });
});
