import type { SessionKind, SessionRecord } from "../world/types";
import type { MetricContext } from "./classify";
import type { MetricDefinition } from "./definitions";
import { intervalIndex, type IntervalLayout } from "./intervals";
import type { CellValues, DistinctTerm, OverlapTerm, PeakTerm, SumTerm, Term } from "./terms";

/** A group value of the group-by dimension (the whole traffic is one group without group-by). */
export interface GroupValue {
  value: string;
  description?: string;
}

/**
 * The sessions of one kind: a list (sorted here if it is not in start order), or a function that
 * hands them one by one in start order (world/types.ts `visitSessionsStartedBetween`), possibly
 * reusing one record for the next session.
 */
export type SessionSource = readonly SessionRecord[] | ((visit: (session: SessionRecord) => void) => void);

/** What to aggregate. */
export interface AggregationInput {
  /** Sessions per kind; sessions started before the range count only in overlap and peak terms. */
  sessions: Readonly<Record<SessionKind, SessionSource>>;
  /** The request's filters (spec 4.6): sessions that fail it are skipped. */
  include?: (session: SessionRecord) => boolean;
  layout: IntervalLayout;
  definitions: readonly MetricDefinition[];
  context: MetricContext;
  /** The group of a session; undefined leaves it out of every group. Absent: one group of everything. */
  groupOf?: (session: SessionRecord) => GroupValue | undefined;
  /** Also accumulate all traffic per interval regardless of group (error-code groups, see MetricDefinition). */
  keepBase?: boolean;
}

/** One group's accumulators. */
export interface GroupAggregate extends GroupValue {
  /** Cells of the intervals the group has data in, by interval index. */
  cells: Map<number, Cell>;
  /** The whole range. */
  total: Cell;
  /** Per distinct term: each key and the index of the last interval it was counted in. */
  lastSeen: Array<Map<string, number>>;
}

/** The aggregation's result. */
export interface Aggregation {
  groups: GroupAggregate[];
  /** All traffic per interval and over the range, when `keepBase` was asked. */
  base?: GroupAggregate;
  /** A cell with nothing in it: the neutral values of an interval without data. */
  empty: Cell;
}

/** Where each term's value lives in a cell. */
class Slots {
  readonly sumIndex = new Map<SumTerm | OverlapTerm, number>();
  readonly distinctIndex = new Map<DistinctTerm, number>();
  readonly peakIndex = new Map<PeakTerm, number>();

  constructor(terms: readonly Term[]) {
    for (const term of terms) {
      if (term.type === "sum" || term.type === "overlap") add(this.sumIndex, term);
      else if (term.type === "distinct") add(this.distinctIndex, term);
      else add(this.peakIndex, term);
    }
  }
}

function add<K>(map: Map<K, number>, key: K): void {
  if (!map.has(key)) map.set(key, map.size);
}

/** The accumulators of one (interval or range, group). */
export class Cell implements CellValues {
  readonly sums: Float64Array;
  readonly distincts: Float64Array;
  readonly peaks: Float64Array;

  constructor(private readonly slots: Slots) {
    this.sums = new Float64Array(slots.sumIndex.size);
    this.distincts = new Float64Array(slots.distinctIndex.size);
    this.peaks = new Float64Array(slots.peakIndex.size);
  }

  sum(term: SumTerm | OverlapTerm): number {
    return this.sums[this.slots.sumIndex.get(term)!]!;
  }

  distinct(term: DistinctTerm): number {
    return this.distincts[this.slots.distinctIndex.get(term)!]!;
  }

  peak(term: PeakTerm): number {
    return this.peaks[this.slots.peakIndex.get(term)!]!;
  }
}

/** A cell with nothing in it for these definitions: the neutral values of an interval without data. */
export function emptyCell(definitions: readonly MetricDefinition[]): Cell {
  return new Cell(new Slots(termsOf(definitions)));
}

function termsOf(definitions: readonly MetricDefinition[]): Term[] {
  return [...new Set(definitions.flatMap((definition) => definition.terms))];
}

/**
 * The one pass over sessions behind every metric response (spec 4.6): each session is put in its
 * group and interval (bucket index arithmetic, no search) and adds to the accumulators of the
 * requested metrics there. Sessions come sorted by start (world/types.ts), so intervals are visited
 * in order and a distinct key is new to an interval exactly when it was last seen in an earlier one:
 * one map per group and term counts distinct devices per interval and over the range. Whole-range
 * totals are added up from the intervals at the end; concurrent plays are a sweep over start/end
 * events per group.
 */
export function aggregate(input: AggregationInput): Aggregation {
  const { layout, context } = input;
  const terms = termsOf(input.definitions);
  const slots = new Slots(terms);
  const groups = new Map<string, GroupAggregate>();
  const newGroup = (value: GroupValue): GroupAggregate => ({
    ...value,
    cells: new Map(),
    total: new Cell(slots),
    lastSeen: Array.from({ length: slots.distinctIndex.size }, () => new Map<string, number>()),
  });
  const single = input.groupOf ? undefined : newGroup({ value: "" });
  const base = input.keepBase ? newGroup({ value: "" }) : undefined;
  const groupOf = (session: SessionRecord): GroupAggregate | undefined => {
    if (single) return single;
    const value = input.groupOf!(session);
    if (!value) return undefined;
    let group = groups.get(value.value);
    if (!group) groups.set(value.value, (group = newGroup(value)));
    return group;
  };
  const peakEvents = new Map<GroupAggregate, Map<PeakTerm, { starts: number[]; ends: number[] }>>();
  const targets: GroupAggregate[] = [];

  for (const source of ["content", "ad"] as const) {
    const ofSource = terms.filter((term) => term.source === source);
    if (ofSource.length === 0) continue;
    const sums = ofSource.filter((term): term is SumTerm => term.type === "sum");
    const distincts = ofSource.filter((term): term is DistinctTerm => term.type === "distinct");
    const overlaps = ofSource.filter((term): term is OverlapTerm => term.type === "overlap");
    const peaks = ofSource.filter((term): term is PeakTerm => term.type === "peak");
    // Each test is asked once per session, however many terms share it (isPlay is behind most).
    const tests = [...new Set([...sums, ...distincts].map((term) => term.test))];
    const passed = new Uint8Array(tests.length);
    const sumTests = sums.map((term) => tests.indexOf(term.test));
    const sumSlots = sums.map((term) => slots.sumIndex.get(term)!);
    const distinctTests = distincts.map((term) => tests.indexOf(term.test));
    const distinctSlots = distincts.map((term) => slots.distinctIndex.get(term)!);

    let previousStartMs = -Infinity;
    eachByStart(input.sessions[source], (session) => {
      if (session.startMs < previousStartMs) {
        // A programming error: intervals and distinct counts need sessions in start order.
        throw new Error(`aggregate: ${source} sessions out of start order (${session.startMs} after ${previousStartMs})`);
      }
      previousStartMs = session.startMs;
      const lifeEnd = Math.min(session.endMs, context.nowMs, layout.toMs);
      const started = session.startMs >= layout.fromMs && session.startMs < layout.toMs;
      if ((!started && lifeEnd <= layout.fromMs) || (input.include && !input.include(session))) return;
      const group = groupOf(session);
      targets.length = 0;
      if (group) targets.push(group);
      if (base) targets.push(base);
      if (targets.length === 0) return;

      if (started) {
        for (let test = 0; test < tests.length; test++) passed[test] = tests[test]!(session, context) ? 1 : 0;
        const index = intervalIndex(layout, session.startMs);
        for (const target of targets) {
          const cell = cellOf(target, index, slots);
          for (let term = 0; term < sums.length; term++) {
            if (passed[sumTests[term]!]) cell.sums[sumSlots[term]!]! += sums[term]!.quantity?.(session, context) ?? 1;
          }
          for (let term = 0; term < distincts.length; term++) {
            if (!passed[distinctTests[term]!]) continue;
            const slot = distinctSlots[term]!;
            const key = session[distincts[term]!.key];
            if (target.lastSeen[slot]!.get(key) === index) continue;
            target.lastSeen[slot]!.set(key, index);
            cell.distincts[slot]!++;
          }
        }
      }

      const lifeStart = Math.max(session.startMs, layout.fromMs);
      if (lifeEnd <= lifeStart) return;
      for (const term of overlaps) {
        if (!term.test(session, context)) continue;
        const weight = term.weight(session, context);
        const slot = slots.sumIndex.get(term)!;
        const last = intervalIndex(layout, lifeEnd - 1);
        for (let index = intervalIndex(layout, lifeStart); index <= last; index++) {
          const from = Math.max(lifeStart, layout.startMs + index * layout.stepMs);
          const to = Math.min(lifeEnd, layout.startMs + (index + 1) * layout.stepMs);
          for (const target of targets) cellOf(target, index, slots).sums[slot]! += (to - from) * weight;
        }
      }
      for (const term of peaks) {
        if (!term.test(session, context)) continue;
        for (const target of targets) {
          let byTerm = peakEvents.get(target);
          if (!byTerm) peakEvents.set(target, (byTerm = new Map()));
          let events = byTerm.get(term);
          if (!events) byTerm.set(term, (events = { starts: [], ends: [] }));
          events.starts.push(lifeStart);
          events.ends.push(lifeEnd);
        }
      }
    });
  }

  for (const [group, byTerm] of peakEvents) {
    for (const [term, events] of byTerm) {
      const slot = slots.peakIndex.get(term)!;
      sweepPeaks(Float64Array.from(events.starts), Float64Array.from(events.ends), layout, (index, count) => {
        const cell = cellOf(group, index, slots);
        cell.peaks[slot] = Math.max(cell.peaks[slot]!, count);
      });
    }
  }
  const all = single ? [single] : [...groups.values()];
  for (const group of base ? [...all, base] : all) completeTotal(group);
  return { groups: all, ...(base ? { base } : {}), empty: new Cell(slots) };
}

/** Hands each session of `source` to `visit`, in start order. */
function eachByStart(source: SessionSource, visit: (session: SessionRecord) => void): void {
  if (typeof source === "function") return source(visit);
  for (const session of byStart(source)) visit(session);
}

/** The sessions in start order: as given, or sorted if they are not. */
function byStart(sessions: readonly SessionRecord[]): readonly SessionRecord[] {
  for (let index = 1; index < sessions.length; index++) {
    if (sessions[index]!.startMs < sessions[index - 1]!.startMs) return [...sessions].sort((left, right) => left.startMs - right.startMs);
  }
  return sessions;
}

function cellOf(group: GroupAggregate, index: number, slots: Slots): Cell {
  let cell = group.cells.get(index);
  if (!cell) group.cells.set(index, (cell = new Cell(slots)));
  return cell;
}

/** A group's whole-range values: sums added up, the highest peak, every distinct key once. */
function completeTotal(group: GroupAggregate): void {
  const { sums, peaks, distincts } = group.total;
  for (const cell of group.cells.values()) {
    for (let slot = 0; slot < sums.length; slot++) sums[slot]! += cell.sums[slot]!;
    for (let slot = 0; slot < peaks.length; slot++) peaks[slot] = Math.max(peaks[slot]!, cell.peaks[slot]!);
  }
  for (let slot = 0; slot < distincts.length; slot++) distincts[slot] = group.lastSeen[slot]!.size;
}

/**
 * The largest number of overlapping [start, end) lives in each interval: a merge of the sorted
 * starts and ends (an end at the same moment as a start comes first: ends are exclusive), reporting
 * each interval the lives touch once, in order, with its peak.
 */
export function sweepPeaks(
  starts: Float64Array,
  ends: Float64Array,
  layout: IntervalLayout,
  report: (intervalIndex: number, peak: number) => void,
): void {
  // Typed arrays sort numerically, and much faster than an array with a comparator.
  starts.sort();
  ends.sort();
  let current = 0;
  let previous = layout.fromMs;
  let interval = -1;
  let peak = 0;
  let startAt = 0;
  let endAt = 0;
  while (startAt < starts.length || endAt < ends.length) {
    const isEnd = endAt < ends.length && (startAt >= starts.length || ends[endAt]! <= starts[startAt]!);
    const time = isEnd ? ends[endAt]! : starts[startAt]!;
    if (current > 0 && time > previous) {
      // The count held from `previous` until `time`, in every interval in between.
      for (let index = intervalIndex(layout, previous); index <= intervalIndex(layout, time - 1); index++) {
        if (index !== interval) {
          if (peak > 0) report(interval, peak);
          interval = index;
          peak = 0;
        }
        peak = Math.max(peak, current);
      }
    }
    previous = time;
    if (isEnd) {
      current--;
      endAt++;
    } else {
      current++;
      startAt++;
    }
  }
  if (peak > 0) report(interval, peak);
}
