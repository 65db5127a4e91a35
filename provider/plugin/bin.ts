#!/usr/bin/env node
/**
 * The package `bin` `pulumi-resource-insights`: the provider plugin the Pulumi engine starts
 * (docs/provider-plugins.md rule 1; provider/plugin/README.md).
 */
import { inertLines } from "../text/inert";
import { main } from "./main";

main(process.argv.slice(2)).catch((error: unknown) => {
  // The engine shows a plugin's stderr at debug level, in a terminal: inert (provider/text/inert.ts).
  process.stderr.write(`pulumi-resource-insights: ${inertLines(error instanceof Error ? error.message : String(error))}\n`);
  process.exitCode = 1;
});
