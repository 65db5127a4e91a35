// The entry point the Node language host loads for a plugin folder (docs/provider-plugins.md rule 13):
// `@pulumi/pulumi/cmd/run-plugin` requires this folder with the engine's address as the first
// argument. It serves the provider plugin of the package's build.
"use strict";
require("../dist/provider/plugin/bin.js");
