import { EngineLog } from "./engine-log";
import { servePlugin, type PluginServer } from "./server";

/**
 * The start-up of `pulumi-resource-insights` (docs/provider-plugins.md rule 1): the engine's address
 * from the arguments, the service on a free loopback port, the port alone on the first line of stdout.
 */

/**
 * The engine's address among the arguments the engine gives a plugin: the first that is not one of
 * the flags it may put before it (`--logtostderr`, `-v=<level>`, `--tracing <url>`).
 */
export function engineAddressOf(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const argument = args[index]!;
    if (argument === "--tracing") {
      index++;
      continue;
    }
    if (argument === "--logtostderr" || argument.startsWith("-v=") || argument.startsWith("--tracing=")) continue;
    return argument;
  }
  return undefined;
}

/** Serves the plugin for the engine at `engineAddress` (its lines go to that engine's `Log`). */
export function serve(engineAddress: string): Promise<PluginServer> {
  return servePlugin({ log: new EngineLog(engineAddress) });
}

/**
 * `pulumi-resource-insights <engine address>`: serves until the engine ends the process. Without an
 * address it says how it is started and exits with status 2.
 */
export async function main(args: readonly string[]): Promise<void> {
  const engineAddress = engineAddressOf(args);
  if (engineAddress === undefined) {
    process.stderr.write(
      "usage: pulumi-resource-insights <engine address>\n" +
        "The Pulumi engine starts this provider plugin itself: install it with `pulumi plugin install resource insights <version>` or `pulumi package add insights@<version>`, or point a Pulumi.yaml at the package's plugin folder (plugins.providers).\n",
    );
    process.exitCode = 2;
    return;
  }
  const server = await serve(engineAddress);
  process.stdout.write(`${server.port}\n`);
}
