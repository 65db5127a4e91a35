import { SettingsError } from "../client";
import { resolveSettings, SETTINGS_ENV } from "../client/core/settings";
import { accountsFrom, clientOptionsOf, settingsFrom, SETTINGS, tuningFrom, type ConnectionSettings, type SettingDeclaration, type SettingName, type TransportTuning } from "../accounts/settings";
import { configureFromStack } from "../accounts/runtime";
import { isWireSecret, wireSecret } from "../accounts/wire-secret";
import { configureMatchEstimate } from "../match-estimate/preview";
import { unknownProperties } from "../schema/suggest";
import { PACKAGE_NAME } from "./tokens";
import { containsSecret, revealed, type PropertyMap } from "./wire";
import type { DiffAnswer, Failure } from "./core-adapter";

/**
 * The provider's settings (docs/provider-plugins.md rule 5): the stack's `insights:*` config of the
 * default provider, or the inputs of an explicit provider resource, by bare name (`baseUrl`). They
 * are the settings of the dynamic resources and the data sources (README "Configuration"), declared
 * once (accounts/settings.ts `SETTINGS`) and resolved by the same code (accounts/settings.ts,
 * accounts/runtime.ts): each missing one falls back to the environment the plugin inherits
 * (`INSIGHTS_*`), and the resources' `account` input names an account of `accounts`.
 */

/** The settings' names: CheckConfig refuses any other key. */
const SETTING_NAMES: readonly string[] = Object.keys(SETTINGS);

/** Keys the engine adds to a provider's inputs for itself (docs/provider-plugins.md rule 5): passed through. */
const ENGINE_KEYS = ["version", "pluginDownloadURL"];

/**
 * The stack-config reader of the shared resolution (accounts/runtime.ts `configureFromStack`): full keys
 * (`insights:baseUrl`) over the bare names of `inputs`, secrets revealed, numbers and booleans as the
 * text the stack config holds; `accounts` as it came (an object or JSON text, accounts/settings.ts
 * `accountsFrom` reads both).
 */
function stackConfigOf(inputs: PropertyMap): { get(key: string): string | undefined } {
  const plain = revealed(inputs);
  return {
    get(key: string) {
      if (!key.startsWith(`${PACKAGE_NAME}:`)) return undefined;
      const value = plain[key.slice(PACKAGE_NAME.length + 1)];
      if (value === undefined || value === null) return undefined;
      return (typeof value === "number" || typeof value === "boolean" ? String(value) : value) as string;
    },
  };
}

/** A failure of a setting's value: the `SettingsError`'s message, under the setting it names. */
function settingFailure(error: unknown, fallback: string): Failure {
  if (!(error instanceof SettingsError)) throw error;
  return { property: SETTING_NAMES.includes(error.option) ? error.option : fallback, reason: error.message };
}

/** The client's own checks of complete settings (HTTPS, an id without `:`), as a failure or none. */
function clientFailure(settings: ConnectionSettings, tuningSettings: TransportTuning, property: (option: string) => string): Failure[] {
  try {
    resolveSettings({ ...clientOptionsOf(settings, tuningSettings), env: {} });
    return [];
  } catch (error) {
    const failure = settingFailure(error, "baseUrl");
    return [{ ...failure, property: property(failure.property) }];
  }
}

/** True when `name` is a setting declared a credential (accounts/settings.ts). */
function isDeclaredSecret(name: string): boolean {
  return SETTING_NAMES.includes(name) && (SETTINGS[name as SettingName] as SettingDeclaration).secret === true;
}

/**
 * `news` with every credential a secret (docs/provider-plugins.md rule 6): a setting declared secret
 * (`clientSecret`, `accounts` and the secrets in it) is answered as a secret whether or not the
 * engine marked it; the rest as given.
 */
function withSecretSettings(news: PropertyMap): PropertyMap {
  return Object.fromEntries(Object.entries(news).map(([name, value]) =>
    [name, isDeclaredSecret(name) && value !== undefined && value !== null && !isWireSecret(value) ? wireSecret(revealed(value)) : value]));
}

/**
 * CheckConfig (docs/provider-plugins.md rule 5): the inputs as given (the engine shows and diffs
 * them as the program wrote them), credentials as secrets (rule 6), and a failure for each key that
 * is not a setting (with the nearest name) and each value the client would refuse: a tuning value
 * out of range, a malformed `accounts`, an HTTP base URL. No reason quotes a value given as a
 * secret. A setting left out is no failure: the environment may hold it, and a stack whose
 * resources all name an account needs no default account; the first call that needs it says what
 * is missing and where to set it.
 */
export function checkConfig(news: PropertyMap): { inputs: PropertyMap; failures: Failure[] } {
  // The engine prints the property before the reason: the reason does not repeat it.
  const failures: Failure[] = unknownProperties(news, SETTING_NAMES, ENGINE_KEYS);
  const config = stackConfigOf(news);
  let tuningSettings: TransportTuning = {};
  try {
    tuningSettings = tuningFrom(config.get, process.env, (name) => isDeclaredSecret(name) || containsSecret(news[name]));
  } catch (error) {
    failures.push(settingFailure(error, "timeoutMs"));
  }
  const given = (name: keyof typeof SETTINGS_ENV) => config.get(`${PACKAGE_NAME}:${name}`) !== undefined;
  if (given("baseUrl") || given("clientId") || given("clientSecret")) {
    try {
      failures.push(...clientFailure(settingsFrom(undefined, config.get), tuningSettings, (option) => option));
    } catch {
      // A setting is missing here and maybe in the environment too: the first call that needs it says so.
    }
  }
  try {
    for (const [name, settings] of Object.entries(accountsFrom(revealed(news).accounts))) {
      failures.push(...clientFailure(settings, tuningSettings, (option) => `accounts.${name}.${option}`));
    }
  } catch (error) {
    failures.push(settingFailure(error, "accounts"));
  }
  return { inputs: withSecretSettings(news), failures };
}

/**
 * DiffConfig (docs/provider-plugins.md rule 5): which settings changed, never a replacement. A
 * replacement of the provider would replace every resource it manages; a resource whose account
 * moved is refused by the resource itself instead (docs/configuration.md "Accounts"), with both accounts named,
 * as the dynamic resources do.
 */
export function diffConfig(olds: PropertyMap, news: PropertyMap): DiffAnswer {
  const plainOlds = revealed(olds);
  const plainNews = revealed(news);
  const keys = [...new Set([...Object.keys(plainOlds), ...Object.keys(plainNews)])].filter((key) => !ENGINE_KEYS.includes(key)).sort();
  const changed = keys.filter((key) => JSON.stringify(plainOlds[key]) !== JSON.stringify(plainNews[key]));
  if (changed.length === 0) return { changes: "none" };
  const kind = (key: string) => (plainOlds[key] === undefined ? "add" : plainNews[key] === undefined ? "delete" : "update");
  return {
    changes: "some",
    detailedDiff: Object.fromEntries(changed.map((key) => [key, { kind: kind(key), replace: false, inputDiff: true }])),
  };
}

/**
 * Configure (docs/provider-plugins.md rule 5): takes the settings for every later call of this
 * process, from `args` (bare names, secrets as secret values), else from `variables`
 * (`insights:config:<name>`, the older form). The clients of the shared resolution are replaced
 * when the settings differ from those in use.
 */
export function configure(args: PropertyMap, variables: ReadonlyMap<string, string>): void {
  const inputs: PropertyMap = { ...args };
  const prefix = `${PACKAGE_NAME}:config:`;
  for (const [key, value] of variables) {
    if (!key.startsWith(prefix)) continue;
    const name = key.slice(prefix.length);
    inputs[name] ??= value;
  }
  const config = stackConfigOf(inputs);
  configureFromStack(config);
  configureMatchEstimate(config);
}
