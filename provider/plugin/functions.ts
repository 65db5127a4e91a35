import { ArgumentError, InsightsError } from "../client";
import { withConnectionWords } from "../connection-check/words";
import "../data";
import { dataSourceDefinitions } from "../data/define";
import { accountSettings, sharedClient } from "../accounts/runtime";
import { isJsonObject } from "../schema";
import type { Failure } from "./core-adapter";
import { unknownToken } from "./tokens";
import { containsSecret, revealed, secretProperties, type PropertyMap } from "./wire";

/**
 * Invoke (docs/provider-plugins.md rule 11): the package's functions are its data sources
 * (provider/data/), each called with the client of the provider's settings, or of the account its
 * `account` argument names, from the shared resolution (accounts/runtime.ts): the same code and the
 * same client as a TypeScript program's `getX()` and the dynamic resources use, and a failed
 * connection worded as that program's `getX()` words it (connection-check/words.ts).
 */

/** What Invoke answers: the result's properties, or the failures of the arguments. */
export interface InvokeAnswer {
  outputs: PropertyMap;
  failures: Failure[];
}

/** The tokens of every function the plugin serves. */
function functionTokens(): string[] {
  return [...dataSourceDefinitions().keys()].sort();
}

/**
 * Calls the function `token` with `args` (secret markers kept). An argument the client refuses is a
 * failure at its path, the reason without the path (every SDK prints both: `... failed: "countrys"
 * is not a known lookup; ... (field)`); a result holding personal data, or read with a secret
 * argument, is answered as secrets, property by property (rule 6). Aborting `signal` (Cancel) stops
 * the requests in flight.
 */
export async function invoke(token: string, args: PropertyMap, signal: AbortSignal): Promise<InvokeAnswer> {
  const definition = dataSourceDefinitions().get(token);
  if (definition === undefined) throw new InsightsError(unknownToken("function", token, functionTokens()));
  const { account, connection, ...params } = revealed(args);
  if (connection !== undefined) {
    return {
      outputs: {},
      failures: [{ property: "connection", reason: "the plugin's functions take their settings from the provider (baseUrl, clientId, clientSecret) or from the account named by `account`" }],
    };
  }
  if (account !== undefined && typeof account !== "string") return { outputs: {}, failures: [{ property: "account", reason: "must be the name of an account of the provider's `accounts`" }] };
  let result: unknown;
  try {
    result = await definition.read(sharedClient(account), params as never, { signal });
  } catch (error) {
    // The client names the arguments from `params` (`params.bogus`): Invoke's are the arguments themselves.
    if (error instanceof ArgumentError) return { outputs: {}, failures: [{ property: error.path.replace(/^params\.(?=.)/, ""), reason: error.reason }] };
    // Named as the program's function is named (`getFilterFieldValues`), the account by its settings and its name.
    const { baseUrl, clientId } = accountSettings(account);
    throw withConnectionWords(error, { baseUrl, clientId, ...(account === undefined ? {} : { name: account }) }, token.slice(token.lastIndexOf(":") + 1));
  }
  if (!isJsonObject(result)) throw new InsightsError(`${token} answered ${Array.isArray(result) ? "a list" : typeof result}, not an object`);
  return { outputs: definition.personalData || containsSecret(args) ? secretProperties(result) : result, failures: [] };
}
