import * as pulumi from "@pulumi/pulumi";
import { hostedProvider, outputsOnly, packageModule } from "../../host/shim";
import { SAVED_FILTER_SET } from "../../saved-filters/filter-properties";
import type { FilterState, RecordedAccount } from "../../schema/resource-records";
import type { SavedFilterSetArgs, SavedFilterSetMemberArgs } from "../args";

export type { SavedFilterSetArgs, SavedFilterSetMemberArgs } from "../args";

/**
 * The former name of {@link SavedFilterSetMemberArgs}.
 * @deprecated Use `SavedFilterSetMemberArgs`; this name goes in the next release.
 */
export type SavedFilterSpec = SavedFilterSetMemberArgs;

/** A member of a {@link SavedFilterSet} as the account holds it. */
export type SavedFilterSetMember = FilterState;

/**
 * Many saved filters as one resource, for generated filters (one per city, per device platform, per
 * episode): diffed member by member and applied with bulk calls of up to 100 filters (spec 4.8),
 * so a refresh of 1000 members is 10 requests.
 */
export class SavedFilterSet extends pulumi.dynamic.Resource {
  // Written by scripts/generate-types.ts from the resource's declaration (`npm run types`): edit the declaration, not these lines.
  /** The filter id of each member, by member key. */
  declare readonly ids: pulumi.Output<Record<string, string>>;
  /** Each member as the account holds it, by member key. */
  declare readonly filters: pulumi.Output<Record<string, SavedFilterSetMember>>;
  /**
   * Existing filters to take over instead of creating them, member key -> filter id: when the
   * member is added, the filter is read and updated to the declared state.
   */
  declare readonly adopt: pulumi.Output<Record<string, string> | undefined>;
  /** The account name, as declared (`account`); absent for the provider's own settings. */
  declare readonly account: pulumi.Output<string | undefined>;
  /**
   * The account the resource belongs to, as its state records it (base URL and client id, never the
   * secret).
   */
  declare readonly recordedAccount: pulumi.Output<RecordedAccount>;
  // End of the written lines.

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
        // The outputs that are not inputs, unset until the engine answers; then the inputs.
        ...outputsOnly(SAVED_FILTER_SET),
        // The builder's objects become plain JSON here, so inputs serialize as the API's shape.
        filters: pulumi.output(args.filters).apply((filters) => JSON.parse(JSON.stringify(filters)) as Record<string, SavedFilterSpec>),
        adopt: args.adopt,
        account: args.account,
      },
      opts,
      "insights",
      "SavedFilterSet",
    );
  }
}

const savedFilterSetProvider = hostedProvider(packageModule("resources/saved-filter/set-provider"));
