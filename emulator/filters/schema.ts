import { z } from "zod";
import { RULE_GROUP_OPS, RULE_LEAF_OPS, type RuleGroup, type RuleNode } from "../contract/filters";

/**
 * The emulator's own wire schemas of saved-filter bodies (docs/api.md 2.7, 4.8): what a POST item
 * and a PUT item may hold. Semantic checks (fields of the lookup, pre-set values, tag keys, depth)
 * are in rules.ts and validation.ts; these only check shapes and types.
 */

/** @internal A rule leaf: field, op, value, and key (for the field Tag). */
export const RuleLeafShape = z.object({
  field: z.string().min(1),
  op: z.enum(RULE_LEAF_OPS),
  value: z.string(),
  key: z.string().min(1).optional(),
});

/** The keys a rule leaf may have. */
export const RULE_LEAF_KEYS: readonly string[] = Object.keys(RuleLeafShape.shape);

/** @internal A rule group, recursively: `op` and `rules` (a node is a group when it has `rules`). */
export const RuleGroupShape: z.ZodType<RuleGroup> = z.lazy(() => z.object({ op: z.enum(RULE_GROUP_OPS), rules: z.array(RuleNodeShape) }));
const RuleNodeShape: z.ZodType<RuleNode> = z.lazy(() => z.union([RuleGroupShape, RuleLeafShape]));

/** The fields a client writes (docs/api.md 4.8): name and rules, then the optional ones. */
const WRITABLE = {
  name: z.string().min(1),
  rules: RuleGroupShape,
  category: z.string().optional(),
  subcategory: z.string().optional(),
  advanced: z.boolean().optional(),
  content: z.boolean().optional(),
  enabled: z.boolean().optional(),
};

/** @internal A POST item: the writable fields and nothing else. */
export const CreateItem = z.strictObject(WRITABLE);
/** A valid POST item. */
export interface FilterInput {
  name: string;
  rules: RuleGroup;
  category?: string;
  subcategory?: string;
  advanced?: boolean;
  content?: boolean;
  enabled?: boolean;
}

/**
 * A PUT item: the id (a number or a numeric string, docs/api.md 10.2) and the writable fields to
 * merge; `null` clears category or subcategory (our choice, emulator/README.md "Dialects").
 *
 * @internal
 */
export const UpdateItem = z.strictObject({
  ...WRITABLE,
  id: z.union([z.string(), z.number()]),
  name: WRITABLE.name.optional(),
  rules: RuleGroupShape.optional(),
  category: z.string().nullable().optional(),
  subcategory: z.string().nullable().optional(),
});
