import { z } from "zod";
import type * as records from "./records";
import { listingOf, optionalMember, StatusMember } from "./assumptions";
import { Identifier } from "./common";
import { RULE_GROUP_OPS, RULE_LEAF_OPS } from "./names";

/**
 * A rule leaf (spec 2.7): `field`, `op`, `value`, and `key` when the field is `Tag`.
 * Wire-level only: field names are checked against the lookup where it matters (emulator, rules module).
 * @internal
 */
export const RuleLeaf = z.object({
  field: z.string().min(1),
  op: z.enum(RULE_LEAF_OPS),
  value: z.string(),
  key: z.string().min(1).optional(),
});
/** A {@link RuleLeaf} after parsing. */
export type RuleLeaf = records.RuleLeaf;

/** A rule group (spec 2.7): `op` and `rules`; nested groups repeat this shape. */
export interface RuleGroup {
  op: (typeof RULE_GROUP_OPS)[number];
  rules: RuleNode[];
}
/** A node of a rule tree: a group or a leaf. */
export type RuleNode = RuleGroup | RuleLeaf;

/** @internal The recursive rule-group schema (spec 2.7). */
export const RuleGroup: z.ZodType<RuleGroup> = z.lazy(() =>
  z.object({ op: z.enum(RULE_GROUP_OPS), rules: z.array(RuleNode) }),
);
/** @internal A rule node: group or leaf, told apart by the presence of `rules`. */
export const RuleNode: z.ZodType<RuleNode> = z.lazy(() => z.union([RuleGroup, RuleLeaf]));

/** The writable fields of a saved filter (spec 2.7, 4.8). */
const WRITABLE_FIELDS = {
  name: z.string().min(1),
  rules: RuleGroup,
  category: z.string().optional(),
  subcategory: z.string().optional(),
  advanced: z.boolean().optional(),
  content: z.boolean().optional(),
  enabled: z.boolean().optional(),
};

/**
 * A saved filter as the service returns it (docs/api.md 2.7). Read leniently
 * (provider/schema/assumptions.ts): unknown fields are kept, and every field but `id` and `name` may
 * be missing or `null` (undefined after parsing).
 * @internal
 */
export const SavedFilter = z.looseObject({
  id: Identifier,
  name: z.string(),
  rules: RuleGroup,
  category: optionalMember(z.string()),
  subcategory: optionalMember(z.string()),
  advanced: optionalMember(z.boolean()),
  content: optionalMember(z.boolean()),
  enabled: optionalMember(z.boolean()),
  created: optionalMember(z.string()),
  edited: optionalMember(z.string()),
  creator: optionalMember(z.string()),
  editor: optionalMember(z.string()),
});
/** A {@link SavedFilter} after parsing. */
export type SavedFilter = records.SavedFilter;

/** @internal The writable fields of a saved filter (spec 4.8, POST body item). */
export const SavedFilterInput = z.object(WRITABLE_FIELDS);
/** A {@link SavedFilterInput}. */
export type SavedFilterInput = records.SavedFilterInput;

/**
 * A PUT body item (spec 4.8): the id and the fields to merge into the existing filter. PUT merges,
 * so an optional field can only be removed by naming it: `null` clears `category` and
 * `subcategory` (the emulator's choice, emulator/README.md).
 * @internal
 */
export const SavedFilterUpdate = SavedFilterInput.partial().extend({
  id: Identifier,
  category: z.string().nullable().optional(),
  subcategory: z.string().nullable().optional(),
});
/** A {@link SavedFilterUpdate} before parsing (the id may be a number or a string). */
export type SavedFilterUpdate = records.SavedFilterUpdate;

/**
 * `GET /bulk_filters/` without `fields` (docs/api.md 4.8: `{status, filters}`), read as `{filters}`
 * (a bare array is accepted too, provider/schema/assumptions.ts `listingOf`).
 * @internal
 */
export const SavedFilterList = listingOf(SavedFilter, "filters");
/** A {@link SavedFilterList} after parsing. */
export type SavedFilterList = records.SavedFilterList;

/**
 * `POST /bulk_filters/` answers the array of created filters with 201 (docs/api.md 4.8); a wrapped
 * array is accepted too (provider/schema/assumptions.ts `listingOf`).
 * @internal
 */
export const SavedFilterCreateResponse = listingOf(SavedFilter, "filters").transform((answer) => answer.filters);

/**
 * `PUT /bulk_filters/` (docs/api.md 4.8): a URL listing the changed ids, and the status; neither is
 * needed, so both may be missing (provider/schema/assumptions.ts `optionalMember`).
 * @internal
 */
export const SavedFilterUpdateResponse = z.looseObject({ location: optionalMember(z.string()), status: StatusMember });
/** A {@link SavedFilterUpdateResponse} after parsing. */
export type SavedFilterUpdateResponse = records.SavedFilterUpdateResponse;

/**
 * `DELETE /bulk_filters/` (docs/api.md 4.8): the deleted ids and names. An answer without `deleted`
 * lists none (provider/schema/assumptions.ts `optionalMember`).
 * @internal
 */
export const SavedFilterDeleteResponse = z.looseObject({
  deleted: optionalMember(z.array(z.looseObject({ id: Identifier, name: optionalMember(z.string()) }))).transform((deleted) => deleted ?? []),
  status: StatusMember,
});
/** A {@link SavedFilterDeleteResponse} after parsing. */
export type SavedFilterDeleteResponse = records.SavedFilterDeleteResponse;
