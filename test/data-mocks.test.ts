import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import * as insights from "../provider";

/**
 * A user's unit test of a program, in the style of Pulumi's testing guide: `pulumi.runtime.setMocks`
 * with a `call` that answers the data sources by token. No emulator and no settings anywhere in this
 * file: had a data source tried to read an account, it would fail with a missing-settings error.
 */

/** Every call the mock engine was asked, in order. */
const calls: pulumi.runtime.MockCallArgs[] = [];

/** What the mocks answer for a saved filter looked up by name. */
const SPORTS = { id: "4242", name: "Sports live", rules: { op: "and", rules: [{ field: "Asset Name", op: "contains", value: "live" }] } };

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: (args) => {
        calls.push(args);
        switch (args.token) {
          case "insights:index:getSavedFilterByName":
            return { ...SPORTS, name: args.inputs.name };
          case "insights:index:getViewerSummary":
            return { viewerId: args.inputs.viewerId, sessions: 3 };
          default:
            return { echoed: args.inputs };
        }
      },
    },
    "data-mocks",
    "test",
    false,
  );
});

/** The SDK's accessor of an Output's value (`apply` would not reject when the Output fails). */
const valueOf = <T>(output: pulumi.Output<T>): Promise<T> => (output as unknown as { promise(): Promise<T> }).promise();

/** The calls made while `run` ran. */
async function callsDuring(run: () => Promise<unknown>): Promise<pulumi.runtime.MockCallArgs[]> {
  const before = calls.length;
  await run();
  return calls.slice(before);
}

/** A resource of the mock engine. */
class Dashboard extends pulumi.CustomResource {
  declare readonly filterId: pulumi.Output<string>;
  constructor(name: string, args: { filterId?: pulumi.Input<string> } = {}, opts?: pulumi.CustomResourceOptions) {
    super("test:index:Dashboard", name, { filterId: args.filterId }, opts);
  }
}

/** A small program: a filter's id read by name, exported, and a resource that depends on it. */
function program() {
  const sports = insights.getSavedFilterByNameOutput({ name: "Sports live" });
  const dashboard = new Dashboard("sports", { filterId: sports.id });
  return { sportsFilterId: sports.id, dashboardFilterId: dashboard.filterId };
}

describe("data sources under pulumi.runtime.setMocks", () => {
  it("a program's data source is answered by the mocks' call, by token", async () => {
    const outputs = program();
    expect(await valueOf(outputs.sportsFilterId)).toBe("4242");
    expect(await valueOf(outputs.dashboardFilterId)).toBe("4242");
    const asked = calls.filter((call) => call.token === "insights:index:getSavedFilterByName");
    expect(asked.length).toBeGreaterThan(0);
    for (const call of asked) expect(call.inputs).toEqual({ name: "Sports live" });
  });

  it("the Promise form takes Pulumi's invoke options and is answered by the mocks too", async () => {
    const parent = new Dashboard("parent");
    const found = await insights.getSavedFilterByName({ name: "Sports live" }, { parent, timeoutMs: 5_000 });
    expect(found).toEqual(SPORTS);
  });

  it("the Output form takes Inputs and Pulumi's invoke-output options (parent, dependsOn)", async () => {
    const parent = new Dashboard("parent-of-output");
    const found = insights.getSavedFilterByNameOutput({ name: pulumi.output("Sports live") }, { parent, dependsOn: [parent], timeoutMs: 5_000 });
    expect(await valueOf(found.name)).toBe("Sports live");
  });

  it("personal data answered by the mocks is still a secret in the Output form", async () => {
    const summary = insights.getViewerSummaryOutput({ viewerId: "viewer-1" });
    expect(await pulumi.isSecret(summary)).toBe(true);
    expect(await valueOf(summary)).toEqual({ viewerId: "viewer-1", sessions: 3 });
  });

  it("the mocks see the arguments without the connection's secret, and dates as epoch milliseconds", async () => {
    const start = new Date("2026-11-20T09:30:00Z");
    const end = new Date("2026-11-20T12:30:00Z");
    const seen = await callsDuring(() =>
      insights.getContentSessions({ range: { start, end }, limit: 5, connection: { baseUrl: "https://api.example.com", clientId: "ci", clientSecret: "h14-mock-secret" } }),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]!.token).toBe("insights:index:getContentSessions");
    expect(seen[0]!.inputs).toEqual({ range: { start: start.getTime(), end: end.getTime() }, limit: 5 });
    expect(JSON.stringify(seen)).not.toContain("h14-mock-secret");
  });

  it("the mocks see the account a data source names (a name of insights:accounts, no setting of it)", async () => {
    const seen = await callsDuring(() => insights.getSavedFilterByName({ name: "Roku devices", account: "staging" }));
    expect(seen.map(({ token, inputs }) => ({ token, inputs }))).toEqual([{ token: "insights:index:getSavedFilterByName", inputs: { name: "Roku devices", account: "staging" } }]);
  });

  it("every data source of the package, in both forms, is a Pulumi function insights:index:<its name>", async () => {
    const exports = insights as unknown as Record<string, (args: object) => Promise<unknown> | pulumi.Output<unknown>>;
    // A data source is a pair of functions, `x` and `xOutput`.
    const promiseForms = Object.keys(insights).filter((name) => typeof exports[name] === "function" && typeof exports[`${name}Output`] === "function");
    expect(promiseForms.length).toBeGreaterThan(25);
    for (const name of promiseForms) {
      const asked = await callsDuring(async () => {
        await exports[name]!({ probe: name });
        await valueOf(exports[`${name}Output`]!({ probe: name }) as pulumi.Output<unknown>);
      });
      expect(asked.map((call) => [call.token, call.inputs]), name).toEqual([
        [`insights:index:${name}`, { probe: name }],
        [`insights:index:${name}`, { probe: name }],
      ]);
    }
  });
});
