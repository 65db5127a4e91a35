import type { InsightsClient } from "../client";
import { InsightsError } from "../client";
import { isUnknown } from "../rules";
import { checkConnection, type AccountNeed } from "../connection-check/probe";
import { connectionFailureWords, describeAccount } from "../connection-check/words";
import { accountSettings, report, sharedClient } from "./runtime";
import { changeKind, type PropertyChanges, type PropertyFailure } from "./calls";
import { ACCOUNTS_CONFIG_KEY, type ConnectionSettings } from "./settings";
import type { AccountOutputs, RecordedAccount } from "../schema/resource-records";

/**
 * Which account a resource belongs to (docs/configuration.md "Accounts"). Every resource records in its state the
 * account its ids live in (base URL and client id, never the secret); each call that reaches the
 * account checks that the settings still point there, so that moved settings fail with a message
 * instead of reading, forgetting and recreating the ids in another account. A resource chooses its
 * account with the `account` input: a name of `insights:accounts`, or none for the stack's default
 * settings.
 */

export type { AccountOutputs, RecordedAccount } from "../schema/resource-records";

/** The base URL as compared: the URL's normal form without trailing slashes. */
function normalBaseUrl(baseUrl: string): string {
  try {
    return new URL(baseUrl.trim()).href.replace(/\/+$/, "");
  } catch {
    return baseUrl.trim().replace(/\/+$/, "");
  }
}

/** The record of an account's settings (the secret left out). */
function recordOf(settings: ConnectionSettings): RecordedAccount {
  return { baseUrl: normalBaseUrl(settings.baseUrl), clientId: settings.clientId };
}

function sameAccount(a: RecordedAccount, b: RecordedAccount): boolean {
  return normalBaseUrl(a.baseUrl) === normalBaseUrl(b.baseUrl) && a.clientId === b.clientId;
}

/** Where the settings of `account` come from, for messages. */
function sourceOf(account: string | undefined): string {
  return account === undefined
    ? "the stack's settings (insights:baseUrl and insights:clientId, else INSIGHTS_BASE_URL and INSIGHTS_CLIENT_ID)"
    : `the account "${account}" of ${ACCOUNTS_CONFIG_KEY}`;
}

/** The account name a resource's inputs or outputs declare: undefined for the default settings. */
export function declaredAccount(properties: Record<string, unknown> | undefined): string | undefined {
  const account = properties?.account;
  return typeof account === "string" ? account : undefined;
}

/** The record a resource's state holds, or undefined for a state written before accounts were recorded. */
function recordedAccountOf(properties: Record<string, unknown> | undefined): RecordedAccount | undefined {
  const recorded = properties?.recordedAccount as Partial<RecordedAccount> | undefined;
  return typeof recorded?.baseUrl === "string" && typeof recorded.clientId === "string" ? { baseUrl: recorded.baseUrl, clientId: recorded.clientId } : undefined;
}

/** The outputs of a resource that lives in `account` as its settings are now. */
export function accountOutputs(account: string | undefined): AccountOutputs {
  return { ...(account === undefined ? {} : { account }), recordedAccount: recordOf(accountSettings(account)) };
}

/**
 * The failures of the `account` input in `check()`: a string naming an account of
 * `insights:accounts` (the message lists the names that exist). Only the names are read.
 */
function checkAccount(news: Record<string, unknown>): PropertyFailure[] {
  const account = news.account;
  if (account === undefined || isUnknown(account)) return [];
  if (typeof account !== "string" || account.trim() === "") {
    return [{ property: "account", reason: `account: must be the name of an account of ${ACCOUNTS_CONFIG_KEY}, or left out for the stack's settings` }];
  }
  try {
    accountSettings(account);
    return [];
  } catch (error) {
    // A SettingsError of the config: it names keys and account names, never a value.
    return [{ property: "account", reason: `account: ${error instanceof Error ? error.message : String(error)}` }];
  }
}

/** A failure of the `account` property: the words of connection-check/words.ts, prefixed as every check failure is. */
function accountFailure(reason: string): PropertyFailure {
  return { property: "account", reason: `account: ${reason}` };
}

/**
 * The failures of the `account` input in `check()` ({@link checkAccount}), then of the connection
 * of the account it names, or of the stack's settings: the settings are complete and the client
 * accepts them, the API answers, and the account has each of `needs` (connection-check/probe.ts,
 * one request per need and account in this host, whatever the number of resources). An account
 * not known until apply is not checked.
 */
export async function checkAccountConnection(news: Record<string, unknown>, needs: readonly AccountNeed[]): Promise<PropertyFailure[]> {
  const named = checkAccount(news);
  if (named.length > 0 || isUnknown(news.account)) return named;
  const account = declaredAccount(news);
  let settings: ConnectionSettings;
  try {
    settings = accountSettings(account);
  } catch (error) {
    // A setting that is missing: the SettingsError names the places it is read from, never a value.
    return [accountFailure(error instanceof Error ? error.message : String(error))];
  }
  const failure = await checkConnection(() => sharedClient(account), { baseUrl: settings.baseUrl, clientId: settings.clientId, name: account }, needs);
  return failure === undefined ? [] : [accountFailure(failure)];
}

/**
 * The failure of the `account` property for `error`, met while `check()` read the account: a
 * connection failure blames the account. Undefined for any other error.
 */
function accountFailureOf(news: Record<string, unknown>, error: unknown): PropertyFailure | undefined {
  const account = declaredAccount(news);
  const settings = accountSettings(account);
  const words = connectionFailureWords(error, { baseUrl: settings.baseUrl, clientId: settings.clientId, name: account });
  return words === undefined ? undefined : accountFailure(words);
}

/**
 * A `check()` that reads the account (the lookups that rule values are checked against): first the
 * account's connection ({@link checkAccountConnection}); then `check`, given the account's client,
 * or none when the account failed or is not known until apply (nothing is read then). When a read
 * fails for a reason of the connection (a failure of the service after the connection check
 * passed, for example), the failure is the account's, never that of what was being checked, and
 * `check` runs again without reading.
 */
export async function checkWithAccount<T>(
  news: Record<string, unknown>,
  needs: readonly AccountNeed[],
  check: (client: (() => InsightsClient) | undefined) => Promise<T>,
): Promise<{ accountFailures: PropertyFailure[]; checked: T }> {
  const accountFailures = await checkAccountConnection(news, needs);
  if (accountFailures.length > 0 || isUnknown(news.account)) return { accountFailures, checked: await check(undefined) };
  const account = declaredAccount(news);
  try {
    return { accountFailures, checked: await check(() => sharedClient(account)) };
  } catch (error) {
    const failure = accountFailureOf(news, error);
    if (failure === undefined) throw error;
    return { accountFailures: [failure], checked: await check(undefined) };
  }
}

/**
 * The settings of `account` point at another account than the one the resource's state records:
 * nothing is read or changed, and the message names both accounts and how to go on.
 */
export class AccountMovedError extends InsightsError {
  constructor(
    /** The resource, as messages name it (`SavedFilter "x"`). */
    resource: string,
    /** The account the state records. */
    readonly recorded: RecordedAccount,
    /** The account the settings point at now. */
    readonly current: RecordedAccount,
    account: string | undefined,
  ) {
    super(
      `${resource} belongs to the account ${describeAccount(recorded)}, as its state records, but ${sourceOf(account)} ${account === undefined ? "now point" : "now points"} at ` +
        `${describeAccount(current)}; nothing is read or changed there. To keep managing it, point those settings back at ` +
        `${recorded.baseUrl}, or add that account to ${ACCOUNTS_CONFIG_KEY} and set the resource's \`account\` input to its name. ` +
        "To manage it in the new account instead, remove it from the state (`pulumi state delete <urn>`) and take the new account's " +
        "filters over (`pulumi-insights import` writes a program that adopts them; `--account <name>` names a named account in it).",
    );
  }
}

/**
 * The account a call about an existing resource uses: `account` (the name its inputs or outputs
 * declare), checked against the record in `stored` (its outputs). A state without a record (written
 * before accounts were recorded) adopts the account as the settings are now. Throws an
 * {@link AccountMovedError} when the settings point elsewhere.
 */
export function boundAccount(resource: string, account: string | undefined, stored: Record<string, unknown> | undefined): string | undefined {
  const recorded = recordedAccountOf(stored);
  if (recorded === undefined) return account;
  const current = recordOf(accountSettings(account));
  if (!sameAccount(recorded, current)) throw new AccountMovedError(resource, recorded, current, account);
  return account;
}

/** What a change of the `account` input means to `diff`. */
export interface AccountChange {
  /** True when the declared account name changes (the outputs record the new name). */
  changed: boolean;
  /** True when the new name is another account: the resource is made there and deleted from the old one. */
  replace: boolean;
}

/**
 * Compares the account of the stored outputs `olds` with the one the new inputs `news` declare.
 * The same name whose settings moved fails ({@link boundAccount}); a new name for the same account
 * (a renamed entry of `insights:accounts`) changes only the outputs; a name of another account is a
 * replacement, said in a line of the preview. The settings are not read for an unchanged name in a
 * state without a record (nothing to compare).
 */
export function accountChange(resource: string, olds: Record<string, unknown>, news: Record<string, unknown>): AccountChange {
  const before = declaredAccount(olds);
  if (isUnknown(news.account)) {
    report(`${resource}: its account is not known until apply; another account would replace it`);
    return { changed: true, replace: true };
  }
  const after = declaredAccount(news);
  if (before === after) {
    boundAccount(resource, after, olds);
    return { changed: false, replace: false };
  }
  const from = recordedAccountOf(olds) ?? recordOf(accountSettings(before));
  const to = recordOf(accountSettings(after));
  if (sameAccount(from, to)) return { changed: true, replace: false };
  report(
    `${resource}: moves from the account ${describeAccount(from)} to ${describeAccount(to)} (${sourceOf(after)}): ` +
      "it is replaced, made in the new account and then deleted from the old one",
  );
  return { changed: true, replace: true };
}

/** What the caller of {@link accountChanges} knows that the values do not say. */
export interface AccountContext {
  /**
   * Whether the resource's account changes so that it is replaced, as {@link accountChange} planned
   * it: false when another name is the same account (a renamed entry of `insights:accounts`: an
   * update). Left out, any change of `account` replaces the resource.
   */
  accountReplaced?: boolean;
}

/**
 * The change at `account` between the recorded outputs `olds` and the inputs `news`: added,
 * deleted or updated as the name changes, replacing the resource unless `context` says the name
 * is the same account; a replacement planned without a change of name is an update that replaces.
 */
export function accountChanges(olds: Record<string, unknown>, news: Record<string, unknown>, { accountReplaced }: AccountContext = {}): PropertyChanges {
  const kind = changeKind(olds.account, news.account);
  if (kind !== undefined) return { account: { kind, replace: accountReplaced !== false } };
  return accountReplaced === true ? { account: { kind: "update", replace: true } } : {};
}
