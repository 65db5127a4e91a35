import { InsightsClient } from "../client";

/**
 * What every resource served by one dynamic-provider host shares: the settings from the stack's
 * config and one client (one connection pool, one concurrency bound). The host loads this module
 * once, whatever number of resources and provider texts it serves (dynamic-provider note, rule 2).
 */

/** Stack config keys read in `configure` (dynamic-provider note, rule 3). */
export const CONFIG_KEYS = {
  baseUrl: "insights:baseUrl",
  clientId: "insights:clientId",
  clientSecret: "insights:clientSecret",
} as const;

interface StackSettings {
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
}

let settings: StackSettings = {};
let client: InsightsClient | undefined;

/**
 * Takes the settings of the stack's config (secrets arrive decrypted). Missing keys fall back to
 * the environment (`INSIGHTS_*`), which the client reads itself.
 */
export function configureFromStack(config: { get(key: string): string | undefined }): void {
  const next: StackSettings = {};
  for (const [name, key] of Object.entries(CONFIG_KEYS) as Array<[keyof StackSettings, string]>) {
    const value = config.get(key);
    if (value !== undefined && value !== "") next[name] = value;
  }
  if (JSON.stringify(next) === JSON.stringify(settings)) return;
  settings = next;
  void client?.close();
  client = undefined;
}

/** The host's one client, created on first use from the stack settings and the environment. */
export function sharedClient(): InsightsClient {
  client ??= new InsightsClient({ ...settings });
  return client;
}

/**
 * Lines the engine shows: since CLI 3.146 it forwards the host's stdout as info diagnostics
 * (dynamic-provider note, rule 10). Never pass credentials or personal data here.
 */
export function report(message: string): void {
  process.stdout.write(`${message.replace(/\n+$/, "")}\n`);
}
