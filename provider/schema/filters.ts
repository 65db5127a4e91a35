import { z } from "zod";
import type * as records from "./records";
import { listingOf, optionalMember, StatusMember } from "./assumptions";
import { Identifier } from "./common";
import { declareShape } from "./meta";
import { RULE_GROUP_OPS, RULE_LEAF_OPS } from "./names";

/**
 * A rule leaf (spec 2.7): `field`, `op`, `value`, and `key` when the field is `Tag`.
 * Wire-level only: field names are checked against the lookup where it matters (emulator, rules module).
 * @internal
 */
export const RuleLeaf = z
  .object({
    field: z.string().min(1).describe("The field compared, a name of the `fields` lookup (spec 2.7), for example `Country`."),
    op: z.enum(RULE_LEAF_OPS).describe("How the field is compared with `value`."),
    value: z.string().describe("The value compared with (case-sensitive)."),
    key: z.string().min(1).optional().describe("The tag name, when the field is `Tag`."),
  })
  .describe(
    "A rule leaf (spec 2.7): `field`, `op`, `value`, and `key` when the field is `Tag`. Wire-level only: field names are checked against the lookup where it matters (emulator, rules module).",
  );
/** A {@link RuleLeaf} after parsing. */
export type RuleLeaf = records.RuleLeaf;

/** A rule group (spec 2.7): `op` and `rules`; nested groups repeat this shape. */
export type RuleGroup = records.RuleGroup;
/** A node of a rule tree: a group or a leaf. */
export type RuleNode = records.RuleNode;

/** @internal The recursive rule-group schema (spec 2.7). */
export const RuleGroup: z.ZodType<RuleGroup, RuleGroup> = z
  .lazy(() =>
    z.object({
      op: z.enum(RULE_GROUP_OPS).describe("How the rules are joined: all of them (`and`) or any (`or`)."),
      rules: z.array(RuleNode).describe("The rules of the group: leaves and nested groups."),
    }),
  )
  .describe("A rule group (spec 2.7): `op` and `rules`; nested groups repeat this shape.");
/** @internal A rule node: group or leaf, told apart by the presence of `rules`. */
export const RuleNode: z.ZodType<RuleNode, RuleNode> = z.lazy(() => z.union([RuleGroup, RuleLeaf])).describe("A node of a rule tree: a group or a leaf.");

/** The writable fields of a saved filter (spec 2.7, 4.8), each with what it is. */
const WRITABLE_FIELDS = {
  name: z.string().min(1).describe("The filter's name."),
  rules: RuleGroup.describe("Its rule tree (spec 2.7)."),
  category: z.string().optional().describe("Its category (spec 2.7)."),
  subcategory: z.string().optional().describe("Its subcategory (spec 2.7)."),
  advanced: z.boolean().optional().describe("Whether the filter is advanced: offered in the exploration and diagnostics dashboards (spec 2.7)."),
  content: z.boolean().optional().describe("Whether the filter is a content filter."),
  enabled: z.boolean().optional().describe("Whether the filter is enabled."),
};

/**
 * A saved filter as the service returns it (docs/api.md 2.7). Read leniently
 * (provider/schema/assumptions.ts): unknown fields are kept, and every field but `id` and `name` may
 * be missing or `null` (undefined after parsing).
 * @internal
 */
export const SavedFilter = z
  .looseObject({
    id: Identifier.describe("The filter's id (a number in some answers, always a string here)."),
    name: z.string().describe("The filter's name."),
    rules: WRITABLE_FIELDS.rules,
    category: optionalMember(z.string()).describe("Its category (spec 2.7)."),
    subcategory: optionalMember(z.string()).describe("Its subcategory (spec 2.7)."),
    advanced: optionalMember(z.boolean()).describe("Whether the filter is advanced."),
    content: optionalMember(z.boolean()).describe("Whether the filter is a content filter."),
    enabled: optionalMember(z.boolean()).describe("Whether the filter is enabled."),
    created: optionalMember(z.string()).describe("When it was created: ISO 8601 with an offset."),
    edited: optionalMember(z.string()).describe("When it was last changed: ISO 8601 with an offset."),
    creator: optionalMember(z.string()).describe("The user who created it."),
    editor: optionalMember(z.string()).describe("The user who last changed it."),
  })
  .describe("A saved filter as the service returns it (spec 2.7). Unknown fields are kept.");
/** A {@link SavedFilter} after parsing. */
export type SavedFilter = records.SavedFilter;

/** @internal The writable fields of a saved filter (spec 4.8, POST body item). */
export const SavedFilterInput = z.object(WRITABLE_FIELDS).describe("The writable fields of a saved filter (spec 4.8, POST body item).");
/** A {@link SavedFilterInput}. */
export type SavedFilterInput = records.SavedFilterInput;

/**
 * A PUT body item (spec 4.8): the id and the fields to merge into the existing filter. PUT merges,
 * so an optional field can only be removed by naming it: `null` clears `category` and
 * `subcategory` (the emulator's choice, emulator/README.md).
 * @internal
 */
export const SavedFilterUpdate = SavedFilterInput.partial()
  .extend({
    id: Identifier.describe("The id of the filter, as a string or a number (spec 2.7)."),
    category: z.string().nullable().optional().describe("A new category, or `null` to clear it."),
    subcategory: z.string().nullable().optional().describe("A new subcategory, or `null` to clear it."),
  })
  .describe(
    "A PUT body item (spec 4.8): the id and the fields to merge into the existing filter. PUT merges, so an optional field can only be removed by naming it: `null` clears `category` and `subcategory` (the emulator's choice, emulator/README.md).",
  );
/** A {@link SavedFilterUpdate} before parsing (the id may be a number or a string). */
export type SavedFilterUpdate = records.SavedFilterUpdate;

/**
 * `GET /bulk_filters/` without `fields` (docs/api.md 4.8: `{status, filters}`), read as `{filters}`
 * (a bare array is accepted too, provider/schema/assumptions.ts `listingOf`).
 * @internal
 */
export const SavedFilterList = listingOf(SavedFilter, "filters", "The saved filters listed.").describe("`GET /bulk_filters/` without `fields` (spec 4.8).");
/** A {@link SavedFilterList} after parsing. */
export type SavedFilterList = records.SavedFilterList;

/**
 * `POST /bulk_filters/` answers the array of created filters with 201 (docs/api.md 4.8); a wrapped
 * array is accepted too (provider/schema/assumptions.ts `listingOf`).
 * @internal
 */
export const SavedFilterCreateResponse = listingOf(SavedFilter, "filters", "The filters created.").transform((answer) => answer.filters);

/**
 * `PUT /bulk_filters/` (docs/api.md 4.8): a URL listing the changed ids, and the status; neither is
 * needed, so both may be missing (provider/schema/assumptions.ts `optionalMember`).
 * @internal
 */
export const SavedFilterUpdateResponse = z
  .looseObject({
    location: optionalMember(z.string()).describe("A URL listing the changed ids."),
    status: StatusMember.describe("The status the body repeats, when it does."),
  })
  .describe("`PUT /bulk_filters/` (spec 4.8): a URL listing the changed ids, and the status.");
/** A {@link SavedFilterUpdateResponse} after parsing. */
export type SavedFilterUpdateResponse = records.SavedFilterUpdateResponse;

/** @internal An entry of the DELETE answer: the id and name of a deleted filter (spec 4.8). */
export const DeletedFilter = z
  .looseObject({
    id: Identifier.describe("The id of the deleted filter."),
    name: optionalMember(z.string()).describe("Its name, when the answer gives it."),
  })
  .describe("An entry of the DELETE answer: the id and name of a deleted filter (spec 4.8).");
/** A {@link DeletedFilter} after parsing. */
export type DeletedFilter = records.DeletedFilter;

/**
 * `DELETE /bulk_filters/` (docs/api.md 4.8): the deleted ids and names. An answer without `deleted`
 * lists none (provider/schema/assumptions.ts `optionalMember`).
 * @internal
 */
export const SavedFilterDeleteResponse = z
  .looseObject({
    deleted: declareShape(
      optionalMember(z.array(DeletedFilter)).transform((deleted) => deleted ?? []),
      { output: z.array(DeletedFilter) },
    ).describe("The filters deleted (none when the answer lists none)."),
    status: StatusMember.describe("The status the body repeats, when it does."),
  })
  .describe("`DELETE /bulk_filters/` (spec 4.8): the deleted ids and names.");
/** A {@link SavedFilterDeleteResponse} after parsing. */
export type SavedFilterDeleteResponse = records.SavedFilterDeleteResponse;
