import { describe, expect, it } from "vitest";
import { BadRequestError, IncompleteListingError, UnprocessableEntityError } from "../provider/client";
import { getSavedFilterByName } from "../provider/data";
import { DEV } from "./support/emulator";
import { requestsSince, journalMark, useQueryFamilies } from "./support/query-families";
import { failure } from "./support/failure";

/**
 * What the client does where the contract is silent (provider/schema/assumptions.ts): error bodies
 * of any shape, and listings cut at the service's cap of 500 (docs/api.md 10.1), which are narrowed
 * until complete or reported as incomplete, never taken as all there is.
 */

const context = useQueryFamilies(undefined, { resetEach: true });

/** The cap of every result set (docs/api.md 10.1). */
const CAP = 500;

const filter = (name: string, enabled: boolean, advanced = false) => ({
  name,
  enabled,
  advanced,
  rules: { op: "and", rules: [{ op: "or", rules: [{ field: "Asset Name", op: "contains", value: name }] }] },
});

/** Creates filters through raw HTTP, 100 a call (docs/api.md 4.8). */
async function createFilters(filters: ReadonlyArray<ReturnType<typeof filter>>): Promise<void> {
  for (let start = 0; start < filters.length; start += 100) {
    const answer = await context.emulator.call("POST", "/bulk_filters/", { body: filters.slice(start, start + 100) });
    expect(answer.status).toBe(201);
  }
}

describe("error bodies of any shape", () => {
  it("reads a message-only body, a text body and a JSON string, and decides on the status alone", async () => {
    const bodies: Array<[unknown, string]> = [
      [{ message: "name must not be empty" }, "POST /bulk_filters/ failed with HTTP 400: name must not be empty"],
      ["the filter list is malformed", "POST /bulk_filters/ failed with HTTP 400: the filter list is malformed"],
      [{ error: "bad_rules", detail: "rules need an op" }, "POST /bulk_filters/ failed with HTTP 400 (bad_rules): rules need an op"],
    ];
    for (const [body, message] of bodies) {
      await context.emulator.control("POST", "faults", { method: "POST", path: "/bulk_filters/", status: 400, body, times: 1 });
      const error = await failure(context.client.filters.create({ filters: [filter("shape", true)] as never }));
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as Error).message).toBe(message);
    }
  });

  it("keeps the class of the status when the body says nothing", async () => {
    await context.emulator.control("POST", "faults", { method: "GET", path: "/pii-opt-out", status: 422, body: {}, times: 1 });
    const error = await failure(context.client.pii.list({ limit: 5 }));
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as Error).message).toBe("GET /pii-opt-out failed with HTTP 422");
  });
});

describe("saved-filter listings at the cap", () => {
  it("narrows a listing that reaches the cap by enabled, and finds a name the cut answer left out", async () => {
    // 520 filters whose names contain "capped", then the one named exactly "capped": created last,
    // it is beyond the first 500 of a listing in id order.
    await createFilters([...Array.from({ length: 520 }, (_, index) => filter(`capped-${index}`, index % 2 === 0)), filter("capped", false)]);
    const mark = await journalMark(context.emulator);
    const found = await getSavedFilterByName({ name: "capped", connection: { baseUrl: context.emulator.url, ...DEV } });
    expect(found).toMatchObject({ name: "capped", enabled: false });
    const listings = (await requestsSince(context.emulator, mark)).filter((entry) => entry.path.replace(/\/$/, "") === "/bulk_filters");
    expect(listings.map((entry) => [entry.params.get("name"), entry.params.get("enabled"), entry.params.get("limit")])).toEqual([
      ["capped", null, "500"],
      ["capped", "true", "500"],
      ["capped", "false", "500"],
    ]);

    const all = await context.client.filters.list();
    expect(all).toHaveLength(521);
    expect(new Set(all.map((item) => item.id)).size).toBe(521);
    const names = await context.client.filters.list({ fields: ["name"] });
    expect(names).toHaveLength(521);
    expect(Object.keys(names[0]!)).toEqual(["name"]);
  });

  it("reports a listing that stays at the cap however narrowed as incomplete, never as not found", async () => {
    await createFilters(Array.from({ length: CAP + 1 }, (_, index) => filter(`stuck-${index}`, true, true)));
    expect(await context.client.filters.findByName({ name: "stuck-500" })).toHaveLength(1);
    const error = await failure(getSavedFilterByName({ name: "stuck", connection: { baseUrl: context.emulator.url, ...DEV } }));
    expect(error).toBeInstanceOf(IncompleteListingError);
    expect((error as Error).message).toContain('the listing of saved filters whose name contains "stuck" may be incomplete');
    expect((error as Error).message).toContain("enabled=true advanced=true");
  });
});

describe("PII listings at the cap", () => {
  const submit = async (prefix: string, count: number) => {
    for (let index = 0; index < count; index++) {
      const answer = await context.emulator.call("POST", "/pii-opt-out", { body: { viewer_id: [`${prefix}-${index}`] } });
      expect(answer.status).toBe(201);
    }
  };

  it("halves the creation range, then splits a day by status, until every part is below the cap", async () => {
    await submit("day-one", 300);
    // Later the same day: the first 300 are FINISHED (docs/api.md 3.1) when the next 250 are made.
    await context.emulator.control("POST", "clock", { advance: "PT10M" });
    await submit("day-one-later", 250);
    const mark = await journalMark(context.emulator);
    const listed = await context.client.pii.list();
    expect(listed).toHaveLength(550);
    expect(new Set(listed.flatMap((request) => request.identifiers.viewer_id)).size).toBe(550);
    const queries = (await requestsSince(context.emulator, mark)).map((entry) => entry.params);
    expect(queries[0]!.get("limit")).toBe("500");
    // The last parts are the single day of the requests, one status each.
    expect(queries.slice(-3).map((query) => [query.get("start"), query.get("end"), query.get("status")])).toEqual([
      ["2026-11-20", "2026-11-20", "ENQUEUED"],
      ["2026-11-20", "2026-11-20", "STARTED"],
      ["2026-11-20", "2026-11-20", "FINISHED"],
    ]);
    // A limit at or below the cap is sent as it is.
    expect(await context.client.pii.list({ limit: 20 })).toHaveLength(20);
  });
});
