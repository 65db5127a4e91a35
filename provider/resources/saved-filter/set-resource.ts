import * as pulumi from "@pulumi/pulumi";
import { hostedProvider, packageModule } from "../../host/shim";
import type { RecordedAccount } from "../../accounts/binding";
import type { FilterState } from "../../saved-filters/model/state";
import type { SavedFilterArgs } from "./resource";

/** One member of a {@link SavedFilterSet}: the properties of a SavedFilter, the name defaulting to the member key. */
export type SavedFilterSetMemberArgs = Omit<SavedFilterArgs, "name" | "adoptId" | "account"> & {
  /** The filter's name; default: the member key. */
  name?: pulumi.Input<string>;
};

/**
 * The former name of {@link SavedFilterSetMemberArgs}.
 * @deprecated Use `SavedFilterSetMemberArgs`; this name goes in the next release.
 */
export type SavedFilterSpec = SavedFilterSetMemberArgs;

/** Inputs of a {@link SavedFilterSet}. */
export interface SavedFilterSetArgs {
  /**
   * The members, by member key (a stable name of your choosing, such as a city): adding a key
   * creates a filter, removing one deletes it, changing one updates it in place.
   */
  filters: pulumi.Input<Record<string, pulumi.Input<SavedFilterSetMemberArgs>>>;
  /**
   * Existing filters to take over instead of creating them, member key -> filter id (`pulumi import`
   * does not work for dynamic resources): when the member is added, the filter is read and updated
   * to the declared state.
   */
  adopt?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * The account every member lives in: a name of the stack config `insights:accounts` (docs/configuration.md "Accounts"); left
   * out, the stack's settings (`insights:baseUrl`, `insights:clientId`, `insights:clientSecret`).
   * Changing it to another account replaces the resource.
   */
  account?: pulumi.Input<string>;
}

/** A member of a {@link SavedFilterSet} as the account holds it. */
export type SavedFilterSetMember = FilterState;

/**
 * Many saved filters as one resource, for generated filters (one per city, per device platform, per
 * episode): diffed member by member and applied with bulk calls of up to 100 filters (spec 4.8),
 * so a refresh of 1000 members is 10 requests.
 */
export class SavedFilterSet extends pulumi.dynamic.Resource {
  /** The filter id of each member, by member key. */
  declare readonly ids: pulumi.Output<Record<string, string>>;
  /** Each member as the account holds it, by member key. */
  declare readonly filters: pulumi.Output<Record<string, SavedFilterSetMember>>;
  /** The adoption map, as declared. */
  declare readonly adopt: pulumi.Output<Record<string, string> | undefined>;
  /** The account name, as declared (`account`); undefined for the stack's settings. */
  declare readonly account: pulumi.Output<string | undefined>;
  /** The account the resource belongs to, as its state records it (base URL and client id, never the secret). */
  declare readonly recordedAccount: pulumi.Output<RecordedAccount>;

  /**
   * Declares a set of saved filters by member key; `pulumi up` creates, adopts, updates and deletes them in bulk calls.
   *
   * @param name - The resource's name in the stack, unique among its SavedFilterSets.
   * @param args - The filters by member key, the filters to adopt and the account.
   * @param opts - Pulumi's options of a resource (`protect`, `dependsOn`, ...).
   */
  constructor(name: string, args: SavedFilterSetArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      savedFilterSetProvider,
      name,
      {
        // The builder's objects become plain JSON here, so inputs serialize as the API's shape.
        filters: pulumi.output(args.filters).apply((filters) => JSON.parse(JSON.stringify(filters)) as Record<string, SavedFilterSpec>),
        adopt: args.adopt,
        account: args.account,
        ids: undefined,
        recordedAccount: undefined,
      },
      opts,
      "insights",
      "SavedFilterSet",
    );
  }
}

const savedFilterSetProvider = hostedProvider(packageModule("resources/saved-filter/set-provider"));
