import type * as pulumi from "@pulumi/pulumi";
import { ResourcePartialFailureError, type ResourceCore } from "../accounts/calls";
import { InsightsError } from "../client/core/errors";
import { asResource, configureFromStack } from "../accounts/runtime";
import { configureMatchEstimate } from "../match-estimate/preview";
import { engineFailures, engineMessage, engineProperties, engineReasons, leftOutNote } from "../text/bounded";

/**
 * The dynamic-provider host's side of every resource: the provider object as the host serves it
 * (calls named after their resource, what the engine shows made inert and bounded) and the partial
 * failure it records (docs/dynamic-providers.md "The life of a dynamic resource").
 */

/**
 * `error` as the engine gets it, made inert and bounded (provider/text/bounded.ts): its message and
 * stack (the host prints both) and the reasons and outputs of a {@link ResourceInitFailedError},
 * which the host sends in gRPC trailers: a failure of any size reaches the engine, and the
 * connection stays usable (docs/dynamic-providers.md "Every answer reaches the engine"). An error may
 * be several lines that code composed, so its line breaks are kept; every other control, escape
 * sequence or bidi control a value of the service brought into it is escaped. Changed in place, so
 * the host still recognises what it carries (`id`, `properties`).
 */
function engineError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  let suffix = "";
  if (error instanceof ResourceInitFailedError) {
    const { properties, leftOut } = engineProperties(error.properties, ["__provider"]);
    if (leftOut.length > 0) suffix = leftOutNote(leftOut);
    (error as { properties: Record<string, unknown> }).properties = properties;
    error.reasons.splice(0, error.reasons.length, ...engineReasons(error.reasons));
  }
  const message = error.message;
  error.message = engineMessage(message, suffix);
  if (error.stack !== undefined) error.stack = engineMessage(error.stack.replace(message, error.message));
  return error;
}

/** `call`'s answer, or its failure made inert and bounded ({@link engineError}). */
async function withEngineErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw engineError(error);
  }
}

/**
 * `provider` as the host serves it: each call that sends requests (create, read, update, delete)
 * run {@link asResource} `type "name"`, the name read from the call's properties by `nameOf` (else
 * the id); and what every call shows the engine besides its lines, its errors and its check
 * failures, made inert and bounded ({@link engineError}).
 */
export function namedCalls(type: string, nameOf: (properties: unknown) => unknown, provider: Required<pulumi.dynamic.ResourceProvider>): Required<pulumi.dynamic.ResourceProvider> {
  const label = (properties: unknown, id?: string) => {
    const name = nameOf(properties);
    return typeof name === "string" && name !== "" ? `${type} "${name}"` : `${type} ${id ?? ""}`.trim();
  };
  return {
    configure: (request) => withEngineErrors(() => provider.configure(request)),
    check: async (olds, news) => {
      const result = await withEngineErrors(() => provider.check(olds, news));
      return result.failures === undefined ? result : { ...result, failures: engineFailures(result.failures) };
    },
    diff: (id, olds, news) => withEngineErrors(() => provider.diff(id, olds, news)),
    create: (inputs) => withEngineErrors(() => asResource(label(inputs), () => provider.create(inputs))),
    read: (id, props) => withEngineErrors(() => asResource(label(props, id), () => provider.read(id, props))),
    update: (id, olds, news) => withEngineErrors(() => asResource(label(news, id), () => provider.update(id, olds, news))),
    delete: (id, props) => withEngineErrors(() => asResource(label(props, id), () => provider.delete(id, props))),
  };
}

/**
 * A failure after the resource was (partly) made. The host turns an error carrying `id`,
 * `properties` and `reasons` into the engine's ErrorResourceInitFailed: the engine keeps the
 * resource with this id and these outputs, and the next `pulumi up` calls `update`
 * (docs/dynamic-providers.md "The life of a dynamic resource"). The outputs get `__provider`,
 * which the host adds only to successful answers, so that a later `update` or `delete` can still
 * load the provider: the core's `ResourcePartialFailureError` as this host records it.
 */
export class ResourceInitFailedError extends InsightsError {
  /** The outputs to record, `__provider` included (bounded for the engine on the way out, {@link engineError}). */
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
    this.properties = { ...outputs, __provider: provider };
  }
}

/**
 * The dynamic provider of a resource's core (accounts/calls.ts `ResourceCore`), as the host serves
 * it ({@link namedCalls}): `configure` takes the stack's config (docs/dynamic-providers.md rule 3),
 * check failures and diffs pass through in the host's shapes (rule 5), read answers no id for an
 * object gone (rule 7), update answers the full outputs (rule 6), and a core's partial failure
 * becomes a {@link ResourceInitFailedError} carrying the call's `__provider`.
 */
export function dynamicProvider<Outputs extends object>(
  type: string,
  nameOf: (properties: unknown) => unknown,
  core: ResourceCore<Outputs>,
): Required<pulumi.dynamic.ResourceProvider> {
  const recorded = async <T>(provider: unknown, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ResourcePartialFailureError)) throw error;
      throw new ResourceInitFailedError(error.message, error.id, error.properties, provider, error.reasons);
    }
  };
  return namedCalls(type, nameOf, {
    async configure(request) {
      configureFromStack(request.config);
      configureMatchEstimate(request.config);
    },
    check: (olds, news) => core.check(olds, news),
    async diff(id, olds, news) {
      const { changes, replaces } = await core.diff(id, olds, news);
      return { changes, replaces, deleteBeforeReplace: false };
    },
    create: (inputs) => recorded(inputs.__provider, async () => {
      const { id, outputs } = await core.create(inputs);
      return { id, outs: outputs };
    }),
    async read(id, props) {
      const found = await core.read(id, props ?? {});
      return found === undefined ? {} : { id: found.id, props: found.outputs };
    },
    update: (id, olds, news) => recorded(news.__provider, async () => ({ outs: await core.update(id, olds, news) })),
    delete: (id, props) => core.delete(id, props),
  });
}
