import { describe, expect, it } from "vitest";
import { REAL_CLOCK } from "../provider/client/core/outcome";
import type { FiltersApi } from "../provider/client/filters";
import type { BatchOptions, BatchScheduler } from "../provider/saved-filters/gateway/coalescer";
import { FilterGateway } from "../provider/saved-filters/gateway/filter-gateway";
import { isDeclaredFilter } from "../provider/saved-filters/model/state";
import { journalMark, requestsSince, useQueryFamilies } from "./support/query-families";

/**
 * The saved-filter gateway's hand-off of a batch its caller already knows (a SavedFilterSet): the
 * items go out at once as bulk calls, whatever the batching window. The window here is an hour, so a
 * hand-off that waited for it would never answer within the test.
 */

const HOUR_MS = 3_600_000;

/** A gateway as the hosts make one (the reconciler's judgement of a listed filter), with `batching`. */
function gatewayOf(filters: () => FiltersApi, batching: Partial<BatchOptions> & { scheduler?: BatchScheduler }): FilterGateway {
  // No test here loses an answer: the watch after an unknown outcome never runs.
  return new FilterGateway(filters, { ...batching, isDeclared: isDeclaredFilter, outcomeWait: () => ({ waitMs: 0, clock: REAL_CLOCK }) });
}
const rules = (episode: number) => ({ op: "and" as const, rules: [{ field: "Asset Name", op: "contains" as const, value: `Episode ${episode}` }] });
/** Creates of "Episode N" that look for what an earlier attempt made first. */
const lookingFor = (numbers: number[]) => numbers.map((episode) => ({ input: { name: `Episode ${episode}`, rules: rules(episode) }, findEarlier: true }));

describe("FilterGateway hand-off of a known batch", () => {
  const context = useQueryFamilies(undefined, { resetEach: true });
  const gateway = () => gatewayOf(() => context.client.filters, { windowMs: HOUR_MS, maxWaitMs: HOUR_MS });
  const calls = async (mark: number) => (await requestsSince(context.emulator, mark)).map((entry) => `${entry.method} ${entry.status}`);

  it("creates, reads, updates and deletes a known batch with one bulk call each, without waiting for the window", async () => {
    const filters = gateway();
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
    const filters = gateway();
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
    expect(gateway().createAll([])).toEqual([]);
    expect(gateway().deleteAll([])).toEqual([]);
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

describe("FilterGateway on an injected scheduler", () => {
  const context = useQueryFamilies(undefined, { resetEach: true });
  const calls = async (mark: number) => (await requestsSince(context.emulator, mark)).map((entry) => `${entry.method} ${entry.status}`);

  it("sends a batch when no call joined it for the window, at the latest maxWaitMs after it opened, or on flush", async () => {
    const scheduler = new ManualScheduler();
    const filters = gatewayOf(() => context.client.filters, { windowMs: 20, maxWaitMs: 50, scheduler });
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

/**
 * Looking for what an earlier attempt made (a create that asks for it, and the watch after an
 * unknown outcome) lists the account with as few requests as it can: every request counts in the
 * address's budget of 3000 per 5 minutes (docs/api.md 10.1).
 */
describe("FilterGateway looking for filters an earlier attempt made", () => {
  const context = useQueryFamilies(undefined, { resetEach: true });
  const gateway = () => gatewayOf(() => context.client.filters, { windowMs: HOUR_MS, maxWaitMs: HOUR_MS });
  const listings = async (mark: number) =>
    (await requestsSince(context.emulator, mark)).filter((entry) => entry.method === "GET").map((entry) => entry.params.get("name"));
  const episodes = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);

  it("lists the names of a batch that share a beginning with one request, adopts the 50 made before and creates the 100 others", async () => {
    const earlier = await context.client.filters.create({ filters: episodes(100, 50).map((episode) => ({ name: `Episode ${episode}`, rules: rules(episode) })) });
    const mark = await journalMark(context.emulator);
    const made = await Promise.all(gateway().createAll(lookingFor(episodes(0, 150))));
    expect(made.map((filter) => filter.name)).toEqual(episodes(0, 150).map((episode) => `Episode ${episode}`));
    expect(made.slice(100).map((filter) => filter.id)).toEqual(earlier.map((filter) => filter.id));
    // Two batches of at most 100 (docs/api.md 4.8), "Episode 0" to "Episode 99" and "Episode 100" to "Episode 149":
    // the second's names begin with the first's listing, which serves both (docs/api.md 11.10).
    expect(await listings(mark)).toEqual(["Episode "]);
    expect((await context.client.filters.list({})).length).toBe(150);
  });

  it("finds the filter of the exact name beside names that differ only in case, whether the name search ignores case or not", async () => {
    // The alternate dialect's name search keeps case (emulator/README.md "Dialects"): the common
    // beginning of the names, asked in their own case, still finds each of them.
    const [made, lowerCase] = await context.client.filters.create({ filters: [
      { name: "CDN Akamai", rules: rules(1) },
      { name: "cdn akamai", rules: rules(1) },
    ] });
    const mark = await journalMark(context.emulator);
    const found = await Promise.all(gateway().createAll([
      { input: { name: "CDN Akamai", rules: rules(1) }, findEarlier: true },
      { input: { name: "CDN Akamai live", rules: rules(1) }, findEarlier: true },
    ]));
    expect(found[0]!.id).toBe(made!.id);
    expect(found[1]!.id).not.toBe(lowerCase!.id);
    expect(await listings(mark)).toEqual(["CDN Akamai"]);
    expect((await context.client.filters.list({})).map((filter) => filter.name).sort()).toEqual(["CDN Akamai", "CDN Akamai live", "cdn akamai"]);
  });

  it("lists the whole account once for names that share no beginning", async () => {
    const mark = await journalMark(context.emulator);
    const made = await Promise.all(gateway().createAll([
      { input: { name: "Harbor Lights", rules: rules(1) }, findEarlier: true },
      { input: { name: "Errors in Brazil", rules: rules(2) }, findEarlier: true },
    ]));
    expect(made.map((filter) => filter.name)).toEqual(["Harbor Lights", "Errors in Brazil"]);
    expect(await listings(mark)).toEqual([null]);
  });

  it("lists each name on its own when the shared beginning reaches the cap however it is narrowed, and does not try that beginning again", async () => {
    // 500 filters alike (enabled, not advanced): "Episode " answers the cap in every narrower part.
    for (const start of [0, 100, 200, 300, 400]) {
      await context.client.filters.create({ filters: episodes(start, 100).map((episode) => ({ name: `Episode ${episode}`, rules: rules(episode) })) });
    }
    const filters = gateway();
    let mark = await journalMark(context.emulator);
    const made = await Promise.all(filters.createAll(lookingFor([1000, 2000])));
    expect(made.map((filter) => filter.name)).toEqual(["Episode 1000", "Episode 2000"]);
    const first = await listings(mark);
    expect(first.filter((name) => name === "Episode ").length).toBeGreaterThan(1);
    expect(first.filter((name) => name !== "Episode ").sort()).toEqual(["Episode 1000", "Episode 2000"]);

    mark = await journalMark(context.emulator);
    const next = await Promise.all(filters.createAll(lookingFor([3000, 4000])));
    expect(next.map((filter) => filter.name)).toEqual(["Episode 3000", "Episode 4000"]);
    expect((await listings(mark)).sort()).toEqual(["Episode 3000", "Episode 4000"]);
  });

  it("lists the names by the longer beginnings of their halves when the shared one reaches the cap", async () => {
    for (const start of [0, 100, 200, 300, 400]) {
      await context.client.filters.create({ filters: episodes(start, 100).map((episode) => ({ name: `Episode ${episode}`, rules: rules(episode) })) });
    }
    const mark = await journalMark(context.emulator);
    const numbers = [...episodes(1000, 10), ...episodes(2000, 10)];
    const made = await Promise.all(gateway().createAll(lookingFor(numbers)));
    expect(made.map((filter) => filter.name)).toEqual(numbers.map((episode) => `Episode ${episode}`));
    // "Episode " is cut however narrowed; then one listing for each half, not one for each of the 20 names.
    const listed = await listings(mark);
    expect(listed.filter((name) => name !== "Episode ").sort()).toEqual(["Episode 100", "Episode 200"]);
    expect(await context.client.filters.list({ name: "Episode 100" })).toHaveLength(11);
  });
});

/**
 * The gateway at the engine's parallelism (docs/api.md 11.10): the engine runs `--parallel` calls at
 * once and waits for each answer before it sends the next of that slot. Each call goes through
 * `serve`, as the reconciler sends it.
 */
describe("FilterGateway at the engine's parallelism", () => {
  const context = useQueryFamilies(undefined, { resetEach: true });
  const calls = async (mark: number) => (await requestsSince(context.emulator, mark)).map((entry) => `${entry.method} ${entry.status}`);
  const seed = async (from: number, count: number) => {
    const made: Array<{ id: string; name: string }> = [];
    for (let start = from; start < from + count; start += 100) {
      const chunk = Array.from({ length: Math.min(100, from + count - start) }, (_, index) => start + index);
      made.push(...(await context.client.filters.create({ filters: chunk.map((episode) => ({ name: `Episode ${episode}`, rules: rules(episode) })) })));
    }
    return made;
  };
  /** Runs `work` on every item with at most `parallelism` calls in flight, each served as one engine call. */
  const asEngine = async <Item, Result>(gateway: FilterGateway, items: readonly Item[], parallelism: number, work: (item: Item) => Promise<Result>) => {
    const results = new Array<Result>(items.length);
    let next = 0;
    const slot = async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await gateway.serve(() => work(items[index]!));
      }
    };
    await Promise.all(Array.from({ length: parallelism }, slot));
    return results;
  };

  it("sends each round's batch as soon as every call in flight waits in it: only the first round waits for the window", async () => {
    const scheduler = new ManualScheduler();
    const filters = gatewayOf(() => context.client.filters, { windowMs: 20, maxWaitMs: 50, scheduler });
    const made = await seed(0, 24);
    const mark = await journalMark(context.emulator);
    const done = asEngine(filters, made, 8, (filter) => filters.delete(filter.id));
    // The first round tells how many calls the engine runs at once: it waits for the window.
    expect(await calls(mark)).toEqual([]);
    scheduler.advance(20);
    // The two next rounds are sent when their eighth call joins, without the window.
    await done;
    expect(await calls(mark)).toEqual(["DELETE 200", "DELETE 200", "DELETE 200"]);
    expect(await context.client.filters.list({})).toEqual([]);
  });

  it("holds a batch past the window for calls of the round still on their way, so that a round split in two is sent as one again", async () => {
    const scheduler = new ManualScheduler();
    const filters = gatewayOf(() => context.client.filters, { windowMs: 20, maxWaitMs: 200, scheduler });
    const made = await seed(0, 16);
    // A first round of 8 tells how many calls the engine runs at once.
    const first = asEngine(filters, made.slice(0, 8), 8, (filter) => filters.delete(filter.id));
    scheduler.advance(20);
    await first;
    const mark = await journalMark(context.emulator);
    // Then 8 at once again: 4 join a batch while 4 are still on their way (a request of their own).
    let release!: () => void;
    const onTheirWay = new Promise<void>((resolve) => (release = resolve));
    const done = asEngine(filters, made.slice(8), 8, async (filter) => {
      if (Number(filter.name.slice("Episode ".length)) >= 12) await onTheirWay;
      await filters.delete(filter.id);
    });
    scheduler.advance(20);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await calls(mark)).toEqual([]);
    // Once they join, every call in flight waits: one DELETE for the 8, without waiting for the bound.
    release();
    await done;
    expect(await calls(mark)).toEqual(["DELETE 200"]);
    expect(await context.client.filters.list({})).toEqual([]);
  });

  it("serves a refresh from one listing of the account, reads by id the filter it lacks, and lists again for the next refresh", async () => {
    const filters = gatewayOf(() => context.client.filters, { windowMs: 1, maxWaitMs: 1 });
    const made = await seed(0, 300);
    await context.client.filters.delete({ ids: [made[7]!.id] });
    let mark = await journalMark(context.emulator);
    const read = await asEngine(filters, made, 16, (filter) => filters.readCurrent(filter.id, filter.name));
    expect(read.map((filter) => filter?.name)).toEqual(made.map((filter, index) => (index === 7 ? undefined : filter.name)));
    const requests = await requestsSince(context.emulator, mark);
    expect(requests.map((entry) => [entry.method, entry.params.get("id")])).toEqual([["GET", null], ["GET", made[7]!.id]]);

    // Changed outside between two refreshes: a second read of a filter starts another run, which lists again.
    await context.client.filters.update({ changes: [{ id: made[3]!.id, name: "Edited in the console" }] });
    mark = await journalMark(context.emulator);
    expect((await filters.serve(() => filters.readCurrent(made[3]!.id, made[3]!.name)))?.name).toBe("Edited in the console");
    expect(await calls(mark)).toEqual(["GET 200"]);
  });

  it("in an account past the listing cap, finds the filters the one listing lacks by a beginning of their names, not one by one", async () => {
    const filters = gatewayOf(() => context.client.filters, { windowMs: 1, maxWaitMs: 1 });
    const made = await seed(0, 700);
    const mark = await journalMark(context.emulator);
    const read = await asEngine(filters, made, 8, (filter) => filters.readCurrent(filter.id, filter.name));
    expect(read.map((filter) => filter?.id)).toEqual(made.map((filter) => filter.id));
    const requests = await requestsSince(context.emulator, mark);
    // One listing of the account (500, the cap), then listings by name ("Episode 5", "Episode 6" when the cap keeps the oldest), none by id.
    expect(requests.filter((entry) => entry.params.has("id"))).toEqual([]);
    expect(requests.length).toBeLessThanOrEqual(12);
    expect(requests[0]!.params.get("name")).toBeNull();
    // 200 of the 700 are past the cap: at least one listing by name follows, each of an "Episode N" beginning.
    expect(requests.slice(1).map((entry) => `${entry.method} ${entry.status} ${entry.params.get("name")}`)).toEqual(
      Array.from({ length: Math.max(1, requests.length - 1) }, () => expect.stringMatching(/^GET 200 Episode \d$/)),
    );
  });

  it("takes a filter to adopt as the run's listing shows it, with no read; one no listing showed is read by id", async () => {
    const filters = gatewayOf(() => context.client.filters, { windowMs: 1, maxWaitMs: 1 });
    const [listed, unlisted] = await context.client.filters.create({ filters: [{ name: "Episode 0", rules: rules(0) }, { name: "Finale", rules: rules(99) }] });
    const mark = await journalMark(context.emulator);
    // An up: creates that look for what an earlier attempt made list their names' beginning, "Episode ", which shows "Episode 0".
    await filters.serve(() => Promise.all(filters.createAll(lookingFor([1, 2]))));
    filters.touch("change", [listed!.id, unlisted!.id]);
    const adopted = await Promise.all(filters.readKnown([listed!.id, unlisted!.id], "now"));
    expect(adopted.map((filter) => filter?.name)).toEqual(["Episode 0", "Finale"]);
    const requests = await requestsSince(context.emulator, mark);
    expect(requests.map((entry) => [entry.method, entry.params.get("name") ?? entry.params.get("id")])).toEqual([["GET", "Episode "], ["POST", null], ["GET", unlisted!.id]]);
  });

  it("looks for what lost creates made with one listing of the names' beginning for every batch of a run", async () => {
    const filters = gatewayOf(() => context.client.filters, { windowMs: 1, maxWaitMs: 1 });
    const mark = await journalMark(context.emulator);
    const made = await asEngine(filters, Array.from({ length: 24 }, (_, index) => index), 8, (episode) =>
      filters.create({ name: `Episode ${episode}`, rules: rules(episode) }, { findEarlier: true }));
    expect(made.map((filter) => filter.name)).toEqual(Array.from({ length: 24 }, (_, index) => `Episode ${index}`));
    const requests = await requestsSince(context.emulator, mark);
    expect(requests.filter((entry) => entry.method === "GET").map((entry) => entry.params.get("name"))).toEqual(["Episode "]);
    expect(requests.filter((entry) => entry.method === "POST").length).toBeGreaterThanOrEqual(3);
  });
});
