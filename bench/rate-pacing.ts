import { performance } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import { DEV_ACCOUNT, startEmulator, type JournalEntry, type RunningEmulator } from "../emulator";
import { InsightsClient, type InsightsClientOptions } from "../provider/client";
import { RATE_BUDGET_ENV } from "../provider/client/core/settings";
import { inParallel } from "./provider-batching";
import { captureDynamicResource, createTestProject, startProviderHost, type PropertyMap } from "../engine";

/**
 * Benchmark of the client's pacing against an emulator that enforces the service's budgets
 * (docs/api.md 8, 10.1; emulator/README.md "Rate budgets"). Two subjects, each paced (the default)
 * and, side by side in the same run, unpaced (`rateBudget: false`, `INSIGHTS_RATE_BUDGET=off`):
 *
 * 1. 2000 historical-metric requests issued at once by one in-process client. The budget is 400 a
 *    minute, so the floor is 4 minutes of budget time (400 at once, then 400 each further minute).
 *    The emulator's clock runs {@link CLOCK_SPEED} times faster than wall time and the client
 *    waits on that clock (its `retry.now` reads it, its `retry.sleep` sleeps 1/{@link CLOCK_SPEED}
 *    of each wait), so the minutes pass in seconds; times are reported in budget time.
 * 2. A stack of 1000 SavedFilter resources (create, refresh, delete) through the real dynamic-
 *    provider host, 64 engine calls at a time, on a clock at wall speed (the host waits on its own).
 */

/** Emulator milliseconds per wall-clock millisecond in the metric benchmark. */
const CLOCK_SPEED = 6;
const METRIC_REQUESTS = 2000;
const HISTORICAL_PER_MINUTE = 400;
const STACK_SIZE = 1000;
const ENGINE_CONCURRENCY = 64;
const NOW = "2026-11-20T12:30:00.000Z";

/** What one run cost. */
interface Outcome {
  requests: JournalEntry[];
  /** Budget time from the first request to the last answer. */
  budgetMs: number;
  wallMs: number;
  failedCalls: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const count429 = (requests: readonly JournalEntry[]) => requests.filter((entry) => entry.status === 429).length;

async function measure(emulator: RunningEmulator, body: () => Promise<number>): Promise<Outcome> {
  const mark = emulator.state.journal.lastSeq();
  const startedClock = emulator.state.clock.now();
  const started = performance.now();
  const failedCalls = await body();
  return {
    requests: emulator.state.journal.list(mark),
    budgetMs: emulator.state.clock.now() - startedClock,
    wallMs: performance.now() - started,
    failedCalls,
  };
}

/** 2000 historical-metric requests at once from one client, paced or not. */
async function metricBurst(emulator: RunningEmulator, paced: boolean): Promise<Outcome> {
  emulator.state.reset();
  const options: InsightsClientOptions = {
    baseUrl: emulator.url,
    ...DEV_ACCOUNT,
    env: {},
    retry: {
      now: () => emulator.state.clock.now(),
      sleep: (ms, signal) => delay(ms / CLOCK_SPEED, undefined, signal ? { signal } : {}),
    },
    ...(paced ? {} : { rateBudget: false as const }),
  };
  const client = new InsightsClient(options);
  try {
    return await measure(emulator, async () => {
      const outcomes = await Promise.allSettled(Array.from({ length: METRIC_REQUESTS }, () => client.metrics.groupByDimensions({ metric: "plays" })));
      return outcomes.filter((outcome) => outcome.status === "rejected").length;
    });
  } finally {
    await client.close();
  }
}

function episodeSpec(index: number): Record<string, unknown> {
  return {
    name: `Episode ${index}`,
    rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: `Episode ${index}` }] },
    category: "CONTENT",
    subcategory: "Show",
  };
}

/** A stack of 1000 SavedFilter resources: create, refresh, delete through the host, paced or not. */
async function savedFilterStack(emulator: RunningEmulator, provider: string, projectDir: string, paced: boolean): Promise<Outcome> {
  emulator.state.reset();
  const host = await startProviderHost({ projectDir, env: paced ? {} : { [RATE_BUDGET_ENV]: "off" } });
  try {
    await host.configure({
      "insights:baseUrl": emulator.url,
      "insights:clientId": DEV_ACCOUNT.clientId,
      "insights:clientSecret": DEV_ACCOUNT.clientSecret,
    });
    const checked: PropertyMap[] = [];
    for (let index = 0; index < STACK_SIZE; index++) checked.push((await host.check({}, { ...episodeSpec(index), __provider: provider })).inputs);
    return await measure(emulator, async () => {
      const states = await inParallel(checked, ENGINE_CONCURRENCY, (inputs) => host.create(inputs));
      await inParallel(states, ENGINE_CONCURRENCY, (state) => host.read(state.id, state.outputs));
      await inParallel(states, ENGINE_CONCURRENCY, (state) => host.delete(state.id, state.outputs));
      return 0;
    });
  } finally {
    await host.close();
  }
}

/** Runs the benchmark and returns its markdown. */
export async function run(): Promise<string> {
  const lines: string[] = [];
  const metricEmulator = await startEmulator({ port: 0, seed: 7, clock: { start: NOW, speed: CLOCK_SPEED }, rateBudgets: true });
  const floorMs = ((METRIC_REQUESTS - HISTORICAL_PER_MINUTE) / HISTORICAL_PER_MINUTE) * 60_000;
  try {
    const paced = await metricBurst(metricEmulator, true);
    process.stderr.write(`rate pacing: metric burst paced in ${seconds(paced.wallMs)}\n`);
    const unpaced = await metricBurst(metricEmulator, false);
    process.stderr.write(`rate pacing: metric burst unpaced in ${seconds(unpaced.wallMs)}\n`);
    lines.push(
      `${METRIC_REQUESTS} historical-metric requests issued at once by one client (8 in flight), against the emulator enforcing`,
      `${HISTORICAL_PER_MINUTE} a minute per account. Floor: ${seconds(floorMs)} of budget time (${HISTORICAL_PER_MINUTE} at once, then ${HISTORICAL_PER_MINUTE} each further minute).`,
      `The emulator's clock runs ${CLOCK_SPEED}x wall time and the client waits on it; times are budget time (wall time in brackets).`,
      "Unpaced, a 429 (no Retry-After) is waited out for 61 s and retried, at most 3 times within the call's 150 s budget.",
      "",
      "| mode | requests sent | answers 429 | calls failed | time (budget) | vs floor |",
      "|---|---|---|---|---|---|",
      ...[["paced (default)", paced], ["unpaced (rateBudget: false)", unpaced]].map(([mode, outcome]) => {
        const measured = outcome as Outcome;
        return `| ${mode as string} | ${measured.requests.length} | ${count429(measured.requests)} | ${measured.failedCalls} | ${seconds(measured.budgetMs)} (${seconds(measured.wallMs)}) | ${((measured.budgetMs / floorMs - 1) * 100).toFixed(1)}% |`;
      }),
    );
  } finally {
    await metricEmulator.close();
  }

  const stackEmulator = await startEmulator({ port: 0, seed: 7, clock: { start: NOW }, rateBudgets: true });
  const project = createTestProject({ name: "insights-bench-pacing" });
  try {
    const { provider } = await captureDynamicResource({ module: "dist/provider/index.js", exportName: "SavedFilter", args: ["f", episodeSpec(0)] });
    const paced = await savedFilterStack(stackEmulator, provider, project.dir, true);
    process.stderr.write(`rate pacing: stack paced in ${seconds(paced.wallMs)}\n`);
    const unpaced = await savedFilterStack(stackEmulator, provider, project.dir, false);
    process.stderr.write(`rate pacing: stack unpaced in ${seconds(unpaced.wallMs)}\n`);
    lines.push(
      "",
      `### A stack of ${STACK_SIZE} SavedFilter resources`,
      "",
      `Create, refresh and delete through the dynamic-provider host, ${ENGINE_CONCURRENCY} engine calls at a time, against the emulator enforcing`,
      "3000 requests per 5 minutes per address (the only budget of saved filters); the batcher groups the calls into bulk requests.",
      "",
      "| mode | requests sent | answers 429 | wall time |",
      "|---|---|---|---|",
      `| paced (default) | ${paced.requests.length} | ${count429(paced.requests)} | ${seconds(paced.wallMs)} |`,
      `| unpaced (${RATE_BUDGET_ENV}=off) | ${unpaced.requests.length} | ${count429(unpaced.requests)} | ${seconds(unpaced.wallMs)} |`,
    );
  } finally {
    project.remove();
    await stackEmulator.close();
  }
  return lines.join("\n");
}
