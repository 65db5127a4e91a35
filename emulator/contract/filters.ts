/**
 * The saved-filter vocabulary as the emulator reads the contract (docs/api.md 2.7, 4.8, 10.2). The
 * client keeps its own copy; test/emulator-contract-lists.test.ts compares both with the contract.
 */

/** The rule field names, the values of `GET /bulk_filters/fields` (docs/api.md 2.7), in the contract's order. */
export const FILTER_FIELDS = [
  "ASN", "Asset Name", "Browser Name", "Browser Version", "CDN", "City", "Client ID", "Continent", "Country",
  "Customer", "DMA", "Device Hardware Type", "Device Manufacturer", "Device Marketing Name", "Device Model",
  "Device Name", "Device Operating System", "Device Operating System Family", "Device Operating System Version",
  "ISP", "Content Category", "Player Framework Name", "Player Framework Version", "Player Name", "Postal Code",
  "Resource", "State", "Tag",
] as const;

/** A rule field name. */
export type FilterField = (typeof FILTER_FIELDS)[number];

/**
 * The fields that take only pre-set values, each with the lookup that lists them (docs/api.md 2.7
 * names ASN and country; the others are the fields with a lookup of docs/api.md 4.8: our reading).
 */
export const PRESET_VALUE_FIELDS = {
  ASN: "asn", City: "cities", Continent: "continents", Country: "countries", DMA: "dma", ISP: "isp", State: "states",
} as const satisfies Partial<Record<FilterField, string>>;

/** The lookups under `/bulk_filters/{lookup}/` that take `pattern` (docs/api.md 4.8). */
export const FILTER_LOOKUPS = ["asn", "categories", "cities", "continents", "countries", "dma", "fields", "isp", "states", "tags"] as const;

/** Group operators of a rule tree (docs/api.md 2.7). */
export const RULE_GROUP_OPS = ["and", "or"] as const;
/** Leaf operators: contains and not_contains (docs/api.md 2.7), equals (docs/api.md 10.2). */
export const RULE_LEAF_OPS = ["contains", "not_contains", "equals"] as const;

/** The categories the lookup lists: CONTENT and NETWORK occur (docs/api.md 2.7), DEVICE and GEO are our choice. */
export const FILTER_CATEGORIES = ["CONTENT", "NETWORK", "DEVICE", "GEO"] as const;
/** Subcategories by category: Asset and Resource occur (docs/api.md 2.7), the rest are our choice. */
export const FILTER_SUBCATEGORIES: Readonly<Record<(typeof FILTER_CATEGORIES)[number], readonly string[]>> = {
  CONTENT: ["Asset", "Category", "Show"],
  NETWORK: ["Resource", "CDN", "ISP"],
  DEVICE: ["Platform", "Player"],
  GEO: ["Country", "Region"],
};

/** The fields of a saved filter (docs/api.md 2.7), in the contract's order: what `fields=` may select. */
export const SAVED_FILTER_FIELDS = [
  "id", "name", "rules", "category", "subcategory", "advanced", "content", "enabled", "created", "edited", "creator", "editor",
] as const;

/** A leaf of a rule tree (docs/api.md 2.7). */
export interface RuleLeaf {
  field: string;
  op: (typeof RULE_LEAF_OPS)[number];
  value: string;
  /** The tag name, for the field Tag. */
  key?: string;
}

/** A group of a rule tree (docs/api.md 2.7). */
export interface RuleGroup {
  op: (typeof RULE_GROUP_OPS)[number];
  rules: RuleNode[];
}

/** A node of a rule tree. */
export type RuleNode = RuleGroup | RuleLeaf;

/** Saved filters per bulk call (docs/api.md 4.8, 8). */
export const FILTERS_PER_CALL = 100;
