import { afterAll, beforeAll, expect } from "vitest";
import { InsightsClient, type InsightsClientOptions } from "../../provider/client";
import { ArgumentError } from "../../provider/client/errors";
import { DEV, startTestEmulator, TEST_NOW_MS, type TestEmulator } from "./emulator";

/**
 * The typed client over real HTTP to a test emulator, with the client's clock at the emulator's
 * frozen TEST_NOW: the recency limits of spec 8 and the splitting of relative ranges read that
 * clock. Retries are off so the journal shows exactly the requests the families send.
 */
export function queryFamilies(
  emulator: TestEmulator,
  account: { clientId: string; clientSecret: string } = DEV,
  options: Pick<InsightsClientOptions, "retry"> = { retry: { maxRetries: 0 } },
): QueryFamilies {
  return new InsightsClient({ baseUrl: emulator.url, ...account, ...options, env: {}, now: () => TEST_NOW_MS });
}

/** The families of one account, sharing one transport. */
export type QueryFamilies = InsightsClient;

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
 * Starts a test emulator and a client of it for the file's tests (and stops them after); read
 * `context.emulator` and `context.client` inside tests. Retries are off unless `options` say.
 */
export function useQueryFamilies(options?: Pick<InsightsClientOptions, "retry">): { emulator: TestEmulator; client: QueryFamilies } {
  const context = {} as { emulator: TestEmulator; client: QueryFamilies };
  beforeAll(async () => {
    context.emulator = await startTestEmulator();
    context.client = queryFamilies(context.emulator, DEV, options);
  });
  afterAll(async () => {
    await context.client.close();
    await context.emulator.close();
  });
  return context;
}

/** Asserts that `call` rejects with an ArgumentError at `path` whose message holds `message`, and sent nothing. */
export async function expectRefusedBeforeSending(emulator: TestEmulator, call: () => Promise<unknown>, path: string, message: string): Promise<void> {
  const mark = await journalMark(emulator);
  const error = await call().then(() => undefined, (thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(ArgumentError);
  expect((error as ArgumentError).path).toBe(path);
  expect((error as ArgumentError).message).toContain(message);
  expect(await requestsSince(emulator, mark)).toHaveLength(0);
}
