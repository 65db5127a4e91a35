import type * as pulumi from "@pulumi/pulumi";
import type { ResourceDeclaration } from "../accounts/calls";

/**
 * The dynamic-provider object that the engine serializes into `__provider` (state file, every
 * resource). Following docs/dynamic-providers.md rules 1 and 2, it captures nothing but one plain
 * string: the package specifier of its implementation, which each method `require()`s at call
 * time. So `__provider` stays small and secret-free, the implementation loads normally in the host (one
 * client, one connection pool, one gateway for every resource), and state written by an older
 * version keeps working after an upgrade.
 *
 * @param implementation A specifier such as `pulumi-insights/dist/provider/resources/saved-filter/provider.js`,
 *   resolved in the host from the Pulumi project directory.
 */
export function hostedProvider(implementation: string): pulumi.dynamic.ResourceProvider {
  // Method bodies stay self-contained: the closure serializer copies only `implementation` and
  // `load`. The host evaluates `__provider` as a module without a file name, whose `require` knows
  // neither package self-reference nor the project's package; resolving from the project's
  // package.json (the host's cwd is the Pulumi project directory) finds the package both in a user's
  // node_modules and, by self-reference, in this repository's own root stack.
  const load = () => require("node:module").createRequire(`${process.cwd()}/package.json`)(implementation).provider;
  return {
    configure: (request) => load().configure(request),
    check: (olds, news) => load().check(olds, news),
    diff: (id, olds, news) => load().diff(id, olds, news),
    create: (inputs) => load().create(inputs),
    read: (id, props) => load().read(id, props),
    update: (id, olds, news) => load().update(id, olds, news),
    delete: (id, props) => load().delete(id, props),
  };
}

/**
 * The specifier of a module of this package's build, as the host resolves it from the project's
 * node_modules. It names the file with its extension: `exports` patterns do no extension lookup.
 */
export function packageModule(pathInDist: string): string {
  return `pulumi-insights/dist/provider/${pathInDist}.js`;
}

/**
 * The outputs a dynamic resource registers besides its inputs, unset until the engine answers: each
 * output of the resource's declaration that is not an input. A property the resource's constructor
 * does not name is not resolved on the object, whatever the state holds.
 */
export function outputsOnly(declaration: Pick<ResourceDeclaration, "inputs" | "outputs">): Record<string, undefined> {
  return Object.fromEntries(Object.keys(declaration.outputs.shape).filter((name) => !(name in declaration.inputs.shape)).map((name) => [name, undefined]));
}
