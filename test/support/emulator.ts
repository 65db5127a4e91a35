import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";

/** The frozen "now" of test emulators: every test sees the same data world. */
export const TEST_NOW = "2026-11-20T12:30:00.000Z";
/** {@link TEST_NOW} in epoch milliseconds. */
export const TEST_NOW_MS = Date.parse(TEST_NOW);

/**
 * The emulator dialect of this test run (emulator/README.md "Dialects"): `alternate` when the vitest
 * project "alternate" sets `INSIGHTS_TEST_DIALECT`, else `standard`. The client, provider and
 * data-source suites run under both, so none of them depends on a choice the contract leaves open.
 */
export const TEST_DIALECT: "standard" | "alternate" = process.env.INSIGHTS_TEST_DIALECT === "alternate" ? "alternate" : "standard";
/** True in the run against the alternate dialect. */
export const ALTERNATE = TEST_DIALECT === "alternate";

/**
 * What the emulator answers where the contract is silent, in this run's dialect, as tests that
 * look at the wire expect it (emulator/README.md "Dialects"; the client depends on none of them).
 */
export const DIALECT_ANSWERS = {
  /** Whether error bodies carry a code and the parameter at fault (`{status, error, message, parameter}`). */
  errorsNameTheParameter: !ALTERNATE,
  /** The status of a PII read (the contract's PII pages also name 201). */
  piiReadStatus: ALTERNATE ? 201 : 200,
  /** The status of a PUT or DELETE naming a saved-filter id the account does not have. */
  unknownFilterIdStatus: ALTERNATE ? 404 : 400,
  /** The status of a PII POST whose identifiers were all submitted before. */
  allPreviouslySubmittedStatus: ALTERNATE ? 409 : 400,
  /** Whether a fault rule's `retryAfter` is sent as `Retry-After` (the service itself sends none). */
  retryAfterFromFaultRules: !ALTERNATE,
  /** Whether `null` clears an optional field of a saved filter in a PUT. */
  nullClearsAField: !ALTERNATE,
  /**
   * Whether every interval of a group-by lists the entities ranked over the whole range (those with
   * data in it), rather than its own top entities.
   */
  groupByRanksTheWholeRange: !ALTERNATE,
  /** An unset `category` of a saved filter on the wire: left out (undefined), or `null`. */
  unsetCategory: ALTERNATE ? null : undefined,
  /** `created` of a saved filter made at {@link TEST_NOW}: UTC with `+00:00`, or the same instant at -05:00. */
  filterCreatedAtTestNow: ALTERNATE ? "2026-11-20T07:30:00.000-05:00" : "2026-11-20T12:30:00.000+00:00",
  /** A metric value whose denominator is empty (a percentage of no attempts): 0, or `null`. */
  emptyRatio: ALTERNATE ? null : 0,
  /** Whether a metric answer lists an interval without data (with zeros) rather than leave it out. */
  listsIntervalsWithoutData: !ALTERNATE,
} as const;

/** A listing's items, whether the answer wraps them in `member` or is the bare array (emulator/README.md "Dialects"). */
export function listedItems<Item = any>(body: unknown, member: string): Item[] {
  return (Array.isArray(body) ? body : (body as Record<string, Item[]>)[member]) as Item[];
}

/** The documented dev account (every feature on) and the basic account (service defaults). */
export const DEV = { clientId: "dev", clientSecret: "dev-secret" } as const;
export const BASIC = { clientId: "basic", clientSecret: "basic-secret" } as const;

/** The HTTP Basic credentials of an emulator account. */
export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** A raw HTTP answer. */
export interface RawResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** A test emulator with raw-HTTP helpers (loopback, real sockets, no client of ours). */
export interface TestEmulator extends RunningEmulator {
  /** Sends an API request with HTTP Basic credentials (dev by default). */
  call(method: string, path: string, options?: { query?: Record<string, string | string[] | number>; body?: unknown; account?: Credentials | null }): Promise<RawResponse>;
  /** GET shorthand of {@link call}. */
  get(path: string, query?: Record<string, string | string[] | number>, account?: Credentials | null): Promise<RawResponse>;
  /** Calls the control plane under `/_emulator/`. */
  control(method: string, path: string, body?: unknown): Promise<RawResponse>;
}

/** Sends one request over loopback: its status, headers and body (JSON when it parses, else the text). */
async function request(method: string, url: string, body: unknown, headers: Record<string, string>): Promise<RawResponse> {
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text.length ? JSON.parse(text) : undefined;
  } catch {
    // leave the raw text
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** The control plane under `/_emulator/` of the emulator at `url`, which takes writes only as JSON (emulator/local-only.ts), a body or none. */
function controlAt(url: string): TestEmulator["control"] {
  return (method, path, body) => request(method, new URL(`/_emulator/${path.replace(/^\//, "")}`, url).toString(), body, method === "POST" ? { "content-type": "application/json" } : {});
}

/**
 * Starts an emulator on a free loopback port with a frozen clock at {@link TEST_NOW} and seed 7.
 * Its rate budgets are lifted unless `options.rateBudgets` says otherwise: on a frozen clock a
 * window never slides, so a file's many requests would exhaust it; the suites of the budgets and
 * of pacing (test/rate-budgets.test.ts) turn them on and pass minutes by advancing the clock.
 */
export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emulator = await startEmulator({ port: 0, seed: 7, clock: { start: TEST_NOW, frozen: true }, rateBudgets: false, dialect: TEST_DIALECT, ...options });
  const call: TestEmulator["call"] = (method, path, options = {}) => {
    const url = new URL(path, emulator.url);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
    }
    const account = options.account === undefined ? DEV : options.account;
    const headers: Record<string, string> = account
      ? { authorization: `Basic ${Buffer.from(`${account.clientId}:${account.clientSecret}`).toString("base64")}` }
      : {};
    return request(method, url.toString(), options.body, headers);
  };
  return {
    ...emulator,
    call,
    get: (path, query, account) => call("GET", path, { ...(query ? { query } : {}), ...(account === undefined ? {} : { account }) }),
    control: controlAt(emulator.url),
  };
}

/** How {@link useTestEmulator} treats the state between tests. */
export interface TestEmulatorLifecycle {
  /**
   * Before each test, `POST /_emulator/reset`: accounts back to their configuration (no filters, no
   * PII requests), the clock back to TEST_NOW, fault rules and journal cleared. Off by default, for
   * files whose tests share what an earlier hook or test made.
   */
  resetEach?: boolean;
}

/**
 * Starts a test emulator before the tests of the enclosing file or describe block and closes it after
 * them. The answer stands for that emulator: use it inside hooks and tests (before the first
 * `beforeAll` has run there is no emulator yet, and using it throws). Hooks registered after this call
 * run after the emulator started, and their `afterAll` before it closes.
 */
export function useTestEmulator(options: EmulatorOptions = {}, { resetEach = false }: TestEmulatorLifecycle = {}): TestEmulator {
  let running: TestEmulator | undefined;
  const started = (): TestEmulator => {
    if (!running) throw new Error("useTestEmulator: the emulator is used before its beforeAll has run; use it inside hooks and tests");
    return running;
  };
  beforeAll(async () => {
    running = await startTestEmulator(options);
  });
  afterAll(async () => {
    await running?.close();
  });
  if (resetEach) {
    beforeEach(async () => {
      expect((await started().control("POST", "reset")).status).toBe(200);
    });
  }
  return {
    get url() {
      return started().url;
    },
    get state() {
      return started().state;
    },
    close: () => started().close(),
    call: (method, path, callOptions) => started().call(method, path, callOptions),
    get: (path, query, account) => started().get(path, query, account),
    control: (method, path, body) => started().control(method, path, body),
  };
}

/** The built `insights-emulator` command (emulator/bin.ts). */
export const EMULATOR_BIN = path.join(__dirname, "..", "..", "dist", "emulator", "bin.js");

/** Starts the built `insights-emulator` on a free port with `args`: the process, once it says where it listens, and that URL. */
async function spawnEmulator(args: string[], stderr: "pipe" | "ignore"): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [EMULATOR_BIN, "--port", "0", ...args], { stdio: ["ignore", "pipe", stderr] });
  try {
    const [line] = (await once(child.stdout!, "data")) as [Buffer];
    return { child, url: /listening on (\S+)/.exec(line.toString())![1]! };
  } catch (error) {
    child.kill();
    throw error;
  }
}

/**
 * Runs the built `insights-emulator` with `args` until it says where it listens, calls `use` with
 * that URL, then stops it.
 */
export async function withEmulatorCommand(args: string[], use: (url: string) => Promise<void>): Promise<void> {
  const { child, url } = await spawnEmulator(args, "pipe");
  try {
    await use(url);
  } finally {
    child.kill();
  }
}

/** An emulator in a process of its own ({@link startEmulatorProcess}). */
export interface EmulatorProcess {
  url: string;
  /** Calls the control plane under `/_emulator/`, as {@link TestEmulator.control}. */
  control(method: string, path: string, body?: unknown): Promise<RawResponse>;
  /** `POST /_emulator/reset`, its rate budgets lifted again. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The built `insights-emulator` in a process of its own, frozen at {@link TEST_NOW} with seed 7 and
 * its rate budgets lifted, as {@link startTestEmulator} starts one in process: for a test whose own
 * process is busy for seconds at a time (the engine driver converting a property bag of thousands of
 * members), during which an emulator in that process would not serve, and its idle connections
 * would close late, under the requests of the provider's process.
 */
export async function startEmulatorProcess(): Promise<EmulatorProcess> {
  const { child, url } = await spawnEmulator(["--seed", "7", "--clock", TEST_NOW, "--frozen", "--dialect", TEST_DIALECT], "ignore");
  const control = controlAt(url);
  const reset = async () => {
    expect((await control("POST", "reset")).status).toBe(200);
    expect((await control("POST", "rate-budgets", false)).status).toBe(200);
  };
  await reset();
  return {
    url,
    control,
    reset,
    close: async () => {
      child.kill();
      await once(child, "exit");
    },
  };
}

/** Runs the built `insights-emulator` with `args` that it refuses: its exit code and standard error. */
export async function refusedEmulatorCommand(args: string[]): Promise<{ code: number; stderr: string }> {
  const child = spawn(process.execPath, [EMULATOR_BIN, "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number];
  return { code, stderr };
}
