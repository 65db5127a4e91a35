import * as pulumi from "@pulumi/pulumi";

/**
 * The examples' own settings. They sit in the stack config beside the provider's settings, in the
 * project's namespace (`insights:`, the project name in Pulumi.yaml), and are all optional: an
 * example whose setting is not set registers nothing.
 *
 * | key | what |
 * |---|---|
 * | `insights:adoptFilterId` | id of a saved filter made in the console, taken over by examples/filters.ts |
 * | `insights:optOutViewerIds` (secret) | viewer ids whose data to delete, comma, space or newline separated |
 * | `insights:optOutViewerIdsFile` | path of a file with those ids instead, one per line (keep it out of the repository) |
 * | `insights:reportViewerId` (secret) | the viewer whose summary examples/report.ts exports |
 */

/** The stack-config namespace of the examples' settings (the project name). */
export const SETTINGS_NAMESPACE = "insights";

/** A plain setting; undefined when not set or blank. Read at call time, after the config is loaded. */
export function optionalSetting(key: string): string | undefined {
  const value = new pulumi.Config(SETTINGS_NAMESPACE).get(key);
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/**
 * A setting that may hold personal data, as a secret Output whatever way it was set; undefined when
 * not set. `getSecret` also spares the warning that `get` prints for a secret value.
 */
export function optionalSecretSetting(key: string): pulumi.Output<string> | undefined {
  return new pulumi.Config(SETTINGS_NAMESPACE).getSecret(key);
}
