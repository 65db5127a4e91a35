import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { up, type ProviderHost } from "../../engine";
import { DEV_ACCOUNT } from "../../emulator";
import { startProviderFixture, type ProviderFixture } from "./fixture";

/**
 * A lookup longer than one answer holds, through the real dynamic-provider host: an account of the
 * real service lists every city of its geography data, and a lookup answer, like every result set,
 * holds at most 500 values (docs/api.md 10.1). `check()` must not refuse a city only because the cut
 * answer did not reach it (docs/api.md 11.6).
 */
const MODULE = "dist/provider/index.js";

/** 600 cities of the account besides its data world's: with them the cities lookup is cut at 500. */
const TOWNS = Array.from({ length: 600 }, (_, index) => `Town ${String(index).padStart(3, "0")}`);
/** A city the cut answer does not reach (the lookup is sorted). */
const LAST_TOWN = TOWNS.at(-1)!;

const cityRule = (city: string) => ({ op: "and", rules: [{ field: "City", op: "equals", value: city }] });

describe("a lookup longer than one answer, through the dynamic-provider host", () => {
  let fixture: ProviderFixture;
  let host: ProviderHost;

  beforeAll(async () => {
    fixture = await startProviderFixture({
      module: MODULE,
      exportName: "SavedFilter",
      args: ["town", { name: "Town viewers", rules: cityRule(LAST_TOWN) }],
      emulatorOptions: { accounts: [{ ...DEV_ACCOUNT, lookupValues: { cities: TOWNS } }] },
    });
    host = fixture.host;
  });
  afterAll(() => fixture?.close());

  /** The lookups of the cities sent since `mark`, by their `pattern` ("" for the whole lookup). */
  const cityLookupsSince = (mark: number): string[] =>
    fixture.requestsSince(mark)
      .filter((entry) => entry.method === "GET" && entry.path === "/bulk_filters/cities")
      .map((entry) => new URLSearchParams(entry.query).get("pattern") ?? "");

  it("answers at most 500 values of a lookup, and pattern narrows it", async () => {
    const whole = (await fixture.emulator.get("/bulk_filters/cities/")).body.values as string[];
    expect(whole).toHaveLength(500);
    expect(whole).not.toContain(LAST_TOWN);
    const narrowed = await fixture.emulator.call("GET", "/bulk_filters/cities/", { query: { pattern: LAST_TOWN } });
    expect(narrowed.body.values).toEqual([LAST_TOWN]);
  });

  it("accepts a city past the cut after looking it up by pattern, and creates the filter", async () => {
    const mark = fixture.mark();
    const checked = await host.check({}, fixture.inputs({ name: "Town viewers", rules: cityRule(LAST_TOWN) }));
    expect(checked.failures).toEqual([]);
    // The whole lookup once, then the one city it did not list.
    expect(cityLookupsSince(mark)).toEqual(["", LAST_TOWN]);

    const created = await up(host, fixture.inputs({ name: "Town viewers", rules: cityRule(LAST_TOWN) }));
    expect(created.operation).toBe("create");
    expect((await fixture.listed()).map((filter) => filter.rules)).toEqual([cityRule(LAST_TOWN)]);
  });

  it("looks up several cities past the cut with one narrowed lookup that covers them all", async () => {
    const mark = fixture.mark();
    const towns = TOWNS.slice(590);
    const rules = { op: "or", rules: towns.map((town) => ({ field: "City", op: "equals", value: town })) };
    const checked = await host.check({}, fixture.inputs({ name: "last towns", rules }));
    expect(checked.failures).toEqual([]);
    // Their common beginning, not one lookup for each of the ten.
    expect(cityLookupsSince(mark).filter((pattern) => pattern !== "")).toEqual(["Town 59"]);
  });

  it("still refuses a city that the narrowed answer does not list either", async () => {
    const checked = await host.check({}, fixture.inputs({ name: "typo", rules: cityRule("Twon 599") }));
    expect(checked.failures.map((failure) => failure.reason)).toEqual([
      expect.stringMatching(/^rules\.rules\[0\]\.value: City value "Twon 599" is not in the cities lookup/),
    ]);
  });

  it("accepts a city it cannot disprove: one whose narrowed answer is cut too", async () => {
    // Every one of the 600 towns contains "Town", so that answer is cut as well: nothing shows that
    // the service would refuse the value, so the preview does not (the account may still do so).
    const mark = fixture.mark();
    const checked = await host.check({}, fixture.inputs({ name: "any town", rules: cityRule("Town") }));
    expect(checked.failures).toEqual([]);
    expect(cityLookupsSince(mark).filter((pattern) => pattern !== "")).toEqual(["Town"]);
  });
});
