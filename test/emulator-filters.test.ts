import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BASIC, startTestEmulator, TEST_NOW, useTestEmulator, type RawResponse, type TestEmulator } from "./support/emulator";
import { SPEC_FILTER_FIELDS } from "./support/spec-values";

/** Saved-filter management API of the emulator (spec 2.7, 4.8, 5.5, 7, 8), over raw HTTP. */

type Leaf = { field: string; op: string; value: string; key?: string };
const leaf = (field: string, value: string, op = "contains"): Leaf => ({ field, op, value });
const andOfOr = (...leaves: Leaf[]) => ({ op: "and", rules: [{ op: "or", rules: leaves }] });
const assetFilter = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  rules: andOfOr(leaf("Asset Name", name.toLowerCase())),
  ...extra,
});

describe("emulator saved filters (/bulk_filters)", () => {
  // Each test starts without filters, at TEST_NOW.
  const emulator = useTestEmulator({}, { resetEach: true });
  let country: string;
  let asn: string;
  let tag: string;

  const post = (body: unknown) => emulator.call("POST", "/bulk_filters/", { body });
  const put = (body: unknown) => emulator.call("PUT", "/bulk_filters/", { body });
  const remove = (id: string) => emulator.call("DELETE", "/bulk_filters/", { query: { id } });
  const list = (query?: Record<string, string | number>) => emulator.get("/bulk_filters/", query);
  const names = (response: RawResponse) => response.body.filters.map((filter: { name: string }) => filter.name);
  const expectError = (response: RawResponse, status: number, parameter: string, message: RegExp | string) => {
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(response.body.parameter).toBe(parameter);
    expect(response.body.message).toMatch(message);
  };
  const firstValue = async (lookup: string): Promise<string> => {
    const response = await emulator.get(`/bulk_filters/${lookup}/`);
    expect(response.body.values.length, `${lookup} lookup has values`).toBeGreaterThan(0);
    return response.body.values[0];
  };

  beforeAll(async () => {
    // Values are taken from the lookups rather than hard-coded, so the tests follow the data world.
    [country, asn, tag] = await Promise.all([firstValue("countries"), firstValue("asn"), firstValue("tags")]);
  });

  describe("access (spec 1, 5.5)", () => {
    const endpoints: Array<[string, string, unknown?]> = [
      ["GET", "/bulk_filters/"],
      ["POST", "/bulk_filters/", [assetFilter("A")]],
      ["PUT", "/bulk_filters/", [{ id: 1001, name: "B" }]],
      ["DELETE", "/bulk_filters/?id=1001"],
      ["GET", "/bulk_filters/fields"],
      ["GET", "/bulk_filters/countries/"],
      ["GET", "/bulk_filters/subcategories/"],
    ];

    it("answers 401 to a bad or missing credential on every endpoint", async () => {
      for (const [method, path, body] of endpoints) {
        const wrong = await emulator.call(method, path, { body, account: { clientId: "dev", clientSecret: "wrong" } });
        const none = await emulator.call(method, path, { body, account: null });
        expect([wrong.status, none.status], `${method} ${path}`).toEqual([401, 401]);
        expect(wrong.body).toEqual({ message: "Unauthorized" });
      }
    });

    it("answers 403 with how to enable the feature to an account without bulk filters, and changes nothing", async () => {
      for (const [method, path, body] of endpoints) {
        const response = await emulator.call(method, path, { body, account: BASIC });
        expect(response.status, `${method} ${path}`).toBe(403);
        expect(response.body).toMatchObject({ error: "feature_not_enabled", parameter: "bulkFilters" });
        expect(response.body.message).toMatch(/not enabled by default.*features\.bulkFilters/s);
      }
      expect((await list()).body.filters).toEqual([]);
    });
  });

  describe("POST (spec 4.8)", () => {
    it("creates filters with 201, sequential numeric ids from 1001, defaults and service-set fields", async () => {
      const response = await post([
        assetFilter("Sports", { category: "CONTENT", subcategory: "Asset" }),
        { name: "US only", rules: andOfOr(leaf("Country", country, "equals")), advanced: true, enabled: false, content: true },
      ]);
      expect(response.status).toBe(201);
      expect(response.body).toEqual([
        {
          id: 1001,
          name: "Sports",
          category: "CONTENT",
          subcategory: "Asset",
          advanced: false,
          content: false,
          enabled: true,
          rules: andOfOr(leaf("Asset Name", "sports")),
          created: "2026-11-20T12:30:00.000+00:00",
          creator: "dev@example.com",
          edited: "2026-11-20T12:30:00.000+00:00",
          editor: "dev@example.com",
        },
        expect.objectContaining({ id: 1002, name: "US only", advanced: true, enabled: false, content: true }),
      ]);
      expect(response.body[1]).not.toHaveProperty("category");
    });

    it("accepts the path without the trailing slash", async () => {
      const created = await emulator.call("POST", "/bulk_filters", { body: [assetFilter("No slash")] });
      expect(created.status).toBe(201);
      expect(names(await emulator.get("/bulk_filters"))).toEqual(["No slash"]);
    });

    it("accepts 100 filters in one call and refuses 101 without creating any (spec 8)", async () => {
      const hundred = Array.from({ length: 100 }, (_, index) => assetFilter(`F${index}`));
      const tooMany = await post([...hundred, assetFilter("F100")]);
      expectError(tooMany, 400, "body", /101 items; at most 100 filters per call/);
      expect((await list()).body.filters).toEqual([]);
      const created = await post(hundred);
      expect(created.status).toBe(201);
      expect(created.body.map((filter: { id: number }) => filter.id)).toEqual(Array.from({ length: 100 }, (_, index) => 1001 + index));
    });

    it("refuses a body that is not a non-empty array", async () => {
      expectError(await post(assetFilter("Single")), 400, "body", /JSON array of filters.*wrap a single object in \[ \]/);
      expectError(await post([]), 400, "body", /empty array/);
      expectError(await emulator.call("POST", "/bulk_filters/"), 400, "body", /body is required/);
      expectError(await post(["text"]), 400, "[0]", /must be a JSON object/);
      const invalidJson = await emulator.call("POST", "/bulk_filters/", { body: "[{" });
      expect(invalidJson.body).toMatchObject({ status: 400, error: "invalid_json" });
    });

    it("requires name and rules and refuses unknown and service-set fields", async () => {
      expectError(await post([{ rules: andOfOr(leaf("CDN", "x")) }]), 400, "[0].name", "[0].name is required");
      expectError(await post([{ name: "" , rules: andOfOr(leaf("CDN", "x")) }]), 400, "[0].name", /must not be empty/);
      expectError(await post([{ name: "No rules" }]), 400, "[0].rules", "[0].rules is required");
      expectError(await post([{ ...assetFilter("A"), enabeld: true }]), 400, "[0].enabeld", /did you mean "enabled"/);
      expectError(await post([{ ...assetFilter("A"), id: 5 }]), 400, "[0].id", /ids are assigned by the service/);
      expectError(await post([{ ...assetFilter("A"), creator: "me" }]), 400, "[0].creator", /set by the service/);
      expectError(await post([{ ...assetFilter("A"), advanced: "yes" }]), 400, "[0].advanced", /must be a boolean, got "yes"/);
    });

    it("names the exact path of a bad rule with a did-you-mean, and fails the whole batch by the bad item's index", async () => {
      const rules = { op: "and", rules: [leaf("CDN", "akamai"), leaf("Player Name", "web"), leaf("Contry", country)] };
      const response = await post([assetFilter("Good"), { name: "Bad", rules }]);
      expectError(response, 400, "[1].rules.rules[2].field", /unknown filter field "Contry"; did you mean "Country"\?/);
      expect((await list()).body.filters).toEqual([]);
    });

    it("checks ops, group shapes and node keys", async () => {
      expectError(await post([{ name: "A", rules: andOfOr(leaf("CDN", "x", "contain")) }]), 400, "[0].rules.rules[0].rules[0].op", /did you mean "contains"/);
      expectError(await post([{ name: "A", rules: { op: "xor", rules: [leaf("CDN", "x")] } }]), 400, "[0].rules.op", /"xor"; did you mean "or"/);
      expectError(await post([{ name: "A", rules: { op: "and", rules: ["CDN"] } }]), 400, "[0].rules.rules[0]", /must be an object \(a rule: a group \{op, rules\} or a leaf \{field, op, value\}\), got "CDN"/);
      expectError(await post([{ name: "A", rules: { op: "and", rules: [{ field: "CDN", op: "contains" }] } }]), 400, "[0].rules.rules[0].value", "[0].rules.rules[0].value is required");
      expectError(await post([{ name: "A", rules: { op: "and", rules: [] } }]), 400, "[0].rules.rules", /at least one rule/);
      expectError(await post([{ name: "A", rules: andOfOr({ ...leaf("CDN", "x"), vaule: "y" } as Leaf) }]), 400, "[0].rules.rules[0].rules[0].vaule", /did you mean "value"/);
    });

    it("refuses rule trees nested deeper than 16 groups", async () => {
      const nest = (depth: number): unknown => (depth === 1 ? { op: "and", rules: [leaf("CDN", "x")] } : { op: "and", rules: [nest(depth - 1)] });
      expect((await post([{ name: "Deep 16", rules: nest(16) }])).status).toBe(201);
      const response = await post([{ name: "Deep 17", rules: nest(17) }]);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/nest at most 16 deep/);
    });

    it("requires a custom tag name as the key of field Tag, and a key on no other field", async () => {
      const tagLeaf = (key: string | undefined) => ({ field: "Tag", op: "equals", value: "v", ...(key === undefined ? {} : { key }) });
      expect((await post([{ name: "Tagged", rules: andOfOr(tagLeaf(tag)) }])).status).toBe(201);
      expectError(await post([{ name: "A", rules: andOfOr(tagLeaf(undefined)) }]), 400, "[0].rules.rules[0].rules[0].key", /required for field Tag/);
      expectError(await post([{ name: "A", rules: andOfOr(tagLeaf(tag.toUpperCase())) }]), 400, "[0].rules.rules[0].rules[0].key", `did you mean "${tag}"?`);
      expectError(await post([{ name: "A", rules: andOfOr({ ...leaf("CDN", "x"), key: tag }) }]), 400, "[0].rules.rules[0].rules[0].key", /only field Tag takes a key/);
    });

    it("accepts only pre-set values for fields such as Country and ASN, spelled as the lookup spells them", async () => {
      expect((await post([{ name: "Pre-set", rules: andOfOr(leaf("Country", country), leaf("ASN", asn, "equals")) }])).status).toBe(201);
      expectError(
        await post([{ name: "A", rules: andOfOr(leaf("Country", country.toLowerCase())) }]),
        400,
        "[0].rules.rules[0].rules[0].value",
        `"${country.toLowerCase()}" is not a pre-set value of field Country; did you mean "${country}"? (GET /bulk_filters/countries)`,
      );
      expect(asn).toMatch(/^AS\d+$/);
      const bareNumber = asn.replace(/^AS/, "");
      expectError(await post([{ name: "A", rules: andOfOr(leaf("ASN", bareNumber, "equals")) }]), 400, "[0].rules.rules[0].rules[0].value", `did you mean "${asn}"?`);
      // Fields outside PRESET_VALUE_FIELDS take any value.
      expect((await post([{ name: "Free", rules: andOfOr(leaf("Asset Name", "anything at all"), leaf("Client ID", "c-1")) }])).status).toBe(201);
    });

    it("checks category and subcategory against their lookups", async () => {
      expectError(await post([assetFilter("A", { category: "Content" })]), 400, "[0].category", /did you mean "CONTENT"/);
      expectError(await post([assetFilter("A", { category: "NETWORK", subcategory: "Asset" })]), 400, "[0].subcategory", /not a subcategory of category NETWORK/);
      expect((await post([assetFilter("A", { subcategory: "Resource" })])).status).toBe(201);
    });

    it("refuses query parameters on POST", async () => {
      const response = await emulator.call("POST", "/bulk_filters/", { query: { dryRun: "true" }, body: [assetFilter("A")] });
      expectError(response, 400, "dryRun", /takes no query parameters/);
    });
  });

  describe("GET list (spec 4.8)", () => {
    beforeEach(async () => {
      await post([
        assetFilter("Sports live", { category: "CONTENT", subcategory: "Asset", advanced: true }),
        { name: "Akamai", rules: andOfOr(leaf("CDN", "akamai")), category: "NETWORK", subcategory: "Resource", enabled: false },
      ]);
      await emulator.control("POST", "clock", { advance: "P1D" });
      await post([assetFilter("sports replay", { category: "CONTENT", subcategory: "Show" })]);
    });

    it("answers {status, filters} with string ids in id order", async () => {
      const response = await list();
      expect(response.status).toBe(200);
      expect(response.body.status).toBe(200);
      expect(response.body.filters.map((filter: { id: unknown }) => filter.id)).toEqual(["1001", "1002", "1003"]);
      expect(response.body.filters[2].created).toBe("2026-11-21T12:30:00.000+00:00");
    });

    it("filters by every query parameter, all conditions joined by AND", async () => {
      expect(names(await list({ name: "SPORTS" }))).toEqual(["Sports live", "sports replay"]);
      expect(names(await list({ id: "1003,1001,9999" }))).toEqual(["Sports live", "sports replay"]);
      expect(names(await list({ advanced: "true" }))).toEqual(["Sports live"]);
      expect(names(await list({ enabled: "false" }))).toEqual(["Akamai"]);
      expect(names(await list({ category: "CONTENT" }))).toEqual(["Sports live", "sports replay"]);
      expect(names(await list({ subcategory: "Show" }))).toEqual(["sports replay"]);
      expect(names(await list({ created: "2026-11-20" }))).toEqual(["Sports live", "Akamai"]);
      expect(names(await list({ creator: "dev@example.com" }))).toHaveLength(3);
      expect(names(await list({ creator: "someone@else" }))).toEqual([]);
      expect(names(await list({ limit: 2 }))).toEqual(["Sports live", "Akamai"]);
      expect(names(await list({ name: "sports", category: "CONTENT", advanced: "false" }))).toEqual(["sports replay"]);
    });

    it("answers a bare array of only the selected fields with fields=", async () => {
      const response = await list({ fields: "id,name,subcategory", enabled: "true" });
      expect(response.body).toEqual([
        { id: "1001", name: "Sports live", subcategory: "Asset" },
        { id: "1003", name: "sports replay", subcategory: "Show" },
      ]);
    });

    it("refuses bad query values with the parameter and a suggestion", async () => {
      expectError(await list({ advanced: "yes" }), 400, "advanced", /must be true or false/);
      expectError(await list({ limit: 0 }), 400, "limit", /integer from 1 to 500/);
      expectError(await list({ limit: 501 }), 400, "limit", /integer from 1 to 500/);
      expectError(await list({ created: "2026-02-30" }), 400, "created", /YYYY-MM-DD/);
      expectError(await list({ created: "20/11/2026" }), 400, "created", /YYYY-MM-DD/);
      expectError(await list({ fields: "id,nmae" }), 400, "fields", /did you mean "name"/);
      expectError(await list({ category: "content" }), 400, "category", /did you mean "CONTENT"/);
      expectError(await list({ subcategory: "asset" }), 400, "subcategory", /did you mean "Asset"/);
      expectError(await list({ id: "1001,abc" }), 400, "id", /numeric filter ids, got "abc"/);
      expectError(await list({ id: "1001,,1002" }), 400, "id", /without empty items/);
      expectError(await list({ id: Array.from({ length: 101 }, (_, index) => 1001 + index).join(",") }), 400, "id", /at most 100/);
      expectError(await list({ enable: "true" }), 400, "enable", /did you mean "enabled"/);
      expectError(await emulator.get("/bulk_filters/", { name: ["a", "b"] }), 400, "name", /more than once/);
    });
  });

  describe("PUT (spec 4.8)", () => {
    beforeEach(async () => {
      await post([
        assetFilter("First", { category: "CONTENT", subcategory: "Asset" }),
        assetFilter("Second"),
      ]);
      await emulator.control("POST", "clock", { advance: "PT1H" });
    });

    it("merges the given fields into the filter, keeps the rest, and answers {location, status}", async () => {
      const response = await put([{ id: 1001, name: "First renamed" }, { id: "1002", rules: andOfOr(leaf("CDN", "fastly")) }]);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ location: "/bulk_filters/?id=1001,1002", status: 200 });
      const changed = await emulator.get(response.body.location);
      const [first, second] = changed.body.filters;
      expect(first).toMatchObject({
        id: "1001",
        name: "First renamed",
        category: "CONTENT",
        subcategory: "Asset",
        rules: andOfOr(leaf("Asset Name", "first")),
        created: "2026-11-20T12:30:00.000+00:00",
        edited: "2026-11-20T13:30:00.000+00:00",
        editor: "dev@example.com",
      });
      // A new rules tree replaces the old one whole.
      expect(second).toMatchObject({ name: "Second", rules: andOfOr(leaf("CDN", "fastly")) });
    });

    it("answers 400 unknown_id for an id the account does not have and changes nothing", async () => {
      const response = await put([{ id: 1001, name: "Changed" }, { id: 4242, name: "Ghost" }]);
      expect(response.body).toMatchObject({ status: 400, error: "unknown_id", parameter: "[1].id" });
      expect(response.body.message).toMatch(/no saved filter with id 4242/);
      expect(names(await list())).toEqual(["First", "Second"]);
    });

    it("refuses bad ids, repeated ids, service-set fields, bad rules and more than 100 changes", async () => {
      expectError(await put([{ id: "abc", name: "x" }]), 400, "[0].id", /numeric filter id/);
      expectError(await put([{ id: true, name: "x" }]), 400, "[0].id", /must be a string or a number, got true/);
      expectError(await put([{ name: "x" }]), 400, "[0].id", "[0].id is required");
      expectError(await put([{ id: 1001, name: "x" }, { id: "1001", enabled: false }]), 400, "[1].id", /also changed by item \[0\]/);
      expectError(await put([{ id: 1001, edited: "2020-01-01" }]), 400, "[0].edited", /set by the service/);
      expectError(await put([{ id: 1001, rules: andOfOr(leaf("Citty", "x")) }]), 400, "[0].rules.rules[0].rules[0].field", /did you mean "City"/);
      expectError(await put(Array.from({ length: 101 }, () => ({ id: 1001 }))), 400, "body", /at most 100/);
      expectError(await put({ id: 1001 }), 400, "body", /wrap a single object/);
    });

    it("clears category and subcategory given as null, and refuses null for other fields", async () => {
      expect((await put([{ id: 1001, category: null, subcategory: null }])).status).toBe(200);
      const [cleared] = (await list({ id: "1001" })).body.filters;
      expect(cleared).not.toHaveProperty("category");
      expect(cleared).not.toHaveProperty("subcategory");
      expect((await put([{ id: 1001, name: null }])).status).toBe(400);
    });

    it("checks category and subcategory of the merged filter and blames the field the change gave", async () => {
      expectError(await put([{ id: 1001, category: "NETWORK" }]), 400, "[0].category", /"Asset" is not a subcategory of category NETWORK/);
      expect((await put([{ id: 1001, category: "NETWORK", subcategory: "Resource" }])).status).toBe(200);
    });
  });

  describe("DELETE (spec 4.8)", () => {
    beforeEach(async () => {
      await post([assetFilter("One"), assetFilter("Two"), assetFilter("Three")]);
    });

    it("deletes by comma-separated ids and answers {deleted: [{id, name}], status} with numeric ids", async () => {
      const response = await remove("1003,1001");
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ deleted: [{ id: 1003, name: "Three" }, { id: 1001, name: "One" }], status: 200 });
      expect((await list({ id: "1001,1003" })).body.filters).toEqual([]);
      expect(names(await list())).toEqual(["Two"]);
    });

    it("never reuses the id of a deleted filter", async () => {
      await remove("1003");
      expect((await post([assetFilter("Four")])).body[0].id).toBe(1004);
    });

    it("answers 400 unknown_id when an id does not exist, and deletes nothing", async () => {
      const response = await remove("1001,777,778");
      expect(response.body).toMatchObject({ status: 400, error: "unknown_id", parameter: "id" });
      expect(response.body.message).toMatch(/777, 778/);
      expect(names(await list())).toEqual(["One", "Two", "Three"]);
      await remove("1002");
      expect((await remove("1002")).body.error).toBe("unknown_id");
    });

    it("requires id, refuses repeated ids and more than 100", async () => {
      expectError(await emulator.call("DELETE", "/bulk_filters/"), 400, "id", /"id" is required/);
      expectError(await remove("1001,1001"), 400, "id", /more than once/);
      expectError(await remove(Array.from({ length: 101 }, (_, index) => 1001 + index).join(",")), 400, "id", /at most 100/);
      expectError(await emulator.call("DELETE", "/bulk_filters/", { query: { id: "1001", name: "One" } }), 400, "name", /unknown query parameter/);
    });
  });

  describe("lookups (spec 4.8)", () => {
    it("answers the filter field names, also with a trailing slash", async () => {
      const bare = await emulator.get("/bulk_filters/fields");
      expect(bare.body).toEqual({ status: 200, values: SPEC_FILTER_FIELDS });
      expect((await emulator.get("/bulk_filters/fields/", { pattern: "device operating" })).body.values).toEqual([
        "Device Operating System",
        "Device Operating System Family",
        "Device Operating System Version",
      ]);
    });

    it("answers every world lookup, and pattern is a case-insensitive substring search", async () => {
      for (const lookup of ["asn", "cities", "continents", "countries", "dma", "isp", "states", "tags"]) {
        const all = await emulator.get(`/bulk_filters/${lookup}/`);
        expect(all.status, lookup).toBe(200);
        expect(all.body.values.length, lookup).toBeGreaterThan(0);
        const sample: string = all.body.values[all.body.values.length - 1];
        const needle = sample.slice(1, 4).toUpperCase();
        const found = await emulator.get(`/bulk_filters/${lookup}`, { pattern: needle });
        expect(found.body.values, lookup).toContain(sample);
        for (const value of found.body.values) expect(value.toLowerCase()).toContain(needle.toLowerCase());
      }
      expect((await emulator.get("/bulk_filters/countries/", { pattern: "no such place" })).body).toEqual({ status: 200, values: [] });
    });

    it("answers the categories, and subcategories by category and pattern", async () => {
      // CONTENT and NETWORK occur in spec 2.7; DEVICE and GEO are the emulator's (emulator/README.md).
      expect((await emulator.get("/bulk_filters/categories/")).body.values).toEqual(["CONTENT", "NETWORK", "DEVICE", "GEO"]);
      expect((await emulator.get("/bulk_filters/categories/", { pattern: "net" })).body.values).toEqual(["NETWORK"]);
      expect((await emulator.get("/bulk_filters/subcategories/", { category: "NETWORK" })).body.values).toEqual(["Resource", "CDN", "ISP"]);
      expect((await emulator.get("/bulk_filters/subcategories/", { category: "CONTENT", pattern: "ass" })).body.values).toEqual(["Asset"]);
      const every = (await emulator.get("/bulk_filters/subcategories/")).body.values;
      expect(every).toEqual(expect.arrayContaining(["Asset", "Resource"]));
      expect(new Set(every).size).toBe(every.length);
      expectError(await emulator.get("/bulk_filters/subcategories/", { category: "NETWORKS" }), 400, "category", /did you mean "NETWORK"/);
    });

    it("answers 404 with a suggestion for an unknown lookup, and 400 for an unknown parameter", async () => {
      const unknown = await emulator.get("/bulk_filters/countrys/");
      expectError(unknown, 404, "lookup", /did you mean "countries"/);
      expectError(await emulator.get("/bulk_filters/countries/", { patern: "a" }), 400, "patern", /did you mean "pattern"/);
    });
  });

  describe("state and determinism", () => {
    it("gives the same answers in a fresh emulator for the same calls", async () => {
      const run = async (target: TestEmulator) => {
        const created = await target.call("POST", "/bulk_filters/", { body: [assetFilter("A"), assetFilter("B")] });
        await target.call("PUT", "/bulk_filters/", { body: [{ id: 1002, enabled: false }] });
        return [created.body, (await target.get("/bulk_filters/")).body];
      };
      const other = await startTestEmulator();
      await other.control("POST", "clock", { set: TEST_NOW });
      try {
        expect(await run(emulator)).toEqual(await run(other));
      } finally {
        await other.close();
      }
    });

    it("exports and imports filters with the state, and continues the id sequence", async () => {
      await post([assetFilter("Kept"), assetFilter("Gone")]);
      await remove("1002");
      const exported = (await emulator.control("GET", "state")).body;
      await emulator.control("POST", "reset");
      expect((await list()).body.filters).toEqual([]);
      expect((await emulator.control("POST", "state", exported)).status).toBe(200);
      expect(names(await list())).toEqual(["Kept"]);
      expect((await post([assetFilter("Next")])).body[0].id).toBe(1003);
    });

    it("refuses a malformed filter state with 400", async () => {
      const exported = (await emulator.control("GET", "state")).body;
      exported.accounts[0].filters = { nextId: 1001, filters: [{ id: "x" }] };
      const response = await emulator.control("POST", "state", exported);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/invalid saved-filter state/);
    });

    it("lets the sessions and metrics endpoints read a filter by id, as a string or a number", async () => {
      await post([assetFilter("Lookup me")]);
      const dev = emulator.state.authenticate("dev", "dev-secret")!;
      expect(dev.filters.get("1001")).toMatchObject({ id: "1001", name: "Lookup me" });
      expect(dev.filters.get(1001)?.rules).toEqual(andOfOr(leaf("Asset Name", "lookup me")));
      expect(dev.filters.get("9999")).toBeUndefined();
      expect(dev.filters.get("abc")).toBeUndefined();
    });
  });
});
