import { FILTER_CATEGORIES, FILTER_FIELDS, FILTER_LOOKUPS, FILTER_SUBCATEGORIES } from "../contract/filters";
import { describeChoices } from "../text/suggest";
import { badRequest, notFound } from "../http";
import type { World, WorldLookup } from "../world";
import { textMatch, type Dialect } from "../dialect";

/** A lookup whose values come from the account's data world (spec 4.8). */
function isWorldLookup(lookup: string): lookup is WorldLookup {
  return (FILTER_LOOKUPS as readonly string[]).includes(lookup) && lookup !== "categories" && lookup !== "fields";
}

/**
 * The values of `GET /bulk_filters/{lookup}/` (spec 4.8) before `pattern`: the field names, the
 * categories, or the pre-set values of the account's data world (ASN, cities, ..., custom tag
 * names), in the order the source gives them. An unknown lookup is a 404 with a suggestion.
 */
export function lookupValues(lookup: string, world: World): readonly string[] {
  if (lookup === "fields") return FILTER_FIELDS;
  if (lookup === "categories") return FILTER_CATEGORIES;
  if (isWorldLookup(lookup)) return world.lookupValues(lookup);
  const lookups = [...FILTER_LOOKUPS, "subcategories"];
  throw notFound(
    `no lookup "${lookup}" under /bulk_filters; ${describeChoices(lookup, lookups, "lookups")}. ` +
      "To read saved filters by id use GET /bulk_filters/?id=<ids>",
    "lookup",
  );
}

/**
 * The subcategories of one category, or of every category without one (spec 4.8
 * `/bulk_filters/subcategories/?category=`), without repeats, in FILTER_SUBCATEGORIES order.
 * An unknown category is a 400 with a suggestion.
 */
export function subcategoryValues(category: string | undefined): readonly string[] {
  if (category === undefined) return [...new Set(Object.values(FILTER_SUBCATEGORIES).flat())];
  return FILTER_SUBCATEGORIES[requireCategory(category, "category")];
}

/** `category` when it is one of the lookup's categories, else a 400 at `parameter` with a suggestion. */
export function requireCategory(category: string, parameter: string): (typeof FILTER_CATEGORIES)[number] {
  const known = FILTER_CATEGORIES.find((candidate) => candidate === category);
  if (known) return known;
  throw badRequest(
    `unknown category "${category}"; ${describeChoices(category, FILTER_CATEGORIES, "categories")} (GET /bulk_filters/categories)`,
    parameter,
  );
}

/**
 * The values that `pattern` finds (spec 4.8 shows `pattern`, not how it matches): a substring
 * ignoring case, the emulator's choice (`pattern=comcast` finds "Comcast Cable"), or in the
 * alternate dialect the beginning of a value in the case given (emulator/dialect.ts `textMatch`).
 * No pattern, or an empty one, keeps all.
 */
export function matchPattern(values: readonly string[], pattern: string | undefined, dialect: Dialect = "standard"): string[] {
  if (pattern === undefined || pattern.length === 0) return [...values];
  const matches = textMatch(dialect, "pattern");
  return values.filter((value) => matches(value, pattern));
}
