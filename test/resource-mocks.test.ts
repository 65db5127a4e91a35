import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import * as insights from "../provider";
import { savedFilterCore } from "../provider/saved-filters/saved-filter";
import { savedFilterSetCore } from "../provider/saved-filters/saved-filter-set";
import { piiOptOutRequestCore } from "../provider/pii/pii-opt-out-request";

/**
 * A user's unit test of a program with Pulumi's mocks, which never call the provider
 * (docs/dynamic-providers.md rule 11): the resource classes check what is known when the program
 * runs and throw in the words of the preview's check, so each mistake below fails the test
 * (docs/data-sources.md "Unit tests of a program with mocks"). Each message is also held to the
 * core's own check, which the preview runs: one check, one wording.
 */

/** The resources the mock engine was asked to register, by name. */
const registered = new Map<string, Record<string, unknown>>();

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.set(args.name, args.inputs);
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: (args) => args.inputs,
    },
    "resource-mocks",
    "test",
    false,
  );
});

/** The SDK's accessor of an Output's value. */
const valueOf = <T>(output: pulumi.Output<T>): Promise<T> => (output as unknown as { promise(): Promise<T> }).promise();

/** The error `construct` throws, which must be the package's (an `InsightsError`). */
function refusal(construct: () => unknown): insights.InsightsError {
  try {
    construct();
  } catch (error) {
    expect(error).toBeInstanceOf(insights.InsightsError);
    expect((error as Error).name).toBe("InputsRefusedError");
    return error as insights.InsightsError;
  }
  throw new Error("expected the constructor to throw");
}

/**
 * The reasons the preview shows for `inputs` (the core's check, as both hosts run it), the account's
 * aside: a named account that no stack config holds, so that nothing is read.
 */
async function previewReasons(core: { check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ failures: Array<{ property: string; reason: string }> }> }, inputs: Record<string, unknown>): Promise<string[]> {
  const { failures } = await core.check({}, { ...inputs, account: "resource-mocks-none" });
  return failures.filter(({ property }) => property !== "account").map(({ property, reason }) => (reason.startsWith(property) ? reason : `${property}: ${reason}`));
}

/** A rule tree written as plain JSON, as a program may read it from a file. */
const CONTRY = { op: "and", rules: [{ field: "CDN", op: "equals", value: "Akamai" }, { field: "Contry", op: "equals", value: "France" }] };

describe("resources under pulumi.runtime.setMocks fail on what the preview would refuse", () => {
  it("a SavedFilter whose plain-JSON rule tree names the field \"Contry\"", async () => {
    const error = refusal(() => new insights.SavedFilter("akamai-france", { name: "Akamai in France", rules: CONTRY as insights.RuleGroup }));
    expect(error.message).toBe('SavedFilter "akamai-france": rules.rules[1].field: field "Contry" is not valid; did you mean "Country"?');
    expect(await previewReasons(savedFilterCore, { name: "Akamai in France", rules: CONTRY })).toEqual([error.message.replace('SavedFilter "akamai-france": ', "")]);
  });

  it("a SavedFilter without name", async () => {
    // @ts-expect-error -- name is required: a JavaScript program, or a cast, gets the check's words.
    const error = refusal(() => new insights.SavedFilter("no-name", { rules: insights.and(insights.field("Country").equals("France")) }));
    expect(error.message).toBe('SavedFilter "no-name": name: required');
    expect(await previewReasons(savedFilterCore, { rules: insights.and(insights.field("Country").equals("France")) })).toEqual(["name: required"]);
  });

  it("a PiiOptOutRequest with an empty viewer id: the path, never an identifier", async () => {
    const error = refusal(() => new insights.PiiOptOutRequest("forget", { viewerIds: ["viewer-000123", ""] }));
    expect(error.message).toBe('PiiOptOutRequest "forget": viewerIds[1]: must be a non-empty string');
    expect(error.message).not.toContain("viewer-000123");
    expect(await previewReasons(piiOptOutRequestCore, { viewerIds: ["viewer-000123", ""] })).toEqual(["viewerIds[1]: must be a non-empty string"]);
  });

  it("a PiiOptOutRequest with both viewerIds and userIds, which the types refuse too", async () => {
    const both = { viewerIds: ["viewer-000123"], userIds: ["user-000456"] };
    // @ts-expect-error -- exactly one of viewerIds and userIds (the generated union of resources/args.ts).
    const error = refusal(() => new insights.PiiOptOutRequest("forget-both", both));
    const words = "viewerIds: give viewerIds or userIds, not both (spec 4.10: the identifiers of a request are all viewer ids or all user ids; use two resources for both kinds)";
    expect(error.message).toBe(`PiiOptOutRequest "forget-both": ${words}`);
    expect(error.message).not.toMatch(/000123|000456/);
    expect(await previewReasons(piiOptOutRequestCore, both)).toEqual([words]);
    // @ts-expect-error -- neither is refused by the types as well.
    expect(refusal(() => new insights.PiiOptOutRequest("forget-none", { waitForCompletion: false })).message).toMatch(/^PiiOptOutRequest "forget-none": viewerIds: give viewerIds or userIds \(spec 4\.10/);
  });

  it("a SavedFilterSet member's mistakes, every one at its path, each line the preview's", async () => {
    const filters = { paris: { rules: CONTRY }, lyon: { name: "", rules: insights.and(insights.field("City").equals("Lyon")) } };
    const error = refusal(() => new insights.SavedFilterSet("cities", { filters: filters as Record<string, insights.SavedFilterSetMemberArgs>, adopt: { pariss: "12" } }));
    const lines = [
      'filters["paris"].rules.rules[1].field: field "Contry" is not valid; did you mean "Country"?',
      'filters["lyon"].name: must be a non-empty string',
      'adopt["pariss"]: no member of filters has this key; did you mean "paris"?',
    ];
    expect(error.message).toBe(`SavedFilterSet "cities": 3 problems:\n${lines.map((line) => `  ${line}`).join("\n")}`);
    expect(await previewReasons(savedFilterSetCore, { filters, adopt: { pariss: "12" } })).toEqual(lines);
  });

  it("nothing refused is registered; a valid program registers, values not known yet are left to the preview", async () => {
    const country = pulumi.output("France");
    const filter = new insights.SavedFilter("france", { name: "France", rules: country.apply((name) => insights.and(insights.field("Country").equals(name))) });
    const set = new insights.SavedFilterSet("cities-ok", { filters: { paris: { rules: insights.and(insights.field("City").equals("Paris")), enabled: pulumi.output(true) } } });
    const request = new insights.PiiOptOutRequest("forget-ok", { viewerIds: pulumi.secret(["viewer-000123"]), waitForCompletion: false });
    expect(await valueOf(filter.id)).toBe("france-id");
    expect(await valueOf(set.id)).toBe("cities-ok-id");
    expect(await valueOf(request.id)).toBe("forget-ok-id");
    expect(registered.get("france")).toMatchObject({ name: "France", rules: { op: "and", rules: [{ field: "Country", op: "equals", value: "France" }] } });
    expect([...registered.keys()].sort()).toEqual(["cities-ok", "forget-ok", "france"]);
  });
});
