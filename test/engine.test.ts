import { runtime } from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  captureDynamicResource, CheckFailedError, createTestProject, destroy, isSecret, ProviderCallError, refresh, secret,
  SECRET_SIGNATURE, SPECIAL_SIGNATURE_KEY, startProviderHost, stateAfterFailure, up, type CapturedDynamicResource, type ProviderHost, type TestProject,
} from "../engine";
import { SECRET_MARKER } from "../provider/accounts/wire-secret";

const FIXTURE = "test/fixtures/harness-provider/index.js";
const TOKEN = "fixture-token-5f2c9d";

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("the engine driver (self-test with a fixture provider)", () => {
  let project: TestProject;
  let host: ProviderHost;
  let widget: CapturedDynamicResource;

  beforeAll(async () => {
    project = createTestProject({ packages: { "harness-fixture-provider": "test/fixtures/harness-provider" } });
    [widget, host] = await Promise.all([
      captureDynamicResource({ module: FIXTURE, exportName: "Widget", args: ["w", { size: 2, note: secret("hush") }] }),
      startProviderHost({ projectDir: project.dir }),
    ]);
    await host.configure({ "fixture:token": secret(TOKEN), "fixture:region": "eu" });
  });
  afterAll(async () => {
    await host?.close();
    project?.remove();
  });

  it("captures __provider as the SDK serializes it, holding only the implementation's name", () => {
    expect(widget.type).toBe("pulumi-nodejs:dynamic/fixture:Widget");
    expect(widget.urn).toBe("urn:pulumi:test::insights-test-project::pulumi-nodejs:dynamic/fixture:Widget::w");
    expect(widget.provider).toContain(`require("harness-fixture-provider/impl")`);
    expect(widget.provider).not.toContain("widgets");
    expect(widget.inputs).toMatchObject({ size: 2, note: secret("hush"), __provider: widget.provider });
  });

  it("keeps a configured secret out of __provider, and would see one a closure captured", async () => {
    expect(widget.provider).not.toContain(TOKEN);
    const leaky = await captureDynamicResource({ module: FIXTURE, exportName: "LeakyWidget", args: ["l", { size: 1, token: TOKEN }] });
    expect(leaky.provider).toContain(TOKEN);
  });

  it("round-trips check, create, read, update and delete", async () => {
    const checked = await host.check({}, widget.inputs);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toMatchObject({ size: 2, label: "plain", __provider: widget.provider });

    const created = await host.create(checked.inputs);
    expect(created.id).toMatch(/^w-\d+$/);
    expect(created.outputs).toMatchObject({ size: 2, volume: 8, __provider: widget.provider });

    const read = await host.read(created.id, created.outputs);
    expect(read).toEqual({ id: created.id, outputs: created.outputs });

    const news = { ...checked.inputs, size: 3 };
    const diff = await host.diff(created.id, created.outputs, news);
    expect(diff).toMatchObject({ changes: "some", replaces: [], deleteBeforeReplace: false });
    expect((await host.diff(created.id, created.outputs, checked.inputs)).changes).toBe("none");
    const updated = await host.update(created.id, created.outputs, news);
    expect(updated.outputs).toMatchObject({ size: 3, volume: 27 });

    await host.delete(created.id, updated.outputs);
    expect((await host.read(created.id, updated.outputs)).id).toBeUndefined();
    await host.waitForDiagnostic(`deleted widget ${created.id}`);
  });

  it("reports check failures and forwards the host's output as the engine would show it", async () => {
    const checked = await host.check({}, { ...widget.inputs, size: "big" });
    expect(checked.failures).toEqual([{ property: "size", reason: "size must be a number" }]);
    await expect(up(host, { ...widget.inputs, size: "big" })).rejects.toThrow(new CheckFailedError(checked.failures));

    const created = await host.create(widget.inputs);
    expect(await host.waitForDiagnostic(`created widget ${created.id}`)).toEqual({
      source: "stdout", severity: "info", message: `created widget ${created.id}`, urn: "",
    });
    await expect(host.check({}, { ...widget.inputs, size: "explode" })).rejects.toThrow("check exploded");
    expect((await host.waitForDiagnostic("Error: check exploded")).source).toBe("stderr");
  });

  it("maps a thrown error to its message, and a partial failure to its id and properties", async () => {
    const thrown = await host.create({ ...widget.inputs, fail: "throw" }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ProviderCallError);
    expect(thrown).toMatchObject({ method: "create", code: 2, partial: undefined });
    expect((thrown as Error).message).toMatch(/^widget w-\d+ rejected: size 2 is too large$/);

    const inputs = { ...widget.inputs, fail: "partial" };
    const partial = await up(host, inputs).catch((error: unknown) => error);
    expect(partial).toBeInstanceOf(ProviderCallError);
    const { id, properties, reasons } = (partial as ProviderCallError).partial!;
    expect((partial as Error).message).toBe(`widget ${id} created but not ready`);
    expect(reasons).toEqual(["not ready"]);
    expect(properties).toMatchObject({ size: 2, ready: false });

    // As the engine: the resource stays in state, and the next up updates it.
    const kept = stateAfterFailure(partial, { ...inputs, label: "plain" })!;
    expect(kept.id).toBe(id);
    const next = await up(host, { ...widget.inputs }, kept);
    expect(next.operation).toBe("update");
    expect(next.state).toMatchObject({ id, outputs: { size: 2, volume: 8 } });
  });

  it("reveals secrets as the engine does for the host, and can send them as markers", async () => {
    const created = await host.create(widget.inputs);
    expect(created.outputs).toMatchObject({ tokenLength: TOKEN.length, note: "hush", noteType: "string" });

    const raw = await host.create(widget.inputs, { keepSecrets: true });
    expect(raw.outputs.noteType).toBe("object");
    expect(isSecret(raw.outputs.note)).toBe(true);
    expect(raw.outputs.note).toEqual(secret("hush"));
  });

  it("runs up, refresh and destroy as the engine would", async () => {
    const created = await up(host, widget.inputs);
    expect(created.operation).toBe("create");
    const same = await up(host, widget.inputs, created.state);
    expect(same.operation).toBe("same");
    const replaced = await up(host, { ...widget.inputs, label: "fancy" }, created.state);
    expect(replaced).toMatchObject({ operation: "replace", diff: { replaces: ["label"] } });
    expect(replaced.state.id).not.toBe(created.state.id);
    expect(await refresh(host, created.state)).toBeUndefined();
    expect(await refresh(host, replaced.state)).toEqual(replaced.state);
    await destroy(host, replaced.state);
    expect(await refresh(host, replaced.state)).toBeUndefined();
  });

  it("sends pulumi.log to the fake engine when asked, and leaves no process behind", async () => {
    const logging = await startProviderHost({ projectDir: project.dir, logToEngine: true });
    try {
      const created = await logging.create({ ...widget.inputs, logToEngine: true });
      expect(await logging.waitForDiagnostic(`engine log for ${created.id}`)).toMatchObject({ source: "engine", severity: "info" });
      expect(logging.engine.logs.map((entry) => entry.message)).toContain(`engine log for ${created.id}`);
    } finally {
      await logging.close();
    }
    expect(isRunning(logging.pid)).toBe(false);
    await logging.close();
  });

  it("fails clearly when the module is not built or the project cannot run the host", async () => {
    await expect(captureDynamicResource({ module: "dist/provider/no-such-module.js", exportName: "X", args: [] }))
      .rejects.toThrow("dist/provider/no-such-module.js does not exist; run `npm run build` first");
    await expect(startProviderHost({ projectDir: "/nonexistent" })).rejects.toThrow("must resolve @pulumi/pulumi");
  });
});

describe("Pulumi's secret marker", () => {
  it("is the SDK's own in the engine driver and in the cores, which both spell it out", () => {
    const sdk = { key: runtime.specialSigKey, value: runtime.specialSecretSig };
    expect({ key: SPECIAL_SIGNATURE_KEY, value: SECRET_SIGNATURE }).toEqual(sdk);
    expect(SECRET_MARKER).toEqual(sdk);
  });
});
