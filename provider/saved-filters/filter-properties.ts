import { z } from "zod";
import { AccountOutputs, accountInput } from "../accounts/account-properties";
import type { ResourceDeclaration } from "../accounts/calls";
import { DeclaredFilter } from "./model/declared";
import { NUMERIC_ID } from "./model/declared-set";
import { FilterState } from "./model/state";

/**
 * SavedFilter and SavedFilterSet as resources (accounts/calls.ts `ResourceDeclaration`): what each
 * is, its inputs and its outputs, from a saved filter's properties (model/declared.ts) and the
 * account's (accounts/account-properties.ts). The cores check and parse with these inputs; the
 * TypeScript types (provider/resources/args.ts, provider/schema/resource-records.ts, the classes'
 * outputs) and the plugin's package schema are written from them. Loads no core.
 */

const adoptId = z
  .string()
  .regex(NUMERIC_ID, "must be the numeric id of an existing saved filter")
  .optional()
  .describe("The id of an existing filter to take over instead of creating one: `create` reads it and updates it to the declared state.");

/** @internal SavedFilter: one saved filter. */
export const SAVED_FILTER = {
  description:
    "A saved filter of the Insights account, managed as code: create, in-place updates that send only what changed, drift seen on refresh, delete through `/bulk_filters` (spec 4.8).",
  inputs: DeclaredFilter.extend({ adoptId, account: accountInput("it lives in") }),
  outputs: FilterState.extend({ adoptId, ...AccountOutputs.shape }),
  replacedBy: ["account"],
} satisfies ResourceDeclaration;

/** @internal One member of a SavedFilterSet: a SavedFilter's properties, the name defaulting to the member key. */
export const SavedFilterSetMember = DeclaredFilter.extend({
  name: DeclaredFilter.shape.name.optional().describe("The filter's name; default: the member key."),
}).describe("One member of a SavedFilterSet: a SavedFilter's properties, the name defaulting to the member key.");

const adopt = z
  .record(z.string(), z.string().regex(NUMERIC_ID, "must be the numeric id of an existing saved filter"))
  .optional()
  .describe("Existing filters to take over instead of creating them, member key -> filter id: when the member is added, the filter is read and updated to the declared state.");

/** @internal SavedFilterSet: many saved filters as one resource. */
export const SAVED_FILTER_SET = {
  description:
    "Many saved filters as one resource, for generated filters (one per city, per device platform, per episode): diffed member by member and applied with bulk calls of up to 100 filters (spec 4.8), so a refresh of 1000 members is 10 requests.",
  inputs: z.object({
    filters: z
      .record(z.string(), SavedFilterSetMember)
      .describe("The members, by member key (a stable name of your choosing, such as a city): adding a key creates a filter, removing one deletes it, changing one updates it in place."),
    adopt,
    account: accountInput("every member lives in"),
  }),
  outputs: z.object({
    ids: z.record(z.string(), z.string()).describe("The filter id of each member, by member key."),
    filters: z.record(z.string(), FilterState).describe("Each member as the account holds it, by member key."),
    adopt,
    ...AccountOutputs.shape,
  }),
  replacedBy: ["account"],
} satisfies ResourceDeclaration;
