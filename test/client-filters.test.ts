import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PartialFailureError,
  PermissionDeniedError,
  type FilterListQuery,
} from "../provider/client";
import type { SavedFilter, SavedFilterInput } from "../provider/schema";
import { expectRefusedBeforeSending, journalMark, requestsSince, useQueryFamilies, withClient } from "./support/query-families";
import { BASIC, DIALECT_ANSWERS, TEST_NOW_MS } from "./support/emulator";
import { failure } from "./support/failure";

// The saved-filter family of the typed client (spec 4.8) against the emulator over loopback.
// HTTP calls are counted in the emulator's journal.

// Retries on, without waiting: the retry tests count attempts in the journal. No reset between
// tests: the tests of "create, read, update and delete" share the filters its beforeAll made.
const context = useQueryFamilies({ retry: { baseDelayMs: 1, sleep: async () => {} } });
afterEach(async () => {
  await context.emulator.control("DELETE", "faults");
});

function filterInput(name: string, overrides: Partial<SavedFilterInput> = {}): SavedFilterInput {
  return {
    name,
    rules: { op: "and", rules: [{ op: "or", rules: [{ field: "Asset Name", op: "contains", value: name }] }] },
    ...overrides,
  };
}

describe("create, read, update and delete", () => {
  let created: SavedFilter[];
  beforeAll(async () => {
    created = await context.client.filters.create({
      filters: [
      filterInput("h5 sports live", { category: "CONTENT", subcategory: "Asset", advanced: true, enabled: true }),
      filterInput("h5 sports", { category: "NETWORK", subcategory: "Resource", advanced: false, enabled: false }),
      filterInput("h5 news"),
      ],
    });
  });

  it("creates filters and answers them in input order with string ids", () => {
    expect(created.map((filter) => filter.name)).toEqual(["h5 sports live", "h5 sports", "h5 news"]);
    for (const filter of created) expect(filter.id).toMatch(/^\d+$/);
    expect(created[0]).toMatchObject({ category: "CONTENT", subcategory: "Asset", advanced: true, enabled: true, creator: "dev@example.com" });
  });

  it("reads an unset category as none whether the wire leaves it out or holds null, and keeps created as written", async () => {
    const [wire] = (await context.emulator.get("/bulk_filters/", { id: created[2]!.id })).body.filters;
    expect(wire.category).toBe(DIALECT_ANSWERS.unsetCategory);
    expect(wire.created).toBe(DIALECT_ANSWERS.filterCreatedAtTestNow);
    const read = await context.client.filters.get({ id: created[2]!.id });
    expect(read.category).toBeUndefined();
    expect(read.subcategory).toBeUndefined();
    expect(JSON.parse(JSON.stringify(read))).not.toHaveProperty("category");
    expect(read.created).toBe(DIALECT_ANSWERS.filterCreatedAtTestNow);
    expect(Date.parse(read.created!)).toBe(TEST_NOW_MS);
  });

  it("gets one filter by id (string or number), and NotFoundError for an unknown id", async () => {
    expect(await context.client.filters.get({ id: created[1]!.id })).toEqual(created[1]);
    expect(await context.client.filters.get({ id: Number(created[2]!.id) })).toMatchObject({ id: created[2]!.id, name: "h5 news" });
    const missing = await failure(context.client.filters.get({ id: "999999" }));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, parameter: "id" });
  });

  it("finds filters by exact name only", async () => {
    const found = await context.client.filters.findByName({ name: "h5 sports" });
    expect(found.map((filter) => filter.id)).toEqual([created[1]!.id]);
    expect(await context.client.filters.findByName({ name: "h5 spo" })).toEqual([]);
  });

  it("lists with every query parameter", async () => {
    // Sorted: the order of a listing is the service's (emulator/README.md "Dialects").
    const names = async (query: Omit<FilterListQuery, "fields">) => (await context.client.filters.list(query)).map((filter) => filter.name).sort();
    expect(await names({ name: "h5 sports" })).toEqual(["h5 sports", "h5 sports live"]);
    expect(await names({ ids: [created[0]!.id, Number(created[2]!.id)] })).toEqual(["h5 news", "h5 sports live"]);
    expect(await names({ name: "h5", advanced: true })).toEqual(["h5 sports live"]);
    expect(await names({ name: "h5", enabled: false })).toEqual(["h5 sports"]);
    expect(await names({ name: "h5", category: "NETWORK" })).toEqual(["h5 sports"]);
    expect(await names({ name: "h5", subcategory: "Asset" })).toEqual(["h5 sports live"]);
    // Two of the three: which two, the service's order decides.
    const limited = await names({ name: "h5", creator: "dev@example.com", created: "2026-11-20", limit: 2 });
    expect(limited).toHaveLength(2);
    expect(["h5 news", "h5 sports", "h5 sports live"]).toEqual(expect.arrayContaining(limited));
    expect(await names({ name: "h5", created: "2026-11-19" })).toEqual([]);
    expect(await names({ name: "h5", creator: "someone else" })).toEqual([]);
  });

  it("lists only the selected fields as a bare array", async () => {
    const rows = await context.client.filters.list({ name: "h5 news", fields: ["id", "name"] });
    expect(rows).toEqual([{ id: created[2]!.id, name: "h5 news" }]);
  });

  it("sends the query the spec names (comma-separated ids, booleans as text)", async () => {
    const since = await journalMark(context.emulator);
    await context.client.filters.list({ ids: [created[0]!.id, created[1]!.id], enabled: true, fields: ["id"] });
    const [entry] = await requestsSince(context.emulator, since);
    expect(new URLSearchParams(entry!.query).get("id")).toBe(`${created[0]!.id},${created[1]!.id}`);
    expect(new URLSearchParams(entry!.query).get("enabled")).toBe("true");
    expect(new URLSearchParams(entry!.query).get("fields")).toBe("id");
  });

  it("updates by merging the given fields", async () => {
    const [answer] = await context.client.filters.update({ changes: [{ id: created[2]!.id, enabled: false, name: "h5 news renamed" }] });
    expect(answer).toMatchObject({ status: 200, location: expect.stringContaining(created[2]!.id) });
    expect(await context.client.filters.get({ id: created[2]!.id })).toMatchObject({ name: "h5 news renamed", enabled: false, rules: created[2]!.rules });
  });

  it("deletes by id and answers the id and name of each", async () => {
    const [victim] = await context.client.filters.create({ filters: [filterInput("h5 to delete")] });
    expect(await context.client.filters.delete({ ids: [victim!.id] })).toEqual([{ id: victim!.id, name: "h5 to delete" }]);
    expect(await failure(context.client.filters.get({ id: victim!.id }))).toBeInstanceOf(NotFoundError);
  });
});

describe("batches of more than 100", () => {
  it("creates, lists, updates and deletes 150 filters in chunks of 100", async () => {
    const inputs = Array.from({ length: 150 }, (_, index) => filterInput(`h5 bulk ${String(index).padStart(3, "0")}`));
    let since = await journalMark(context.emulator);
    const created = await context.client.filters.create({ filters: inputs });
    expect(created.map((filter) => filter.name)).toEqual(inputs.map((input) => input.name));
    expect(new Set(created.map((filter) => filter.id)).size).toBe(150);
    expect((await requestsSince(context.emulator, since)).map((entry) => `${entry.method} ${entry.status}`)).toEqual(["POST 201", "POST 201"]);

    const ids = created.map((filter) => filter.id);
    since = await journalMark(context.emulator);
    expect((await context.client.filters.list({ ids, fields: ["id"] })).map((row) => row.id).sort()).toEqual([...ids].sort());
    expect(await context.client.filters.list({ ids, limit: 120, fields: ["id"] })).toHaveLength(120);
    expect(await requestsSince(context.emulator, since)).toHaveLength(4);

    since = await journalMark(context.emulator);
    const answers = await context.client.filters.update({ changes: ids.map((id) => ({ id, enabled: false })) });
    expect(answers).toHaveLength(2);
    expect((await context.client.filters.list({ name: "h5 bulk", enabled: false })).length).toBe(150);

    const deleted = await context.client.filters.delete({ ids });
    expect(deleted.map((entry) => entry.id).sort()).toEqual([...ids].sort());
    const calls = (await requestsSince(context.emulator, since)).filter((entry) => entry.method !== "GET").map((entry) => `${entry.method} ${entry.status}`);
    expect(calls).toEqual(["PUT 200", "PUT 200", "DELETE 200", "DELETE 200"]);
  });

  it("reports which chunks were applied when only some fail, and never retries the POST", async () => {
    await context.emulator.control("POST", "faults", { method: "POST", path: "/bulk_filters", status: 503, times: 1 });
    const inputs = Array.from({ length: 120 }, (_, index) => filterInput(`h5 partial ${index}`));
    const since = await journalMark(context.emulator);
    const error = await failure(context.client.filters.create({ filters: inputs }));
    expect(error).toBeInstanceOf(PartialFailureError);
    const partial = error as PartialFailureError<SavedFilter>;
    expect(partial.failures).toHaveLength(1);
    expect(partial.cause).toBeInstanceOf(InternalServerError);
    const failedSize = partial.failures[0]!.chunk === 0 ? 100 : 20;
    expect(partial.completed).toHaveLength(120 - failedSize);
    expect((await context.client.filters.list({ name: "h5 partial" })).length).toBe(120 - failedSize);
    const posts = (await requestsSince(context.emulator, since)).filter((entry) => entry.method === "POST");
    expect(posts.map((entry) => entry.status).sort()).toEqual([201, 503]);
  });

  it("throws the error itself when every chunk fails", async () => {
    await context.emulator.control("POST", "faults", { method: "POST", path: "/bulk_filters", status: 503, times: 1 });
    expect(await failure(context.client.filters.create({ filters: [filterInput("h5 all failed")] }))).toBeInstanceOf(InternalServerError);
  });
});

describe("lookups", () => {
  it("lists the filter field names", async () => {
    const fields = await context.client.filters.fields();
    expect(fields).toContain("Asset Name");
    expect(fields).toContain("Tag");
  });

  it("answers every lookup, narrowed by pattern", async () => {
    for (const name of ["asn", "categories", "cities", "continents", "countries", "dma", "isp", "states", "tags"] as const) {
      const values = await context.client.filters.lookup({ lookup: name });
      expect(values.length, name).toBeGreaterThan(0);
      const pattern = values[0]!.slice(0, 3);
      const narrowed = await context.client.filters.lookup({ lookup: name, pattern });
      expect(narrowed.length, name).toBeGreaterThan(0);
      expect(narrowed.every((value) => value.toLowerCase().includes(pattern.toLowerCase())), name).toBe(true);
    }
    expect(await context.client.filters.lookup({ lookup: "categories" })).toContain("CONTENT");
  });

  it("lists subcategories of a category", async () => {
    expect(await context.client.filters.subcategories({ category: "CONTENT" })).toContain("Asset");
    expect(await context.client.filters.subcategories({ category: "NETWORK", pattern: "Res" })).toEqual(["Resource"]);
    const error = await failure(context.client.filters.subcategories({ category: "CONTNET" }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toContain("CONTENT");
  });
});

describe("arguments are checked before sending", () => {
  it.each([
    ["an empty name in a batch", () => context.client.filters.create({ filters: [filterInput("ok"), { name: "", rules: filterInput("x").rules }] }), "filters[1].name", /at least 1 character|>=1 characters|empty/],
    ["a filter without rules", () => context.client.filters.create({ filters: [{ name: "no rules" } as SavedFilterInput] }), "filters[0].rules", /expected object, received undefined|required|missing/],
    ["a created date not in YYYY-MM-DD", () => context.client.filters.list({ created: "20.11.2026" }), "created", /YYYY-MM-DD/],
    ["a limit of 0", () => context.client.filters.list({ limit: 0 }), "limit", /at least 1|>0|positive/],
    ["a misspelt field to return", () => context.client.filters.list({ fields: ["nmae" as "name"] }), "fields[0]", /"nmae" is not a known saved-filter field; did you mean "name"/],
    ["a misspelt list parameter", () => context.client.filters.list({ nmae: "x" } as never), "params.nmae", /did you mean "name"/],
    ["a misspelt lookup", () => context.client.filters.lookup({ lookup: "countires" as "countries" }), "lookup", /did you mean "countries"/],
    ["an empty id to delete", () => context.client.filters.delete({ ids: [""] }), "ids[0]", /at least 1 character|>=1 characters|empty/],
    ["an empty id to get", () => context.client.filters.get({ id: "" }), "id", /at least 1 character|>=1 characters|empty/],
    ["an empty id at the end of a batch to delete", () => context.client.filters.delete({ ids: ["1", "2", "3", ""] }), "ids[3]", /at least 1 character|>=1 characters|empty/],
  ])("refuses %s, naming the argument and what to change, and sends nothing", (_case, call, path, message) =>
    expectRefusedBeforeSending(context.emulator, call, path, message));

  it.each([
    ["get", () => context.client.filters.get({ idd: "1" } as never), "params.idd", /is not an argument of this method; did you mean "id"\?/],
    ["findByName", () => context.client.filters.findByName({ nmae: "h5 sports" } as never), "params.nmae", /did you mean "name"/],
    ["create", () => context.client.filters.create({ filter: [filterInput("h5 typo")] } as never), "params.filter", /did you mean "filters"/],
    ["update", () => context.client.filters.update({ change: [] } as never), "params.change", /did you mean "changes"/],
    ["delete", () => context.client.filters.delete({ id: ["1"] } as never), "params.id", /did you mean "ids"/],
    ["lookup", () => context.client.filters.lookup({ lookups: "countries" } as never), "params.lookups", /did you mean "lookup"/],
    ["fields, which takes none", () => context.client.filters.fields({ timeoutMs: 60 } as never), "params.timeoutMs", /is not an argument of this method; the method takes none.*per-call options go second/],
    ["subcategories", () => context.client.filters.subcategories({ categroy: "CONTENT" } as never), "params.categroy", /did you mean "category"/],
    // The schema would drop these silently: the filter would be created (or left) enabled.
    ["a filter to create", () => context.client.filters.create({ filters: [filterInput("h5 a"), { ...filterInput("h5 b"), enabeld: false }] } as never), "filters[1].enabeld", /: unknown property; did you mean "enabled"\?$/],
    ["a change", () => context.client.filters.update({ changes: [{ id: "1001", enabeld: false }] } as never), "changes[0].enabeld", /: unknown property; did you mean "enabled"\?$/],
  ])("refuses a misspelt params key of %s with a did-you-mean", (_case, call, path, message) =>
    expectRefusedBeforeSending(context.emulator, call, path, message));

  it("refuses the old positional form", () =>
    expectRefusedBeforeSending(context.emulator, () => context.client.filters.get("1" as never), "params", /must be an object of named arguments/));

  it("answers an empty batch without a request", async () => {
    const since = await journalMark(context.emulator);
    expect(await context.client.filters.create({ filters: [] })).toEqual([]);
    expect(await context.client.filters.delete({ ids: [] })).toEqual([]);
    expect(await requestsSince(context.emulator, since)).toEqual([]);
  });
});

it("maps an account without bulk filters to PermissionDeniedError (spec 1)", async () => {
  const error = await withClient(context.emulator, BASIC, (basic) => failure(basic.filters.list()));
  expect(error).toBeInstanceOf(PermissionDeniedError);
  expect(error).toMatchObject({ status: 403, ...(DIALECT_ANSWERS.errorsNameTheParameter ? { code: "feature_not_enabled" } : {}) });
});
