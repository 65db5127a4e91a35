import { wireTimestamp as timestampOf, type WireTimestamp as Timestamp } from "../text/wire";
import type { Aggregation, Cell, GroupAggregate } from "./aggregate";
import type { RequestedMetric, ResolvedDimension } from "./catalog";
import type { MemberValue } from "./definitions";
import type { IntervalLayout } from "./intervals";
import { emptyRatio, listsIntervalsWithoutData, type Dialect } from "../dialect";
import { EXTRA_CHARACTERS_PER_FIELD, jsonBytes, type SizeBounds } from "./size";

/**
 * Metric response bodies (docs/api.md 2.4, 10.4) from an aggregation: every interval of the layout
 * appears, an interval without data with neutral values (zeros), or, in the alternate dialect, only
 * the intervals with data; group-by bodies list, per interval, the top entities that have data in
 * it, in ranking order. A value whose denominator is empty is 0, or `null` in the alternate dialect
 * (emulator/README.md "Dialects").
 */

/** An entity of a group-by answer (docs/api.md 2.4): its dimension value and its members. */
export interface DimensionalDatum {
  dimension: { key: string; value: string; description?: string };
  metrics: Members;
}

/** The members of a plain interval: one per requested metric. */
export type Members = Record<string, MemberValue>;

/** A plain response without `_meta`. */
export interface PlainBody {
  /** `timestamp` plus one member per metric. */
  time_series: Array<Record<string, Timestamp | MemberValue>>;
  total: Members;
}

/**
 * A group-by response without `_meta`. `total` is an object holding the per-entity totals in
 * `dimensional_data`, never an array (docs/api.md 10.4).
 */
export interface GroupByBody {
  time_series: Array<{ timestamp: Timestamp; dimensional_data: DimensionalDatum[] }>;
  total: { dimensional_data: DimensionalDatum[] };
}

/** How the entities of a group-by are chosen (spec 4.6: the top `limit` by `sort_by` in `order`). */
export interface Ranking {
  sortBy: RequestedMetric;
  order: "asc" | "desc";
  limit: number;
}

/** The members of one cell, a value whose denominator is empty written as `empty`. */
function members(metrics: readonly RequestedMetric[], cell: Cell, base: Cell, empty: 0 | null): Members {
  const result: Members = {};
  for (const metric of metrics) {
    const value = metric.definition.finalize(cell, base);
    if (empty === 0) for (const field of Object.keys(value) as Array<keyof MemberValue>) value[field] ??= 0;
    result[metric.member] = value;
  }
  return result;
}

function intervalStart(layout: IntervalLayout, index: number): number {
  return layout.startMs + index * layout.stepMs;
}

function fieldCount(metrics: readonly RequestedMetric[]): number {
  return metrics.reduce((sum, metric) => sum + metric.fields.length, 0);
}

/**
 * Byte bounds of a plain body, known before aggregating: one point per interval, or none at the
 * least where intervals without data are left out. Zeros are the shortest values ("null" is within
 * the characters a field may add).
 */
export function plainBounds(metrics: readonly RequestedMetric[], layout: IntervalLayout, empty: Cell, dialect: Dialect): SizeBounds {
  const neutral = members(metrics, empty, empty, 0);
  const point = jsonBytes({ timestamp: timestampOf(layout.startMs), ...neutral });
  const total = jsonBytes({ total: neutral });
  const upper = layout.count * point + total + (layout.count + 1) * fieldCount(metrics) * EXTRA_CHARACTERS_PER_FIELD;
  return { lower: listsIntervalsWithoutData(dialect) ? layout.count * point + total : total, upper };
}

/** The plain body: every interval (with data, in the alternate dialect) with its members, and the whole-range total. */
export function renderPlain(aggregation: Aggregation, metrics: readonly RequestedMetric[], layout: IntervalLayout, dialect: Dialect): PlainBody {
  const group = aggregation.groups[0]!;
  const empty = emptyRatio(dialect);
  const listsEmpty = listsIntervalsWithoutData(dialect);
  const time_series: PlainBody["time_series"] = [];
  for (let index = 0; index < layout.count; index++) {
    const cell = group.cells.get(index);
    if (cell === undefined && !listsEmpty) continue;
    time_series.push({ timestamp: timestampOf(intervalStart(layout, index)), ...members(metrics, cell ?? aggregation.empty, cell ?? aggregation.empty, empty) });
  }
  return { time_series, total: members(metrics, group.total, group.total, empty) };
}

/**
 * The top entities over the whole range: sorted by the first value field of `sortBy` (its count
 * where it has one) in `order`, ties broken by dimension value in ascending code-point order so the
 * result is deterministic, then cut to `limit`. With `interval`, the top of that interval alone,
 * among the entities with data in it, ranked on their values there: how the alternate dialect lists
 * each interval (emulator/README.md "Dialects").
 */
export function rankGroups(aggregation: Aggregation, ranking: Ranking, interval?: number): GroupAggregate[] {
  const field = ranking.sortBy.fields[0]!;
  const base = aggregation.base && (interval === undefined ? aggregation.base.total : (aggregation.base.cells.get(interval) ?? aggregation.empty));
  const keyed = aggregation.groups.flatMap((group) => {
    const cell = interval === undefined ? group.total : group.cells.get(interval);
    return cell === undefined ? [] : [{ group, key: ranking.sortBy.definition.finalize(cell, base ?? cell)[field] ?? 0 }];
  });
  const direction = ranking.order === "desc" ? -1 : 1;
  keyed.sort((left, right) =>
    left.key !== right.key
      ? (left.key - right.key) * direction
      : left.group.value < right.group.value ? -1 : left.group.value > right.group.value ? 1 : 0);
  return keyed.slice(0, ranking.limit).map((entry) => entry.group);
}

/**
 * Byte bounds of a group-by body before aggregating: the intervals alone, without entities (none at
 * the least where intervals without data are left out).
 */
export function emptyGroupByBounds(layout: IntervalLayout, dialect: Dialect): SizeBounds {
  const intervals = layout.count * jsonBytes({ timestamp: timestampOf(layout.startMs), dimensional_data: [] });
  const total = jsonBytes({ total: { dimensional_data: [] } });
  return { lower: listsIntervalsWithoutData(dialect) ? intervals + total : total, upper: intervals + total };
}

/**
 * Byte bounds of a group-by body whose intervals are ranked each on its own (the alternate dialect):
 * any entity may appear in an interval, so the upper bound counts every entity in every interval it
 * has data in, and the lower one the intervals alone.
 */
export function groupByBoundsRankedPerInterval(
  aggregation: Aggregation,
  metrics: readonly RequestedMetric[],
  layout: IntervalLayout,
  dimension: ResolvedDimension,
  dialect: Dialect,
): SizeBounds {
  return { lower: emptyGroupByBounds(layout, dialect).lower, upper: groupByBounds(aggregation.groups, metrics, layout, dimension, aggregation.empty, "standard").upper };
}

/** Byte bounds of a group-by body of the chosen entities. */
export function groupByBounds(
  top: readonly GroupAggregate[],
  metrics: readonly RequestedMetric[],
  layout: IntervalLayout,
  dimension: ResolvedDimension,
  empty: Cell,
  dialect: Dialect,
): SizeBounds {
  const neutral = members(metrics, empty, empty, 0);
  const intervals = emptyGroupByBounds(layout, dialect);
  let lower = intervals.lower;
  let upper = intervals.upper;
  for (const group of top) {
    const entries = group.cells.size + 1;
    const bytes = jsonBytes(datum(dimension, group, neutral));
    lower += entries * bytes;
    upper += entries * (bytes + fieldCount(metrics) * EXTRA_CHARACTERS_PER_FIELD);
  }
  return { lower, upper };
}

function datum(dimension: ResolvedDimension, group: GroupAggregate, metrics: Members): DimensionalDatum {
  return {
    dimension: {
      key: dimension.key,
      value: group.value,
      ...(group.description === undefined ? {} : { description: group.description }),
    },
    metrics,
  };
}

/**
 * The group-by body of the chosen entities: `top` in every interval they have data in, or, with
 * `rankedPerInterval` (the alternate dialect), each interval's own top; `total` lists `top`. The
 * alternate dialect leaves out an interval that lists no entity.
 */
export function renderGroupBy(
  aggregation: Aggregation,
  top: readonly GroupAggregate[],
  metrics: readonly RequestedMetric[],
  layout: IntervalLayout,
  dimension: ResolvedDimension,
  dialect: Dialect,
  rankedPerInterval?: Ranking,
): GroupByBody {
  const empty = emptyRatio(dialect);
  const listsEmpty = listsIntervalsWithoutData(dialect);
  const time_series: GroupByBody["time_series"] = [];
  for (let index = 0; index < layout.count; index++) {
    const base = aggregation.base?.cells.get(index) ?? aggregation.empty;
    const dimensional_data: DimensionalDatum[] = [];
    for (const group of rankedPerInterval ? rankGroups(aggregation, rankedPerInterval, index) : top) {
      const cell = group.cells.get(index);
      if (cell) dimensional_data.push(datum(dimension, group, members(metrics, cell, aggregation.base ? base : cell, empty)));
    }
    if (dimensional_data.length === 0 && !listsEmpty) continue;
    time_series.push({ timestamp: timestampOf(intervalStart(layout, index)), dimensional_data });
  }
  const baseTotal = aggregation.base?.total;
  const totals = top.map((group) => datum(dimension, group, members(metrics, group.total, baseTotal ?? group.total, empty)));
  return { time_series, total: { dimensional_data: totals } };
}
