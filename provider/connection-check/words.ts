import {
  AuthenticationError,
  ConnectionError,
  InternalServerError,
  PermissionDeniedError,
  RateLimitError,
  RequestError,
  SettingsError,
  TimeoutError,
} from "../client";
import { isLoopbackHost } from "../client/core/settings";
import { ACCOUNTS_CONFIG_KEY, configKeyOf, isSecretSetting, type InsightsConnection } from "../accounts/settings";
import { inertText } from "../text/inert";

/**
 * The words of a failed connection to an account, one function for every place that meets one: the
 * preview's check of a resource (probe.ts, through the host), a data source's read
 * (data/define.ts), the plugin's functions (plugin/functions.ts) and `pulumi-insights import`
 * (cli/import-command.ts). A failure names the account by its base URL and client id (never the
 * secret), says what the service answered, and says what to do, with the setting where the
 * account's settings come from (README "Troubleshooting").
 */

/** The connection settings a message may name: never the secret. */
type NamedSetting = keyof InsightsConnection;

/** The account a failure is about, as messages name it, and where its settings come from. */
export interface AccountInMessages {
  /** The base URL as set (printed without user information, and not at all when it is no URL). */
  baseUrl: string;
  /** The API client id. */
  clientId: string;
  /** The name in `insights:accounts`; undefined for the stack's settings (`insights:baseUrl`, ...). */
  name?: string;
  /** The settings a data source's `connection` argument gave, which win over the stack config. */
  given?: ReadonlyArray<NamedSetting>;
  /** Where the settings come from when not from a program's stack config (the command line's flags): wins over `name` and `given`. */
  places?: SettingPlaces;
}

/**
 * Where a person sets each setting of the account, as a message names it: the stack config
 * (`insights:clientSecret`, `insights:accounts.staging.clientSecret`), a data source's `connection`
 * argument, or a command line's flags and environment variables.
 */
export interface SettingPlaces {
  /** The setting where it is set: `insights:clientId`, `connection.clientId`, `--client-id`. */
  key(setting: NamedSetting): string;
  /** How to set it (to `value`), the words after "with" or a colon: `` `pulumi config set --secret insights:clientSecret` ``. */
  howToSet(setting: NamedSetting, value?: string): string;
  /** The setting that raises the per-request timeout, when there is one. */
  timeout?: string;
}

/**
 * What an account may lack, each a part of the API an account has only when enabled or allowed
 * (docs/api.md 1, 4.2, 4.3, 5.4): what it is, and who needs it and what to ask for (a sentence of its own).
 */
export const ACCOUNT_FEATURES = {
  bulkFilters: {
    what: "the saved-filter management API (/bulk_filters) enabled",
    remedy: "SavedFilter, SavedFilterSet and the saved-filter data sources need it: ask the account's representative to enable the bulk-filters feature, or use an account that has it",
  },
  piiOptOut: {
    what: "the PII opt-out API (/pii-opt-out) allowed to these credentials",
    remedy: "PiiOptOutRequest needs it, with the account's own credentials (docs/api.md 5.4): ask the account's representative",
  },
  viewerModule: {
    what: "the viewer module enabled",
    remedy: "Ask the account's representative for the viewer module (docs/api.md 4.3)",
  },
  deletionCheck: {
    what: "the viewer module enabled",
    remedy:
      "A PiiOptOutRequest's verifyDeletion (on by default) reads each viewer's sessions with it once the requests are FINISHED: " +
      "ask the account's representative for the viewer module (docs/api.md 4.3), or set `verifyDeletion: false`",
  },
  adInsights: {
    what: "ad insights enabled",
    remedy: "Ad sessions, ad metrics and ad alerts need it: ask the account's representative for ad insights (docs/api.md 4.2)",
  },
} as const satisfies Record<string, { what: string; remedy: string }>;

/** A part of the API an account may lack ({@link ACCOUNT_FEATURES}). */
export type AccountFeature = keyof typeof ACCOUNT_FEATURES;

/** The base URL for a message: the URL without user information, or a placeholder for text that is no URL (it could hold anything). */
function baseUrlInMessages(baseUrl: string): string {
  try {
    const url = new URL(baseUrl.trim());
    url.username = "";
    url.password = "";
    return url.href.replace(/\/+$/, "");
  } catch {
    return "(a base URL that is not an absolute URL)";
  }
}

/** An account for messages: `https://api.example.com (client id "platform")`. */
export function describeAccount(account: Pick<AccountInMessages, "baseUrl" | "clientId">): string {
  return `${baseUrlInMessages(account.baseUrl)} (client id "${account.clientId}")`;
}

/**
 * The places of a program's settings: a setting its data source's `connection` argument gave is set
 * there (`` `connection.baseUrl: "https://api.example.com"` ``), any other in the stack config, with
 * the `pulumi config set` command (its `--path` form for an account of `insights:accounts`).
 */
function programPlaces(account: AccountInMessages): SettingPlaces {
  const key = (setting: NamedSetting) => {
    if (account.given?.includes(setting)) return `connection.${setting}`;
    return account.name === undefined ? configKeyOf(setting) : `${ACCOUNTS_CONFIG_KEY}.${account.name}.${setting}`;
  };
  return {
    key,
    howToSet(setting, value) {
      if (account.given?.includes(setting)) return `\`${key(setting)}${value === undefined ? "" : `: ${JSON.stringify(value)}`}\``;
      const secret = isSecretSetting(setting) ? "--secret " : "";
      const path = account.name === undefined ? key(setting) : `--path '${key(setting)}'`;
      return `\`pulumi config set ${secret}${path}${value === undefined ? "" : ` ${value}`}\``;
    },
    timeout: configKeyOf("timeoutMs"),
  };
}

/** Where the settings of `account` are set. */
function placesOf(account: AccountInMessages): SettingPlaces {
  return account.places ?? programPlaces(account);
}

/** `ECONNREFUSED` from an address of this machine: nothing listens there, most likely an emulator not started. */
function refusedOnLoopback(error: ConnectionError, baseUrl: string): { port: string } | undefined {
  if ((error.cause as { code?: unknown } | undefined)?.code !== "ECONNREFUSED") return undefined;
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return undefined;
  }
  return isLoopbackHost(url.hostname) ? { port: url.port || (url.protocol === "https:" ? "443" : "80") } : undefined;
}

/** The command that starts the emulator at `port` (emulator/bin.ts: 8080 unless `--port`). */
function emulatorCommand(port: string): string {
  return `npx insights-emulator${port === "8080" ? "" : ` --port ${port}`}`;
}

/**
 * What the service answered to a request refused for a part of the API the account lacks: the
 * status and code, without the service's own sentence, which says what to do in its words where the
 * message says it once in ours.
 */
function refusalAnswered(error: PermissionDeniedError): string {
  const said = error.detail === undefined ? error.message : error.message.replace(`: ${error.detail}`, "");
  return `${said}${attemptsOf(error)}`;
}

/** The part of the API a refused request was about, read from its path (docs/api.md 4.2 to 4.10). */
function featureOfPath(path: string): AccountFeature | undefined {
  if (path.startsWith("/bulk_filters")) return "bulkFilters";
  if (path.startsWith("/pii-opt-out")) return "piiOptOut";
  if (/^\/insights\/[^/]+\/sessions\/(content|ad)\/viewer/.test(path)) return "viewerModule";
  if (/^\/insights\/[^/]+\/(sessions\/ad|ai-alerts\/ad-metrics|(real-time-)?metrics\/ad[-_])/.test(path)) return "adInsights";
  return undefined;
}

/** The settings of an account (not the process's tuning, such as `timeoutMs`, whose errors name their key). */
const ACCOUNT_SETTINGS: ReadonlyArray<string> = ["baseUrl", "clientId", "clientSecret"] satisfies NamedSetting[];

/** A setting of the account that the client refuses (the base-URL policy, a client id with ":"). */
function isAccountSettingError(error: unknown): error is SettingsError {
  return error instanceof SettingsError && ACCOUNT_SETTINGS.includes(error.option);
}

/** ` (after 4 attempts)` when the client's retries were spent. */
function attemptsOf(error: RequestError): string {
  return error.attempts > 1 ? ` (after ${error.attempts} attempts)` : "";
}

/**
 * True for a failure that is about the connection to the account rather than what a call asked:
 * a setting of the account the client refuses, refused credentials (401) or features (403), an unreachable or
 * silent API, a rate limit (429) or a failure of the service (5xx). A rule whose lookup fails so is
 * not at fault (saved-filters/lookups.ts).
 */
export function isConnectionFailure(error: unknown): boolean {
  return isAccountSettingError(error) || error instanceof AuthenticationError || error instanceof PermissionDeniedError
    || error instanceof ConnectionError || error instanceof TimeoutError || error instanceof RateLimitError || error instanceof InternalServerError;
}

/**
 * The words of `error` met while using `account`: what happened, what the service answered, and
 * what to do. `feature` is the part of the API the request needed (else read from its path).
 * Undefined for a failure that is not about the connection ({@link isConnectionFailure}).
 */
export function connectionFailureWords(error: unknown, account: AccountInMessages, feature?: AccountFeature): string | undefined {
  const subject = `the account ${describeAccount(account)}`;
  const places = placesOf(account);
  if (isAccountSettingError(error)) {
    const fix = error.option === "baseUrl" ? `. Use HTTPS: ${places.howToSet("baseUrl", httpsOf(account.baseUrl))}` : "";
    return `${subject} cannot be used: ${error.message}${fix}`;
  }
  if (!(error instanceof RequestError)) return undefined;
  // What the service answered is text from outside: inert wherever the message is shown (text/inert.ts).
  const answered = `${inertText(error.message)}${attemptsOf(error)}`;
  if (error instanceof AuthenticationError) {
    return `${subject} refused the client id and secret: ${answered}. Set the right secret with ${places.howToSet("clientSecret")} (and check ${places.key("clientId")})`;
  }
  if (error instanceof PermissionDeniedError) {
    const needed = feature ?? featureOfPath(error.path);
    if (needed === undefined) {
      return `${subject} refused ${error.method} ${error.path}: ${answered}. The credentials may not use it (docs/api.md 5.6: permissions per operation are not published): ask the account's representative`;
    }
    return `${subject} does not have ${ACCOUNT_FEATURES[needed].what}: ${inertText(refusalAnswered(error))}. ${ACCOUNT_FEATURES[needed].remedy}`;
  }
  if (error instanceof ConnectionError) {
    const refused = refusedOnLoopback(error, account.baseUrl);
    if (refused !== undefined) {
      return `${subject} could not be reached: ${answered}. Nothing listens there: is the emulator running? Start it with \`${emulatorCommand(refused.port)}\`, or check ${places.key("baseUrl")}`;
    }
    return `${subject} could not be reached: ${answered}. Check ${places.key("baseUrl")} and the network (proxy, firewall, DNS)`;
  }
  if (error instanceof TimeoutError) {
    return `${subject} did not answer in time: ${answered}. Try again${places.timeout === undefined ? "" : `; on a slow network raise ${places.timeout}`}`;
  }
  if (error instanceof RateLimitError) {
    return `${subject} is over a rate limit (of the account or of this address): ${answered}. Try again in a few minutes`;
  }
  if (error instanceof InternalServerError) {
    return `${subject} could not be read: the service failed: ${answered}. This may pass: try again`;
  }
  return undefined;
}

/**
 * The words of a failed check of `account` for `need` (probe.ts): those of
 * {@link connectionFailureWords}, else, since the request only checked the account, any other
 * answer (a 404, a body of another shape) asks whether the base URL is the API's.
 */
export function probeFailureWords(error: unknown, account: AccountInMessages, need?: AccountFeature): string {
  const words = connectionFailureWords(error, account, need);
  if (words !== undefined) return words;
  const subject = `the account ${describeAccount(account)}`;
  if (!(error instanceof RequestError)) return `${subject} could not be checked: ${inertText(error instanceof Error ? error.message : String(error))}`;
  return `${subject} gave an answer the API would not give: ${inertText(error.message)}. Is ${placesOf(account).key("baseUrl")} the API's base URL?`;
}

/** The HTTPS form of a plain-HTTP base URL, for the command a message suggests. */
function httpsOf(baseUrl: string): string {
  const shown = baseUrlInMessages(baseUrl);
  return shown.startsWith("http://") ? `https://${shown.slice("http://".length)}` : "https://<API host>";
}

/**
 * `error` with the words of {@link connectionFailureWords} as its message, for a data source's
 * caller: a copy of the same class with the same fields (`status`, `path`, ...), so a program that
 * tells errors apart by class still can, and the client's error as its `cause`. Any other error is
 * answered as it is.
 */
export function withConnectionWords(error: unknown, account: AccountInMessages, context: string): unknown {
  const words = connectionFailureWords(error, account);
  if (words === undefined || !(error instanceof Error)) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object, Object.getOwnPropertyDescriptors(error)) as Error;
  const message = `${context}: ${words}`;
  Object.defineProperty(copy, "message", { value: message, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(copy, "stack", { value: `${copy.name}: ${message}\n${(error.stack ?? "").split("\n").slice(1).join("\n")}`, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(copy, "cause", { value: error, writable: true, configurable: true, enumerable: false });
  return copy;
}
