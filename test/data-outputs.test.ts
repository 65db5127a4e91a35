import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ArgumentError, AuthenticationError, NotFoundError } from "../provider/client";
import * as data from "../provider/data";
import { DEV, TEST_NOW_MS, useTestEmulator } from "./support/emulator";
import { failure } from "./support/failure";
import { journalMark, requestsSince } from "./support/query-families";

// The Output forms inside a Pulumi program run under pulumi.runtime.setMocks (marked by
// withAccountReads, so that they read the account instead of asking the mocks), with the settings in
// the stack config (`insights:*`, the secret as a secret key) and the data from an emulator over
// loopback. Only Date is faked (at TEST_NOW), so the client's clock agrees with the emulator's.

const HOUR_MS = 3_600_000;

/** Runs inside the mock engine before the resource named "gated" is created. */
let beforeGatedCreated: () => Promise<void> = async () => {};

beforeAll(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: TEST_NOW_MS });
});
const emulator = useTestEmulator();
beforeAll(async () => {
  // Marked so that the data sources read the emulator instead of asking `call` (test/data-mocks.test.ts).
  await pulumi.runtime.setMocks(
    data.withAccountReads({
      newResource: async (args) => {
        if (args.name === "gated") await beforeGatedCreated();
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: (args) => args.inputs,
    }),
    "data-outputs",
    "test",
    false,
  );
  pulumi.runtime.setAllConfig(
    { "insights:baseUrl": emulator.url, "insights:clientId": DEV.clientId, "insights:clientSecret": DEV.clientSecret },
    ["insights:clientSecret"],
  );
});
afterAll(async () => {
  await data.closeDataSourceClients();
  vi.useRealTimers();
});

/** The SDK's internal accessor of an Output's value: unlike `apply`, it also rejects when the Output fails. */
const valueOf = <T>(output: pulumi.Output<T>): Promise<T> => (output as unknown as { promise(): Promise<T> }).promise();

/** The value an Output resolves to and whether it is secret. */
async function settle<T>(output: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
  return { value: await valueOf(output), secret: await pulumi.isSecret(output) };
}

/**
 * The error an Output fails with. A failed Output also rejects the SDK's internal promises, which
 * nobody awaits: the program's runtime reports those unhandled rejections, once per distinct error
 * object. They are collected here (instead of failing the test run) and must all be that one error.
 */
async function outputFailure(makeOutput: () => pulumi.Output<unknown>): Promise<unknown> {
  const listeners = process.listeners("unhandledRejection");
  const unhandled: unknown[] = [];
  process.removeAllListeners("unhandledRejection");
  process.on("unhandledRejection", (reason) => unhandled.push(reason));
  try {
    const error = await failure(valueOf(makeOutput()));
    for (let round = 0; round < 3; round++) await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled.length).toBeGreaterThan(0);
    for (const reason of unhandled) expect(reason).toBe(error);
    return error;
  } finally {
    process.removeAllListeners("unhandledRejection");
    for (const listener of listeners) process.on("unhandledRejection", listener);
  }
}

/** A resource of the mock engine, to depend on. */
class Gated extends pulumi.CustomResource {
  constructor(name: string) {
    super("test:index:Gated", name, {});
  }
}

/** A data source in both forms with the arguments to call it with. */
type Case = [name: string, output: (args: any) => pulumi.Output<unknown>, invoke: (args: any) => Promise<unknown>, args: () => object];

describe("Output forms of every data source", () => {
  const range = { start: TEST_NOW_MS - 3 * HOUR_MS, end: TEST_NOW_MS };
  const known: { viewerId?: string; contentAlertId?: string; adAlertId?: string; filterId?: string; piiId?: string; tag?: string } = {};
  beforeAll(async () => {
    // Promise forms read the stack config too: no connection anywhere in this file.
    const { sessions } = await data.getContentSessions({ range });
    known.viewerId = sessions.find((session) => typeof session.viewer_id === "string")!.viewer_id!;
    known.contentAlertId = (await data.getContentAlerts()).alerts[0]!.id;
    known.adAlertId = (await data.getAdAlerts()).alerts[0]!.id;
    known.tag = (await data.getDimensionTags({ metric: "plays" })).dimension_tags[0]!.name;
    const filter = await emulator.call("POST", "/bulk_filters/", {
      body: [{ name: "h8 outputs", rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: "news" }] } }],
    });
    known.filterId = String(filter.body[0].id);
    const request = await emulator.call("POST", "/pii-opt-out", { body: { viewer_id: ["h8-output-viewer"], "@notification_email": ["dpo@example.com"] } });
    known.piiId = request.body.id;
  });

  const personal: Case[] = [
    ["getContentSessions", data.getContentSessionsOutput, data.getContentSessions, () => ({ range, limit: 5 })],
    ["getAdSessions", data.getAdSessionsOutput, data.getAdSessions, () => ({ range, limit: 5 })],
    ["getViewerSessions", data.getViewerSessionsOutput, data.getViewerSessions, () => ({ viewerId: known.viewerId, limit: 5 })],
    ["getViewerSummary", data.getViewerSummaryOutput, data.getViewerSummary, () => ({ viewerId: known.viewerId })],
    ["getPiiOptOutRequests", data.getPiiOptOutRequestsOutput, data.getPiiOptOutRequests, () => ({ status: ["ENQUEUED"] })],
    ["getPiiOptOutRequest", data.getPiiOptOutRequestOutput, data.getPiiOptOutRequest, () => ({ id: known.piiId })],
  ];
  const metric = { range: { lastDays: 1 }, granularity: "ALL" };
  const other: Case[] = [
    ["getSessionDimensions", data.getSessionDimensionsOutput, data.getSessionDimensions, () => ({})],
    ["getMetric", data.getMetricOutput, data.getMetric, () => ({ metric: "plays", ...metric })],
    ["getMetric (real time)", data.getMetricOutput, data.getMetric, () => ({ metric: "concurrent-plays", realTime: true, range: { lastMinutes: 5 } })],
    ["getMetrics", data.getMetricsOutput, data.getMetrics, () => ({ metrics: ["plays", "bitrate"], ...metric })],
    ["getMetricGroupBy", data.getMetricGroupByOutput, data.getMetricGroupBy, () => ({ metric: "plays", dimension: "isp", limit: 3, ...metric })],
    ["getMetricsGroupBy", data.getMetricsGroupByOutput, data.getMetricsGroupBy, () => ({ metrics: ["plays", "bitrate"], dimension: "cdn", ...metric })],
    ["getMetricGroupByTag", data.getMetricGroupByTagOutput, data.getMetricGroupByTag, () => ({ metric: "plays", tag: known.tag, ...metric })],
    ["getGroupByDimensions", data.getGroupByDimensionsOutput, data.getGroupByDimensions, () => ({ metric: "plays" })],
    ["getDimensionTags", data.getDimensionTagsOutput, data.getDimensionTags, () => ({ metric: "plays", realTime: true })],
    ["getMetricDimensions", data.getMetricDimensionsOutput, data.getMetricDimensions, () => ({})],
    ["getSavedFilterReferences", data.getSavedFilterReferencesOutput, data.getSavedFilterReferences, () => ({})],
    ["getKpis", data.getKpisOutput, data.getKpis, () => ({})],
    ["getContentAlerts", data.getContentAlertsOutput, data.getContentAlerts, () => ({ severity: ["critical"] })],
    ["getAdAlerts", data.getAdAlertsOutput, data.getAdAlerts, () => ({})],
    ["getContentAlert", data.getContentAlertOutput, data.getContentAlert, () => ({ alertId: known.contentAlertId })],
    ["getAdAlert", data.getAdAlertOutput, data.getAdAlert, () => ({ alertId: known.adAlertId })],
    ["getSavedFilters", data.getSavedFiltersOutput, data.getSavedFilters, () => ({ name: "h8" })],
    ["getSavedFilter", data.getSavedFilterOutput, data.getSavedFilter, () => ({ id: known.filterId })],
    ["getSavedFilterByName", data.getSavedFilterByNameOutput, data.getSavedFilterByName, () => ({ name: "h8 outputs" })],
    ["getFilterFieldValues", data.getFilterFieldValuesOutput, data.getFilterFieldValues, () => ({ field: "countries", pattern: "an" })],
    ["getFilterFields", data.getFilterFieldsOutput, data.getFilterFields, () => ({})],
  ];

  it.each(personal)("%s answers a secret (personal data) equal to the Promise form", async (_name, output, invoke, args) => {
    const settled = await settle(output(args()));
    expect(settled.secret).toBe(true);
    expect(settled.value).toEqual(await invoke(args()));
  });

  it.each(other)("%s answers a plain Output equal to the Promise form, though the client secret is a secret", async (_name, output, invoke, args) => {
    const settled = await settle(output(args()));
    expect(settled.secret).toBe(false);
    expect(settled.value).toEqual(await invoke(args()));
  });

  it("personal data stays secret through applies", async () => {
    const ips = data.getContentSessionsOutput({ range, limit: 3 }).apply((list) => list.sessions.map((session) => session.network_info.ip));
    expect((await settle(ips)).secret).toBe(true);
    expect((await settle(ips)).value.length).toBeGreaterThan(0);
  });
});

describe("Inputs", () => {
  it("takes Outputs and Promises as arguments, and Dates inside a range", async () => {
    const end = new Date(TEST_NOW_MS);
    const start = new Date(TEST_NOW_MS - 3 * HOUR_MS);
    const output = data.getContentSessionsOutput({ range: { start, end }, limit: Promise.resolve(4), filters: pulumi.output({ is_ad_requested: false }) });
    const expected = await data.getContentSessions({ range: { start, end }, limit: 4, filters: { is_ad_requested: false } });
    expect((await settle(output)).value).toEqual(expected);
    expect(expected.sessions.length).toBe(4);
  });

  it("lifts the result's properties: a metric's series, a saved filter's id", async () => {
    const count = data.getMetricOutput({ metric: pulumi.output("plays" as const), range: { lastDays: 1 } }).series.plays.count;
    const settled = await settle(count);
    expect(settled.value).toHaveLength(24);
    expect(settled.value[0]).toEqual({ time: expect.stringMatching(/Z$/), epochMs: expect.any(Number), value: expect.any(Number) });
    const id: pulumi.Output<string> = data.getSavedFilterByNameOutput({ name: "h8 outputs" }).id;
    expect((await settle(id)).value).toBe((await data.getSavedFilterByName({ name: "h8 outputs" })).id);
  });

  it("an argument not known yet (as in a preview) makes the answer unknown, and nothing is sent", async () => {
    const mark = await journalMark(emulator);
    const notKnownYet = pulumi.output(pulumi.unknown) as pulumi.Output<string>;
    const answer = data.getSavedFilterOutput({ id: notKnownYet });
    expect(await (answer as unknown as { isKnown: Promise<boolean> }).isKnown).toBe(false);
    expect(await requestsSince(emulator, mark)).toEqual([]);
  });

  it("a secret argument makes the answer secret", async () => {
    const settled = await settle(data.getSavedFilterByNameOutput({ name: pulumi.secret("h8 outputs") }));
    expect(settled.secret).toBe(true);
    expect(settled.value.name).toBe("h8 outputs");
  });

  it("explicit connection settings, secret ones included, override the stack config and do not make the answer secret", async () => {
    const good = await settle(data.getKpisOutput({ connection: { clientSecret: pulumi.secret(DEV.clientSecret) } }));
    expect(good.secret).toBe(false);
    expect(good.value.kpis.length).toBeGreaterThan(0);
    const error = await outputFailure(() => data.getKpisOutput({ connection: { clientSecret: pulumi.secret("h8-wrong-secret") } }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(String(error) + JSON.stringify(error)).not.toContain("h8-wrong-secret");
  });

  it("a failed read fails the Output with the client's error", async () => {
    const error = await outputFailure(() => data.getSavedFilterByNameOutput({ name: "h8 no such filter" }));
    expect(error).toBeInstanceOf(NotFoundError);
    const personal = await outputFailure(() => data.getViewerSessionsOutput({ viewerIp: "not an address" }));
    expect(personal).toBeInstanceOf(ArgumentError);
  });
});

describe("dependsOn", () => {
  it("reads only once the resources it depends on exist", async () => {
    const mark = await journalMark(emulator);
    let seenBeforeCreation: string[] | undefined;
    beforeGatedCreated = async () => {
      // An independent read completes first: had the dependent read not waited, it would have gone out too.
      await settle(data.getFilterFieldsOutput());
      seenBeforeCreation = (await requestsSince(emulator, mark)).map((entry) => entry.path);
    };
    const resource = new Gated("gated");
    const kpis = data.getKpisOutput({}, { dependsOn: resource });
    expect((await settle(kpis)).value.kpis.length).toBeGreaterThan(0);
    expect(seenBeforeCreation).toEqual(["/bulk_filters/fields"]);
    expect((await requestsSince(emulator, mark)).map((entry) => entry.path)).toEqual(["/bulk_filters/fields", "/kpis"]);
  });
});
