import { z } from "zod";
import type * as records from "./records";
import { groupByTotalOf, listingOf, METRIC_LISTING_MEMBERS, optionalMember } from "./assumptions";
import { Identifier, Timestamp } from "./common";

/**
 * A metric member's value object (docs/api.md 2.4, 10.4). Every field is
 * optional here because which ones appear depends on the metric; `count` is an integer on the wire.
 * @internal
 */
export const MetricValue = z.looseObject({
  count: z.number().optional(),
  percentage: z.number().optional(),
  value: z.number().optional(),
  ratio: z.number().optional(),
  bps: z.number().optional(),
  fps: z.number().optional(),
  per_unique_device: z.number().optional(),
  per_ended_play: z.number().optional(),
});
/** A {@link MetricValue} after parsing. */
export type MetricValue = records.MetricValue;

/** @internal Metric members keyed by member name (snake_case, spec 2.4). */
export const MetricMembers = z.record(z.string(), MetricValue);
/** {@link MetricMembers} after parsing. */
export type MetricMembers = records.MetricMembers;

/** @internal One interval of a plain time series: its start and one member per requested metric (spec 2.4). */
export const TimeSeriesPoint = z.object({ timestamp: Timestamp }).catchall(MetricValue);
/** A {@link TimeSeriesPoint} after parsing. */
export type TimeSeriesPoint = records.TimeSeriesPoint;

/** @internal A group-by entity: the dimension value and its metrics (spec 2.4). */
export const DimensionalDatum = z.looseObject({
  dimension: z.looseObject({ key: z.string(), value: z.string(), description: optionalMember(z.string()) }),
  metrics: MetricMembers,
});
/** A {@link DimensionalDatum} after parsing. */
export type DimensionalDatum = records.DimensionalDatum;

/** @internal One interval of a group-by time series (spec 2.4). */
export const GroupByPoint = z.looseObject({ timestamp: Timestamp, dimensional_data: z.array(DimensionalDatum) });
/** A {@link GroupByPoint} after parsing. */
export type GroupByPoint = records.GroupByPoint;

/**
 * `_meta` of a metric response. Integrations read `group_by_dimension.description` and
 * `filter_info.id` (docs/api.md 10.4); the other members are the emulator's choice and kept leniently.
 * @internal
 */
export const MetricMeta = z.looseObject({
  group_by_dimension: optionalMember(z.looseObject({ key: optionalMember(z.string()), description: optionalMember(z.string()) })),
  filter_info: optionalMember(z.looseObject({ id: optionalMember(Identifier), name: optionalMember(z.string()) })),
  granularity: optionalMember(z.string()),
  start_epoch_ms: optionalMember(z.number()),
  end_epoch_ms: optionalMember(z.number()),
  query_string: optionalMember(z.string()),
});
/** A {@link MetricMeta} after parsing. */
export type MetricMeta = records.MetricMeta;

/** @internal A metric time-series response (spec 2.4): one metric or a custom selection. */
export const MetricResponse = z.looseObject({
  time_series: z.array(TimeSeriesPoint),
  total: optionalMember(MetricMembers),
  _meta: optionalMember(MetricMeta),
});
/** A {@link MetricResponse} after parsing. */
export type MetricResponse = records.MetricResponse;

/**
 * The whole-range totals of a group-by response: an object with the per-entity totals in
 * `dimensional_data`, never an array (docs/api.md 10.4). Read leniently
 * (provider/schema/assumptions.ts `groupByTotalOf`): an array of per-entity totals is taken as
 * `dimensional_data`, and an object without it holds none.
 * @internal
 */
export const GroupByTotal = groupByTotalOf(DimensionalDatum);
/** A {@link GroupByTotal} after parsing. */
export type GroupByTotal = records.GroupByTotal;

/** @internal A group-by response (docs/api.md 2.4): `dimensional_data` per interval, totals per entity. */
export const GroupByResponse = z.looseObject({
  time_series: z.array(GroupByPoint),
  total: optionalMember(GroupByTotal),
  _meta: optionalMember(MetricMeta),
});
/** A {@link GroupByResponse} after parsing. */
export type GroupByResponse = records.GroupByResponse;

/** @internal `{base}/{metric}/group-by`: the group-by dimensions available (payload not shown; emulator's choice). */
export const GroupByDimensionList = listingOf(z.looseObject({ name: z.string(), description: optionalMember(z.string()) }), METRIC_LISTING_MEMBERS.groupByDimensions);
/** A {@link GroupByDimensionList} after parsing. */
export type GroupByDimensionList = records.GroupByDimensionList;

/** @internal `{base}/{metric}/group-by/dimension-tag`: the account's custom tags (payload not shown; emulator's choice). */
export const DimensionTagList = listingOf(z.looseObject({ name: z.string(), description: optionalMember(z.string()) }), METRIC_LISTING_MEMBERS.dimensionTags);
/** A {@link DimensionTagList} after parsing. */
export type DimensionTagList = records.DimensionTagList;

/** @internal `/3.0/metrics/_meta/references/dimensions`: filtering and group-by dimensions (emulator's choice). */
export const MetricDimensionReferenceList = listingOf(
  z.looseObject({ name: z.string(), filter: optionalMember(z.string()), group_by: optionalMember(z.string()), description: optionalMember(z.string()) }),
  METRIC_LISTING_MEMBERS.dimensionReferences,
);
/** A {@link MetricDimensionReferenceList} after parsing. */
export type MetricDimensionReferenceList = records.MetricDimensionReferenceList;

/** @internal `/3.0/metrics/_meta/references/filters`: basic data about saved filters (emulator's choice). */
export const FilterReferenceList = listingOf(
  z.looseObject({ id: Identifier, name: z.string(), enabled: optionalMember(z.boolean()) }),
  METRIC_LISTING_MEMBERS.filterReferences,
);
/** A {@link FilterReferenceList} after parsing. */
export type FilterReferenceList = records.FilterReferenceList;

/** @internal A KPI set (spec 2.6). */
export const Kpi = z.looseObject({ kpi_id: Identifier, kpi_name: z.string() });
/** @internal `/kpis` (spec 4.6); the wrapper member is the emulator's choice. */
export const KpiList = listingOf(Kpi, METRIC_LISTING_MEMBERS.kpis);
/** A {@link KpiList} after parsing. */
export type KpiList = records.KpiList;
