import { createHash } from "node:crypto";
import { MAX_RESPONSE_BYTES_LIMIT, SettingsError, SETTINGS_ENV, type InsightsClientOptions } from "../client";
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

/**
 * Timeouts, retry budget, pacing and the answer size limit of the client that the dynamic-provider
 * host and the data sources make, so that a user on a slow network can raise them and a test can
 * lower them. Each is read from the
 * stack config (`insights:timeoutMs`), else the environment (`INSIGHTS_TIMEOUT_MS`); absent ones
 * keep the client's defaults (client/core/settings.ts).
 */
export interface TransportTuning {
  /** Timeout of one attempt, in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** Retries after the first attempt of an idempotent request, or after a 429 (default 3). */
  maxRetries?: number;
  /** Time budget of one call from its first attempt, retry waits included, in milliseconds (default 150 000). */
  retryBudgetMs?: number;
  /** The largest answer read, in bytes (default 6 000 000, a little over the service's 5 700 000; docs/api.md 11.7). */
  maxResponseBytes?: number;
  /** Requests of this process to the service's address per 5 minutes (client pacing; default 3000). */
  requestsPerFiveMinutes?: number;
  /** Historical-metric requests per account a minute (client pacing; default 400). */
  historicalMetricsPerMinute?: number;
  /** Real-time-metric requests per account a minute (client pacing; default 500). */
  realTimeMetricsPerMinute?: number;
  /**
   * How long an operation whose outcome is unknown (a timeout, a reset after sending, a 5xx, an
   * unreadable answer or most redirects to a POST: client/core/retry.ts `isOutcomeUnknown`) waits for the account to show the earlier attempt before it fails, in milliseconds
   * (default 60 000). Only the dynamic-provider host writes.
   */
  unknownOutcomeWaitMs?: number;
}

/** Default of {@link TransportTuning.unknownOutcomeWaitMs}: a late write usually lands within a minute. */
export const DEFAULT_UNKNOWN_OUTCOME_WAIT_MS = 60_000;

/** Each tuning setting: its environment variable and the integers it accepts. */
export const TUNING_SETTINGS = {
  timeoutMs: { env: "INSIGHTS_TIMEOUT_MS", minimum: 1, maximum: 3_600_000 },
  maxRetries: { env: "INSIGHTS_MAX_RETRIES", minimum: 0, maximum: 100 },
  retryBudgetMs: { env: "INSIGHTS_RETRY_BUDGET_MS", minimum: 0, maximum: 86_400_000 },
  maxResponseBytes: { env: "INSIGHTS_MAX_RESPONSE_BYTES", minimum: 1, maximum: MAX_RESPONSE_BYTES_LIMIT },
  requestsPerFiveMinutes: { env: "INSIGHTS_REQUESTS_PER_FIVE_MINUTES", minimum: 1, maximum: 1_000_000 },
  historicalMetricsPerMinute: { env: "INSIGHTS_HISTORICAL_METRICS_PER_MINUTE", minimum: 1, maximum: 1_000_000 },
  realTimeMetricsPerMinute: { env: "INSIGHTS_REAL_TIME_METRICS_PER_MINUTE", minimum: 1, maximum: 1_000_000 },
  unknownOutcomeWaitMs: { env: "INSIGHTS_UNKNOWN_OUTCOME_WAIT_MS", minimum: 0, maximum: 86_400_000 },
} as const satisfies Record<keyof TransportTuning, { env: string; minimum: number; maximum: number }>;

/**
 * Reads {@link TransportTuning} from the stack config (`get` takes the full key), else the
 * environment; throws a `SettingsError` naming the key for a value that is not an integer in range.
 */
export function tuningFrom(
  get: (configKey: string) => string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): TransportTuning {
  const tuning: TransportTuning = {};
  for (const [name, { env: variable, minimum, maximum }] of Object.entries(TUNING_SETTINGS) as Array<[keyof TransportTuning, (typeof TUNING_SETTINGS)[keyof TransportTuning]]>) {
    const configKey = `${CONFIG_NAMESPACE}:${name}`;
    const fromConfig = nonBlank(get(configKey));
    const text = fromConfig ?? nonBlank(env[variable]);
    if (text === undefined) continue;
    const value = Number(text);
    if (!Number.isInteger(value) || value < minimum || value > maximum) {
      const source = fromConfig === undefined ? `the environment variable ${variable}` : `the stack config ${configKey}`;
      throw new SettingsError(name, `${source} must be an integer from ${minimum} to ${maximum}, got ${JSON.stringify(text)}`);
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

type SettingName = keyof typeof SETTINGS_ENV;
const SETTING_NAMES = Object.keys(SETTINGS_ENV) as SettingName[];

/** The stack-config namespace: `insights:<setting>`, for the data sources and the dynamic providers alike. */
const CONFIG_NAMESPACE = "insights";

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
  for (const name of SETTING_NAMES) {
    const configKey = `${CONFIG_NAMESPACE}:${name}`;
    // The secret is read as a plain string only here, to build the client; it never enters an Output.
    const value = nonBlank(explicit?.[name]) ?? nonBlank(get(configKey)) ?? nonBlank(env[SETTINGS_ENV[name]]);
    if (value === undefined) {
      throw new SettingsError(
        name,
        `missing ${name}: ${explicit === undefined ? "" : `pass \`connection.${name}\`, `}set the stack config ${configKey} ` +
          `(\`pulumi config set ${name === "clientSecret" ? "--secret " : ""}${configKey} <value>\`) ` +
          `or set the environment variable ${SETTINGS_ENV[name]}`,
      );
    }
    settings[name] = value;
  }
  return settings;
}

/** The stack config key of the named accounts: a map of account name to `{ baseUrl, clientId, clientSecret }`. */
export const ACCOUNTS_CONFIG_KEY = `${CONFIG_NAMESPACE}:accounts`;

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
    const unknown = Object.keys(fields).filter((field) => !(SETTING_NAMES as string[]).includes(field));
    if (unknown.length > 0) {
      throw new SettingsError("accounts", `the stack config ${path}.${unknown[0]} is not a setting; ${describeChoices(unknown[0]!, SETTING_NAMES, "settings")}`);
    }
    const settings = {} as ConnectionSettings;
    for (const setting of SETTING_NAMES) {
      const text = typeof fields[setting] === "string" ? nonBlank(fields[setting]) : undefined;
      if (text === undefined) {
        const how = setting === "clientSecret" ? `pulumi config set --secret --path '${path}.${setting}' <value>` : `pulumi config set --path '${path}.${setting}' <value>`;
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
  return createHash("sha256").update(JSON.stringify([SETTING_NAMES.map((name) => settings[name]), tuning])).digest("hex");
}

/**
 * `settings` with each setting `explicit` gives (not blank) taking precedence: a data source's
 * `connection` over a named account's settings.
 */
export function overriddenBy(settings: ConnectionSettings, explicit: InsightsConnection): ConnectionSettings {
  const result = { ...settings };
  for (const name of SETTING_NAMES) result[name] = nonBlank(explicit[name]) ?? result[name];
  return result;
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
