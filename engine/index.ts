/**
 * The engine driver of the tests, the benchmarks and the offline `npm start` (engine/README.md): drives the SDK's real dynamic-provider host over gRPC from
 * tsc-built code, as the engine would (docs/dynamic-providers.md "Testing without the CLI"), and the
 * provider plugin the same way (`startProviderPlugin`, docs/provider-plugins.md "Testing without the CLI").
 *
 * ```ts
 * const resource = await captureDynamicResource({ module: "dist/provider/...", exportName: "SavedFilter", args: ["f", {...}] });
 * const project = createTestProject();               // node_modules resolves pulumi-insights
 * const host = await startProviderHost({ projectDir: project.dir });
 * await host.configure({ "insights:clientSecret": secret("...") });
 * const { state } = await up(host, resource.inputs);  // check + create
 * await host.close(); project.remove();
 * ```
 */
export * from "./capture";
export * from "./deployment";
export * from "./fake-engine";
export * from "./host";
export * from "./lifecycle";
export * from "./plugin";
export * from "./project";
export * from "./struct";
