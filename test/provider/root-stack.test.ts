import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureDynamicResource, destroy, REPOSITORY_ROOT, secret, startProviderHost, up, type ProviderHost } from "../harness";
import { DEV, startTestEmulator, type TestEmulator } from "../support/emulator";

/**
 * The repository is itself a Pulumi project (Pulumi.yaml at the root): the host then runs with the
 * repository as its working directory, where `pulumi-insights` is not in node_modules and resolves
 * only by package self-reference. The provider must load its implementation there too.
 */
describe("the repository as the Pulumi project", () => {
  let emulator: TestEmulator;
  let host: ProviderHost;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    host = await startProviderHost({ projectDir: REPOSITORY_ROOT });
    await host.configure({ "insights:baseUrl": emulator.url, "insights:clientId": DEV.clientId, "insights:clientSecret": secret(DEV.clientSecret) });
  });
  afterAll(async () => {
    await host?.close();
    await emulator?.close();
  });

  it("loads the SavedFilter implementation by self-reference and manages a filter", async () => {
    const rules = { op: "and", rules: [{ field: "Country", op: "equals", value: "Canada" }] };
    const captured = await captureDynamicResource({ module: "dist/provider/resources/saved-filter.js", exportName: "SavedFilter", args: ["ca", { name: "Canada", rules }] });
    const { state } = await up(host, captured.inputs);
    expect((await emulator.get("/bulk_filters/")).body.filters.map((filter: { id: string }) => filter.id)).toEqual([state.id]);
    await destroy(host, state);
    expect((await emulator.get("/bulk_filters/")).body.filters).toEqual([]);
  });
});
