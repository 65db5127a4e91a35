import { z } from "zod";
import type { Dialect } from "../dialect";
import type { RuleGroup } from "../contract/filters";
import { badRequest, HttpError, isJsonObject } from "../http";
import { describeChoices } from "../text/suggest";
import { CreateItem, UpdateItem, type FilterInput } from "./schema";
import type { World } from "../world";
import { formatPath, issueError, unknownKeyMessage, type BodyPath } from "./body-errors";
import { MAX_FILTERS_PER_CALL, parseFilterId } from "./ids";
import { requireCategory, subcategoryValues } from "./lookups";
import { checkRuleDepth, checkRuleSemantics } from "./rules";
import type { FilterChange, FilterStore } from "./store";


/** Fields the service sets itself (spec 2.7); writing them is refused with this reason. */
const SERVICE_SET_FIELDS = ["created", "edited", "creator", "editor"];

/**
 * The filters of a `POST /bulk_filters/` body (spec 4.8): an array of 1 to 100 filters, each with
 * name and rules and nothing unknown, rules valid for this account (see rules.ts), category and
 * subcategory from the lookups. The first bad item fails the whole call; `parameter` starts with
 * its index.
 */
export function parseCreateBody(body: unknown, world: World): FilterInput[] {
  return batchItems(body, "POST").map((item, index) => {
    const input = parseItem(CreateItem, item, index);
    checkRuleSemantics(item.rules as RuleGroup, [index, "rules"], world);
    checkCategory(input.category, input.subcategory, [index], undefined);
    return input;
  });
}

/**
 * The changes of a `PUT /bulk_filters/` body (spec 4.8): an array of 1 to 100 objects, each with
 * the id of an existing filter (each id once) and the writable fields to merge; checked as
 * {@link parseCreateBody} checks, with category and subcategory checked on the merged filter.
 * An id the account does not have is a 400 with code `unknown_id` (spec 7 lists only 400 and 401
 * for bulk filters; docs/api.md 10.2: "400 covers ... a wrong number of ids").
 */
export function parseUpdateBody(body: unknown, world: World, store: FilterStore, dialect: Dialect = "standard"): FilterChange[] {
  const seen = new Map<number, number>();
  return batchItems(body, "PUT").map((item, index) => {
    // Clearing a field with null is our choice; the alternate dialect refuses null (emulator/README.md "Dialects").
    const cleared = dialect === "alternate" ? Object.keys(item).find((key) => item[key] === null) : undefined;
    if (cleared !== undefined) {
      const path = formatPath([index, cleared]);
      throw badRequest(`${path}: null is not a value of "${cleared}"; send the value the field should have`, path);
    }
    const input = parseItem(UpdateItem, item, index);
    const idPath = formatPath([index, "id"]);
    const id = parseFilterId(item.id);
    if (id === undefined) throw badRequest(`${idPath} must be a numeric filter id, got ${JSON.stringify(item.id)}`, idPath);
    const earlier = seen.get(id);
    if (earlier !== undefined) throw badRequest(`${idPath}: id ${id} is also changed by item [${earlier}]; give each id once`, idPath);
    seen.set(id, index);
    const existing = store.find(id);
    if (!existing) throw unknownIdError([id], idPath);
    if (input.rules !== undefined) checkRuleSemantics(item.rules as RuleGroup, [index, "rules"], world);
    const merged = (key: "category" | "subcategory") => (input[key] === null ? undefined : (input[key] ?? existing[key]));
    checkCategory(merged("category"), merged("subcategory"), [index], { subcategory: input.subcategory ?? undefined });
    const { id: _wireId, ...fields } = input;
    return { ...fields, id };
  });
}

/** A 400 for ids the account does not have (code `unknown_id`, so clients can tell it apart). */
export function unknownIdError(ids: readonly number[], parameter: string): HttpError {
  const list = ids.join(", ");
  return new HttpError(400, "unknown_id", `${parameter}: no saved filter with id ${list} in this account (GET /bulk_filters/ lists them)`, parameter);
}

function batchItems(body: unknown, method: "POST" | "PUT"): Record<string, unknown>[] {
  const what = method === "POST" ? "filters" : "changes ({id, fields to change})";
  if (body === undefined) throw badRequest(`the body is required: a JSON array of 1 to ${MAX_FILTERS_PER_CALL} ${what}`, "body");
  if (!Array.isArray(body)) {
    const hint = isJsonObject(body) ? "; wrap a single object in [ ]" : "";
    throw badRequest(`the body must be a JSON array of ${what} (spec 4.8)${hint}`, "body");
  }
  if (body.length === 0) throw badRequest(`the body is an empty array; send 1 to ${MAX_FILTERS_PER_CALL} ${what}`, "body");
  if (body.length > MAX_FILTERS_PER_CALL) {
    throw badRequest(`the body has ${body.length} items; at most ${MAX_FILTERS_PER_CALL} filters per call (spec 8): split it into several calls`, "body");
  }
  return body.map((item, index) => {
    if (!isJsonObject(item)) throw badRequest(`${formatPath([index])} must be a JSON object`, formatPath([index]));
    return item;
  });
}

function parseItem<Schema extends typeof CreateItem | typeof UpdateItem>(schema: Schema, item: Record<string, unknown>, index: number): z.infer<Schema> {
  checkRuleDepth(item.rules, [index, "rules"]);
  const result = schema.safeParse(item);
  if (result.success) return result.data as z.infer<Schema>;
  const known = Object.keys(schema.shape);
  const explain = (key: string, objectPath: BodyPath): string => {
    if (objectPath.length > 0) return `unknown field "${key}"`;
    if (key === "id") return "ids are assigned by the service; leave id out of POST (PUT changes an existing filter)";
    if (SERVICE_SET_FIELDS.includes(key)) return `${key} is set by the service and cannot be written`;
    return unknownKeyMessage(key, known);
  };
  throw issueError(result.error.issues[0]!, item, [index], explain);
}

/**
 * `category` from the categories lookup and `subcategory` from that category's subcategories (or
 * of any category when there is none): the emulator's choice, since spec 2.7 does not list them
 * and spec 4.8 offers lookups for both. On PUT the merged values are checked and the error names
 * the field the change gave.
 */
function checkCategory(category: string | undefined, subcategory: string | undefined, path: BodyPath, change: { subcategory?: string | undefined } | undefined): void {
  const categoryPath = formatPath([...path, "category"]);
  const subcategoryPath = formatPath([...path, "subcategory"]);
  const known = category === undefined ? undefined : requireCategory(category, categoryPath);
  if (subcategory === undefined) return;
  const allowed = subcategoryValues(known);
  if (allowed.includes(subcategory)) return;
  const blame = change && change.subcategory === undefined ? categoryPath : subcategoryPath;
  const of = known === undefined ? "" : ` of category ${known}`;
  throw badRequest(
    `${blame}: "${subcategory}" is not a subcategory${of}; ${describeChoices(subcategory, allowed, "subcategories")} (GET /bulk_filters/subcategories?category=${known ?? ""})`,
    blame,
  );
}
