import {
  answeredMetrics,
  type DimensionalDatum,
  type GroupByResponse,
  type GroupByTotal,
  isoDate,
  METRIC_VALUE_FIELDS,
  metricMemberName,
  type MetricMembers,
  type MetricResponse,
  MetricValue,
  type MetricValueFields,
  type QUALITY_SUMMARY_MEMBERS,
  type ValueField,
} from "../schema";
import type { GroupByMerged, PlainMerged, WindowTotal } from "./metric-merge";

/**
 * The one layout of a metric answer (docs/api.md 2.4): plain data, the same for the client and the
 * data sources, built in one pass over the merged wire answer. Per answered metric and value field,
 * a series of `{time, epochMs, value}` and a total; a group-by answer has the same per entity, each
 * entity found by its dimension value in a map while the answer is read (never by a scan). Plain so
 * that Pulumi can carry it in an Output, which copies values property by property (methods and
 * `Date`s would be lost). The merged wire answer stays available as `response`.
 */

/** One interval of a series: its start (ISO 8601 UTC and epoch milliseconds) and the value. */
export interface MetricPoint {
  /** The start of the interval, ISO 8601 UTC. */
  time: string;
  /** The start of the interval, epoch milliseconds. */
  epochMs: number;
  /** The value over the interval. */
  value: number;
}

/** The former name of {@link MetricPoint}. */
export type SeriesPoint = MetricPoint;

/** The metrics a result answers for: `quality-summary` answers for its members (docs/api.md 10.4). */
export type AnsweredMetric<Requested extends string> = Requested extends "quality-summary"
  ? (typeof QUALITY_SUMMARY_MEMBERS)[number]
  : Requested;

/** The value fields of a metric: those of docs/api.md 10.4 for the contract's names, any for an alias. */
export type FieldsOf<Metric extends string> = Metric extends keyof MetricValueFields ? MetricValueFields[Metric][number] : ValueField;

/** Per answered metric (path name, as requested), per value field, a `Value`. */
export type PerMetric<Metric extends string, Value> = {
  [Answered in AnsweredMetric<Metric>]: { [Field in FieldsOf<Answered>]: Value };
};

/** A metric time series: one metric or a custom selection (docs/api.md 2.4). */
export interface MetricResult<Metric extends string = string> {
  /** `series[metric][field]`: the values per interval, in time order (intervals without one left out). */
  series: PerMetric<Metric, MetricPoint[]>;
  /**
   * `total[metric][field]` over the whole range; undefined when the client had to split the range
   * (over 90 days, or after a 413): totals do not add up across windows, see `windows`.
   */
  total: PerMetric<Metric, number | undefined> | undefined;
  /**
   * The windows the range was fetched in, each with its own exact total (members keyed as on the
   * wire). More than one when the client split the range (over 90 days, or after a 413).
   */
  windows: Array<WindowTotal<MetricMembers>>;
  /** The merged answer as on the wire (one or several requests). */
  response: MetricResponse;
}

/** One entity of a group-by answer: a value of the dimension (a country code, an ISP, a show). */
export interface GroupByEntity<Metric extends string = string> {
  /** The dimension value, as a filter would take it. */
  value: string;
  /** The value's description, when the answer gives one (a country's name for its code). */
  description?: string;
  /** `series[metric][field]` of this entity. */
  series: PerMetric<Metric, MetricPoint[]>;
  /** `total[metric][field]` of this entity; undefined when the range was split. */
  total: PerMetric<Metric, number | undefined> | undefined;
}

/** A group-by time series (docs/api.md 2.4): per interval, the top entities of the dimension. */
export interface GroupByResult<Metric extends string = string> {
  /** The entities answered: ordered as the total ranks them (the top ones, sorted as asked), then by first appearance. */
  entities: Array<GroupByEntity<Metric>>;
  /** The windows the range was fetched in, each with its entities' totals (`total.dimensional_data`). */
  windows: Array<WindowTotal<GroupByTotal>>;
  /** The merged answer as on the wire. */
  response: GroupByResponse;
}

/** An answered metric: its name as requested, its wire member, and its value fields when the contract's list knows them. */
interface Answered {
  metric: string;
  member: string;
  fields: readonly ValueField[] | undefined;
}

/** Field arrays or values of one answered metric, by value field. */
type Fields<Value> = Partial<Record<ValueField, Value>>;

/** Every value field the client knows (docs/api.md 10.4): an alias's fields are taken from these. */
const VALUE_FIELDS: ReadonlySet<string> = new Set(Object.keys(MetricValue.shape));

/** The value fields `values` carries, for an alias whose fields the contract's list does not give. */
function carriedFields(values: object | undefined): ValueField[] {
  return Object.keys(values ?? {}).filter((field) => VALUE_FIELDS.has(field)) as ValueField[];
}

function answeredOf(requested: readonly string[]): Answered[] {
  return requested.flatMap((metric) => answeredMetrics(metric)).map((metric) => ({
    metric,
    member: metricMemberName(metric),
    fields: (METRIC_VALUE_FIELDS as Record<string, readonly ValueField[] | undefined>)[metric],
  }));
}

/** Empty series: the known fields of each metric present (empty), an alias's fields added as met. */
function emptySeries(answered: readonly Answered[]): Record<string, Fields<MetricPoint[]>> {
  const series: Record<string, Fields<MetricPoint[]>> = {};
  for (const { metric, fields } of answered) series[metric] = Object.fromEntries((fields ?? []).map((field) => [field, []]));
  return series;
}

/** Appends the values of one interval's members to `series`. */
function addPoint(series: Record<string, Fields<MetricPoint[]>>, answered: readonly Answered[], members: Readonly<Record<string, unknown>>, time: string, epochMs: number): void {
  for (const { metric, member, fields } of answered) {
    const values = members[member] as MetricValue | undefined;
    if (values === undefined || values === null) continue;
    const byField = series[metric]!;
    for (const field of fields ?? carriedFields(values)) {
      const value = values[field];
      if (typeof value !== "number") continue;
      (byField[field] ??= []).push({ time, epochMs, value });
    }
  }
}

/** The totals of one set of members, every known field present (undefined when missing). */
function totalsOf(answered: readonly Answered[], members: Readonly<Record<string, unknown>> | undefined): Record<string, Fields<number | undefined>> {
  const totals: Record<string, Fields<number | undefined>> = {};
  for (const { metric, member, fields } of answered) {
    const values = members?.[member] as MetricValue | undefined;
    const byField: Fields<number | undefined> = {};
    for (const field of fields ?? carriedFields(values)) {
      const value = values?.[field];
      byField[field] = typeof value === "number" ? value : undefined;
    }
    totals[metric] = byField;
  }
  return totals;
}

/**
 * An alias (a name the contract's list does not have) gets the fields any of its answers carry; the
 * same fields in every layout of one result, empty or undefined where missing.
 */
function alignAliasFields(answered: readonly Answered[], layouts: ReadonlyArray<{ series: Record<string, Fields<MetricPoint[]>>; total: Record<string, Fields<number | undefined>> | undefined }>): void {
  for (const { metric, fields } of answered) {
    if (fields !== undefined) continue;
    const found = new Set<ValueField>();
    for (const layout of layouts) {
      for (const field of Object.keys(layout.series[metric] ?? {})) found.add(field as ValueField);
      for (const field of Object.keys(layout.total?.[metric] ?? {})) found.add(field as ValueField);
    }
    for (const layout of layouts) {
      for (const field of found) {
        layout.series[metric]![field] ??= [];
        if (layout.total) layout.total[metric]![field] ??= undefined;
      }
    }
  }
}

/**
 * Lays out a merged plain answer (one metric or a custom selection) for the `requested` metrics.
 *
 * @param requested - The metrics the call asked for, each a key of `series` and `total` as spelt in the call.
 */
export function metricResult<Metric extends string>(merged: PlainMerged, requested: readonly Metric[]): MetricResult<Metric> {
  const answered = answeredOf(requested);
  const series = emptySeries(answered);
  for (const point of merged.response.time_series) {
    addPoint(series, answered, point, isoDate(point.timestamp.epoch_ms), point.timestamp.epoch_ms);
  }
  const total = merged.response.total && totalsOf(answered, merged.response.total);
  alignAliasFields(answered, [{ series, total }]);
  return {
    series: series as PerMetric<Metric, MetricPoint[]>,
    total: total as PerMetric<Metric, number | undefined> | undefined,
    windows: merged.windows,
    response: merged.response,
  };
}

/** An entity while the answer is read. */
interface EntityLayout {
  value: string;
  description: string | undefined;
  series: Record<string, Fields<MetricPoint[]>>;
  totalMembers: MetricMembers | undefined;
  total: Record<string, Fields<number | undefined>> | undefined;
}

/**
 * Lays out a merged group-by answer for the `requested` metrics in one pass: each entity is found
 * by its dimension value in a map, so the cost is one step per value on the wire.
 *
 * @param requested - The metrics the call asked for, each a key of an entity's `series` and `total` as spelt in the call.
 */
export function groupByResult<Metric extends string>(merged: GroupByMerged, requested: readonly Metric[]): GroupByResult<Metric> {
  const answered = answeredOf(requested);
  const entities = new Map<string, EntityLayout>();
  const entityOf = (datum: DimensionalDatum): EntityLayout => {
    let entity = entities.get(datum.dimension.value);
    if (entity === undefined) {
      entity = { value: datum.dimension.value, description: undefined, series: emptySeries(answered), totalMembers: undefined, total: undefined };
      entities.set(datum.dimension.value, entity);
    }
    entity.description ??= datum.dimension.description;
    return entity;
  };
  // The total first: its order is the ranking asked for.
  for (const datum of merged.response.total?.dimensional_data ?? []) entityOf(datum).totalMembers = datum.metrics;
  for (const point of merged.response.time_series) {
    const time = isoDate(point.timestamp.epoch_ms);
    for (const datum of point.dimensional_data) addPoint(entityOf(datum).series, answered, datum.metrics, time, point.timestamp.epoch_ms);
  }
  const hasTotal = merged.response.total !== undefined;
  const laidOut = [...entities.values()];
  for (const entity of laidOut) entity.total = hasTotal ? totalsOf(answered, entity.totalMembers) : undefined;
  alignAliasFields(answered, laidOut);
  return {
    entities: laidOut.map((entity) => ({
      value: entity.value,
      ...(entity.description === undefined ? {} : { description: entity.description }),
      series: entity.series as PerMetric<Metric, MetricPoint[]>,
      total: entity.total as PerMetric<Metric, number | undefined> | undefined,
    })),
    windows: merged.windows,
    response: merged.response,
  };
}
