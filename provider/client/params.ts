import type { SavedFilterInput, SavedFilterUpdate } from "../schema/records";
import type { ExplicitRange, LastDaysRange, TagFilters } from "./core/params";
import type { MetricRange } from "./core/time-range";
import type { AcceptedMetricName, GroupByName, MetricFilters, SessionFilters } from "./core/validation";

// Written by scripts/generate-types.ts from the zod schemas (`npm run types`): edit the schemas, not this file.

/**
 * The parameters of the client's methods as plain TypeScript interfaces: the public types of those
 * methods. The zod schemas they are written from check them before sending and stay an
 * implementation detail.
 */

/** A field of a saved filter (spec 2.7), as `fields` of {@link FiltersApi.list} selects them. */
export type SavedFilterField = "id" | "name" | "rules" | "category" | "subcategory" | "advanced" | "content" | "enabled" | "created" | "edited" | "creator" | "editor";

/** The lookups of `GET /bulk_filters/{lookup}/` (spec 4.8). */
export type FilterLookupName = "asn" | "categories" | "cities" | "continents" | "countries" | "dma" | "fields" | "isp" | "states" | "tags";

/**
 * Every query parameter of `GET /bulk_filters/` (spec 4.8), typed: the query of
 * {@link FiltersApi.list}.
 */
export interface FilterListQuery {
  /** Only filters of this creator (user name). */
  creator?: string;
  /** Only these ids (sent as the comma-separated `id`). */
  ids?: (string | number)[];
  /** Only filters with this `advanced` flag. */
  advanced?: boolean;
  /** Only filters whose name contains this text (substring match). */
  name?: string;
  /** Only filters of this category. */
  category?: string;
  /** Only filters of this subcategory. */
  subcategory?: string;
  /** Only enabled (or only disabled) filters. */
  enabled?: boolean;
  /** Only filters created on this day (YYYY-MM-DD). */
  created?: string;
  /** Return only these fields of each filter (the answer is then a bare array). */
  fields?: SavedFilterField[];
  /** At most this many filters. */
  limit?: number;
}

/** The params of {@link FiltersApi.get}. */
export interface FilterGetParams {
  /** The id of the filter, as a string or a number (spec 2.7). */
  id: string | number;
}

/** The params of {@link FiltersApi.findByName}. */
export interface FilterFindByNameParams {
  /** The whole name, matched exactly (the API's `name` query matches substrings). */
  name: string;
}

/** The writable fields of a saved filter to create (spec 4.8, POST body item). */
export type FilterToCreate = SavedFilterInput;

/** The params of {@link FiltersApi.create}. */
export interface FilterCreateParams {
  /** The filters to create (any number: more than 100 are sent as several POSTs). */
  filters: readonly SavedFilterInput[];
}

/**
 * A change of one filter (spec 4.8, PUT body item): its id and the fields to merge into it; `null`
 * clears `category` and `subcategory`.
 */
export type FilterChange = SavedFilterUpdate;

/** The params of {@link FiltersApi.update}. */
export interface FilterUpdateParams {
  /**
   * Each change: the id of a filter and the fields to change (spec 4.8: merged into the filter).
   */
  changes: readonly SavedFilterUpdate[];
}

/** The params of {@link FiltersApi.delete}. */
export interface FilterDeleteParams {
  /** The ids of the filters to delete (100 per DELETE). */
  ids: readonly (string | number)[];
}

/**
 * The params of {@link FiltersApi.fields}: none (spec 4.8 `GET /bulk_filters/fields` takes no
 * query).
 */
export interface FilterFieldsParams {
  [key: string]: never;
}

/** The params of {@link FiltersApi.lookup}. */
export interface FilterLookupParams {
  /** Which lookup, for example `countries` (spec 4.8). */
  lookup: FilterLookupName;
  /** Only the values containing this text (substring search). */
  pattern?: string;
}

/** The params of {@link FiltersApi.subcategories}. */
export interface SubcategoryQuery {
  /**
   * The category whose subcategories are listed, for example CONTENT (every category without it).
   */
  category?: string;
  /** Substring search. */
  pattern?: string;
}

/** What {@link PiiApi.submit} takes (spec 4.10), in the client's camelCase. */
export interface PiiSubmitArguments {
  /** Viewer ids or user ids, all of one kind (spec 4.10); sent as `viewer_id`. */
  identifiers: string[];
  /** Addresses to notify when the request is FINISHED (spec 6); sent as `@notification_email`. */
  notificationEmails?: string[];
}

/** The query of {@link PiiApi.list} (spec 4.10). */
export interface PiiListQuery {
  /** At most this many requests. */
  limit?: number;
  /** Created on or after this day (YYYY-MM-DD). */
  start?: string;
  /** Created on or before this day (YYYY-MM-DD). */
  end?: string;
  /** Only requests in these states (sent comma-separated). */
  status?: ("ENQUEUED" | "STARTED" | "FINISHED")[];
}

/** The params of {@link PiiApi.get}. */
export interface PiiGetParams {
  /** The id of the opt-out request, as {@link PiiApi.submit} answered it. */
  id: string;
}

/** Arguments shared by every metric time-series query (spec 4.6). */
export interface SeriesParams<RealTime extends boolean> {
  /**
   * Default: the last 24 hours (historical) or 5 minutes (real time) ending now by the client's
   * clock, sent as that explicit range: where the service's own default ends is not shown
   * (provider/schema/assumptions.ts METRIC_ANSWER_RULE, docs/api.md 11.9).
   */
  range?: MetricRange<RealTime>;
  /**
   * ISO 8601 duration, PT1M to P10W, or "ALL" (docs/api.md 10.4). Default PT1H historical, PT1M
   * real time.
   */
  granularity?: string;
  /** KPI set of KPI-based metrics (spec 4.6); default 1. */
  kpiId?: string | number;
  /**
   * Dimension filters: different dimensions are joined by AND, the values of one by OR (spec 4.2).
   */
  filters?: MetricFilters;
  /** Custom-tag filters (spec 4.2 `tag_<tag_name>`). */
  tags?: TagFilters;
  /**
   * One saved filter; exclusive with `filters` and `tags` (spec 4.2, 4.6: one filter type per
   * request).
   */
  filterId?: string | number;
}

/** One metric (spec 4.6 `{base}/{metric_name}`). */
export interface MetricParams<Metric extends AcceptedMetricName, RealTime extends boolean> extends SeriesParams<RealTime> {
  /** The metric's name (spec 4.6, kebab-case: `plays`, `rebuffering-ratio`). */
  metric: Metric;
}

/** Several metrics (spec 4.6 `{base}/custom-selection`); any number, 12 per request. */
export interface SelectionParams<Metric extends AcceptedMetricName, RealTime extends boolean> extends SeriesParams<RealTime> {
  /** The metrics' names (spec 4.6, kebab-case). */
  metrics: readonly Metric[];
}

/** Arguments of the group-by queries (spec 4.6). */
export interface GroupByOptions {
  /**
   * Entities per interval, 0 to 500 (0: the most, 500, sent as 500), default 50; above 50 the range
   * is at most 24 hours (spec 8).
   */
  limit?: number;
  /** The metric to rank entities by: one of the requested metrics. Default the first. */
  sortBy?: AcceptedMetricName;
  /** Ranking order: `desc` for the highest first. */
  order?: "asc" | "desc";
}

/** One metric grouped by a predefined or error-code dimension (spec 4.6, 4.7). */
export interface GroupByParams<Metric extends AcceptedMetricName, RealTime extends boolean> extends MetricParams<Metric, RealTime>, GroupByOptions {
  /**
   * The dimension to group by (spec 4.7, kebab-case: `isp`, `geo-country-code`), or an error-code
   * dimension.
   */
  dimension: GroupByName;
}

/** Several metrics grouped by a dimension (spec 4.6 `custom-selection/group-by/{dimension}`). */
export interface SelectionGroupByParams<Metric extends AcceptedMetricName, RealTime extends boolean> extends SelectionParams<Metric, RealTime>, GroupByOptions {
  /** The dimension to group by (spec 4.7, kebab-case). */
  dimension: GroupByName;
}

/** One metric grouped by a custom tag (spec 4.6 `group-by/dimension-tag/{custom_tag}`). */
export interface TagGroupByParams<Metric extends AcceptedMetricName, RealTime extends boolean> extends MetricParams<Metric, RealTime>, GroupByOptions {
  /** The account's custom tag name, as `dimensionTags` lists it. */
  tag: string;
}

/** The metric of a per-metric listing (spec 4.6 `{base}/{metric_name}/group-by`). */
export interface MetricListingParams {
  /** The metric's name (spec 4.6). */
  metric: AcceptedMetricName;
}

/** Arguments of the sample-session endpoints (spec 4.2). */
export interface SampleSessionParams {
  /**
   * Default: the latest 3 hours before the request (spec 4.2). At most 3 hours, within the last 31
   * days.
   */
  range?: ExplicitRange;
  /** 1 to 500, default 50 (spec 4.2). */
  limit?: number;
  /**
   * Dimension filters: different dimensions are joined by AND, the values of one by OR (spec 4.2).
   */
  filters?: SessionFilters;
  /** Custom-tag filters (spec 4.2 `tag_<tag_name>`). */
  tags?: TagFilters;
  /**
   * One saved filter; exclusive with `filters` and `tags` (spec 4.2, 4.6: one filter type per
   * request).
   */
  filterId?: string | number;
}

/** Whose sessions: exactly one of a viewer id or a viewer IP address (spec 4.3, 4.4). */
export type ViewerIdentity = {
  /** The viewer's id. */
  viewerId: string;
  /** Not with `viewerId`: exactly one of them (spec 4.3, 4.4). */
  viewerIp?: never;
} | {
  /** The viewer's IP address, IPv4 or IPv6. */
  viewerIp: string;
  /** Not with `viewerIp`: exactly one of them (spec 4.3, 4.4). */
  viewerId?: never;
};

/** Arguments of the viewer-summary endpoint (spec 4.4). */
export type ViewerSummaryParams = ViewerIdentity & {
  /** Default: the last day (spec 4.3). */
  range?: ExplicitRange | LastDaysRange;
};

/** Arguments of the viewer-sessions endpoint (spec 4.3). */
export type ViewerSessionParams = ViewerSummaryParams & {
  /**
   * The most sessions to return, the newest first; default all in the range. Each request asks for
   * 500, the cap (spec 4.3): an answer below it holds all of its range, so the newest `limit` are
   * known whatever order the service lists them in; a full one is split (spec 4.3).
   */
  limit?: number;
};

/** Arguments of the alert lists (spec 4.9). */
export interface AlertListParams<Metric extends string> {
  /** Alerts with a status change inside the range; any length (split into 30-day windows). */
  range?: ExplicitRange;
  /** Default all three. */
  severity?: readonly ("info" | "warning" | "critical")[];
  /** Default both. */
  status?: readonly ("active" | "ended")[];
  /** Default all of the kind. */
  alertMetric?: readonly Metric[];
}

/** Arguments of an alert detail. */
export interface AlertDetailParams {
  /** The alert's id, as the lists answer it. */
  alertId: string;
}
