import { InsightsClient } from "../client";
import {
  clientOptionsOf,
  DEFAULT_UNKNOWN_OUTCOME_WAIT_MS,
  settingsFrom,
  tuningFrom,
  type ConnectionSettings,
  type TransportTuning,
} from "../data/connection";

/**
 * What every resource served by one dynamic-provider host shares: the settings from the stack's
 * config and one client (one connection pool, one concurrency bound). The host loads this module
 * once, whatever number of resources and provider texts it serves (docs/dynamic-providers.md rule 2).
 */

/** The settings as last resolved, or why they cannot be: thrown by the first call that needs the client. */
type Resolution = { settings: ConnectionSettings; tuning: TransportTuning } | { error: unknown };

let resolution: Resolution | undefined;
let client: InsightsClient | undefined;

/** The settings from the stack config `get` reads (secrets arrive decrypted), else the environment. */
function resolve(get: (configKey: string) => string | undefined): Resolution {
  try {
    return { settings: settingsFrom(undefined, get), tuning: tuningFrom(get) };
  } catch (error) {
    return { error };
  }
}

/**
 * Takes the settings of the stack's config (docs/dynamic-providers.md rule 3); missing keys fall back to
 * the environment (`INSIGHTS_*`, which the host inherits from the engine). When they differ from
 * the settings in use, the client is replaced, and with it what was cached for its account.
 */
export function configureFromStack(config: { get(key: string): string | undefined }): void {
  const next = resolve((key) => config.get(key));
  if (resolution !== undefined && JSON.stringify(next) === JSON.stringify(resolution)) return;
  resolution = next;
  void client?.close();
  client = undefined;
}

/** The host's one client, created on first use from the stack settings and the environment. */
export function sharedClient(): InsightsClient {
  resolution ??= resolve(() => undefined);
  if ("error" in resolution) throw resolution.error;
  client ??= new InsightsClient(clientOptionsOf(resolution.settings, resolution.tuning));
  return client;
}

/**
 * How long an operation whose outcome is unknown waits for the account to show it
 * (`insights:unknownOutcomeWaitMs`, `INSIGHTS_UNKNOWN_OUTCOME_WAIT_MS`; data/connection.ts).
 */
export function unknownOutcomeWaitMs(): number {
  resolution ??= resolve(() => undefined);
  if ("error" in resolution) throw resolution.error;
  return resolution.tuning.unknownOutcomeWaitMs ?? DEFAULT_UNKNOWN_OUTCOME_WAIT_MS;
}

/**
 * Lines the engine shows: since CLI 3.146 it forwards the host's stdout as info diagnostics
 * (docs/dynamic-providers.md rule 10). Never pass credentials or personal data here.
 */
export function report(message: string): void {
  process.stdout.write(`${message.replace(/\n+$/, "")}\n`);
}

/**
 * A failure after the resource was (partly) made. The host turns an error carrying `id`,
 * `properties` and `reasons` into the engine's ErrorResourceInitFailed: the engine keeps the
 * resource with this id and these outputs, and the next `pulumi up` calls `update` (docs/dynamic-providers.md
 * "The life of a dynamic resource"). The outputs get `__provider`, which the host adds only to successful answers, so that a
 * later `update` or `delete` can still load the provider. Not the client's `PartialFailureError`
 * (chunks of one API call), whence the name.
 */
export class ResourceInitFailedError extends Error {
  /** The outputs to record, `__provider` included. */
  readonly properties: Record<string, unknown>;

  constructor(
    message: string,
    /** The resource's id. */
    readonly id: string,
    outputs: object,
    /** The `__provider` input of the call that failed. */
    provider: unknown,
    /** What failed, one line each. */
    readonly reasons: string[],
  ) {
    super(message);
    this.name = "ResourceInitFailedError";
    this.properties = { ...outputs, __provider: provider };
  }
}
