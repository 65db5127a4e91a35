// The child process of engine/capture.ts, run by plain node (no vitest transform), so that
// `__provider` is serialized exactly as in a Pulumi program built with tsc (CommonJS).
// Input: argv[2] = JSON {modulePath, exportName, args, construct, project, stack, preview}.
// Output: one JSON document on file descriptor 3: {registrations} or {error}.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const SPECIAL_SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";

function report(result) {
  fs.writeSync(3, JSON.stringify(result));
}

function fail(error) {
  report({ error: error && error.stack ? error.stack : String(error) });
  process.exit(1);
}
process.on("uncaughtException", fail);
process.on("unhandledRejection", fail);

async function main() {
  const request = JSON.parse(process.argv[2]);
  // The copy of @pulumi/pulumi the module under test uses: mocks set on another copy would not apply.
  const pulumi = require(require.resolve("@pulumi/pulumi", { paths: [path.dirname(request.modulePath)] }));
  const registrations = [];
  // Mocks see a resource's inputs but not its options; the options that decide what the engine
  // keeps secret are read from the registration request itself, before the mock is called.
  const { MockMonitor } = require(require.resolve("@pulumi/pulumi/runtime/mocks", { paths: [path.dirname(request.modulePath)] }));
  const secretOutputs = new Map();
  const registerResource = MockMonitor.prototype.registerResource;
  MockMonitor.prototype.registerResource = function (req, callback) {
    secretOutputs.set(`${req.getType()}::${req.getName()}`, req.getAdditionalsecretoutputsList());
    return registerResource.call(this, req, callback);
  };
  // The data sources of pulumi-insights read the account (an emulator) instead of asking `call`:
  // the mark of its withAccountReads (provider/data/define.ts), set here without loading the package.
  pulumi.runtime.setMocks(
    {
      [Symbol.for("pulumi-insights.readTheAccountUnderMocks")]: true,
      newResource(args) {
        const urn = `urn:pulumi:${request.stack}::${request.project}::${args.type}::${args.name}`;
        const additionalSecretOutputs = secretOutputs.get(`${args.type}::${args.name}`) ?? [];
        registrations.push({ type: args.type, name: args.name, urn, custom: args.custom, inputs: args.inputs, additionalSecretOutputs });
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call(args) {
        return args.inputs;
      },
    },
    request.project,
    request.stack,
    request.preview,
  );
  // Secret markers in the JSON arguments become real secrets, as `pulumi.secret(...)` in a program.
  const revive = (value) => {
    if (Array.isArray(value)) return value.map(revive);
    if (value === null || typeof value !== "object") return value;
    if (value[SPECIAL_SIGNATURE_KEY] === SECRET_SIGNATURE) return pulumi.secret(revive(value.value));
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, revive(member)]));
  };
  const exported = require(request.modulePath)[request.exportName];
  if (typeof exported !== "function") {
    throw new Error(`${request.modulePath} has no class or function export named ${request.exportName}`);
  }
  const args = revive(request.args);
  const result = request.construct === "call" ? exported(...args) : new exported(...args);
  await result;
  await pulumi.runtime.waitForRPCs();
  report({ registrations });
}

main().catch(fail);
