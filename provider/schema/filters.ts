import { z } from "zod";
import type * as records from "./records";
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

/** @internal A saved filter as the service returns it (spec 2.7). Unknown fields are kept. */
export const SavedFilter = z.looseObject({
  ...WRITABLE_FIELDS,
  id: Identifier,
  name: z.string(),
  created: z.string().optional(),
  edited: z.string().optional(),
  creator: z.string().optional(),
  editor: z.string().optional(),
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

/** @internal `GET /bulk_filters/` without `fields` (spec 4.8). */
export const SavedFilterList = z.looseObject({ status: z.number().int(), filters: z.array(SavedFilter) });
/** A {@link SavedFilterList} after parsing. */
export type SavedFilterList = records.SavedFilterList;

/** @internal `POST /bulk_filters/` answers the array of created filters with 201 (spec 4.8). */
export const SavedFilterCreateResponse = z.array(SavedFilter);

/** @internal `PUT /bulk_filters/` (spec 4.8): a URL listing the changed ids, and the status. */
export const SavedFilterUpdateResponse = z.looseObject({ location: z.string(), status: z.number().int() });
/** A {@link SavedFilterUpdateResponse} after parsing. */
export type SavedFilterUpdateResponse = records.SavedFilterUpdateResponse;

/** @internal `DELETE /bulk_filters/` (spec 4.8): the deleted ids and names. */
export const SavedFilterDeleteResponse = z.looseObject({
  deleted: z.array(z.looseObject({ id: Identifier, name: z.string() })),
  status: z.number().int(),
});
/** A {@link SavedFilterDeleteResponse} after parsing. */
export type SavedFilterDeleteResponse = records.SavedFilterDeleteResponse;
