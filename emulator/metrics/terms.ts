import type { SessionKind, SessionRecord } from "../world/types";
import type { MetricContext, SessionTest } from "./classify";

/**
 * The accumulators a metric is computed from. A metric definition names its terms; the aggregator
 * gives every distinct term of a request one slot per (interval, group) and fills all of them in one
 * pass over the sessions, so metrics that share a term (attempts is the denominator of many rates)
 * share the work. Terms are interned: asking twice for the same term gives the same object.
 */

/**
 * A per-session quantity summed over the sessions passing `test` that started in an interval; without
 * a quantity, the sessions are counted.
 */
export interface SumTerm {
  type: "sum";
  source: SessionKind;
  test: SessionTest;
  quantity?: SessionQuantity;
}

/** Distinct devices (client ids) or viewers of the sessions passing `test` that started in an interval. */
export interface DistinctTerm {
  type: "distinct";
  source: SessionKind;
  test: SessionTest;
  key: "clientId" | "viewerId";
}

/**
 * Milliseconds of a session's wall-clock life inside each interval (up to now), times a per-session
 * weight: what happened in the interval, whenever the session started.
 */
export interface OverlapTerm {
  type: "overlap";
  source: SessionKind;
  test: SessionTest;
  weight(session: SessionRecord, context: MetricContext): number;
}

/** The largest number of sessions passing `test` that were in progress at one moment of the interval. */
export interface PeakTerm {
  type: "peak";
  source: SessionKind;
  test: SessionTest;
}

/** Any accumulator. */
export type Term = SumTerm | DistinctTerm | OverlapTerm | PeakTerm;

/** The accumulated values of one (interval, group) cell, read by a metric's finalisation. */
export interface CellValues {
  /** A sum or overlap term's total. */
  sum(term: SumTerm | OverlapTerm): number;
  /** How many distinct keys a distinct term saw. */
  distinct(term: DistinctTerm): number;
  /** A peak term's peak. */
  peak(term: PeakTerm): number;
}

/** A per-session quantity (milliseconds, percent, ...). */
export type SessionQuantity = (session: SessionRecord, context: MetricContext) => number;

/** Which sessions of `source` pass `test`, counted. */
export function countOf(source: SessionKind, test: SessionTest): SumTerm {
  return intern(["count", source, test], () => ({ type: "sum", source, test }));
}

/** `quantity` summed over the sessions of `source` that pass `test`. */
export function sumOf(source: SessionKind, test: SessionTest, quantity: SessionQuantity): SumTerm {
  return intern(["sum", source, test, quantity], () => ({ type: "sum", source, test, quantity }));
}

/** Distinct client ids (devices, spec 2.2: the player SDK's client id) of sessions passing `test`. */
export function devicesOf(source: SessionKind, test: SessionTest): DistinctTerm {
  return intern(["devices", source, test], () => ({ type: "distinct", source, test, key: "clientId" }));
}

/** Distinct viewer ids of sessions passing `test`. */
export function viewersOf(source: SessionKind, test: SessionTest): DistinctTerm {
  return intern(["viewers", source, test], () => ({ type: "distinct", source, test, key: "viewerId" }));
}

/** See {@link OverlapTerm}. */
export function overlapOf(source: SessionKind, test: SessionTest, weight: SessionQuantity): OverlapTerm {
  return intern(["overlap", source, test, weight], () => ({ type: "overlap", source, test, weight }));
}

/** See {@link PeakTerm}. */
export function peakOf(source: SessionKind, test: SessionTest): PeakTerm {
  return intern(["peak", source, test], () => ({ type: "peak", source, test }));
}

const interned = new Map<string, Term>();
const functionIds = new Map<unknown, number>();

function intern<T extends Term>(parts: readonly unknown[], create: () => T): T {
  const key = parts
    .map((part) => {
      if (typeof part === "string") return part;
      let id = functionIds.get(part);
      if (id === undefined) functionIds.set(part, (id = functionIds.size));
      return `#${id}`;
    })
    .join("|");
  let term = interned.get(key);
  if (!term) interned.set(key, (term = create()));
  return term as T;
}
