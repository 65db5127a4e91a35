import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Deployment, type ProviderHost } from "../../engine";
import { startProviderFixture, type ProviderFixture } from "./fixture";

/**
 * What a user reads when a filter was changed in the console (docs/resources.md "SavedFilter"): the refresh
 * shows the change and the next update puts the declaration back. Both print the provider's
 * rule-tree diff (the CLI asks the provider's diff on refresh too, docs/dynamic-providers.md rule 7),
 * children matched by content: the changed Country value as one leaf, the removed Tag rule as
 * added back, never a Country leaf turned into a Tag leaf property by property.
 */
const PROGRAM = "test/fixtures/drift/program.cjs";

/** The program's rules (test/fixtures/drift/program.cjs), as the service stores them. */
const united = { field: "Country", op: "equals", value: "United States" };
const declared = { op: "and", rules: [{ op: "or", rules: [united, { field: "Country", op: "equals", value: "Canada" }] }, { field: "Tag", key: "deviceId", op: "not_contains", value: "test-" }] };
/** The console's edit, as the offline demo makes it: Canada became Mexico, the device rule removed. */
const edited = { op: "and", rules: [{ op: "or", rules: [united, { field: "Country", op: "equals", value: "Mexico" }] }] };

/** The rule-tree diff from the edited filter back to the declared one. */
const DIFF = [
  " {",
  '   op: "and"',
  "   rules: [",
  "     {",
  '       op: "or"',
  "       rules: [",
  "         ...",
  "         {",
  '           field: "Country"',
  '           op: "equals"',
  '-          value: "Mexico"',
  '+          value: "Canada"',
  "         }",
  "       ]",
  "     }",
  "+    {",
  '+      field: "Tag"',
  '+      key: "deviceId"',
  '+      op: "not_contains"',
  '+      value: "test-"',
  "+    }",
  "   ]",
  " }",
];

const FILTER_BLOCK = ['SavedFilter "North America, no test devices": rules change (- in the account, + declared)', ...DIFF];
const SET_BLOCK = [
  "SavedFilterSet (1 members): 0 to add, 1 to change, 0 to remove",
  '  ~ filters["north-america"]: rules (- in the account, + declared)',
  ...DIFF.map((line) => `      ${line}`),
];

/** The lines the host printed from `start` on, once a block that starts with `first` and has `length` lines is complete. */
async function blockSince(host: ProviderHost, start: number, first: string, length: number): Promise<string[]> {
  const lines = () => host.diagnostics.slice(start).map((diagnostic) => diagnostic.message);
  // Lines travel on the host's stdout pipe and can come after the gRPC answers: wait for them.
  await host.waitForDiagnostic(() => {
    const at = lines().indexOf(first);
    return at >= 0 && lines().length >= at + length;
  });
  const at = lines().indexOf(first);
  return lines().slice(at, at + length);
}

describe("a change made in the console, seen by refresh and put back by the next update", () => {
  let fixture: ProviderFixture;

  beforeAll(async () => {
    fixture = await startProviderFixture({ module: "dist/provider/index.js", exportName: "SavedFilter", args: ["f", { name: "f", rules: declared }] });
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it("prints the same rule-tree diff, matched by content, for a SavedFilter and a SavedFilterSet member", async () => {
    const { host, emulator } = fixture;
    const output: string[] = [];
    const stack = new Deployment({ host, program: { module: PROGRAM, exportName: "drift" }, project: "insights-test-project", stack: "dev", write: (line) => output.push(line) });
    const created = await stack.update();
    expect(created.failed, output.join("\n")).toBe(false);
    const { filterId, memberIds } = created.outputs as { filterId: string; memberIds: Record<string, string> };
    const memberId = memberIds["north-america"]!;

    const put = await emulator.call("PUT", "/bulk_filters/", { body: [{ id: filterId, rules: edited }, { id: memberId, rules: edited }] });
    expect(put.status).toBe(200);

    let start = host.diagnostics.length;
    const drifts = await stack.refresh();
    expect(drifts.map((drift) => drift.name).sort()).toEqual(["north-america", "regions"]);
    expect(await blockSince(host, start, FILTER_BLOCK[0]!, FILTER_BLOCK.length)).toEqual(FILTER_BLOCK);
    expect(await blockSince(host, start, SET_BLOCK[0]!, SET_BLOCK.length)).toEqual(SET_BLOCK);

    start = host.diagnostics.length;
    const putBack = await stack.update();
    expect(putBack.failed, output.join("\n")).toBe(false);
    expect(Object.fromEntries(putBack.steps.map((step) => [step.name, step.operation]))).toEqual({ "north-america": "update", regions: "update" });
    expect(await blockSince(host, start, FILTER_BLOCK[0]!, FILTER_BLOCK.length)).toEqual(FILTER_BLOCK);
    expect(await blockSince(host, start, SET_BLOCK[0]!, SET_BLOCK.length)).toEqual(SET_BLOCK);

    const held = ((await emulator.get("/bulk_filters/")).body.filters as Array<{ id: unknown; rules: unknown }>)
      .filter((filter) => [filterId, memberId].includes(String(filter.id)));
    expect(held.map((filter) => filter.rules)).toEqual([declared, declared]);
    await stack.destroy();
  });
});
