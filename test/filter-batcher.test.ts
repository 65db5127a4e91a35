import { describe, expect, it } from "vitest";
import { FilterBatcher } from "../provider/resources/saved-filter/batcher";
import { journalMark, requestsSince, useQueryFamilies } from "./support/query-families";

/**
 * The saved-filter batcher's hand-off of a batch its caller already knows (a SavedFilterSet): the
 * items go out at once as bulk calls, whatever the batching window. The window here is an hour, so a
 * hand-off that waited for it would never answer within the test.
 */

const HOUR_MS = 3_600_000;
const rules = (episode: number) => ({ op: "and" as const, rules: [{ field: "Asset Name", op: "contains" as const, value: `Episode ${episode}` }] });

describe("FilterBatcher hand-off of a known batch", () => {
  const context = useQueryFamilies(undefined, { resetEach: true });
  const batcher = () => new FilterBatcher(() => context.client.filters, { windowMs: HOUR_MS, maxWaitMs: HOUR_MS });
  const calls = async (mark: number) => (await requestsSince(context.emulator, mark)).map((entry) => `${entry.method} ${entry.status}`);

  it("creates, reads, updates and deletes a known batch with one bulk call each, without waiting for the window", async () => {
    const filters = batcher();
    let mark = await journalMark(context.emulator);
    const created = await Promise.all(filters.createAll([0, 1, 2].map((episode) => ({ input: { name: `Episode ${episode}`, rules: rules(episode) }, findEarlier: false }))));
    expect(created.map((filter) => filter.name)).toEqual(["Episode 0", "Episode 1", "Episode 2"]);
    expect(await calls(mark)).toEqual(["POST 201"]);

    const ids = created.map((filter) => filter.id);
    mark = await journalMark(context.emulator);
    const read = await Promise.all(filters.readAll([...ids, "999999"]));
    expect(read.map((filter) => filter?.id)).toEqual([...ids, undefined]);
    await Promise.all(filters.updateAll(ids.map((id) => ({ id, enabled: false }))));
    await Promise.all(filters.deleteAll(ids));
    expect(await calls(mark)).toEqual(["GET 200", "PUT 200", "DELETE 200"]);
    expect((await context.client.filters.list({})).length).toBe(0);
  });

  it("sends a queued single read with the known batch that names the same id", async () => {
    const filters = batcher();
    const [filter] = await context.client.filters.create({ filters: [{ name: "Episode 7", rules: rules(7) }] });
    const mark = await journalMark(context.emulator);
    // Queued for the hour-long window, then joined (same id) by a hand-off, which sends it now.
    const single = filters.read(filter!.id);
    const [known] = filters.readAll([filter!.id]);
    expect((await single)?.name).toBe("Episode 7");
    expect((await known)?.name).toBe("Episode 7");
    expect(await calls(mark)).toEqual(["GET 200"]);
  });

  it("answers an empty batch without a request", async () => {
    const mark = await journalMark(context.emulator);
    expect(batcher().createAll([])).toEqual([]);
    expect(batcher().deleteAll([])).toEqual([]);
    expect(await calls(mark)).toEqual([]);
  });
});
