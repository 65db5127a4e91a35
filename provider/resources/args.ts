import type { RuleGroup } from "../schema/records";
import type { Input } from "@pulumi/pulumi";

// Written by scripts/generate-types.ts from the zod schemas (`npm run types`): edit the schemas, not this file.

/**
 * The inputs of the resources as a TypeScript program writes them, each value a Pulumi `Input`:
 * written from each resource's declaration beside its core
 * (provider/saved-filters/filter-properties.ts, provider/pii/opt-out-properties.ts), which the
 * plugin's package schema is written from too.
 */

/** Inputs of a `SavedFilter` (spec 2.7). */
export interface SavedFilterArgs {
  /** The filter's name, unique in practice; required by the API (spec 4.8). */
  name: Input<string>;
  /**
   * The rule tree (spec 2.7): a group of `op` (`and`, `or`) and `rules`, each a group or a leaf
   * (`field`, `op`: `contains`, `not_contains` or `equals`, `value`, and `key` for a `Tag` field);
   * in TypeScript, plain JSON or the rule builder of `pulumi-insights` (`and`, `or`, `field`,
   * `tag`).
   */
  rules: Input<RuleGroup>;
  /** The category, such as `CONTENT` or `NETWORK`; removing it clears it. */
  category?: Input<string>;
  /** The subcategory, such as `Asset` or `Resource`; removing it clears it. */
  subcategory?: Input<string>;
  /**
   * Whether the filter is offered in the metric-exploration and diagnostics dashboards. Default:
   * false.
   */
  advanced?: Input<boolean>;
  /** The API's `content` flag. Default: false. */
  content?: Input<boolean>;
  /** Whether the filter is enabled. Default: true. */
  enabled?: Input<boolean>;
  /**
   * The id of an existing filter to take over instead of creating one: `create` reads it and
   * updates it to the declared state.
   */
  adoptId?: Input<string>;
  /**
   * The account it lives in: a name of the provider's `accounts` (the stack config
   * `insights:accounts`); left out, the provider's own settings (`insights:baseUrl`,
   * `insights:clientId`, `insights:clientSecret`). Changing it to another account replaces the
   * resource.
   */
  account?: Input<string>;
}

/**
 * One member of a SavedFilterSet: a SavedFilter's properties, the name defaulting to the member
 * key.
 */
export interface SavedFilterSetMemberArgs {
  /** The filter's name; default: the member key. */
  name?: Input<string>;
  /**
   * The rule tree (spec 2.7): a group of `op` (`and`, `or`) and `rules`, each a group or a leaf
   * (`field`, `op`: `contains`, `not_contains` or `equals`, `value`, and `key` for a `Tag` field);
   * in TypeScript, plain JSON or the rule builder of `pulumi-insights` (`and`, `or`, `field`,
   * `tag`).
   */
  rules: Input<RuleGroup>;
  /** The category, such as `CONTENT` or `NETWORK`; removing it clears it. */
  category?: Input<string>;
  /** The subcategory, such as `Asset` or `Resource`; removing it clears it. */
  subcategory?: Input<string>;
  /**
   * Whether the filter is offered in the metric-exploration and diagnostics dashboards. Default:
   * false.
   */
  advanced?: Input<boolean>;
  /** The API's `content` flag. Default: false. */
  content?: Input<boolean>;
  /** Whether the filter is enabled. Default: true. */
  enabled?: Input<boolean>;
}

/** Inputs of a `SavedFilterSet`. */
export interface SavedFilterSetArgs {
  /**
   * The members, by member key (a stable name of your choosing, such as a city): adding a key
   * creates a filter, removing one deletes it, changing one updates it in place.
   */
  filters: Input<Record<string, Input<SavedFilterSetMemberArgs>>>;
  /**
   * Existing filters to take over instead of creating them, member key -> filter id: when the
   * member is added, the filter is read and updated to the declared state.
   */
  adopt?: Input<Record<string, Input<string>>>;
  /**
   * The account every member lives in: a name of the provider's `accounts` (the stack config
   * `insights:accounts`); left out, the provider's own settings (`insights:baseUrl`,
   * `insights:clientId`, `insights:clientSecret`). Changing it to another account replaces the
   * resource.
   */
  account?: Input<string>;
}

/** Inputs of a `PiiOptOutRequest` (spec 4.10). Give `viewerIds` or `userIds`, not both. */
export interface PiiOptOutRequestArgs {
  /**
   * Viewer ids whose personal data is to be deleted; sent in `viewer_id` (spec 4.10). Stored as a
   * secret.
   */
  viewerIds?: Input<Input<string>[]>;
  /**
   * User ids whose personal data is to be deleted; also sent in `viewer_id` (spec 4.10). Stored as
   * a secret.
   */
  userIds?: Input<Input<string>[]>;
  /** Addresses the service e-mails when a request is FINISHED (spec 3.1, 6). Stored as a secret. */
  notificationEmails?: Input<Input<string>[]>;
  /** Wait until every request is FINISHED before `up` completes. Default: true. */
  waitForCompletion?: Input<boolean>;
  /**
   * How long one `up` waits, in seconds; when it runs out, the requests stay in the state and the
   * next `up` waits again (the engine passes the dynamic resources no timeout of its own). Default:
   * 1800.
   */
  waitTimeoutSeconds?: Input<number>;
  /** First pause between status reads, in seconds; pauses grow up to 8 times it. Default: 10. */
  pollIntervalSeconds?: Input<number>;
  /**
   * Once every request is FINISHED, ask the viewer-sessions endpoint for each viewer id over the
   * 30-day retention window (spec 8) and report in `verification` which still return data; user ids
   * cannot be checked through the API and are counted as not verifiable. Default: true.
   */
  verifyDeletion?: Input<boolean>;
  /**
   * The account its requests are made in: a name of the provider's `accounts` (the stack config
   * `insights:accounts`); left out, the provider's own settings (`insights:baseUrl`,
   * `insights:clientId`, `insights:clientSecret`). Changing it to another account replaces the
   * resource.
   */
  account?: Input<string>;
}
