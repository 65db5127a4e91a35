import { AsyncLocalStorage } from "node:async_hooks";
import type * as pulumi from "@pulumi/pulumi";
import { InsightsClient, type InsightsLogger } from "../client";
import { formatDuration } from "../client/core/logging";
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
 * once, whatever number of resources and provider texts it serves
 * (docs/dynamic-providers.md rule 2).
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
 * Takes the settings of the stack's config (docs/dynamic-providers.md rule 3); missing keys fall
 * back to the environment (`INSIGHTS_*`, which the host inherits from the engine). When they
 * differ from the settings in use, the client is replaced, and with it what was cached for its
 * account.
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
  client ??= new InsightsClient({ logger: HOST_LOGGER, ...clientOptionsOf(resolution.settings, resolution.tuning) });
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

/**
 * `provider` with each call that sends requests (create, read, update, delete) run {@link asResource}
 * `type "name"`, the name read from the call's properties by `nameOf` (else the id).
 */
export function namedCalls(type: string, nameOf: (properties: unknown) => unknown, provider: Required<pulumi.dynamic.ResourceProvider>): Required<pulumi.dynamic.ResourceProvider> {
  const label = (properties: unknown, id?: string) => {
    const name = nameOf(properties);
    return typeof name === "string" && name !== "" ? `${type} "${name}"` : `${type} ${id ?? ""}`.trim();
  };
  return {
    ...provider,
    create: (inputs) => asResource(label(inputs), () => provider.create(inputs)),
    read: (id, props) => asResource(label(props, id), () => provider.read(id, props)),
    update: (id, olds, news) => asResource(label(news, id), () => provider.update(id, olds, news)),
    delete: (id, props) => asResource(label(props, id), () => provider.delete(id, props)),
  };
}

/** A client wait or retry at least this long is shown by the engine; shorter ones would be noise. */
export const REPORTED_WAIT_MS = 3_000;

/**
 * The host client's logger: waits and retries of {@link REPORTED_WAIT_MS} or more become lines the
 * engine shows, naming the resource (`SavedFilter "x": rate budget historical metrics (400 a minute), waiting 12 s`),
 * so a slow `pulumi up` says why. Everything else the client logs is dropped.
 */
const HOST_LOGGER: InsightsLogger = {
  debug: () => undefined,
  info: (message, details) => {
    if (details === undefined || (details.event !== "wait" && details.event !== "retry") || (details.durationMs ?? 0) < REPORTED_WAIT_MS) return;
    const reason = details.event === "retry" ? `${details.reason}, retrying` : details.reason;
    report(`${currentResource.getStore() ?? details.request ?? "insights"}: ${reason}, waiting ${formatDuration(details.durationMs ?? 0)}`);
  },
  warn: (message) => report(`${currentResource.getStore() ?? "insights"}: ${message}`),
};

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
 * resource with this id and these outputs, and the next `pulumi up` calls `update`
 * (docs/dynamic-providers.md "The life of a dynamic resource"). The outputs get `__provider`,
 * which the host adds only to successful answers, so that a later `update` or `delete` can still
 * load the provider. Not the client's `PartialFailureError` (chunks of one API call), whence the
 * name.
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
