import { createHash } from "node:crypto";
import { z } from "zod";
import { DEFAULT_CLIENT_OPTIONS, MAX_RESPONSE_BYTES_LIMIT, SettingsError, SETTINGS_ENV, type InsightsClientOptions } from "../client";
import { describeChoices } from "../schema/suggest";
import { withoutSecretMarkers } from "./wire-secret";

/**
 * Where the API is and how to talk to it, as a stack's config says (`insights:*`, else the
 * environment's `INSIGHTS_*`): one account's settings, the named accounts of `insights:accounts`,
 * and the client's tuning. The same resolution serves every host (the dynamic-provider host, the
 * provider plugin: accounts/runtime.ts) and the data sources in a program's own process
 * (data/connection.ts).
 */

/**
 * Explicit connection settings of one data-source call. Each setting left out is read from the
 * program's stack config (`insights:baseUrl`, `insights:clientId`, `insights:clientSecret`), else
 * from the environment (`INSIGHTS_BASE_URL`, `INSIGHTS_CLIENT_ID`, `INSIGHTS_CLIENT_SECRET`).
 */
export interface InsightsConnection {
  /** Base URL of the API; HTTPS unless the host is loopback (the client's rule). */
  baseUrl?: string;
  /** API client id (spec 5). */
  clientId?: string;
  /** API client secret (spec 5). Set it in the stack with `pulumi config set --secret insights:clientSecret`. */
  clientSecret?: string;
}

/** The settings of a client once resolved: every one found somewhere. */
export type ConnectionSettings = Required<InsightsConnection>;

/** The stack-config namespace: `insights:<setting>`, for the data sources and every host alike. */
const CONFIG_NAMESPACE = "insights";

/** The form of a setting's value, as the stack config holds it. */
export type SettingType = "string" | "integer" | "boolean" | "accounts";

/**
 * One setting of the provider: what it is, the form of its value, the environment variable it
 * falls back to, its default and whether it is a credential. Every host reads it from the stack
 * config `insights:<name>`, else from its environment variable (docs/dynamic-providers.md rule 3,
 * docs/provider-plugins.md rule 5).
 */
export interface SettingDeclaration {
  /** What it is: the package schema's description of the config variable. */
  readonly description: string;
  /** The form of its value. */
  readonly type: SettingType;
  /** The environment variable read when the stack config leaves it out. */
  readonly env?: string;
  /** The value when neither sets it. */
  readonly default?: number | boolean;
  /** The integers an `integer` setting accepts, both included. */
  readonly range?: readonly [minimum: number, maximum: number];
  /** A credential: held only as a secret, never quoted. */
  readonly secret?: true;
}

/**
 * Every setting of the provider, declared once: the plugin's package schema (config variables and
 * the provider's inputs) and CheckConfig's keys, the settings resolution of both hosts and of the
 * data sources (this module, accounts/runtime.ts, match-estimate/preview.ts) and the README's
 * settings tables (test/settings.test.ts) are written from it or checked against it.
 */
export const SETTINGS = {
  baseUrl: {
    description: "Base URL of the API; HTTPS is required except on loopback hosts (localhost, 127.0.0.0/8, ::1), because credentials travel with every request.",
    type: "string",
    env: SETTINGS_ENV.baseUrl,
  },
  clientId: { description: "API client id (HTTP Basic user).", type: "string", env: SETTINGS_ENV.clientId },
  clientSecret: {
    description: "API client secret; set it with `pulumi config set --secret`, so the stack file holds it encrypted.",
    type: "string",
    env: SETTINGS_ENV.clientSecret,
    secret: true,
  },
  accounts: {
    description: "Named accounts, name -> `{baseUrl, clientId, clientSecret}`, for resources and functions that give `account`; set each secret with `--secret --path`.",
    type: "accounts",
    secret: true,
  },
  timeoutMs: {
    description: "Timeout of one request attempt, until the whole answer is read, in milliseconds.",
    type: "integer",
    env: "INSIGHTS_TIMEOUT_MS",
    default: DEFAULT_CLIENT_OPTIONS.timeoutMs,
    range: [1, 3_600_000],
  },
  maxRetries: {
    description: "Retries after the first attempt of an idempotent request, or after a 429.",
    type: "integer",
    env: "INSIGHTS_MAX_RETRIES",
    default: DEFAULT_CLIENT_OPTIONS.retry.maxRetries,
    range: [0, 100],
  },
  retryBudgetMs: {
    description: "Time budget of one call from its first attempt, retry waits included, in milliseconds.",
    type: "integer",
    env: "INSIGHTS_RETRY_BUDGET_MS",
    default: DEFAULT_CLIENT_OPTIONS.retry.budgetMs,
    range: [0, 86_400_000],
  },
  maxResponseBytes: {
    description: "The largest answer read, in bytes: a little over the 5,700,000 bytes the service answers at most (docs/api.md 11.7).",
    type: "integer",
    env: "INSIGHTS_MAX_RESPONSE_BYTES",
    default: DEFAULT_CLIENT_OPTIONS.maxResponseBytes,
    range: [1, MAX_RESPONSE_BYTES_LIMIT],
  },
  requestsPerFiveMinutes: {
    description: "Requests of this process to the service's address per 5 minutes (client pacing).",
    type: "integer",
    env: "INSIGHTS_REQUESTS_PER_FIVE_MINUTES",
    default: DEFAULT_CLIENT_OPTIONS.rateBudget.requestsPerFiveMinutes,
    range: [1, 1_000_000],
  },
  historicalMetricsPerMinute: {
    description: "Historical-metric requests per account a minute (client pacing).",
    type: "integer",
    env: "INSIGHTS_HISTORICAL_METRICS_PER_MINUTE",
    default: DEFAULT_CLIENT_OPTIONS.rateBudget.historicalMetricsPerMinute,
    range: [1, 1_000_000],
  },
  realTimeMetricsPerMinute: {
    description: "Real-time-metric requests per account a minute (client pacing).",
    type: "integer",
    env: "INSIGHTS_REAL_TIME_METRICS_PER_MINUTE",
    default: DEFAULT_CLIENT_OPTIONS.rateBudget.realTimeMetricsPerMinute,
    range: [1, 1_000_000],
  },
  unknownOutcomeWaitMs: {
    description:
      "How long an operation whose outcome is unknown (a timeout, a reset after sending, a 5xx, an unreadable answer: client/core/retry.ts `isOutcomeUnknown`) waits for the account to show the earlier attempt before it fails, in milliseconds; a late write usually lands within a minute.",
    type: "integer",
    env: "INSIGHTS_UNKNOWN_OUTCOME_WAIT_MS",
    default: 60_000,
    range: [0, 86_400_000],
  },
  matchEstimate: {
    description: "Show the share of sampled sessions a new or changed filter matches in previews; false (or off, no, 0) turns it off.",
    type: "boolean",
    env: "INSIGHTS_MATCH_ESTIMATE",
    default: true,
  },
} as const satisfies Record<string, SettingDeclaration>;

/** The name of a setting of {@link SETTINGS}. */
export type SettingName = keyof typeof SETTINGS;

/** The settings' names, in the order of {@link SETTINGS}. */
const DECLARED_NAMES = Object.keys(SETTINGS) as SettingName[];

/** The names of the integer settings: the client's tuning. */
type TuningName = { [Name in SettingName]: (typeof SETTINGS)[Name]["type"] extends "integer" ? Name : never }[SettingName];

/** The tuning settings, in the order of {@link SETTINGS}. */
const TUNING_NAMES = DECLARED_NAMES.filter((name): name is TuningName => SETTINGS[name].type === "integer");

/** The stack-config key of a setting: `insights:timeoutMs`. */
export function configKeyOf(name: SettingName): string {
  return `${CONFIG_NAMESPACE}:${name}`;
}

/**
 * Timeouts, retry budget, pacing and the answer size limit of the client that the hosts and the
 * data sources make, and the wait for an unknown outcome: the integer settings of {@link SETTINGS},
 * each read from the stack config, else the environment; absent ones keep the client's defaults
 * (client/core/settings.ts).
 */
export type TransportTuning = Partial<Record<TuningName, number>>;

/**
 * @internal
 * A named account of `accounts`, for the package schema: where it is and its credentials, each
 * described as the setting of the same name.
 */
export const AccountSettings = z.object({
  baseUrl: z.string().describe(SETTINGS.baseUrl.description),
  clientId: z.string().describe(SETTINGS.clientId.description),
  clientSecret: z.string().meta({ description: SETTINGS.clientSecret.description, secret: true }),
});

/** The zod schema of one setting's value, with its description, default and secret. */
function schemaOf(setting: SettingDeclaration): z.ZodType {
  const meta = { description: setting.description, ...(setting.secret === undefined ? {} : { secret: true as const }) };
  switch (setting.type) {
    case "string":
      return z.string().meta(meta);
    case "integer":
      return z.number().int().default(setting.default as number).meta(meta);
    case "boolean":
      return z.boolean().default(setting.default as boolean).meta(meta);
    case "accounts":
      return z.record(z.string(), AccountSettings).meta(meta);
  }
}

/**
 * @internal
 * {@link SETTINGS} as one zod object, every setting optional: the package schema's config variables
 * and the provider resource's inputs are written from it (provider/plugin/schema/generate.ts).
 */
export const ProviderSettings = z.object(Object.fromEntries(DECLARED_NAMES.map((name) => [name, schemaOf(SETTINGS[name])])) as Record<SettingName, z.ZodType>).partial();

/**
 * Reads {@link TransportTuning} from the stack config (`get` takes the full key), else the
 * environment; throws a `SettingsError` naming the key for a value that is not an integer in range.
 * The value is quoted in the message unless `secret` says it was given as a secret.
 */
export function tuningFrom(
  get: (configKey: string) => string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
  secret: (name: SettingName) => boolean = () => false,
): TransportTuning {
  const tuning: TransportTuning = {};
  for (const name of TUNING_NAMES) {
    const { env: variable, range: [minimum, maximum] } = SETTINGS[name];
    const configKey = configKeyOf(name);
    const fromConfig = nonBlank(get(configKey));
    const text = fromConfig ?? nonBlank(env[variable]);
    if (text === undefined) continue;
    const value = Number(text);
    if (!Number.isInteger(value) || value < minimum || value > maximum) {
      const source = fromConfig === undefined ? `the environment variable ${variable}` : `the stack config ${configKey}`;
      const given = fromConfig !== undefined && secret(name) ? "a secret value (not shown)" : JSON.stringify(text);
      throw new SettingsError(name, `${source} must be an integer from ${minimum} to ${maximum}, got ${given}`);
    }
    tuning[name] = value;
  }
  return tuning;
}

/** The client options of settings and tuning (the host's wait for unknown outcomes is not the client's). */
export function clientOptionsOf(settings: ConnectionSettings, tuning: TransportTuning): InsightsClientOptions {
  const retry = {
    ...(tuning.maxRetries === undefined ? {} : { maxRetries: tuning.maxRetries }),
    ...(tuning.retryBudgetMs === undefined ? {} : { budgetMs: tuning.retryBudgetMs }),
  };
  const rateBudget = {
    ...(tuning.requestsPerFiveMinutes === undefined ? {} : { requestsPerFiveMinutes: tuning.requestsPerFiveMinutes }),
    ...(tuning.historicalMetricsPerMinute === undefined ? {} : { historicalMetricsPerMinute: tuning.historicalMetricsPerMinute }),
    ...(tuning.realTimeMetricsPerMinute === undefined ? {} : { realTimeMetricsPerMinute: tuning.realTimeMetricsPerMinute }),
  };
  return {
    ...settings,
    ...(tuning.timeoutMs === undefined ? {} : { timeoutMs: tuning.timeoutMs }),
    ...(tuning.maxResponseBytes === undefined ? {} : { maxResponseBytes: tuning.maxResponseBytes }),
    retry,
    // Only budgets that were set: an empty object would override INSIGHTS_RATE_BUDGET=off.
    ...(Object.keys(rateBudget).length === 0 ? {} : { rateBudget }),
  };
}

/** The settings of one account: where it is and its credentials. */
type ConnectionName = keyof typeof SETTINGS_ENV;
const CONNECTION_NAMES = Object.keys(SETTINGS_ENV) as ConnectionName[];

/** True for a setting declared a credential (its `pulumi config set` takes `--secret`). */
export function isSecretSetting(name: SettingName): boolean {
  return (SETTINGS[name] as SettingDeclaration).secret === true;
}

/**
 * Resolves the connection settings, each from `explicit` (a data source's `connection`), else the
 * stack config (`get` takes the full key, `insights:baseUrl`), else the environment. Blank values
 * count as absent. Throws a `SettingsError` naming every place a missing setting can come from
 * (`explicit` undefined: no option to pass, as in the dynamic-provider host, which reads the stack
 * config of `configure`; docs/dynamic-providers.md rule 3).
 */
export function settingsFrom(
  explicit: InsightsConnection | undefined,
  get: (configKey: string) => string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ConnectionSettings {
  const settings = {} as ConnectionSettings;
  for (const name of CONNECTION_NAMES) {
    const configKey = configKeyOf(name);
    const variable = SETTINGS[name].env;
    // The secret is read as a plain string only here, to build the client; it never enters an Output.
    const value = nonBlank(explicit?.[name]) ?? nonBlank(get(configKey)) ?? nonBlank(env[variable]);
    if (value === undefined) {
      throw new SettingsError(
        name,
        `missing ${name}: ${explicit === undefined ? "" : `pass \`connection.${name}\`, `}set the stack config ${configKey} ` +
          `(\`pulumi config set ${isSecretSetting(name) ? "--secret " : ""}${configKey} <value>\`) ` +
          `or set the environment variable ${variable}`,
      );
    }
    settings[name] = value;
  }
  return settings;
}

/** The stack config key of the named accounts: a map of account name to `{ baseUrl, clientId, clientSecret }`. */
export const ACCOUNTS_CONFIG_KEY = configKeyOf("accounts");

/** The named accounts of `insights:accounts`, each with every setting. */
export type NamedAccounts = Record<string, ConnectionSettings>;

/**
 * Reads `insights:accounts` as the stack config holds it: a JSON text (what a program's
 * `pulumi.runtime.getConfig` answers for a value set with `--path`) or an object (what the
 * dynamic-provider host's `configure` may hand over), secret markers anywhere in it revealed
 * (docs/dynamic-providers.md rule 3). Absent
 * means no named account. Throws a `SettingsError` naming the path at fault, never a value: the
 * text holds secrets.
 */
export function accountsFrom(raw: unknown): NamedAccounts {
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) return {};
  let value: unknown = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      // JSON.parse quotes the text near the error, which may be a secret: the message says only where.
      throw new SettingsError("accounts", `the stack config ${ACCOUNTS_CONFIG_KEY} is not valid JSON: set it as a map of name to {baseUrl, clientId, clientSecret}`);
    }
  }
  value = withoutSecretMarkers(value);
  const shape = "a map of account name to {baseUrl, clientId, clientSecret}";
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new SettingsError("accounts", `the stack config ${ACCOUNTS_CONFIG_KEY} must be ${shape}`);
  }
  const accounts: NamedAccounts = {};
  for (const [name, account] of Object.entries(value as Record<string, unknown>)) {
    const path = `${ACCOUNTS_CONFIG_KEY}.${name}`;
    if (name.trim() === "") throw new SettingsError("accounts", `the stack config ${ACCOUNTS_CONFIG_KEY} has an account with an empty name`);
    if (account === null || typeof account !== "object" || Array.isArray(account)) {
      throw new SettingsError("accounts", `the stack config ${path} must be an object {baseUrl, clientId, clientSecret}`);
    }
    const fields = account as Record<string, unknown>;
    const unknown = Object.keys(fields).filter((field) => !(CONNECTION_NAMES as string[]).includes(field));
    if (unknown.length > 0) {
      throw new SettingsError("accounts", `the stack config ${path}.${unknown[0]} is not a setting; ${describeChoices(unknown[0]!, CONNECTION_NAMES, "settings")}`);
    }
    const settings = {} as ConnectionSettings;
    for (const setting of CONNECTION_NAMES) {
      const text = typeof fields[setting] === "string" ? nonBlank(fields[setting]) : undefined;
      if (text === undefined) {
        const how = isSecretSetting(setting) ? `pulumi config set --secret --path '${path}.${setting}' <value>` : `pulumi config set --path '${path}.${setting}' <value>`;
        throw new SettingsError("accounts", `the stack config ${path}.${setting} must be a non-empty string (\`${how}\`)`);
      }
      settings[setting] = text;
    }
    accounts[name] = settings;
  }
  return accounts;
}

/**
 * The settings of the account named `name` in `accounts`; throws a `SettingsError` naming the
 * accounts that exist (with a did-you-mean for a near miss).
 */
export function namedAccount(name: string, accounts: NamedAccounts): ConnectionSettings {
  const settings = Object.hasOwn(accounts, name) ? accounts[name] : undefined;
  if (settings !== undefined) return settings;
  const names = Object.keys(accounts);
  const choices = names.length === 0 ? `the stack config ${ACCOUNTS_CONFIG_KEY} names no account` : `${describeChoices(name, names, "account names")} (stack config ${ACCOUNTS_CONFIG_KEY})`;
  throw new SettingsError("account", `no account named "${name}": ${choices}`);
}

/**
 * The key of the client of `settings` in a process's map of clients: a SHA-256 of the settings and
 * the tuning, so that a map never holds the secret as a key.
 */
export function clientKey(settings: ConnectionSettings, tuning: TransportTuning): string {
  return createHash("sha256").update(JSON.stringify([CONNECTION_NAMES.map((name) => settings[name]), tuning])).digest("hex");
}

/**
 * `settings` with each setting `explicit` gives (not blank) taking precedence: a data source's
 * `connection` over a named account's settings.
 */
export function overriddenBy(settings: ConnectionSettings, explicit: InsightsConnection): ConnectionSettings {
  const result = { ...settings };
  for (const name of CONNECTION_NAMES) result[name] = nonBlank(explicit[name]) ?? result[name];
  return result;
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
