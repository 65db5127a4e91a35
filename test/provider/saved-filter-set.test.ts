import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CheckFailedError, destroy, ProviderCallError, refresh, stateAfterFailure, up, type PropertyMap } from "../../engine";
import { failure } from "../support/failure";
import { startProviderFixture, summarize, type ProviderFixture } from "./fixture";

/**
 * SavedFilterSet through the real dynamic-provider host over gRPC, from the tsc build, against the
 * emulator: member-by-member diffs, bulk calls of up to 100 filters (spec 4.8), drift, adoption and
 * check failures with member paths.
 */

const cityRules = (city: string) => ({ op: "and", rules: [{ field: "City", op: "equals", value: city }] });
/** The same tree as {@link cityRules} once canonical: wrapped in a group of the same op. */
const cityRulesRegrouped = (city: string) => ({ op: "and", rules: [{ op: "and", rules: [{ field: "City", op: "equals", value: city }] }] });
const episode = (index: number) => ({ rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: `Episode ${index}` }] }, category: "CONTENT", subcategory: "Show" });
const episodes = (count: number, change: Record<string, unknown> = {}) =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`episode-${index}`, { ...episode(index), ...change }]));

describe("SavedFilterSet through the dynamic-provider host", () => {
  let fixture: ProviderFixture;
  let cities: string[];

  const inputs = (args: Record<string, unknown>): PropertyMap => fixture.inputs(args);
  const byName = async () => new Map((await fixture.listed()).map((filter) => [filter.name as string, filter]));

  beforeAll(async () => {
    fixture = await startProviderFixture({
      module: "dist/provider/index.js",
      exportName: "SavedFilterSet",
      args: ["cities", { filters: { paris: { rules: cityRules("Paris") } } }],
    });
    cities = (await fixture.emulator.get("/bulk_filters/cities/")).body.values.slice(0, 4);
  });
  afterAll(async () => {
    await fixture?.close();
  });
  beforeEach(async () => {
    await fixture.emulator.control("POST", "reset");
  });

  it("serializes a small provider that names its implementation", () => {
    expect(fixture.providerText).toContain("pulumi-insights/dist/provider/resources/saved-filter/set-provider.js");
    expect(fixture.providerText.length).toBeLessThan(4_000);
  });

  it("creates, leaves an equivalent set alone, changes one member, adds and removes members, and deletes", async () => {
    const [a, b, c, d] = cities as [string, string, string, string];
    const members = { a: { rules: cityRules(a) }, b: { name: `City of ${b}`, rules: cityRules(b) }, c: { rules: cityRules(c), enabled: false } };
    let mark = fixture.mark();
    const created = await up(fixture.host, inputs({ filters: members }));
    expect(summarize(fixture.requestsSince(mark))).toEqual(["POST 201"]);
    const ids = created.state.outputs.ids as Record<string, string>;
    expect(Object.keys(ids)).toEqual(["a", "b", "c"]);
    const stored = await byName();
    expect([...stored.keys()].sort()).toEqual(["a", "c", `City of ${b}`].sort());
    expect(stored.get("a")!.id).toBe(ids.a);
    expect(created.state.outputs.filters).toMatchObject({ c: { filterId: ids.c, name: "c", enabled: false, creator: "dev@example.com" } });

    const regrouped = { ...members, a: { rules: cityRulesRegrouped(a) } };
    expect((await up(fixture.host, inputs({ filters: regrouped }), created.state)).operation).toBe("same");

    mark = fixture.mark();
    const changed = await up(fixture.host, inputs({ filters: { ...members, b: { name: `City of ${b}`, rules: cityRules(d) } } }), created.state);
    expect(changed.operation).toBe("update");
    // The PUT, then one read of when and by whom the changed member was edited (saved-filters/reconciler.ts appliedUpdate).
    expect(summarize(fixture.requestsSince(mark))).toEqual(["PUT 200", "GET 200"]);
    expect(changed.state.outputs.ids).toEqual(ids);
    await fixture.host.waitForDiagnostic("SavedFilterSet (3 members): 0 to add, 1 to change, 0 to remove");
    await fixture.host.waitForDiagnostic(`~ filters["b"]: rules`);
    const shown = fixture.host.diagnostics.map((line) => line.message).join("\n");
    expect(shown).toMatch(new RegExp(`-.*${b}`));
    expect(shown).toMatch(new RegExp(`\\+.*${d}`));

    mark = fixture.mark();
    const reshaped = await up(fixture.host, inputs({ filters: { a: members.a, b: { name: `City of ${b}`, rules: cityRules(d) }, d: { rules: cityRules(d) } } }), changed.state);
    expect(summarize(fixture.requestsSince(mark)).sort()).toEqual(["DELETE 200", "POST 201"]);
    expect(Object.keys(reshaped.state.outputs.ids as object)).toEqual(["a", "b", "d"]);
    await fixture.host.waitForDiagnostic((line) => line.message.includes(`- filters["c"]: removed (filter ${ids.c} is deleted)`));
    expect([...(await byName()).keys()].sort()).toEqual(["a", `City of ${b}`, "d"].sort());

    mark = fixture.mark();
    await destroy(fixture.host, reshaped.state);
    expect(summarize(fixture.requestsSince(mark))).toEqual(["DELETE 200"]);
    expect(await fixture.listed()).toEqual([]);
  });

  it("uses one bulk call per 100 members for create, refresh, update and delete of 250 members", async () => {
    let mark = fixture.mark();
    const created = await up(fixture.host, inputs({ filters: episodes(250) }));
    expect(summarize(fixture.requestsSince(mark))).toEqual(["POST 201", "POST 201", "POST 201"]);
    expect(Object.keys(created.state.outputs.ids as object)).toHaveLength(250);

    mark = fixture.mark();
    const refreshed = await refresh(fixture.host, created.state);
    expect(summarize(fixture.requestsSince(mark))).toEqual(["GET 200", "GET 200", "GET 200"]);
    expect(refreshed!.outputs.ids).toEqual(created.state.outputs.ids);

    mark = fixture.mark();
    const updated = await up(fixture.host, inputs({ filters: episodes(250, { enabled: false }) }), refreshed);
    expect(summarize(fixture.requestsSince(mark)).sort()).toEqual(["GET 200", "GET 200", "GET 200", "PUT 200", "PUT 200", "PUT 200"]);
    expect(Object.values(updated.state.outputs.filters as Record<string, { enabled: boolean }>).every((member) => member.enabled === false)).toBe(true);

    mark = fixture.mark();
    await destroy(fixture.host, updated.state);
    expect(summarize(fixture.requestsSince(mark))).toEqual(["DELETE 200", "DELETE 200", "DELETE 200"]);
    expect(await fixture.listed()).toEqual([]);
  });

  it("shows drift on refresh (an edit, a deletion) and the next up puts the declared members back", async () => {
    const { state } = await up(fixture.host, inputs({ filters: episodes(3) }));
    const ids = state.outputs.ids as Record<string, string>;
    await fixture.emulator.call("PUT", "/bulk_filters/", { body: [{ id: ids["episode-0"], name: "Edited in the console" }] });
    await fixture.emulator.call("DELETE", "/bulk_filters/", { query: { id: ids["episode-2"]! } });

    const refreshed = await refresh(fixture.host, state);
    expect(refreshed!.outputs.ids).toEqual({ "episode-0": ids["episode-0"], "episode-1": ids["episode-1"] });
    expect(refreshed!.outputs.filters).toMatchObject({ "episode-0": { name: "Edited in the console" } });

    const mark = fixture.mark();
    const repaired = await up(fixture.host, inputs({ filters: episodes(3) }), refreshed);
    expect(summarize(fixture.requestsSince(mark)).sort()).toEqual(["GET 200", "POST 201", "PUT 200"]);
    expect([...(await byName()).keys()].sort()).toEqual(["episode-0", "episode-1", "episode-2"]);
    expect((repaired.state.outputs.ids as Record<string, string>)["episode-0"]).toBe(ids["episode-0"]);
  });

  it("adopts existing filters by member key instead of creating them", async () => {
    const existing = await fixture.emulator.call("POST", "/bulk_filters/", { body: [{ name: "Made in the console", rules: cityRules(cities[0]!) }] });
    const id = String(existing.body[0].id);
    const mark = fixture.mark();
    const { state } = await up(fixture.host, inputs({ filters: { first: { rules: cityRules(cities[0]!) }, second: { rules: cityRules(cities[1]!) } }, adopt: { first: id } }));
    // The adopted filter read, the other created, the adopted one renamed, and its edit read back.
    expect(summarize(fixture.requestsSince(mark)).sort()).toEqual(["GET 200", "GET 200", "POST 201", "PUT 200"]);
    expect(state.outputs).toMatchObject({ ids: { first: id }, filters: { first: { name: "first" } }, adopt: { first: id } });
    expect(await fixture.listed()).toHaveLength(2);
  });

  it("keeps what was applied when one member fails, names the member, and completes on the next up", async () => {
    const filters = { ...episodes(30), bad: { ...episode(99), category: "NOPE" } };
    const error = (await failure(up(fixture.host, inputs({ filters })))) as ProviderCallError;
    expect(error).toBeInstanceOf(ProviderCallError);
    expect(error.message).toMatch(/1 of 31 member changes failed/);
    // Without a parameter in the error body (docs/api.md 7), the place is whatever the message says.
    expect(error.partial?.reasons).toEqual([expect.stringMatching(/^filters\["bad"\](\.category)?: (create failed: )?unknown category "NOPE"/)]);
    const partial = stateAfterFailure(error, inputs({ filters }))!;
    expect(Object.keys(partial.outputs.ids as object)).toHaveLength(30);
    expect(await fixture.listed()).toHaveLength(30);

    const fixed = { ...filters, bad: episode(99) };
    const completed = await up(fixture.host, inputs({ filters: fixed }), partial);
    expect(Object.keys(completed.state.outputs.ids as object)).toHaveLength(31);
    expect(await fixture.listed()).toHaveLength(31);
    await destroy(fixture.host, completed.state);
    expect(await fixture.listed()).toEqual([]);
  });

  it("checks every member with its path, lookup values included, and the adoption map", async () => {
    const filters = {
      paris: { rules: { op: "and", rules: [{ field: "Contry", op: "equals", value: "France" }] } },
      lyon: { rules: { op: "and", rules: [{ field: "Country", op: "equals", value: "Untied States" }] } },
      nice: { rule: cityRules("Nice"), enabled: "yes" },
      ok: { name: "", rules: cityRules(cities[0]!) },
    };
    const attempt = await up(fixture.host, inputs({ filters, adopt: { nowhere: "12", ok: "x" } })).catch((error: unknown) => error);
    expect(attempt).toBeInstanceOf(CheckFailedError);
    const reasons = (attempt as CheckFailedError).failures.map((failure) => `${failure.property}: ${failure.reason}`);
    expect(reasons).toEqual(expect.arrayContaining([
      expect.stringMatching(/^filters: filters\["paris"\]\.rules\.rules\[0\]\.field: .*did you mean "Country"/),
      expect.stringMatching(/^filters: filters\["lyon"\]\.rules\.rules\[0\]\.value: .*did you mean "United States"/),
      expect.stringMatching(/^filters: filters\["nice"\]\.rule: unknown property; did you mean "rules"/),
      expect.stringMatching(/^filters: filters\["nice"\]\.enabled: /),
      expect.stringMatching(/^filters: filters\["nice"\]\.rules: required/),
      expect.stringMatching(/^filters: filters\["ok"\]\.name: must be a non-empty string/),
      expect.stringMatching(/^adopt: adopt\["nowhere"\]: no member of filters has this key/),
      expect.stringMatching(/^adopt: adopt\["ok"\]: must be the numeric id/),
    ]));
    expect(reasons).toHaveLength(8);
    const misspelt = await fixture.host.check({}, inputs({ filters: { ok: { rules: cityRules(cities[0]!) } }, adpot: { ok: "12" } }));
    expect(misspelt.failures).toEqual([{ property: "adpot", reason: 'adpot: unknown property; did you mean "adopt"?' }]);
    expect(await fixture.listed()).toEqual([]);
  });
});
