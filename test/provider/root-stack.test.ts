import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureDynamicResource, destroy, REPOSITORY_ROOT, up, type CapturedDynamicResource } from "../../engine";
import { startProviderFixture, type ProviderFixture } from "./fixture";

/**
 * The repository is itself a Pulumi project (Pulumi.yaml at the root): the host then runs with the
 * repository as its working directory, where `pulumi-insights` is not in node_modules and resolves
 * only by package self-reference. The provider must load its implementation there too.
 */
describe("the repository as the Pulumi project", () => {
  const rules = { op: "and", rules: [{ field: "Country", op: "equals", value: "Canada" }] };
  let fixture: ProviderFixture;
  let captured: CapturedDynamicResource;

  beforeAll(async () => {
    const resource = { module: "dist/provider/index.js", exportName: "SavedFilter", args: ["ca", { name: "Canada", rules }] };
    [fixture, captured] = await Promise.all([startProviderFixture({ ...resource, projectDir: REPOSITORY_ROOT }), captureDynamicResource(resource)]);
  });
  afterAll(() => fixture?.close());

  it("loads the SavedFilter implementation by self-reference and manages a filter", async () => {
    const { state } = await up(fixture.host, captured.inputs);
    expect((await fixture.listed()).map((filter) => filter.id)).toEqual([state.id]);
    await destroy(fixture.host, state);
    expect(await fixture.listed()).toEqual([]);
  });
});
