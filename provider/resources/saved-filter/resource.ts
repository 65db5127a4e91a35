import * as pulumi from "@pulumi/pulumi";
import type { RuleGroup } from "../../schema";
import { hostedProvider, packageModule } from "../../host/shim";
import type { RecordedAccount } from "../../accounts/binding";

/** Inputs of a {@link SavedFilter} (spec 2.7). */
export interface SavedFilterArgs {
  /** The filter's name, unique in practice; required by the API (spec 4.8). */
  name: pulumi.Input<string>;
  /** The rule tree: plain JSON of spec 2.7 or the builder of `pulumi-insights` (`and`, `or`, `field`, `tag`). */
  rules: pulumi.Input<RuleGroup>;
  /** Category, such as `CONTENT` or `NETWORK`. Removing it clears it. */
  category?: pulumi.Input<string>;
  /** Subcategory, such as `Asset` or `Resource`. Removing it clears it. */
  subcategory?: pulumi.Input<string>;
  /** Enabled for the metric-exploration and diagnostics dashboards. Default false. */
  advanced?: pulumi.Input<boolean>;
  /** Default false. */
  content?: pulumi.Input<boolean>;
  /** Default true. */
  enabled?: pulumi.Input<boolean>;
  /**
   * The id of an existing filter to take over instead of creating one (`pulumi import` does not
   * work for dynamic resources): `create` reads it and updates it to the declared state.
   */
  adoptId?: pulumi.Input<string>;
  /**
   * The account it lives in: a name of the stack config `insights:accounts` (docs/configuration.md "Accounts"); left
   * out, the stack's settings (`insights:baseUrl`, `insights:clientId`, `insights:clientSecret`).
   * Changing it to another account replaces the resource.
   */
  account?: pulumi.Input<string>;
}

/**
 * A saved filter of the Insights account, managed as code: create, in-place updates that send only
 * what changed, drift seen on refresh, delete through `/bulk_filters` (spec 4.8).
 */
export class SavedFilter extends pulumi.dynamic.Resource {
  /** The filter's id in the account (also the resource id). */
  declare readonly filterId: pulumi.Output<string>;
  /** The filter's name. */
  declare readonly name: pulumi.Output<string>;
  /** The rule tree as the account holds it. */
  declare readonly rules: pulumi.Output<RuleGroup>;
  /** The category, such as `CONTENT`, when the filter has one. */
  declare readonly category: pulumi.Output<string | undefined>;
  /** The subcategory, such as `Asset`, when the filter has one. */
  declare readonly subcategory: pulumi.Output<string | undefined>;
  /** Whether the filter is offered in the metric-exploration and diagnostics dashboards. */
  declare readonly advanced: pulumi.Output<boolean>;
  /** The API's `content` flag. */
  declare readonly content: pulumi.Output<boolean>;
  /** Whether the filter is enabled. */
  declare readonly enabled: pulumi.Output<boolean>;
  /** When the filter was created (ISO 8601 with offset). */
  declare readonly created: pulumi.Output<string>;
  /** When the filter was last edited (ISO 8601 with offset). */
  declare readonly edited: pulumi.Output<string>;
  /** Who created the filter (the API account's user name). */
  declare readonly creator: pulumi.Output<string>;
  /** Who edited the filter last. */
  declare readonly editor: pulumi.Output<string>;
  /** The adopted filter's id, as declared. */
  declare readonly adoptId: pulumi.Output<string | undefined>;
  /** The account name, as declared (`account`); undefined for the stack's settings. */
  declare readonly account: pulumi.Output<string | undefined>;
  /** The account the resource belongs to, as its state records it (base URL and client id, never the secret). */
  declare readonly recordedAccount: pulumi.Output<RecordedAccount>;

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
        ...args,
        // The builder's objects become plain JSON here, so inputs serialize as the API's shape.
        rules: pulumi.output(args.rules).apply((rules) => JSON.parse(JSON.stringify(rules)) as RuleGroup),
        filterId: undefined,
        created: undefined,
        edited: undefined,
        creator: undefined,
        editor: undefined,
        recordedAccount: undefined,
      },
      opts,
      "insights",
      "SavedFilter",
    );
  }
}

const savedFilterProvider = hostedProvider(packageModule("resources/saved-filter/provider"));
