import { afterAll, beforeAll, expect } from "vitest";
import { InsightsClient, type InsightsClientOptions } from "../../provider/client";
import { ArgumentError } from "../../provider/client/core/errors";
import { DEV, TEST_NOW_MS, useTestEmulator, type Credentials, type TestEmulator, type TestEmulatorLifecycle } from "./emulator";
import { failure } from "./failure";

/**
 * The typed client over real HTTP to a test emulator, with the client's clock at the emulator's
 * frozen TEST_NOW: the recency limits of spec 8 and the splitting of relative ranges read that
 * clock. Retries are off so the journal shows exactly the requests the families send.
 */
export function queryFamilies(
  emulator: TestEmulator,
  account: Credentials = DEV,
  options: Pick<InsightsClientOptions, "retry"> = { retry: { maxRetries: 0 } },
): InsightsClient {
  return new InsightsClient({ baseUrl: emulator.url, ...account, ...options, env: {}, now: () => TEST_NOW_MS });
}

/** Runs `use` with a {@link queryFamilies} client of `account`, and closes the client after, whatever happens. */
export async function withClient<T>(emulator: TestEmulator, account: Credentials, use: (client: InsightsClient) => Promise<T>): Promise<T> {
  const client = queryFamilies(emulator, account);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/** One API request as the emulator's journal records it (emulator/journal.ts). */
export interface JournalEntry {
  seq: number;
  method: string;
  path: string;
  query: string;
  status: number;
  fault?: string;
}

/** The journal's last sequence number, to read only later requests with {@link requestsSince}. */
export async function journalMark(emulator: TestEmulator): Promise<number> {
  return (await emulator.control("GET", "requests")).body.last_seq as number;
}

/** The API requests answered after `mark`, with their query parsed. */
export async function requestsSince(emulator: TestEmulator, mark: number): Promise<Array<JournalEntry & { params: URLSearchParams }>> {
  const { body } = await emulator.control("GET", `requests?since=${mark}`);
  return (body.requests as JournalEntry[]).map((entry) => ({ ...entry, params: new URLSearchParams(entry.query) }));
}

/**
 * Starts a test emulator ({@link useTestEmulator}, reset before each test with `resetEach`) and a dev
 * client of it for the file's tests, and stops them after; read `context.emulator` and
 * `context.client` inside tests. Retries are off unless `options` say.
 */
export function useQueryFamilies(
  options?: Pick<InsightsClientOptions, "retry">,
  lifecycle?: TestEmulatorLifecycle,
): { emulator: TestEmulator; client: InsightsClient } {
  const context = { emulator: useTestEmulator({}, lifecycle) } as { emulator: TestEmulator; client: InsightsClient };
  beforeAll(() => {
    context.client = queryFamilies(context.emulator, DEV, options);
  });
  afterAll(async () => {
    await context.client.close();
  });
  return context;
}

/**
 * Asserts that `call` rejects with an ArgumentError at `path` whose message holds `message` (a string
 * is a substring, as in `toMatch`) or matches it (a RegExp), and that nothing was sent.
 */
export async function expectRefusedBeforeSending(emulator: TestEmulator, call: () => Promise<unknown>, path: string, message: string | RegExp): Promise<void> {
  const mark = await journalMark(emulator);
  const error = await failure(call());
  expect(error, path).toBeInstanceOf(ArgumentError);
  expect((error as ArgumentError).path, path).toBe(path);
  expect((error as ArgumentError).message, path).toMatch(message);
  expect(await requestsSince(emulator, mark)).toHaveLength(0);
}
