import { badRequest } from "../http";
import type { QueryReader } from "../query";

/** Most ids one call may name (spec 4.8 and 8: up to 100 filters per call). */
export const MAX_FILTERS_PER_CALL = 100;

/**
 * A saved-filter id from the wire, where it is a number or a numeric string (docs/api.md 2.7, 10.2);
 * undefined when it is neither a positive integer nor its decimal string.
 */
export function parseFilterId(value: unknown): number | undefined {
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text !== "string" || !/^[1-9]\d*$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}

/**
 * The comma-separated saved-filter ids of query parameter `name` (spec 4.8): 1 to 100 positive
 * integers. With `unique`, an id listed twice is a 400 (docs/api.md 10.2: 400 covers a wrong number of ids).
 */
export function readFilterIds(reader: QueryReader, name: string, unique: boolean): number[] | undefined {
  const items = reader.list(name);
  if (items === undefined) return undefined;
  if (items.length > MAX_FILTERS_PER_CALL) {
    throw badRequest(`"${name}" lists ${items.length} ids; at most ${MAX_FILTERS_PER_CALL} filters per call (spec 8)`, name);
  }
  const ids = items.map((item) => {
    const id = parseFilterId(item);
    if (id === undefined) throw badRequest(`"${name}" must list numeric filter ids, got "${item}"`, name);
    return id;
  });
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (unique && duplicate !== undefined) throw badRequest(`"${name}" lists id ${duplicate} more than once`, name);
  return [...new Set(ids)];
}
