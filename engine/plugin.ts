/**
 * Starting the provider plugin `pulumi-resource-insights` as the engine does
 * (docs/provider-plugins.md rules 1 and 13), for the tests of the plugin: a {@link ProviderHost} over
 * it answers every call of the ResourceProvider service, and its diagnostics hold the plugin's
 * `Log` calls (severity and URN) and its output lines at the debug level the CLI shows them at.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { ProviderHost } from "./host";
import { builtModule, REPOSITORY_ROOT } from "./project";

/** The folder Pulumi starts the plugin from: `PulumiPlugin.yaml`, its `index.js` and the executable (plugin/README.md). */
export const PLUGIN_FOLDER = path.join(REPOSITORY_ROOT, "plugin");

/** The package `bin` of the plugin, as tsc builds it. */
export const PLUGIN_BIN = "dist/provider/plugin/bin.js";

/** The package name of the plugin's package schema and config namespace. */
export const PLUGIN_PACKAGE = "insights";

/**
 * How the plugin is started, each as Pulumi would:
 * - `bin`: the package's `bin` script (what `node_modules/.bin/pulumi-resource-insights` runs),
 *   `node dist/provider/plugin/bin.js <engine>`;
 * - `executable`: `plugin/pulumi-resource-insights` executed directly, as the engine runs a
 *   plugin it finds by name in a folder of `plugins.providers` or on PATH (its shebang and
 *   executable bit included);
 * - `run-plugin`: as the Node language host runs a folder with `PulumiPlugin.yaml`
 *   (`pulumi package add`): `node <@pulumi/pulumi/cmd/run-plugin from that folder> plugin <engine>`;
 * - `standalone`: the executable of a release archive (`npm run plugin:package`), as the engine runs
 *   a plugin it installed (`pulumi plugin install`): `<executable> <engine>`, no Node.js involved.
 */
export type PluginLauncher = "bin" | "executable" | "run-plugin" | "standalone";

/** Options of {@link startProviderPlugin}. */
export interface ProviderPluginOptions {
  /** How to start it; default `bin`. */
  launcher?: PluginLauncher;
  /**
   * The plugin folder (with `PulumiPlugin.yaml`) of the package to start, for `executable` and
   * `run-plugin`: default this repository's; a packed and unpacked package has its own.
   */
  folder?: string;
  /** The executable to start, for `standalone` (required there): one extracted from its archive. */
  executable?: string;
  /** Flags the engine may put before its address (`--logtostderr`, `-v=9`, `--tracing <url>`). */
  flags?: string[];
  /** The working directory (the engine's: the Pulumi project directory); default the repository root. */
  cwd?: string;
  /** Extra environment (the plugin inherits the engine's environment). */
  env?: Record<string, string | undefined>;
  /** How long to wait for the port line. Default 20 s (run-plugin loads ts-node first). */
  startTimeoutMs?: number;
}

/** The command line of a launcher, before the flags and the engine's address. */
function commandLine(launcher: PluginLauncher, folder: string, executable: string | undefined): { command: string; args: string[] } {
  if (launcher === "standalone") {
    if (executable === undefined || !existsSync(executable)) throw new Error(`engine driver: the standalone plugin ${executable ?? "(none given)"} does not exist`);
    return { command: executable, args: [] };
  }
  if (!existsSync(path.join(folder, "PulumiPlugin.yaml"))) throw new Error(`engine driver: ${folder} has no PulumiPlugin.yaml`);
  // The package's folder holds the build the plugin folder loads; this repository's must be current.
  if (folder === PLUGIN_FOLDER) builtModule(PLUGIN_BIN);
  switch (launcher) {
    case "bin":
      return { command: process.execPath, args: [path.join(folder, "..", PLUGIN_BIN)] };
    case "executable":
      return { command: path.join(folder, "pulumi-resource-insights"), args: [] };
    case "run-plugin": {
      // The language host resolves the launcher from the plugin's folder, as Node resolves a package.
      const runPlugin = require.resolve("@pulumi/pulumi/cmd/run-plugin", { paths: [folder] });
      return { command: process.execPath, args: [runPlugin, folder] };
    }
  }
}

/**
 * Starts the provider plugin with a fake engine, as the engine does: its address as the last
 * argument, the port read from the first line of stdout. Configure it before resource calls
 * (`host.configure(inputs, { package: PLUGIN_PACKAGE })`); close it with `host.close()`.
 */
export async function startProviderPlugin(options: ProviderPluginOptions = {}): Promise<ProviderHost> {
  const launcher = options.launcher ?? "bin";
  const { command, args } = commandLine(launcher, options.folder ?? PLUGIN_FOLDER, options.executable);
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  delete env.NODE_OPTIONS; // no loader of the test runner in the plugin
  return ProviderHost.launch({
    command,
    args: [...args, ...(options.flags ?? [])],
    cwd: options.cwd ?? REPOSITORY_ROOT,
    env,
    // The CLI shows a plugin's output only at debug level (docs/provider-plugins.md rule 2).
    output: { stdout: "debug", stderr: "debug" },
    startTimeoutMs: options.startTimeoutMs ?? 20_000,
  });
}
