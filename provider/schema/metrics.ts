import { z } from "zod";
import type * as records from "./records";
import { groupByTotalOf, listingOf, METRIC_LISTING_MEMBERS, optionalMember } from "./assumptions";
import { Identifier, Timestamp } from "./common";

/**
 * A metric member's value object (docs/api.md 2.4, 10.4). Every field is
 * optional here because which ones appear depends on the metric; `count` is an integer on the wire.
 * A field may be `null` where its denominator is empty (no attempts, no plays): read as no value
 * (provider/schema/assumptions.ts METRIC_ANSWER_RULE).
 * @internal
 */
export const MetricValue = z
  .looseObject({
    count: optionalMember(z.number()).describe("A count: attempts, plays, failures, devices, minutes..."),
    percentage: optionalMember(z.number()).describe("A percentage, 0 to 100: of a rate's base, or complete."),
    value: optionalMember(z.number()).describe("A time, an index or an average."),
    ratio: optionalMember(z.number()).describe("A rebuffering ratio."),
    bps: optionalMember(z.number()).describe("A bitrate in bits per second."),
    fps: optionalMember(z.number()).describe("A frame rate in frames per second."),
    per_unique_device: optionalMember(z.number()).describe("The count per unique device (ended plays, minutes played)."),
    per_ended_play: optionalMember(z.number()).describe("The count per ended play (minutes played)."),
  })
  .describe(
    "A metric member's value object (docs/api.md 2.4, 10.4). Every field is optional here because which ones appear depends on the metric; `count` is an integer on the wire. A field may be `null` where its denominator is empty (no attempts, no plays): read as no value (provider/schema/assumptions.ts METRIC_ANSWER_RULE).",
  );
/** A {@link MetricValue} after parsing. */
export type MetricValue = records.MetricValue;

/** @internal Metric members keyed by member name (snake_case, spec 2.4). */
export const MetricMembers = z.record(z.string(), MetricValue).describe("Metric members keyed by member name (snake_case, spec 2.4).");
/** {@link MetricMembers} after parsing. */
export type MetricMembers = records.MetricMembers;

/** @internal One interval of a plain time series: its start and one member per requested metric (spec 2.4). */
export const TimeSeriesPoint = z
  .object({ timestamp: Timestamp.describe("The interval's start.") })
  .catchall(MetricValue)
  .describe("One interval of a plain time series: its start and one member per requested metric (spec 2.4).");
/** A {@link TimeSeriesPoint} after parsing. */
export type TimeSeriesPoint = records.TimeSeriesPoint;

/** @internal A group-by entity: the dimension value and its metrics (spec 2.4). */
export const DimensionalDatum = z
  .looseObject({
    dimension: z
      .looseObject({
        key: z.string().describe("The dimension, for example `cdn`."),
        value: z.string().describe("The entity: the dimension's value, for example `Akamai`."),
        description: optionalMember(z.string()).describe("A readable name of the entity, when the service gives one."),
      })
      .describe("The entity the metrics are of."),
    metrics: MetricMembers.describe("Its metrics, keyed by member name."),
  })
  .describe("A group-by entity: the dimension value and its metrics (spec 2.4).");
/** A {@link DimensionalDatum} after parsing. */
export type DimensionalDatum = records.DimensionalDatum;

/** @internal One interval of a group-by time series (spec 2.4). */
export const GroupByPoint = z
  .looseObject({
    timestamp: Timestamp.describe("The interval's start."),
    dimensional_data: z.array(DimensionalDatum).describe("The entities of the interval, ranked."),
  })
  .describe("One interval of a group-by time series (spec 2.4).");
/** A {@link GroupByPoint} after parsing. */
export type GroupByPoint = records.GroupByPoint;

/**
 * `_meta` of a metric response. Integrations read `group_by_dimension.description` and
 * `filter_info.id` (docs/api.md 10.4); the other members are the emulator's choice and kept leniently.
 * @internal
 */
export const MetricMeta = z
  .looseObject({
    group_by_dimension: optionalMember(
      z.looseObject({
        key: optionalMember(z.string()).describe("The dimension's name."),
        description: optionalMember(z.string()).describe("A readable name of the dimension."),
      }),
    ).describe("The dimension grouped by, in a group-by answer."),
    filter_info: optionalMember(
      z.looseObject({
        id: optionalMember(Identifier).describe("The saved filter's id (a string)."),
        name: optionalMember(z.string()).describe("The saved filter's name."),
      }),
    ).describe("The saved filter applied, when one was."),
    granularity: optionalMember(z.string()).describe("The granularity of the intervals (an ISO 8601 duration, or ALL)."),
    start_epoch_ms: optionalMember(z.number()).describe("The start of the range answered, epoch milliseconds."),
    end_epoch_ms: optionalMember(z.number()).describe("The end of the range answered, epoch milliseconds."),
    query_string: optionalMember(z.string()).describe("The query the answer is for."),
  })
  .describe(
    "`_meta` of a metric response. Integrations read `group_by_dimension.description` and `filter_info.id` (docs/api.md 10.4); the other members are the emulator's choice and kept leniently.",
  );
/** A {@link MetricMeta} after parsing. */
export type MetricMeta = records.MetricMeta;

/**
 * A time-series answer (spec 2.4): its points, its totals when it has them, and `_meta`; a plain
 * series and a group-by differ only in the points and the totals.
 */
function seriesResponse<Point extends z.ZodType, Total extends z.ZodType>(point: Point, total: Total, totalDescription: string) {
  return z.looseObject({
    time_series: z.array(point).describe("One point per interval, oldest first."),
    total: optionalMember(total).describe(totalDescription),
    _meta: optionalMember(MetricMeta).describe("What the answer is for."),
  });
}

/** @internal A metric time-series response (spec 2.4): one metric or a custom selection. */
export const MetricResponse = seriesResponse(TimeSeriesPoint, MetricMembers, "The same members over the whole range, when the answer has them.").describe(
  "A metric time-series response (spec 2.4): one metric or a custom selection.",
);
/** A {@link MetricResponse} after parsing. */
export type MetricResponse = records.MetricResponse;

/**
 * The whole-range totals of a group-by response: an object with the per-entity totals in
 * `dimensional_data`, never an array (docs/api.md 10.4). Read leniently
 * (provider/schema/assumptions.ts `groupByTotalOf`): an array of per-entity totals is taken as
 * `dimensional_data`, and an object without it holds none.
 * @internal
 */
export const GroupByTotal = groupByTotalOf(DimensionalDatum).describe(
  "The whole-range totals of a group-by response: an object with the per-entity totals in `dimensional_data`, never an array (docs/api.md 10.4).",
);
/** A {@link GroupByTotal} after parsing. */
export type GroupByTotal = records.GroupByTotal;

/** @internal A group-by response (docs/api.md 2.4): `dimensional_data` per interval, totals per entity. */
export const GroupByResponse = seriesResponse(GroupByPoint, GroupByTotal, "The totals of each entity over the whole range, when the answer has them.").describe(
  "A group-by response (spec 2.4): `dimensional_data` per interval, totals per entity.",
);
/** A {@link GroupByResponse} after parsing. */
export type GroupByResponse = records.GroupByResponse;

/** A dimension or tag of a listing, with its description. */
const NamedDimension = z.looseObject({
  name: z.string().describe("Its name."),
  description: optionalMember(z.string()).describe("What it is, when the service says."),
});

/** @internal `{base}/{metric}/group-by`: the group-by dimensions available (payload not shown; emulator's choice). */
export const GroupByDimensionList = listingOf(NamedDimension, METRIC_LISTING_MEMBERS.groupByDimensions, "The dimensions the metric can be grouped by.").describe(
  "`{base}/{metric}/group-by`: the group-by dimensions available (payload not shown; emulator's choice).",
);
/** A {@link GroupByDimensionList} after parsing. */
export type GroupByDimensionList = records.GroupByDimensionList;

/** @internal `{base}/{metric}/group-by/dimension-tag`: the account's custom tags (payload not shown; emulator's choice). */
export const DimensionTagList = listingOf(NamedDimension, METRIC_LISTING_MEMBERS.dimensionTags, "The account's custom tags the metric can be grouped by.").describe(
  "`{base}/{metric}/group-by/dimension-tag`: the account's custom tags (payload not shown; emulator's choice).",
);
/** A {@link DimensionTagList} after parsing. */
export type DimensionTagList = records.DimensionTagList;

/** @internal `/3.0/metrics/_meta/references/dimensions`: filtering and group-by dimensions (emulator's choice). */
export const MetricDimensionReferenceList = listingOf(
  z.looseObject({
    name: z.string().describe("The dimension's name."),
    filter: optionalMember(z.string()).describe("Its name as a metric filter (snake_case)."),
    group_by: optionalMember(z.string()).describe("Its name as a group-by dimension (kebab-case)."),
    description: optionalMember(z.string()).describe("What it is."),
  }),
  METRIC_LISTING_MEMBERS.dimensionReferences,
  "The dimensions that metrics can be filtered and grouped by.",
).describe("`/3.0/metrics/_meta/references/dimensions`: filtering and group-by dimensions (emulator's choice).");
/** A {@link MetricDimensionReferenceList} after parsing. */
export type MetricDimensionReferenceList = records.MetricDimensionReferenceList;

/** @internal `/3.0/metrics/_meta/references/filters`: basic data about saved filters (emulator's choice). */
export const FilterReferenceList = listingOf(
  z.looseObject({
    id: Identifier.describe("The saved filter's id."),
    name: z.string().describe("Its name."),
    enabled: optionalMember(z.boolean()).describe("Whether it is enabled."),
  }),
  METRIC_LISTING_MEMBERS.filterReferences,
  "The account's saved filters.",
).describe("`/3.0/metrics/_meta/references/filters`: basic data about saved filters (emulator's choice).");
/** A {@link FilterReferenceList} after parsing. */
export type FilterReferenceList = records.FilterReferenceList;

/** @internal A KPI set (spec 2.6). */
export const Kpi = z.looseObject({
  kpi_id: Identifier.describe("The KPI set's id (1 is the default set)."),
  kpi_name: z.string().describe("Its name."),
});
/** @internal `/kpis` (spec 4.6); the wrapper member is the emulator's choice. */
export const KpiList = listingOf(Kpi, METRIC_LISTING_MEMBERS.kpis, "The KPI sets of the account.").describe("`/kpis` (spec 4.6); the wrapper member is the emulator's choice.");
/** A {@link KpiList} after parsing. */
export type KpiList = records.KpiList;
