import { z } from "zod";
import { InsightsError } from "../../client/core/errors";
import { isUnknown, lookupCandidates, lookupsForRules, validateRuleValues, validateRules, type RuleFailure } from "../../rules";
import { RuleGroup as RuleGroupSchema, type RuleGroup } from "../../schema";
import { declareShape } from "../../schema/meta";
import { unknownProperties } from "../../schema/suggest";

/**
 * A saved filter as a program declares it (docs/api.md 2.7, 4.8): its properties, their check with
 * exact paths and what would be valid, and the API's defaults. Pure: the values of pre-set fields
 * are checked against lookups read by whoever calls the check (a {@link LookupReader}).
 */

/**
 * The API's values for booleans left out (docs/api.md 2.7 is silent; these are what a filter made in
 * the console has). They are sent explicitly at create, so "left out" and "the default" never diff.
 */
export const BOOLEAN_DEFAULTS = { advanced: false, content: false, enabled: true } as const;

/**
 * @internal
 * The properties of one saved filter, declared by hand here and nowhere else (docs/api.md 2.7, 4.8):
 * what each means, the API's default, and the check of what a program gives. A SavedFilter's inputs,
 * a SavedFilterSet member's and the state both record (./state.ts `FilterState`) are these
 * (saved-filters/filter-properties.ts); their TypeScript types and the plugin's package schema are
 * written from them.
 */
export const DeclaredFilter = z.object({
  // Refused when blank, but never trimmed: the account keeps a name as sent (a console name that
  // ends with a space stays so), and a trimmed declaration would differ from it on every adoption.
  name: z.string().refine((name) => name.trim() !== "", "must be a non-empty string").describe("The filter's name, unique in practice; required by the API (spec 4.8)."),
  // Its structure is checked with exact paths by rules/validate.ts; readers of the schema see a rule group.
  rules: declareShape(z.custom<RuleGroup>(), { input: RuleGroupSchema, output: RuleGroupSchema }).describe(
    "The rule tree (spec 2.7): a group of `op` (`and`, `or`) and `rules`, each a group or a leaf (`field`, `op`: `contains`, `not_contains` or `equals`, `value`, and `key` for a `Tag` field); in TypeScript, plain JSON or the rule builder of `pulumi-insights` (`and`, `or`, `field`, `tag`).",
  ),
  category: z.string().min(1, "must be a non-empty string when given").optional().describe("The category, such as `CONTENT` or `NETWORK`; removing it clears it."),
  subcategory: z.string().min(1, "must be a non-empty string when given").optional().describe("The subcategory, such as `Asset` or `Resource`; removing it clears it."),
  advanced: z.boolean().default(BOOLEAN_DEFAULTS.advanced).describe("Whether the filter is offered in the metric-exploration and diagnostics dashboards."),
  content: z.boolean().default(BOOLEAN_DEFAULTS.content).describe("The API's `content` flag."),
  enabled: z.boolean().default(BOOLEAN_DEFAULTS.enabled).describe("Whether the filter is enabled."),
});
/** A {@link DeclaredFilter} after parsing: the API's defaults filled in. */
export type DeclaredFilter = z.output<typeof DeclaredFilter>;

/** One of {@link MANAGED_PROPERTIES}. */
export type ManagedProperty = keyof typeof DeclaredFilter.shape;
/** Properties compared by `diff` and sent by `update`: those of {@link DeclaredFilter}, in display order. */
export const MANAGED_PROPERTIES = Object.keys(DeclaredFilter.shape) as readonly ManagedProperty[];

/** A problem found by a check: the exact path of the input and what is wrong there. */
export interface PathFailure {
  /** Where, as a program's inputs spell it: `rules.rules[0].field`, `filters["paris"].name`. */
  path: string;
  /** What is wrong there, and what would be valid. */
  reason: string;
}

/**
 * The path of `key` below `base`, as the engine shows property paths: `base.key`, or `base["key"]`
 * for a key that is not a plain name (a member key such as `san-jose`).
 */
export function propertyPath(base: string, key: string): string {
  const step = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  if (base === "" || step.startsWith("[")) return `${base}${step}`;
  return `${base}.${step}`;
}

/** True when `path` is `base` or lies below it (`rules` holds `rules.rules[1].value`). */
export function isBelow(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}.`) || path.startsWith(`${base}[`);
}

/** `base` and a path below it: `filters["x"]` + `rules.rules[0]` -> `filters["x"].rules.rules[0]`. */
function joinPath(base: string, path: string): string {
  if (base === "") return path;
  if (path === "") return base;
  return path.startsWith("[") ? `${base}${path}` : `${base}.${path}`;
}

/** Reads the values a check compares rule values with: the account's lookups, as whoever checks reads them. */
export interface LookupReader {
  /** The values of `lookup` that `candidates` (the values the rules name) are checked against. */
  values(lookup: string, candidates: ReadonlySet<string>): Promise<ReadonlySet<string>>;
}

/**
 * A lookup that could not be read for a reason of the lookup itself: the check says so at the rules.
 * A reader throws any other error (the account's connection, say) as it is, and the check does not
 * blame the rules for it.
 */
export class LookupUnreadableError extends InsightsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

function pathFailures(failures: readonly RuleFailure[]): PathFailure[] {
  return failures.map(({ path, reason }) => ({ path, reason }));
}

/** The lookup-value failures of a structurally valid rule tree at `rulesPath`. */
async function ruleValueFailures(reader: LookupReader, rules: RuleGroup, rulesPath: string): Promise<PathFailure[]> {
  const lookups = new Map<string, ReadonlySet<string>>();
  const candidates = lookupCandidates(rules);
  try {
    await Promise.all(lookupsForRules(rules).map(async (lookup) => {
      lookups.set(lookup, await reader.values(lookup, candidates.get(lookup) ?? new Set()));
    }));
  } catch (error) {
    if (!(error instanceof LookupUnreadableError)) throw error;
    return [{ path: rulesPath, reason: `the lookup values could not be read to check them: ${error.message}` }];
  }
  return pathFailures(validateRuleValues(rules, lookups, rulesPath));
}

/**
 * The partial form of each schema, made once: zod compiles a parser per schema object, so making it
 * per check would cost time and memory for every member of a large SavedFilterSet.
 */
const partialSchemas = new WeakMap<z.ZodObject, z.ZodObject>();

function partialOf(schema: z.ZodObject): z.ZodObject {
  let partial = partialSchemas.get(schema);
  if (partial === undefined) {
    partial = schema.partial();
    partialSchemas.set(schema, partial);
  }
  return partial;
}

/**
 * Checks one declared filter with exact paths below `basePath` and what would be valid, offline:
 * the properties with `schema` ({@link DeclaredFilter} or an extension of it), required ones,
 * unknown property names and the rule tree's structure (docs/api.md 2.7, 4.8); values not known
 * yet are skipped. What {@link checkDeclaredFilter} checks but the lookups, in the same words:
 * the resource classes run it on the values a program gives (provider/resources/known-inputs.ts).
 *
 * @internal
 */
export function checkDeclaredFilterOffline(declared: Record<string, unknown>, basePath: string, schema: z.ZodObject = DeclaredFilter): PathFailure[] {
  const at = (path: string) => joinPath(basePath, path) || "inputs";
  const known = Object.fromEntries(Object.entries(declared).filter(([, value]) => !isUnknown(value)));
  const parsed = partialOf(schema).safeParse(known);
  const failures: PathFailure[] = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({ path: at(issue.path.map(String).join(".")), reason: issue.message }));
  // The engine's own `__provider` input is not the user's.
  for (const { property, reason } of unknownProperties(declared, Object.keys(schema.shape), ["__provider"])) failures.push({ path: at(property), reason });
  if (!("name" in declared)) failures.push({ path: at("name"), reason: "required" });
  if (!("rules" in declared)) failures.push({ path: at("rules"), reason: "required, a rule group of spec 2.7" });
  else failures.push(...pathFailures(validateRules(declared.rules, at("rules"))));
  return failures;
}

/**
 * Checks one declared filter with exact paths below `basePath` and what would be valid: what
 * {@link checkDeclaredFilterOffline} checks, then the values of pre-set fields of a structurally
 * valid tree against the lookups `reader` reads (docs/api.md 2.7, 4.8), so that a typo fails the
 * preview, not the account. Values not known yet are skipped. Without a reader (an account that is
 * not valid: its own failure says why) the lookups are not checked; a tree without pre-set fields
 * asks the reader nothing.
 *
 * @internal
 */
export async function checkDeclaredFilter(
  reader: LookupReader | undefined,
  declared: Record<string, unknown>,
  basePath: string,
  schema: z.ZodObject = DeclaredFilter,
): Promise<PathFailure[]> {
  const failures = checkDeclaredFilterOffline(declared, basePath, schema);
  const rulesPath = joinPath(basePath, "rules");
  const structural = failures.some(({ path }) => isBelow(path, rulesPath));
  if (!structural && reader !== undefined && "rules" in declared && !isUnknown(declared.rules)) {
    failures.push(...(await ruleValueFailures(reader, declared.rules as RuleGroup, rulesPath)));
  }
  return failures;
}
