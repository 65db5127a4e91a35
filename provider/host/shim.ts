import type * as pulumi from "@pulumi/pulumi";

/**
 * The dynamic-provider object that the engine serializes into `__provider` (state file, every
 * resource). Following the dynamic-provider note, it captures nothing but one plain string: the
 * package specifier of its implementation, which each method `require()`s at call time. So
 * `__provider` stays small and secret-free, the implementation loads normally in the host (one
 * client, one connection pool, one batcher for every resource), and state written by an older
 * version keeps working after an upgrade.
 *
 * @param implementation A specifier such as `pulumi-insights/dist/provider/resources/saved-filter-provider.js`,
 *   resolved in the host from the Pulumi project directory (package self-reference inside this repo).
 */
export function hostedProvider(implementation: string): pulumi.dynamic.ResourceProvider {
  // Every method body must stay self-contained: the closure serializer copies only `implementation`.
  return {
    configure: (request) => require(implementation).provider.configure(request),
    check: (olds, news) => require(implementation).provider.check(olds, news),
    diff: (id, olds, news) => require(implementation).provider.diff(id, olds, news),
    create: (inputs) => require(implementation).provider.create(inputs),
    read: (id, props) => require(implementation).provider.read(id, props),
    update: (id, olds, news) => require(implementation).provider.update(id, olds, news),
    delete: (id, props) => require(implementation).provider.delete(id, props),
  };
}

/**
 * The specifier of a module of this package's build, as the host resolves it from the project's
 * node_modules. It names the file with its extension: `exports` patterns do no extension lookup.
 */
export function packageModule(pathInDist: string): string {
  return `pulumi-insights/dist/provider/${pathInDist}.js`;
}
