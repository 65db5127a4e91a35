import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureDynamicResource, destroy, secret, stateAfterFailure, up, type PropertyMap, type ResourceState } from "../../engine";
import { startProviderFixture, type ProviderFixture } from "./fixture";

/**
 * Every mutating operation through the real dynamic-provider host, under each fault of the
 * emulator (emulator/README.md "Fault rules"), followed by a second run as the engine would make it:
 * after a failed create with a partial state an update, after a failed create without state a
 * create again, after a failed update or delete the same step from the state kept. Asserted from
 * the account: no filter or identifier twice, none missing, and done in at most two runs.
 *
 * The host runs with short settings (docs/configuration.md "Timeouts and retries"): 1 s per attempt, and 1.5 s of
 * watching the account after an unknown outcome. "Late" applies the write 3 s after it arrived,
 * after the first run has stopped watching: the second run must find it. Before the second run the
 * test waits until the emulator's journal shows that late write handled (what the engine cannot do,
 * and why the wait is a setting a user can raise).
 *
 * The host paces itself with the service's budgets on (3000 requests per 5 minutes per address,
 * docs/api.md 10.1), as in a user's `pulumi up`: looking for what a lost answer made must not cost
 * a request per filter and per look, or the matrix would wait minutes for room in the budget.
 */

// Margins wide enough that a loaded CI machine does not time out requests the test did not fault.
const TIMEOUT_MS = 1_000;
const UNKNOWN_OUTCOME_WAIT_MS = 1_500;
/** Later than the timeout and the watch together: the first run has given up when it lands. */
const LATE_WRITE_MS = 3_000;
/** Members of a set and identifiers of a PII request: more than one bulk call of 100. */
const MANY = 150;

type FaultName = "429 storm" | "503 burst" | "reset before the write" | "reset after the write" | "answer later than the timeout";

/** The fault rule of each kind for requests of `method` to `path` (a prefix ending in `*`). */
function faultRule(fault: FaultName, method: string, path: string): Record<string, unknown> {
  switch (fault) {
    case "429 storm":
      // Longer than the client's 3 retries: the first run may fail, nothing of it applied.
      return { method: "*", path, status: 429, retryAfter: 0, times: 6 };
    case "503 burst":
      return { method: "*", path, status: 503, times: 3 };
    case "reset before the write":
      return { method, path, reset: "before", times: 1 };
    case "reset after the write":
      return { method, path, reset: "after-write", times: 1 };
    case "answer later than the timeout":
      return { method, path, lateWriteMs: LATE_WRITE_MS, times: 1 };
  }
}

const FAULTS: FaultName[] = ["429 storm", "503 burst", "reset before the write", "reset after the write", "answer later than the timeout"];

const rulesOf = (label: string) => ({ op: "and", rules: [{ field: "Asset Name", op: "contains", value: label }] });

describe("fault matrix: every mutating operation under every fault converges in at most two runs", { timeout: 90_000 }, () => {
  let fixture: ProviderFixture;
  let setProvider: string;
  let piiProvider: string;
  let cases = 0;

  beforeAll(async () => {
    const [started, set, pii] = await Promise.all([
      startProviderFixture({
        module: "dist/provider/index.js",
        exportName: "SavedFilter",
        args: ["f", { name: "f", rules: rulesOf("f") }],
        hostEnv: {
          INSIGHTS_TIMEOUT_MS: String(TIMEOUT_MS),
          INSIGHTS_UNKNOWN_OUTCOME_WAIT_MS: String(UNKNOWN_OUTCOME_WAIT_MS),
          // Request counts are not asserted here: a short quiet window keeps the matrix fast.
          INSIGHTS_BATCH_WINDOW_MS: "20",
        },
      }),
      captureDynamicResource({ module: "dist/provider/index.js", exportName: "SavedFilterSet", args: ["s", { filters: { a: { rules: rulesOf("a") } } }] }),
      captureDynamicResource({ module: "dist/provider/index.js", exportName: "PiiOptOutRequest", args: ["p", { viewerIds: ["v"], waitForCompletion: false }] }),
    ]);
    fixture = started;
    setProvider = set.provider;
    piiProvider = pii.provider;
    // The preview's check of the account reads it once per need and host (provider/connection-check/probe.ts):
    // done here, before any fault rule, so that each rule acts on the operation it is written for (a
    // fault met by that check has its own test, test/provider/connection-check.test.ts).
    const checks = await Promise.all([
      fixture.host.check({}, filterInputs({ name: "warm", rules: rulesOf("warm") })),
      fixture.host.check({}, setInputs({ a: { rules: rulesOf("warm") } })),
      fixture.host.check({}, { viewerIds: secret(["warm-viewer"]), waitForCompletion: false, resourceName: "warm", __provider: piiProvider }),
    ]);
    expect(checks.flatMap((checked) => checked.failures)).toEqual([]);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  /** The filters whose name contains `label` (each case's names are its own). */
  const filtersNamed = async (label: string) =>
    (await fixture.emulator.get("/bulk_filters/", { name: label })).body.filters as Array<{ id: string; name: string; enabled?: boolean }>;

  /**
   * Runs `step` from `state` as the engine would, at most twice, with `fault` acting on the first
   * run; answers the final state and how many runs it took (3 when the second run failed too).
   */
  async function withFault(
    fault: FaultName,
    target: { method: string; path: string },
    state: ResourceState | undefined,
    news: PropertyMap,
    step: (state: ResourceState | undefined) => Promise<ResourceState | undefined>,
  ): Promise<{ runs: number; state: ResourceState | undefined; errors: string[] }> {
    const added = (await fixture.emulator.control("POST", "faults", faultRule(fault, target.method, target.path))).body.rules as Array<{ id: string }>;
    const ruleId = added[0]!.id;
    const mark = fixture.mark();
    const errors: string[] = [];
    let current = state;
    for (let run = 1; run <= 2; run++) {
      try {
        current = await step(current);
        await settled(ruleId, mark, fault);
        return { runs: run, state: current, errors };
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error));
        // A partial failure keeps the resource with what was made; otherwise the engine keeps what it had.
        current = stateAfterFailure(error, news) ?? current;
      }
      await settled(ruleId, mark, fault);
    }
    return { runs: 3, state: current, errors };
  }

  /** Waits until a late write the fault held has been handled, and removes what is left of the rule. */
  async function settled(ruleId: string, mark: number, fault: FaultName): Promise<void> {
    const rules = (await fixture.emulator.control("GET", "faults")).body.rules as Array<{ id: string; hits: number }>;
    const rule = rules.find((candidate) => candidate.id === ruleId);
    if (fault === "answer later than the timeout" && (rule === undefined || rule.hits > 0)) {
      await fixture.emulator.state.journal.waitFor(mark, (entries) => entries.some((entry) => entry.fault === ruleId));
    }
    if (rule !== undefined) await fixture.emulator.control("DELETE", `faults?id=${ruleId}`);
  }

  const filterInputs = (args: Record<string, unknown>): PropertyMap => fixture.inputs(args);
  const setInputs = (filters: Record<string, unknown>): PropertyMap => ({ filters, __provider: setProvider });
  const members = (label: string, change: Record<string, unknown> = {}) =>
    Object.fromEntries(Array.from({ length: MANY }, (_, index) => [`m${index}`, { name: `${label} m${index}`, rules: rulesOf(`${label} m${index}`), ...change }]));
  const created = async (news: PropertyMap) => (await up(fixture.host, news)).state;

  /** Each name once in the account, and the state's ids are those filters. */
  const expectExactlyOnce = async (label: string, names: string[], ids: string[]) => {
    const found = await filtersNamed(label);
    expect(found.map((filter) => filter.name).sort()).toEqual([...names].sort());
    expect(found.map((filter) => filter.id).sort()).toEqual([...ids].sort());
  };

  for (const fault of FAULTS) {
    describe(fault, () => {
      it("SavedFilter create", async () => {
        const label = `c${++cases} filter`;
        const news = filterInputs({ name: label, rules: rulesOf(label) });
        const outcome = await withFault(fault, { method: "POST", path: "/bulk_filters*" }, undefined, news, async () => created(news));
        expect(outcome.runs, outcome.errors.join("\n")).toBeLessThanOrEqual(2);
        await expectExactlyOnce(label, [label], [outcome.state!.id]);
        if (outcome.runs === 2 && fault !== "429 storm") expect(outcome.errors[0]).toContain("is unknown");
      });

      it("SavedFilter update", async () => {
        const label = `c${++cases} filter`;
        const prior = await created(filterInputs({ name: label, rules: rulesOf(label) }));
        const news = filterInputs({ name: label, rules: rulesOf(label), enabled: false, category: "CONTENT" });
        const outcome = await withFault(fault, { method: "PUT", path: "/bulk_filters*" }, prior, news, async (state) => (await up(fixture.host, news, state)).state);
        expect(outcome.runs, outcome.errors.join("\n")).toBeLessThanOrEqual(2);
        await expectExactlyOnce(label, [label], [prior.id]);
        expect((await filtersNamed(label))[0]).toMatchObject({ enabled: false, category: "CONTENT" });
      });

      it("SavedFilter delete", async () => {
        const label = `c${++cases} filter`;
        const prior = await created(filterInputs({ name: label, rules: rulesOf(label) }));
        const outcome = await withFault(fault, { method: "DELETE", path: "/bulk_filters*" }, prior, {}, async (state) => {
          await destroy(fixture.host, state!);
          return undefined;
        });
        expect(outcome.runs, outcome.errors.join("\n")).toBeLessThanOrEqual(2);
        expect(await filtersNamed(label)).toEqual([]);
      });

      it(`SavedFilterSet create of ${MANY}`, async () => {
        const label = `c${++cases} set`;
        const news = setInputs(members(label));
        const outcome = await withFault(fault, { method: "POST", path: "/bulk_filters*" }, undefined, news, async (state) => (await up(fixture.host, news, state)).state);
        expect(outcome.runs, outcome.errors.join("\n")).toBeLessThanOrEqual(2);
        const ids = outcome.state!.outputs.ids as Record<string, string>;
        expect(Object.keys(ids)).toHaveLength(MANY);
        expect(outcome.state!.outputs.unknownOutcome).toBeUndefined();
        await expectExactlyOnce(label, Object.values(members(label)).map((member) => member.name as string), Object.values(ids));
      });

      it(`SavedFilterSet update of ${MANY}`, async () => {
        const label = `c${++cases} set`;
        const prior = await created(setInputs(members(label)));
        const news = setInputs(members(label, { enabled: false }));
        const outcome = await withFault(fault, { method: "PUT", path: "/bulk_filters*" }, prior, news, async (state) => (await up(fixture.host, news, state)).state);
        expect(outcome.runs, outcome.errors.join("\n")).toBeLessThanOrEqual(2);
        const ids = prior.outputs.ids as Record<string, string>;
        expect(outcome.state!.outputs.ids).toEqual(ids);
        await expectExactlyOnce(label, Object.values(members(label)).map((member) => member.name as string), Object.values(ids));
        const found = await filtersNamed(label);
        expect(found.filter((filter) => filter.enabled !== false)).toEqual([]);
      });

      it(`SavedFilterSet delete of ${MANY}`, async () => {
        const label = `c${++cases} set`;
        const prior = await created(setInputs(members(label)));
        expect(await filtersNamed(label)).toHaveLength(MANY);
        const outcome = await withFault(fault, { method: "DELETE", path: "/bulk_filters*" }, prior, {}, async (state) => {
          await destroy(fixture.host, state!);
          return undefined;
        });
        expect(outcome.runs, outcome.errors.join("\n")).toBeLessThanOrEqual(2);
        expect(await filtersNamed(label)).toEqual([]);
      });

      it(`PiiOptOutRequest of ${MANY} identifiers`, async () => {
        const label = `c${++cases}`;
        const identifiers = Array.from({ length: MANY }, (_, index) => `${label}-viewer-${String(index).padStart(3, "0")}`);
        const news: PropertyMap = { viewerIds: secret(identifiers), waitForCompletion: false, resourceName: label, __provider: piiProvider };
        const outcome = await withFault(fault, { method: "POST", path: "/pii-opt-out*" }, undefined, news, async (state) => (await up(fixture.host, news, state)).state);
        expect(outcome.runs, outcome.errors.join("\n")).toBeLessThanOrEqual(2);
        for (const error of outcome.errors) expect(error).not.toContain(`${label}-viewer-`);
        const requests = (await fixture.emulator.get("/pii-opt-out")).body.requests as Array<{ id: string; identifiers: { viewer_id: string[] } }>;
        const mine = requests.filter((request) => request.identifiers.viewer_id.some((identifier) => identifier.startsWith(`${label}-`)));
        expect(mine.length).toBeGreaterThan(0);
        // Every identifier in exactly one request: none lost, none twice.
        expect(mine.flatMap((request) => request.identifiers.viewer_id).sort()).toEqual(identifiers);
        const tracked = (outcome.state!.outputs.requests as Array<{ id: string }>).map((request) => request.id).sort();
        expect(tracked).toEqual(mine.map((request) => request.id).sort());
        expect(outcome.state!.outputs).toMatchObject({ batchesSubmitted: 2, batchCount: 2 });
      });
    });
  }
});
