#!/usr/bin/env node
/**
 * The package `bin` `pulumi-resource-insights`: the provider plugin the Pulumi engine starts
 * (docs/provider-plugins.md rule 1; provider/plugin/README.md).
 */
import { main } from "./main";

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-insights: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
