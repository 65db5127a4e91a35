import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InsightsClient } from "../provider/client";
import { getPiiOptOutReceipt } from "../provider/data";
import { matchesIdentifierSetDigest } from "../provider/pii/digest";
import { RECEIPT_FORMAT } from "../provider/pii/receipt";
import { DEV, TEST_NOW_MS, useTestEmulator } from "./support/emulator";

/**
 * The receipt of an opt-out made outside Pulumi, and its deletion check, against the emulator: once
 * FINISHED, the viewers' sessions are gone (docs/api.md 8), so every checked identifier is clean.
 */
describe("getPiiOptOutReceipt", () => {
  const emulator = useTestEmulator();
  let client: InsightsClient;
  let viewers: string[];

  beforeAll(async () => {
    client = new InsightsClient({ baseUrl: emulator.url, ...DEV, now: () => TEST_NOW_MS });
    const sessions = await client.sessions.listContent({ range: { start: TEST_NOW_MS - 3 * 3_600_000, end: TEST_NOW_MS - 3_600_000 }, limit: 500 });
    viewers = [...new Set(sessions.sessions.map((session) => session.viewer_id).filter((id): id is string => typeof id === "string" && id.startsWith("viewer-")))].slice(0, 12);
    expect(viewers.length).toBe(12);
  });
  afterAll(() => client.close());

  it("is made for a FINISHED request with every viewer checked clean, naming nobody", async () => {
    const before = await Promise.all(viewers.map((viewerId) => client.sessions.listViewer({ viewerId, range: { lastDays: 30 }, limit: 1 })));
    expect(before.every((answer) => answer.sessions.length === 1)).toBe(true);
    const submitted = await client.pii.submit({ identifiers: viewers });
    expect((await emulator.control("POST", "clock", { advance: "PT10M" })).status).toBe(200);
    const receipt = await getPiiOptOutReceipt({ id: submitted.id, connection: { baseUrl: emulator.url, ...DEV } });
    expect(receipt.format).toBe(RECEIPT_FORMAT);
    expect(receipt.generatedBy).toMatch(/^pulumi-insights\/\d+\.\d+\.\d+/);
    expect(receipt.status).toBe("FINISHED");
    expect(receipt.requests).toEqual([expect.objectContaining({ id: submitted.id, status: "FINISHED", identifiers: 12, createdAt: expect.any(String), finishedAt: expect.any(String) })]);
    expect(receipt.identifiers).toMatchObject({ kind: "viewer", count: 12 });
    expect(matchesIdentifierSetDigest(receipt.identifiers.digest, "viewer", viewers, receipt.identifiers.digestSalt)).toBe(true);
    expect(receipt.verification).toMatchObject({ checked: 12, clean: 12, stillPresent: 0, notVerifiable: 0, stillPresentIdentifiers: [] });
    const text = JSON.stringify(receipt);
    for (const viewer of viewers) expect(text).not.toContain(viewer);
  });
});
