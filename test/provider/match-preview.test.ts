import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SESSION_SAMPLE } from "../../provider/match-estimate";
import { secret, up, type Diagnostic, type ResourceState } from "../../engine";
import { DEV } from "../support/emulator";
import { startProviderFixture, type ProviderFixture } from "./fixture";

/**
 * The match-rate line of previews (docs/resources.md "Match-rate estimates in previews") through the real
 * dynamic-provider host: a filter to create and a rules change say what share of sampled sessions
 * the rules match, from one sample per host process; rules that match nothing get a warning; a
 * setting turns it off; a failed sample is one line. The emulator's clock stands at the wall time the
 * host samples back from.
 */
const SAMPLE_PATH = "/insights/3.0/sessions/content";
/** `matches ≈ 12.4% of sampled sessions (95%: 10.9-14.0%, n = 1500)`, and `, was ≈ 15.1%` after a change. */
const ESTIMATE = /matches ≈ (\d+\.\d)% of sampled sessions \(95%: (\d+\.\d)-(\d+\.\d)%, n = (\d+)\)(?:, was ≈ (\d+\.\d)%)?/;

const unitedStates = { op: "and", rules: [{ field: "Country", op: "equals", value: "United States" }] };
const canada = { op: "and", rules: [{ field: "Country", op: "equals", value: "Canada" }] };
const nothing = { op: "and", rules: [{ field: "Tag", key: "deviceId", op: "equals", value: "no-device-has-this-id" }] };

/** A SavedFilter fixture with the estimate on, its emulator's clock at the wall time the host samples back from. */
function startEstimating(): Promise<ProviderFixture> {
  return startProviderFixture({
    module: "dist/provider/index.js",
    exportName: "SavedFilter",
    args: ["us", { name: "United States viewers", rules: unitedStates }],
    emulatorOptions: { clock: { start: new Date().toISOString(), frozen: true } },
    hostEnv: { INSIGHTS_MATCH_ESTIMATE: "true" },
  });
}

function estimateIn(diagnostic: Diagnostic): { share: number; low: number; high: number; sampled: number; was?: number } {
  const found = ESTIMATE.exec(diagnostic.message);
  expect(found, diagnostic.message).not.toBeNull();
  const [, share, low, high, sampled, was] = found!;
  return { share: Number(share), low: Number(low), high: Number(high), sampled: Number(sampled), ...(was === undefined ? {} : { was: Number(was) }) };
}

describe("match-rate estimates in previews", () => {
  let fixture: ProviderFixture;
  let created: ResourceState;
  let mark: number;

  beforeAll(async () => {
    fixture = await startEstimating();
    mark = fixture.mark();
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it("says what share of sampled sessions a filter to create matches", async () => {
    created = (await up(fixture.host, fixture.inputs({ name: "United States viewers", rules: unitedStates }))).state;
    const line = await fixture.host.waitForDiagnostic('SavedFilter "United States viewers": matches ≈');
    const estimate = estimateIn(line);
    expect(estimate.sampled).toBeGreaterThan(0);
    expect(estimate.share).toBeGreaterThan(0);
    expect(estimate.share).toBeLessThan(100);
    expect(estimate.low).toBeLessThanOrEqual(estimate.share);
    expect(estimate.high).toBeGreaterThanOrEqual(estimate.share);
    expect(estimate.was).toBeUndefined();
  });

  it("adds the new and the old estimate to a rules change, from the same sample", async () => {
    const before = estimateIn(await fixture.host.waitForDiagnostic('SavedFilter "United States viewers": matches ≈'));
    const diff = await fixture.host.diff(created.id, created.outputs, fixture.inputs({ name: "United States viewers", rules: canada }), { oldInputs: created.inputs });
    expect(diff.changes).toBe("some");
    // The host's output travels line by line: the message's first line, the rule-tree diff, the estimate.
    await fixture.host.waitForDiagnostic('SavedFilter "United States viewers": rules change');
    const after = estimateIn(await fixture.host.waitForDiagnostic((diagnostic) => /, was ≈/.test(diagnostic.message)));
    expect(after.was).toBe(before.share);
    expect(after.sampled).toBe(before.sampled);
    expect(after.share).toBeLessThan(before.share);
  });

  it("warns when the rules match none of the sampled sessions", async () => {
    await fixture.host.diff(created.id, created.outputs, fixture.inputs({ name: "United States viewers", rules: nothing }), { oldInputs: created.inputs });
    const warning = await fixture.host.waitForDiagnostic((diagnostic) => diagnostic.message.includes("warning: the rules match none of"));
    expect(warning.message).toMatch(/^warning: the rules match none of \d+ sampled sessions; dashboards built on this filter would show nothing$/);
    const estimate = fixture.host.diagnostics[fixture.host.diagnostics.indexOf(warning) - 1]!;
    expect(estimateIn(estimate).share).toBe(0);
  });

  it("samples once per host process: one request per window, however many filters are previewed", () => {
    const samples = fixture.requestsSince(mark).filter((entry) => entry.path === SAMPLE_PATH);
    expect(samples).toHaveLength(DEFAULT_SESSION_SAMPLE.windows);
  });
});

describe("match-rate estimates turned off, and a sample that fails", () => {
  it("prints nothing and samples nothing with insights:matchEstimate false", async () => {
    const fixture = await startEstimating();
    try {
      const mark = fixture.mark();
      await fixture.host.configure({ "insights:baseUrl": fixture.emulator.url, "insights:clientId": DEV.clientId, "insights:clientSecret": secret(DEV.clientSecret), "insights:matchEstimate": "false" });
      await fixture.host.check({}, fixture.inputs({ name: "United States viewers", rules: unitedStates }));
      expect(fixture.requestsSince(mark).filter((entry) => entry.path === SAMPLE_PATH)).toEqual([]);
      expect(fixture.host.diagnostics.filter((diagnostic) => diagnostic.message.includes("matches ≈"))).toEqual([]);
    } finally {
      await fixture.close();
    }
  });

  it("goes on with one line saying why when sampling fails", async () => {
    const fixture = await startEstimating();
    try {
      await fixture.emulator.control("POST", "faults", { path: `${SAMPLE_PATH}*`, status: 403, times: 100 });
      const first = await fixture.host.check({}, fixture.inputs({ name: "United States viewers", rules: unitedStates }));
      const second = await fixture.host.check({}, fixture.inputs({ name: "Canadian viewers", rules: canada }));
      expect([first.failures, second.failures]).toEqual([[], []]);
      const line = await fixture.host.waitForDiagnostic("match estimate unavailable");
      expect(line.message).toMatch(/^match estimate unavailable: sampling sessions failed \(.*403.*\); previews go on without it \(insights:matchEstimate: false turns it off\)$/);
      expect(fixture.host.diagnostics.filter((diagnostic) => diagnostic.message.includes("match estimate unavailable"))).toHaveLength(1);
    } finally {
      await fixture.close();
    }
  });
});
