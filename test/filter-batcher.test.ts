import { describe, expect, it } from "vitest";
import { FilterBatcher, type BatchScheduler } from "../provider/resources/saved-filter/batcher";
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

/** A scheduler the test drives: time moves only when the test says so. */
class ManualScheduler implements BatchScheduler {
  private time = 0;
  private readonly tasks: Array<{ at: number; task: () => void; done: boolean }> = [];

  now(): number {
    return this.time;
  }

  after(ms: number, task: () => void): () => void {
    const entry = { at: this.time + ms, task, done: false };
    this.tasks.push(entry);
    return () => {
      entry.done = true;
    };
  }

  /** Moves the clock and runs what is due. */
  advance(ms: number): void {
    this.time += ms;
    for (const entry of this.tasks.filter((candidate) => !candidate.done && candidate.at <= this.time)) {
      entry.done = true;
      entry.task();
    }
  }
}

describe("FilterBatcher on an injected scheduler", () => {
  const context = useQueryFamilies(undefined, { resetEach: true });
  const calls = async (mark: number) => (await requestsSince(context.emulator, mark)).map((entry) => `${entry.method} ${entry.status}`);

  it("sends a batch when no call joined it for the window, at the latest maxWaitMs after it opened, or on flush", async () => {
    const scheduler = new ManualScheduler();
    const filters = new FilterBatcher(() => context.client.filters, { windowMs: 20, maxWaitMs: 50, scheduler });
    const made = await context.client.filters.create({ filters: [0, 1, 2, 3].map((episode) => ({ name: `Episode ${episode}`, rules: rules(episode) })) });
    const ids = made.map((filter) => filter.id);
    let mark = await journalMark(context.emulator);

    // The window restarts when a call joins: 10 + 15 ms after the first read nothing is sent yet.
    const first = filters.read(ids[0]!);
    scheduler.advance(10);
    const second = filters.read(ids[1]!);
    scheduler.advance(15);
    expect(await calls(mark)).toEqual([]);
    scheduler.advance(5);
    expect((await Promise.all([first, second])).map((filter) => filter?.id)).toEqual([ids[0], ids[1]]);
    expect(await calls(mark)).toEqual(["GET 200"]);

    // A call every 15 ms keeps the window open, but not beyond maxWaitMs.
    mark = await journalMark(context.emulator);
    const busy = [filters.read(ids[0]!)];
    for (const id of [ids[1]!, ids[2]!, ids[3]!]) {
      scheduler.advance(15);
      busy.push(filters.read(id));
    }
    expect(await calls(mark)).toEqual([]);
    scheduler.advance(5);
    expect((await Promise.all(busy)).map((filter) => filter?.id)).toEqual(ids);
    expect(await calls(mark)).toEqual(["GET 200"]);

    // flush sends what is queued at once, whatever the window.
    mark = await journalMark(context.emulator);
    const deleted = [filters.delete(ids[0]!), filters.delete(ids[1]!)];
    filters.flush();
    await Promise.all(deleted);
    expect(await calls(mark)).toEqual(["DELETE 200"]);
  });
});
