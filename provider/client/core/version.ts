import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

let version: string | undefined;

/**
 * The version of this package, read once from its package.json (found by walking up from this
 * file, in dist/ or in the sources): the client's `User-Agent` and the PII receipts carry it.
 */
export function packageVersion(): string {
  version ??= readVersion();
  return version;
}

function readVersion(): string {
  for (let directory = __dirname; directory !== path.dirname(directory); directory = path.dirname(directory)) {
    const file = path.join(directory, "package.json");
    if (!existsSync(file)) continue;
    const json = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
    if (json.name === "pulumi-insights") return json.version ?? "unknown";
  }
  return "unknown";
}
