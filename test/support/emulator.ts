import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";

/** The frozen "now" of test emulators: every test sees the same data world. */
export const TEST_NOW = "2026-11-20T12:30:00.000Z";
/** {@link TEST_NOW} in epoch milliseconds. */
export const TEST_NOW_MS = Date.parse(TEST_NOW);

/** The documented dev account (every feature on) and the basic account (service defaults). */
export const DEV = { clientId: "dev", clientSecret: "dev-secret" } as const;
export const BASIC = { clientId: "basic", clientSecret: "basic-secret" } as const;

/** A raw HTTP answer. */
export interface RawResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** A test emulator with raw-HTTP helpers (loopback, real sockets, no client of ours). */
export interface TestEmulator extends RunningEmulator {
  /** Sends an API request with HTTP Basic credentials (dev by default). */
  call(method: string, path: string, options?: { query?: Record<string, string | string[] | number>; body?: unknown; account?: { clientId: string; clientSecret: string } | null }): Promise<RawResponse>;
  /** GET shorthand of {@link call}. */
  get(path: string, query?: Record<string, string | string[] | number>, account?: { clientId: string; clientSecret: string } | null): Promise<RawResponse>;
  /** Calls the control plane under `/_emulator/`. */
  control(method: string, path: string, body?: unknown): Promise<RawResponse>;
}

/** Starts an emulator on a free loopback port with a frozen clock at {@link TEST_NOW} and seed 7. */
export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emulator = await startEmulator({ port: 0, seed: 7, clock: { start: TEST_NOW, frozen: true }, ...options });
  const request = async (method: string, url: string, body: unknown, headers: Record<string, string>): Promise<RawResponse> => {
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
  };
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
    control: (method, path, body) => request(method, new URL(`/_emulator/${path.replace(/^\//, "")}`, emulator.url).toString(), body, {}),
  };
}
