import * as pulumi from "@pulumi/pulumi";
import type { RuleGroup } from "../../schema";
import type { RecordedAccount } from "../../schema/resource-records";
import { hostedProvider, outputsOnly, packageModule } from "../../host/shim";
import { SAVED_FILTER } from "../../saved-filters/filter-properties";
import type { SavedFilterArgs } from "../args";

export type { SavedFilterArgs } from "../args";

/**
 * A saved filter of the Insights account, managed as code: create, in-place updates that send only
 * what changed, drift seen on refresh, delete through `/bulk_filters` (spec 4.8).
 */
export class SavedFilter extends pulumi.dynamic.Resource {
  // Written by scripts/generate-types.ts from the resource's declaration (`npm run types`): edit the declaration, not these lines.
  /** The filter's id in the account (also a SavedFilter's resource id). */
  declare readonly filterId: pulumi.Output<string>;
  /** The filter's name, unique in practice; required by the API (spec 4.8). */
  declare readonly name: pulumi.Output<string>;
  /**
   * The rule tree (spec 2.7): a group of `op` (`and`, `or`) and `rules`, each a group or a leaf
   * (`field`, `op`: `contains`, `not_contains` or `equals`, `value`, and `key` for a `Tag` field);
   * in TypeScript, plain JSON or the rule builder of `pulumi-insights` (`and`, `or`, `field`,
   * `tag`).
   */
  declare readonly rules: pulumi.Output<RuleGroup>;
  /** The category, such as `CONTENT` or `NETWORK`; removing it clears it. */
  declare readonly category: pulumi.Output<string | undefined>;
  /** The subcategory, such as `Asset` or `Resource`; removing it clears it. */
  declare readonly subcategory: pulumi.Output<string | undefined>;
  /** Whether the filter is offered in the metric-exploration and diagnostics dashboards. */
  declare readonly advanced: pulumi.Output<boolean>;
  /** The API's `content` flag. */
  declare readonly content: pulumi.Output<boolean>;
  /** Whether the filter is enabled. */
  declare readonly enabled: pulumi.Output<boolean>;
  /** When the filter was created (ISO 8601 with offset). */
  declare readonly created: pulumi.Output<string | undefined>;
  /** When the filter was last edited (ISO 8601 with offset). */
  declare readonly edited: pulumi.Output<string | undefined>;
  /** Who created the filter (the API account's user name). */
  declare readonly creator: pulumi.Output<string | undefined>;
  /** Who edited the filter last. */
  declare readonly editor: pulumi.Output<string | undefined>;
  /**
   * The id of an existing filter to take over instead of creating one: `create` reads it and
   * updates it to the declared state.
   */
  declare readonly adoptId: pulumi.Output<string | undefined>;
  /** The account name, as declared (`account`); absent for the provider's own settings. */
  declare readonly account: pulumi.Output<string | undefined>;
  /**
   * The account the resource belongs to, as its state records it (base URL and client id, never the
   * secret).
   */
  declare readonly recordedAccount: pulumi.Output<RecordedAccount>;
  // End of the written lines.

  /**
   * Declares a saved filter; `pulumi up` creates it in the account, or adopts the filter `adoptId` names.
   *
   * @param name - The resource's name in the stack, unique among its SavedFilters; not the filter's own `name`.
   * @param args - The filter: its name, rule tree, flags and category, and the account.
   * @param opts - Pulumi's options of a resource (`protect`, `dependsOn`, ...).
   */
  constructor(name: string, args: SavedFilterArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      savedFilterProvider,
      name,
      {
        // The outputs that are not inputs, unset until the engine answers; then the inputs.
        ...outputsOnly(SAVED_FILTER),
        ...args,
        // The builder's objects become plain JSON here, so inputs serialize as the API's shape.
        rules: pulumi.output(args.rules).apply((rules) => JSON.parse(JSON.stringify(rules)) as RuleGroup),
      },
      opts,
      "insights",
      "SavedFilter",
    );
  }
}

const savedFilterProvider = hostedProvider(packageModule("resources/saved-filter/provider"));
