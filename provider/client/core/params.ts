// Written by scripts/generate-types.ts from the zod schemas (`npm run types`): edit the schemas, not this file.

/**
 * The arguments the query families share, as plain TypeScript interfaces: time ranges and filters.
 * The zod schemas they are written from (time-range.ts, validation.ts) stay an implementation
 * detail.
 */

/** A point in time: a `Date`, an ISO 8601 string, or epoch milliseconds. */
export type DateInput = Date | string | number;

/** `[start, end)`: start inclusive, end exclusive (spec 4.1). */
export interface ExplicitRange {
  /** The start, included. */
  start: DateInput;
  /** The end, excluded. */
  end: DateInput;
  /** Not with `start` and `end`: one format per request (spec 4.1). */
  lastDays?: never;
  /** Not with `start` and `end`: one format per request (spec 4.1). */
  lastMinutes?: never;
}

/** The last N days: historical metrics and viewer endpoints only (spec 4.1). */
export interface LastDaysRange {
  /** How many days back from now. */
  lastDays: number;
  /** Not with `lastDays`: one format per request (spec 4.1). */
  lastMinutes?: never;
  /** Not with `lastDays`: one format per request (spec 4.1). */
  start?: never;
  /** Not with `lastDays`: one format per request (spec 4.1). */
  end?: never;
}

/** The last N minutes: real-time metrics only (spec 4.1). */
export interface LastMinutesRange {
  /** How many minutes back from now. */
  lastMinutes: number;
  /** Not with `lastMinutes`: one format per request (spec 4.1). */
  lastDays?: never;
  /** Not with `lastMinutes`: one format per request (spec 4.1). */
  start?: never;
  /** Not with `lastMinutes`: one format per request (spec 4.1). */
  end?: never;
}

/** Any time range. Each endpoint's parameter type narrows it to the formats the endpoint takes. */
export type TimeRange = ExplicitRange | LastDaysRange | LastMinutesRange;

/**
 * One filter value, or several joined by OR (spec 4.2, 4.6: the key is repeated, never a comma
 * list).
 */
export type FilterValue = string | readonly string[];

/**
 * Custom-tag filters: tag name (without the `tag_` prefix) to value(s), sent as `tag_<name>`
 * (spec 4.2).
 */
export type TagFilters = Readonly<Record<string, FilterValue>>;

/** The filter arguments shared by sample sessions and metrics. */
export interface FilterArguments<Filters> {
  /**
   * Dimension filters: different dimensions are joined by AND, the values of one by OR (spec 4.2).
   */
  filters?: Filters;
  /** Custom-tag filters (spec 4.2 `tag_<tag_name>`). */
  tags?: TagFilters;
  /**
   * One saved filter; exclusive with `filters` and `tags` (spec 4.2, 4.6: one filter type per
   * request).
   */
  filterId?: string | number;
}
