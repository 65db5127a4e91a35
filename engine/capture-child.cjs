// The child process of engine/capture.ts, run by plain node (no vitest transform), so that
// `__provider` is serialized exactly as in a Pulumi program built with tsc (CommonJS).
// It serves requests one after another, so that @pulumi/pulumi and the package load once per child:
// input: one JSON request a line on stdin, {modulePath, exportName, args, construct, project, stack, preview, env};
// output: one JSON line a request on file descriptor 3, {registrations} or {error} ({error, fatal}
// before it exits on an uncaught error). It exits when stdin ends.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const readline = require("node:readline");

const SPECIAL_SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";
const READ_THE_ACCOUNT = Symbol.for("pulumi-insights.readTheAccountUnderMocks");
const SECRET_OUTPUTS = Symbol("additionalSecretOutputs by resource");
// The package's built modules (and node_modules) stay loaded from one request to the next: the saving.
const DIST = path.join(__dirname, "..", "dist") + path.sep;
const NODE_MODULES = `${path.sep}node_modules${path.sep}`;
const ENVIRONMENT = { ...process.env };

function respond(result) {
  fs.writeSync(3, `${JSON.stringify(result)}\n`);
}

const describe = (error) => (error && error.stack ? error.stack : String(error));

// An error no request can catch leaves the runtime in an unknown state: report it and end the child
// (engine/capture.ts starts another for the next request).
function fatal(error) {
  respond({ error: describe(error), fatal: true });
  process.exit(1);
}
process.on("uncaughtException", fatal);
process.on("unhandledRejection", fatal);

// Mocks see a resource's inputs but not its options; the options that decide what the engine keeps
// secret are read from the registration request itself, before the mock is called. Patched once per
// copy of the SDK; each request's map hangs on its own mocks object.
const patched = new WeakSet();
function recordSecretOutputs(MockMonitor) {
  if (patched.has(MockMonitor)) return;
  patched.add(MockMonitor);
  const registerResource = MockMonitor.prototype.registerResource;
  MockMonitor.prototype.registerResource = function (req, callback) {
    this.mocks[SECRET_OUTPUTS]?.set(`${req.getType()}::${req.getName()}`, req.getAdditionalsecretoutputsList());
    return registerResource.call(this, req, callback);
  };
}

/** The environment the child started with and the request's own (`env`), whatever a previous request set. */
function requestEnvironment(env) {
  for (const key of Object.keys(process.env)) if (!(key in ENVIRONMENT)) delete process.env[key];
  Object.assign(process.env, ENVIRONMENT, env);
}

async function capture(request) {
  const from = { paths: [path.dirname(request.modulePath)] };
  // The copy of @pulumi/pulumi the module under test uses: mocks set on another copy would not apply.
  const pulumi = require(require.resolve("@pulumi/pulumi", from));
  recordSecretOutputs(require(require.resolve("@pulumi/pulumi/runtime/mocks", from)).MockMonitor);
  // A fresh runtime, as a new process has (test/support/fresh-runtime.ts does the same between test
  // files): no monitor, and no store, which the SDK makes again from the environment when first asked.
  pulumi.runtime._reset();
  delete global.globalStore;
  const registrations = [];
  const secretOutputs = new Map();
  await pulumi.runtime.setMocks(
    {
      // The data sources of pulumi-insights read the account (an emulator) instead of asking `call`:
      // the mark of its withAccountReads (provider/data/define.ts), set here without loading the package.
      [READ_THE_ACCOUNT]: true,
      [SECRET_OUTPUTS]: secretOutputs,
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
  try {
    const exported = require(request.modulePath)[request.exportName];
    if (typeof exported !== "function") {
      throw new Error(`${request.modulePath} has no class or function export named ${request.exportName}`);
    }
    const args = revive(request.args);
    const result = request.construct === "call" ? exported(...args) : new exported(...args);
    await result;
    await pulumi.runtime.waitForRPCs();
    return { registrations };
  } catch (error) {
    // What the failed program started finishes (or fails) now, not during the next request.
    await pulumi.runtime.waitForRPCs().catch(() => {});
    return { error: describe(error) };
  }
}

async function serve(line) {
  const loaded = new Set(Object.keys(require.cache));
  let result;
  try {
    const request = JSON.parse(line);
    // Read when the program runs (the SDK's store is made afresh per request), never when the package loads.
    requestEnvironment(request.env);
    result = await capture(request);
  } catch (error) {
    result = { error: describe(error) };
  }
  // A promise of this request rejected and unhandled ends the child now, in this request's answer.
  await new Promise((resolve) => setImmediate(resolve));
  // A program module runs afresh in the next request (it may register when loaded, as the programs of
  // test/provider/import-cli.ts do): everything this request loaded but the package's build and node_modules.
  for (const file of Object.keys(require.cache)) {
    if (!loaded.has(file) && !file.startsWith(DIST) && !file.includes(NODE_MODULES)) delete require.cache[file];
  }
  respond(result);
}

let served = Promise.resolve();
const requests = readline.createInterface({ input: process.stdin });
requests.on("line", (line) => {
  served = served.then(() => serve(line));
});
requests.on("close", () => served.then(() => process.exit(0)));
