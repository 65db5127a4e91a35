import * as pulumi from "@pulumi/pulumi";
import { InsightsClient } from "../client";
import {
  accountsFrom,
  ACCOUNTS_CONFIG_KEY,
  clientKey,
  clientOptionsOf,
  namedAccount,
  overriddenBy,
  settingsFrom,
  tuningFrom,
  type ConnectionSettings,
  type InsightsConnection,
} from "../accounts/settings";

/**
 * Where the data sources find the API. They run in the Pulumi program's own process (the
 * dynamic-provider host serves no engine invokes), so they read the program's stack config, which a
 * dynamic provider cannot (docs/dynamic-providers.md rule 3), through the resolution every host
 * shares (accounts/settings.ts).
 */

export type { InsightsConnection } from "../accounts/settings";

/**
 * One client per distinct settings in the program's process: every data source with the same
 * settings shares one connection pool and one concurrency bound. Keyed by a SHA-256 of the settings,
 * so the map never holds the secret as a key.
 */
const clients = new Map<string, InsightsClient>();

/**
 * The client for `connection`: each setting from `connection`, else the stack config, else the
 * environment; with `account`, each setting left out of `connection` comes from that account of
 * `insights:accounts` instead. Throws a `SettingsError` naming all three places when a setting is
 * found in none (or naming the accounts that exist for an unknown name), and the client's own
 * `SettingsError` when a setting is not acceptable.
 */
export function clientFor(connection: InsightsConnection = {}, account?: string): InsightsClient {
  const settings = connectionSettingsFor(connection, account);
  const tuning = tuningFrom(pulumi.runtime.getConfig);
  const key = clientKey(settings, tuning);
  let client = clients.get(key);
  if (client === undefined) {
    client = new InsightsClient(clientOptionsOf(settings, tuning));
    clients.set(key, client);
  }
  return client;
}

/**
 * The settings {@link clientFor} makes its client with: each from `connection`, else the named
 * `account` of `insights:accounts` or the stack config, else the environment. Throws a
 * `SettingsError` as {@link clientFor} does for a setting found nowhere or an unknown name.
 */
export function connectionSettingsFor(connection: InsightsConnection = {}, account?: string): ConnectionSettings {
  // Read at call time, not at import: tests and programs may set the config after importing.
  return account === undefined ? settingsFrom(connection, pulumi.runtime.getConfig) : namedSettings(account, connection);
}

/** The settings of the named account of the program's stack config, each one given in `connection` taking precedence. */
function namedSettings(account: string, connection: InsightsConnection): ConnectionSettings {
  return overriddenBy(namedAccount(account, accountsFrom(pulumi.runtime.getConfig(ACCOUNTS_CONFIG_KEY))), connection);
}

/**
 * Closes every client the data sources opened in this process. A Pulumi program need not call it
 * (idle connections do not keep the process alive); long-lived processes and tests do.
 */
export async function closeDataSourceClients(): Promise<void> {
  const open = [...clients.values()];
  clients.clear();
  await Promise.all(open.map((client) => client.close()));
}
