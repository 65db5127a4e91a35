import { z } from "zod";
import { CreateItem, type FilterInput } from "./schema";
import type { RuleGroup } from "../contract/filters";
import { badRequest } from "../http";
import { parseFilterId } from "./ids";
import { alternateLocalTime, type Dialect } from "../dialect";

/** The first id of every account (ids are sequential per account, never reused: emulator's choice). */
export const FIRST_FILTER_ID = 1001;

/**
 * A saved filter as the store keeps it (spec 2.7): a numeric id, every flag resolved, and the
 * service-set timestamps and user names.
 *
 * @internal
 */
export const StoredFilter = CreateItem.extend({
  id: z.number().int().positive(),
  advanced: z.boolean(),
  content: z.boolean(),
  enabled: z.boolean(),
  created: z.string(),
  edited: z.string(),
  creator: z.string(),
  editor: z.string(),
});
/** A {@link StoredFilter}. */
export interface StoredFilter {
  name: string;
  rules: RuleGroup;
  id: number;
  advanced: boolean;
  content: boolean;
  enabled: boolean;
  created: string;
  edited: string;
  creator: string;
  editor: string;
  category?: string;
  subcategory?: string;
}

/** @internal The store in a state export (`GET /_emulator/state`). */
export const FilterStoreSnapshot = z.object({
  nextId: z.number().int().positive().default(FIRST_FILTER_ID),
  filters: z.array(StoredFilter).default([]),
});
/** A {@link FilterStoreSnapshot}. */
export interface FilterStoreSnapshot {
  nextId: number;
  filters: StoredFilter[];
}

/** A change to one filter (spec 4.8 PUT item): the id and the fields to replace. */
/** A PUT change: the fields to merge; `null` clears an optional string field. */
export type FilterChange = { id: number } & Partial<Omit<FilterInput, "category" | "subcategory">> & {
  category?: string | null | undefined;
  subcategory?: string | null | undefined;
};

/** Who writes and when: `creator`/`editor` and `created`/`edited` (spec 2.7). */
export interface Author {
  userName: string;
  nowMs: number;
}

/**
 * How ids appear on the wire. Spec 2.7 says an id is a string in some responses and a number in
 * others; the emulator answers numbers from POST and DELETE and strings from GET, so clients
 * must normalise (docs/api.md 10.2).
 */
export type IdStyle = "number" | "string";

/**
 * A saved filter on the wire: a {@link StoredFilter} with its id as a number or a string, and in
 * the alternate dialect `null` for an unset category or subcategory.
 */
export type WireFilter = Omit<StoredFilter, "id" | "category" | "subcategory"> & {
  id: number | string;
  category?: string | null;
  subcategory?: string | null;
};

/** The fields of a saved filter in the order the emulator writes them (spec 2.7's table). */
const FIELD_ORDER = [
  "id", "name", "category", "subcategory", "advanced", "content", "enabled", "rules", "created", "creator",
  "edited", "editor",
] as const satisfies readonly (keyof StoredFilter)[];

/**
 * Saved filters of one account (spec 2.7, 4.8). Mutations are total: the routes validate a whole
 * batch (ids exist, bodies valid) before calling them, so a call changes everything or nothing.
 */
export class FilterStore {
  private filters = new Map<number, StoredFilter>();
  private nextId = FIRST_FILTER_ID;

  /**
   * One filter by id (a number or its decimal string), with its id as a string; undefined when
   * there is none. The sessions and metrics endpoints apply its rules for `filter_id`.
   */
  get(id: string | number): WireFilter | undefined {
    const filter = this.find(id);
    return filter && wireFilter(filter, "string");
  }

  /** Every filter, in id order, with ids as strings. */
  list(): WireFilter[] {
    return this.all().map((filter) => wireFilter(filter, "string"));
  }

  /** The stored filter with this id (a copy), or undefined. */
  find(id: string | number): StoredFilter | undefined {
    const numeric = parseFilterId(id);
    const filter = numeric === undefined ? undefined : this.filters.get(numeric);
    return filter && structuredClone(filter);
  }

  /** Every stored filter (copies), in id order: the order of every listing (determinism). */
  all(): StoredFilter[] {
    return this.select((filters) => filters);
  }

  /**
   * The filters that `pick` selects from all of them in id order, copied; only the selected ones
   * are copied, so listing a few ids of a large account stays cheap.
   */
  select(pick: (filters: readonly StoredFilter[]) => readonly StoredFilter[]): StoredFilter[] {
    const ordered = [...this.filters.values()].sort((left, right) => left.id - right.id);
    return pick(ordered).map((filter) => structuredClone(filter));
  }

  /** Whether a filter with this id exists. */
  has(id: number): boolean {
    return this.filters.has(id);
  }

  /**
   * Creates filters with the next ids, in body order (spec 4.8 POST). Unset flags take the
   * emulator's defaults: advanced false, content false, enabled true.
   */
  create(inputs: readonly FilterInput[], author: Author): StoredFilter[] {
    const stamp = isoWithOffset(author.nowMs);
    return inputs.map((input) => {
      const filter = canonical({
        advanced: false,
        content: false,
        enabled: true,
        ...structuredClone(input),
        id: this.nextId++,
        created: stamp,
        creator: author.userName,
        edited: stamp,
        editor: author.userName,
      });
      this.filters.set(filter.id, filter);
      return structuredClone(filter);
    });
  }

  /**
   * Merges each change into its filter (spec 4.8 PUT): the fields given replace the stored ones
   * (a whole `rules` tree replaces the old tree), the rest stay; `edited` and `editor` are set.
   */
  update(changes: readonly FilterChange[], author: Author): StoredFilter[] {
    const stamp = isoWithOffset(author.nowMs);
    return changes.map(({ id, ...fields }) => {
      const existing = this.require(id);
      const merged: Record<string, unknown> = { ...existing };
      for (const [key, value] of Object.entries(fields)) {
        if (value === null) delete merged[key];
        else if (value !== undefined) merged[key] = structuredClone(value);
      }
      const filter = canonical({ ...(merged as unknown as StoredFilter), id, edited: stamp, editor: author.userName });
      this.filters.set(id, filter);
      return structuredClone(filter);
    });
  }

  /** Deletes filters (spec 4.8 DELETE) and answers what was deleted, in the order asked. */
  delete(ids: readonly number[]): StoredFilter[] {
    return ids.map((id) => {
      const existing = this.require(id);
      this.filters.delete(id);
      return existing;
    });
  }

  /** The store's state for export. */
  export(): FilterStoreSnapshot {
    return { nextId: this.nextId, filters: this.all() };
  }

  /** Replaces the store's state from an export; a malformed export is a 400 of the control plane. */
  import(snapshot: unknown): void {
    const parsed = FilterStoreSnapshot.safeParse(snapshot ?? {});
    if (!parsed.success) throw badRequest(`invalid saved-filter state: ${z.prettifyError(parsed.error)}`, "accounts[].filters");
    const highest = Math.max(0, ...parsed.data.filters.map((filter) => filter.id));
    this.filters = new Map(parsed.data.filters.map((filter) => [filter.id, canonical(filter)]));
    this.nextId = Math.max(parsed.data.nextId, highest + 1);
  }

  private require(id: number): StoredFilter {
    const filter = this.filters.get(id);
    if (!filter) throw new Error(`saved filter ${id} does not exist (the route should have checked)`);
    return filter;
  }
}

/**
 * A filter in wire form: fields in {@link FIELD_ORDER}, the id as `idStyle` says. It shares the
 * nested rules of `filter`, which is already a copy (the store hands out copies only). The alternate
 * dialect (emulator/README.md "Dialects") writes an unset category or subcategory as `null` instead
 * of leaving it out, and `created`/`edited` in a local zone instead of UTC.
 */
export function wireFilter(filter: StoredFilter, idStyle: IdStyle, dialect: Dialect = "standard"): WireFilter {
  const id = idStyle === "number" ? filter.id : String(filter.id);
  if (dialect === "standard") return { ...filter, id };
  const alternate: Record<string, unknown> = {};
  for (const key of FIELD_ORDER) {
    if (key === "id") alternate[key] = id;
    else if (key === "created" || key === "edited") alternate[key] = alternateLocalTime(Date.parse(filter[key]));
    else alternate[key] = filter[key] ?? (key === "category" || key === "subcategory" ? null : undefined);
  }
  return alternate as WireFilter;
}

/**
 * ISO 8601 with an explicit offset (spec 2.7: "ISO 8601 with offset"). The emulator's clock is
 * UTC, so the offset is always +00:00; milliseconds are kept so two edits in one second differ.
 */
export function isoWithOffset(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/Z$/, "+00:00");
}

/** The filter with its keys in {@link FIELD_ORDER} and unset optional fields left out. */
function canonical(filter: StoredFilter): StoredFilter {
  const entries = FIELD_ORDER.filter((key) => filter[key] !== undefined).map((key) => [key, filter[key]]);
  return Object.fromEntries(entries) as StoredFilter;
}
