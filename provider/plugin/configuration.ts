import { z } from "zod";
import { SettingsError } from "../client";
import { DEFAULT_CLIENT_OPTIONS, resolveSettings, SETTINGS_ENV } from "../client/core/settings";
import { accountsFrom, clientOptionsOf, DEFAULT_UNKNOWN_OUTCOME_WAIT_MS, settingsFrom, tuningFrom, TUNING_SETTINGS, type ConnectionSettings, type TransportTuning } from "../accounts/settings";
import { configureFromStack } from "../accounts/runtime";
import { configureMatchEstimate, MATCH_ESTIMATE_SETTING } from "../match-estimate/preview";
import { unknownProperties } from "../schema/suggest";
import { PACKAGE_NAME } from "./tokens";
import { revealed, type PropertyMap } from "./wire";
import type { DiffAnswer, Failure } from "./resources";

/**
 * The provider's settings (docs/provider-plugins.md rule 5): the stack's `insights:*` config of the
 * default provider, or the inputs of an explicit provider resource, by bare name (`baseUrl`). They
 * are the settings of the dynamic resources and the data sources (README "Configuration"), resolved
 * by the same code (accounts/settings.ts, accounts/runtime.ts): each missing one falls back to the
 * environment the plugin inherits (`INSIGHTS_*`), and the resources' `account` input names an
 * account of `accounts`.
 */

/** @internal A named account of `accounts`: where it is and its credentials. */
export const AccountSettings = z.object({
  baseUrl: z.string().describe("Base URL of the account's API; HTTPS unless the host is loopback."),
  clientId: z.string().describe("The account's API client id (HTTP Basic user)."),
  clientSecret: z.string().meta({ description: "The account's API client secret.", secret: true }),
});

/** An integer setting of {@link TUNING_SETTINGS}, with its default. */
const tuning = (description: string, fallback: number) => z.number().int().default(fallback).describe(description);

/**
 * @internal
 * Every setting the provider takes, with its description and default: the package schema's config
 * variables and the provider resource's inputs are written from it (provider/plugin/package-schema.ts),
 * and CheckConfig refuses a key it does not name.
 */
export const ProviderSettings = z.object({
  baseUrl: z.string().describe("Base URL of the API; HTTPS is required except on loopback hosts (localhost, 127.0.0.0/8, ::1), because credentials travel with every request."),
  clientId: z.string().describe("API client id (HTTP Basic user)."),
  clientSecret: z.string().meta({ description: "API client secret. Set it with `pulumi config set --secret insights:clientSecret`.", secret: true }),
  accounts: z
    .record(z.string(), AccountSettings)
    .meta({
      description: "Named accounts, name -> `{baseUrl, clientId, clientSecret}`, for resources and functions that give `account`; set each secret with `--secret --path`.",
      secret: true,
    }),
  timeoutMs: tuning("Timeout of one request attempt, in milliseconds.", DEFAULT_CLIENT_OPTIONS.timeoutMs),
  maxRetries: tuning("Retries after the first attempt of an idempotent request, or after a 429.", DEFAULT_CLIENT_OPTIONS.retry.maxRetries),
  retryBudgetMs: tuning("Time budget of one call from its first attempt, retry waits included, in milliseconds.", DEFAULT_CLIENT_OPTIONS.retry.budgetMs),
  requestsPerFiveMinutes: tuning("Requests of this process to the service's address per 5 minutes (client pacing).", DEFAULT_CLIENT_OPTIONS.rateBudget.requestsPerFiveMinutes),
  historicalMetricsPerMinute: tuning("Historical-metric requests per account a minute (client pacing).", DEFAULT_CLIENT_OPTIONS.rateBudget.historicalMetricsPerMinute),
  realTimeMetricsPerMinute: tuning("Real-time-metric requests per account a minute (client pacing).", DEFAULT_CLIENT_OPTIONS.rateBudget.realTimeMetricsPerMinute),
  unknownOutcomeWaitMs: tuning(
    "How long an operation whose outcome is unknown (a timeout, a reset after sending) waits for the account to show the earlier attempt before it fails, in milliseconds.",
    DEFAULT_UNKNOWN_OUTCOME_WAIT_MS,
  ),
  matchEstimate: z.boolean().default(true).describe("Show the share of sampled sessions a new or changed filter matches in previews; false turns it off."),
}).partial();

/** The environment variable each setting falls back to (the schema's `defaultInfo`). */
export const SETTING_ENVIRONMENT: Readonly<Record<string, string>> = {
  ...SETTINGS_ENV,
  ...Object.fromEntries(Object.entries(TUNING_SETTINGS).map(([name, { env }]) => [name, env])),
  matchEstimate: MATCH_ESTIMATE_SETTING.env,
};

/** The settings' names. */
export const SETTING_NAMES = Object.keys(ProviderSettings.shape) as Array<keyof typeof ProviderSettings.shape>;

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
  return { property: (SETTING_NAMES as string[]).includes(error.option) ? error.option : fallback, reason: error.message };
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

/**
 * CheckConfig (docs/provider-plugins.md rule 5): the inputs as given (the engine shows and diffs
 * them as the program wrote them), and a failure for each key that is not a setting (with the
 * nearest name) and each value the client would refuse: a tuning value out of range, a malformed
 * `accounts`, an HTTP base URL. A setting left out is no failure: the environment may hold it, and
 * a stack whose resources all name an account needs no default account; the first call that needs
 * it says what is missing and where to set it.
 */
export function checkConfig(news: PropertyMap): { inputs: PropertyMap; failures: Failure[] } {
  // The engine prints the property before the reason: the reason does not repeat it.
  const failures: Failure[] = unknownProperties(news, SETTING_NAMES, ENGINE_KEYS);
  const config = stackConfigOf(news);
  let tuningSettings: TransportTuning = {};
  try {
    tuningSettings = tuningFrom(config.get);
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
  return { inputs: news, failures };
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
