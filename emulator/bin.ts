#!/usr/bin/env node
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { DIALECTS, isDialect } from "./dialect";
import { startEmulator } from "./server";

/**
 * `insights-emulator`: starts the emulator and prints `listening on http://HOST:PORT` when ready.
 * Flags: --port (8080), --host (127.0.0.1), --seed (1), --latency (ms, 0), --state FILE,
 * --clock ISO (start time), --frozen, --dialect standard|alternate (emulator/README.md "Dialects"),
 * --pii-finish-after MS (how long a PII opt-out request takes to reach FINISHED, 300000); --version
 * prints the package's version.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "8080" },
      host: { type: "string", default: "127.0.0.1" },
      seed: { type: "string", default: "1" },
      latency: { type: "string", default: "0" },
      state: { type: "string" },
      clock: { type: "string" },
      frozen: { type: "boolean", default: false },
      dialect: { type: "string", default: "standard" },
      "pii-finish-after": { type: "string", default: "300000" },
      help: { type: "boolean", short: "h", default: false },
      version: { type: "boolean", default: false },
    },
  });
  if (values.version) {
    // The built bin is dist/emulator/bin.js: package.json, the only place the version is written, is two folders up.
    const manifest = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string };
    process.stdout.write(`${manifest.version}\n`);
    return;
  }
  if (values.help) {
    process.stdout.write(
      "usage: insights-emulator [--port 8080] [--host 127.0.0.1] [--seed 1] [--latency MS] [--state FILE] [--clock ISO] [--frozen] [--dialect standard|alternate] [--pii-finish-after MS] [--version]\n" +
        "dev credentials: client id 'dev', client secret 'dev-secret' (every feature enabled)\n",
    );
    return;
  }
  const integer = (name: string, text: string) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a non-negative integer, got "${text}"`);
    return value;
  };
  if (!isDialect(values.dialect)) throw new Error(`--dialect must be one of ${DIALECTS.join(", ")}, got "${values.dialect}"`);
  const emulator = await startEmulator({
    dialect: values.dialect,
    port: integer("port", values.port),
    host: values.host,
    seed: integer("seed", values.seed),
    latencyMs: integer("latency", values.latency),
    ...(values.state ? { stateFile: values.state } : {}),
    clock: { ...(values.clock ? { start: values.clock } : {}), frozen: values.frozen },
    piiTiming: { finishAfterMs: integer("pii-finish-after", values["pii-finish-after"]) },
  });
  process.stdout.write(`listening on ${emulator.url}\n`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`insights-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
