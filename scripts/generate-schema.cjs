// `npm run schema`: writes provider/plugin/schema.json, the package schema of the provider plugin,
// from its declaration (provider/plugin/schema/declaration.ts), through the build.
"use strict";
const { writeFileSync } = require("node:fs");
const path = require("node:path");
const { packageSchemaText } = require("../dist/provider/plugin/schema/generate.js");

const target = path.join(__dirname, "..", "provider", "plugin", "schema.json");
writeFileSync(target, packageSchemaText());
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
