import { dataSourceToken } from "../data/define";
import { describeChoices } from "../schema/suggest";

/**
 * The names the plugin is known by: its package name (the stack-config namespace, `insights:*`) and
 * the type tokens of its resources and functions, `insights:index:<Name>` (docs/provider-plugins.md
 * rule 12), the form the data sources' mocks already use (`dataSourceToken`).
 */

/** The package's name: the token prefix, the config namespace, and `pulumi-resource-<name>`. */
export const PACKAGE_NAME = "insights";

/** The token of a type or resource of the package's index module: `insights:index:SavedFilter`. */
export function typeToken(name: string): string {
  return `${PACKAGE_NAME}:index:${name}`;
}

/** The resources of the package, by name. */
export const RESOURCE_NAMES = ["SavedFilter", "SavedFilterSet", "PiiOptOutRequest"] as const;
/** One of {@link RESOURCE_NAMES}. */
export type ResourceName = (typeof RESOURCE_NAMES)[number];

/** The type token of each resource. */
export const RESOURCE_TOKENS: readonly string[] = RESOURCE_NAMES.map(typeToken);

/** The token of a function (a data source): `insights:index:getFilterFieldValues`. */
export const functionToken = dataSourceToken;

/** A sentence for a token that is not one of `tokens`: the nearest one, else the list. */
export function unknownToken(kind: "resource type" | "function", token: string, tokens: readonly string[]): string {
  return `${JSON.stringify(token)} is not a ${kind} of the ${PACKAGE_NAME} package; ${describeChoices(token, tokens, `${kind}s`)}`;
}

/**
 * The type token and name a resource's URN holds: `urn:pulumi:<stack>::<project>::<qualified
 * type>::<name>`, the type being the last `$`-separated part of the qualified type (a component's
 * children qualify theirs with their parents'), the name everything after it. Empty for a text that
 * is not a URN.
 */
export function urnParts(urn: string): { type: string; name: string } {
  const parts = urn.split("::");
  if (!urn.startsWith("urn:pulumi:") || parts.length < 4) return { type: "", name: "" };
  return { type: parts[2]!.split("$").pop()!, name: parts.slice(3).join("::") };
}
