import { AsyncLocalStorage } from "node:async_hooks";
import { InsightsClient, type InsightsLogger } from "../client";
import { formatDuration } from "../client/core/logging";
import { REAL_CLOCK, type OutcomeWait } from "../client/core/outcome";
import { inertText } from "../text/inert";
import {
  accountsFrom,
  ACCOUNTS_CONFIG_KEY,
  clientKey,
  clientOptionsOf,
  namedAccount,
  settingsFrom,
  SETTINGS,
  tuningFrom,
  type ConnectionSettings,
  type NamedAccounts,
  type TransportTuning,
} from "./settings";

/**
 * What every resource served by one host process shares: the settings from the stack's config, one
 * client per account (one connection pool, one concurrency bound, the rate budgets of its account),
 * the resource a call is about, and where the lines the engine shows go. The dynamic-provider host
 * loads this module once, whatever number of resources and provider texts it serves
 * (docs/dynamic-providers.md rule 2); the provider plugin is one process with one of it
 * (docs/provider-plugins.md). It knows neither host: each configures it and says where lines go.
 */

/** A value as resolved, or why it cannot be: thrown by the first call that needs it. */
type Settled<T> = { value: T } | { error: unknown };

/**
 * The settings as last resolved: the stack's default account (`insights:baseUrl`, ...), the named
 * accounts (`insights:accounts`) and the tuning. Each fails on its own: a stack whose resources all
 * name an account needs no default settings.
 */
interface Resolution {
  defaultAccount: Settled<ConnectionSettings>;
  accounts: Settled<NamedAccounts>;
  tuning: Settled<TransportTuning>;
}

let resolution: Resolution | undefined;
/** The host's clients, by {@link clientKey} of their settings (never the secret itself as a key). */
const clients = new Map<string, InsightsClient>();

function settle<T>(read: () => T): Settled<T> {
  try {
    return { value: read() };
  } catch (error) {
    return { error };
  }
}

function valueOf<T>(settled: Settled<T>): T {
  if ("error" in settled) throw settled.error;
  return settled.value;
}

/** The settings from the stack config `get` reads (secrets arrive decrypted), else the environment. */
function resolve(get: (configKey: string) => unknown): Resolution {
  const text = (key: string) => {
    const value = get(key);
    return typeof value === "string" ? value : undefined;
  };
  return {
    defaultAccount: settle(() => settingsFrom(undefined, text)),
    accounts: settle(() => accountsFrom(get(ACCOUNTS_CONFIG_KEY))),
    tuning: settle(() => tuningFrom(text)),
  };
}

/** A resolution as text, to tell whether the settings changed (errors by their message). */
function fingerprint(value: Resolution): string {
  return JSON.stringify(value, (_key, item: unknown) => (item instanceof Error ? item.message : item));
}

/**
 * Takes the settings of the stack's config (docs/dynamic-providers.md rule 3); missing keys fall
 * back to the environment (`INSIGHTS_*`, which the host inherits from the engine). When they
 * differ from the settings in use, the clients are replaced, and with them what was cached for
 * their accounts.
 */
export function configureFromStack(config: { get(key: string): string | undefined }): void {
  // `insights:accounts` may arrive as an object (the host hands over structured config values).
  const next = resolve((key) => config.get(key) as unknown);
  if (resolution !== undefined && fingerprint(next) === fingerprint(resolution)) return;
  resolution = next;
  for (const client of clients.values()) void client.close();
  clients.clear();
  shownFailures.clear();
}

function current(): Resolution {
  resolution ??= resolve(() => undefined);
  return resolution;
}

/**
 * The settings of the account named `account` in `insights:accounts`, or of the stack's default
 * settings when `account` is undefined. Throws a `SettingsError` saying what is missing (or which
 * account names exist); the secret is in the answer, for a client only.
 */
export function accountSettings(account?: string): ConnectionSettings {
  const settings = current();
  return account === undefined ? valueOf(settings.defaultAccount) : namedAccount(account, valueOf(settings.accounts));
}

/**
 * The key of an account's client and gateway in this host (a digest of its settings): two names
 * with the same settings share them, and a change of settings makes new ones.
 */
export function accountKey(account?: string): string {
  return clientKey(accountSettings(account), valueOf(current().tuning));
}

/**
 * The host's client of the account named `account` (`insights:accounts`), or of the stack's
 * default settings: one per account, created on first use, each with its own connection pool,
 * concurrency bound and its account's rate budgets (client/core/rate-budget.ts).
 */
export function sharedClient(account?: string): InsightsClient {
  const settings = accountSettings(account);
  const tuning = valueOf(current().tuning);
  const key = clientKey(settings, tuning);
  let client = clients.get(key);
  if (client === undefined) {
    client = new InsightsClient({ logger: HOST_LOGGER, ...clientOptionsOf(settings, tuning) });
    clients.set(key, client);
  }
  return client;
}

/** The resource a provider call is about, for the host's log lines (`SavedFilter "x"`). */
const currentResource = new AsyncLocalStorage<string>();

/**
 * Runs `work` as a call about `resource` (for example `SavedFilter "Harbor Lights"`): the client's
 * waits and retries during it are reported with that name. A batch sent for several resources is
 * reported with the name of the one whose call opened it.
 */
export function asResource<T>(resource: string, work: () => Promise<T>): Promise<T> {
  return currentResource.run(resource, work);
}

/** A client wait or retry at least this long is shown by the engine; shorter ones would be noise. */
export const REPORTED_WAIT_MS = 3_000;

/**
 * The causes of the requests that gave up, as this host has shown them (`LogDetails.failure`): an
 * unreachable API fails every request of every resource with one cause, which is one line, not one
 * per request. Each resource's error still names the cause. Forgotten when the settings change.
 */
const shownFailures = new Set<string>();

/**
 * The host client's logger: waits and retries of {@link REPORTED_WAIT_MS} or more become lines the
 * engine shows, naming the resource (`SavedFilter "x": rate budget historical metrics (400 a minute), waiting 12 s`),
 * so a slow `pulumi up` says why; a request that gives up is a line the first time its cause is met.
 * Everything else the client logs is dropped.
 */
const HOST_LOGGER: InsightsLogger = {
  debug: () => undefined,
  info: (message, details) => {
    if (details === undefined || (details.event !== "wait" && details.event !== "retry") || (details.durationMs ?? 0) < REPORTED_WAIT_MS) return;
    const reason = details.event === "retry" ? `${details.reason}, retrying` : details.reason;
    report(`${currentResource.getStore() ?? details.request ?? "insights"}: ${reason}, waiting ${formatDuration(details.durationMs ?? 0)}`);
  },
  warn: (message, details) => {
    const failure = details?.event === "give-up" ? details.failure : undefined;
    if (failure !== undefined && shownFailures.has(failure)) return;
    if (failure !== undefined) shownFailures.add(failure);
    const once = failure === undefined ? "" : "; said once for this cause, however many requests meet it";
    report(`${currentResource.getStore() ?? "insights"}: ${message}${once}`);
  },
};

/**
 * How long an operation whose outcome is unknown watches the account for it, on the real clock
 * (`insights:unknownOutcomeWaitMs`, `INSIGHTS_UNKNOWN_OUTCOME_WAIT_MS`; accounts/settings.ts;
 * client/core/outcome.ts).
 */
export function outcomeWait(): OutcomeWait {
  return { waitMs: valueOf(current().tuning).unknownOutcomeWaitMs ?? SETTINGS.unknownOutcomeWaitMs.default, clock: REAL_CLOCK };
}

/** Where {@link report} sends its lines: the dynamic-provider host's stdout unless a host says otherwise. */
let reporter: (line: string) => void = (line) => process.stdout.write(`${line}\n`);

/**
 * Sends {@link report}'s lines to `sink` instead of stdout: the provider plugin, whose stdout the
 * engine shows only at debug level, sends them through the engine's `Log` call
 * (docs/provider-plugins.md rule 2).
 */
export function reportThrough(sink: (line: string) => void): void {
  reporter = sink;
}

/**
 * Lines the engine shows: since CLI 3.146 it forwards the host's stdout as info diagnostics
 * (docs/dynamic-providers.md rule 10). Never pass credentials or personal data here. A message of
 * several lines is given as its lines; a string is one line whatever it holds. Each line is made
 * inert (provider/text/inert.ts): an escape sequence, bidi control or line break that a name or a
 * value of the service holds is written escaped, never raw.
 */
export function report(message: string | readonly string[]): void {
  const lines = typeof message === "string" ? [message] : message;
  reporter(lines.map(inertText).join("\n"));
}
