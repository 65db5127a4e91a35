import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** What the package's code reads of its package.json, the one place each is written. */
export interface PackageManifest {
  /** The package's version: the client's `User-Agent`, the PII receipts, the plugin's GetPluginInfo and schema, both commands' `--version`. */
  version: string;
  /** `repository.url`: where the package is developed and the provider plugin's archives are released (provider/plugin/package-schema.ts). */
  repository?: string;
}

/**
 * package.json's fields as the standalone plugin's bundler writes them into its bundle
 * (scripts/package-plugin.cjs): a single executable has no package.json beside it. Not defined in
 * the tsc build, which reads the file.
 */
declare const PULUMI_INSIGHTS_MANIFEST: PackageManifest | undefined;

let manifest: PackageManifest | undefined;

/** The package's manifest, read once: from the bundle when the bundler wrote it there, else from package.json. */
export function packageManifest(): PackageManifest {
  manifest ??= typeof PULUMI_INSIGHTS_MANIFEST === "object" && PULUMI_INSIGHTS_MANIFEST !== null ? PULUMI_INSIGHTS_MANIFEST : readManifest();
  return manifest;
}

/** The version of this package (semver, package.json `version`). */
export function packageVersion(): string {
  return packageManifest().version;
}

/** package.json of this package, found by walking up from this file, in dist/ or in the sources. */
function readManifest(): PackageManifest {
  for (let directory = __dirname; directory !== path.dirname(directory); directory = path.dirname(directory)) {
    const file = path.join(directory, "package.json");
    if (!existsSync(file)) continue;
    const json = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string; repository?: string | { url?: string } };
    if (json.name !== "pulumi-insights") continue;
    const repository = typeof json.repository === "string" ? json.repository : json.repository?.url;
    return { version: json.version ?? "unknown", ...(repository === undefined ? {} : { repository }) };
  }
  return { version: "unknown" };
}
