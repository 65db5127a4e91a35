import { InsightsError } from "./errors";
import { DAY_MS, type Interval, WEEK_MS } from "./time-range";

/**
 * Splitting helpers that make the service's limits invisible (spec 8): a range too long for one
 * request becomes consecutive windows, an answer that is too large or full becomes two halves, a
 * list too long for one request becomes chunks. Time boundaries fall on a {@link Grid}: metric
 * intervals are aligned to UTC boundaries of the granularity (days at 00:00Z, weeks on Mondays), so
 * a window boundary on that grid never cuts an interval in two: merged windows have no repeated and
 * no missing interval, whether the service answers an unaligned range's edges as partial intervals
 * (the emulator) or widens the range to whole intervals.
 */

/** Aligned boundaries: `originMs` plus whole multiples of `stepMs`. */
export interface Grid {
  stepMs: number;
  originMs: number;
}

/** 1970-01-05T00:00Z, the first Monday after the epoch: week-long intervals start on Mondays (ISO 8601). */
const FIRST_MONDAY_MS = 4 * DAY_MS;

/** The grid of a metric granularity: epoch-aligned, Monday-aligned for a week or more. */
export function granularityGrid(stepMs: number): Grid {
  return { stepMs, originMs: stepMs >= WEEK_MS ? FIRST_MONDAY_MS : 0 };
}

/** The last boundary at or before `epochMs`. */
function floorToGrid(epochMs: number, grid: Grid): number {
  return grid.originMs + Math.floor((epochMs - grid.originMs) / grid.stepMs) * grid.stepMs;
}

/** The first boundary at or after `epochMs`. */
function ceilToGrid(epochMs: number, grid: Grid): number {
  return grid.originMs + Math.ceil((epochMs - grid.originMs) / grid.stepMs) * grid.stepMs;
}

/**
 * Consecutive windows covering `interval` whose inner boundaries lie on the grid, each at most
 * `maxLengthMs` long even after the service widens it to whole intervals (the grid's step must be
 * shorter than `maxLengthMs`).
 */
export function splitIntoWindows(interval: Interval, maxLengthMs: number, grid: Grid = { stepMs: 1, originMs: 0 }): Interval[] {
  const windows: Interval[] = [];
  const stepsPerWindow = Math.floor(maxLengthMs / grid.stepMs);
  let startMs = interval.startMs;
  while (ceilToGrid(interval.endMs, grid) - floorToGrid(startMs, grid) > maxLengthMs) {
    const endMs = floorToGrid(startMs, grid) + stepsPerWindow * grid.stepMs;
    windows.push({ startMs, endMs });
    startMs = endMs;
  }
  windows.push({ startMs, endMs: interval.endMs });
  return windows;
}

/**
 * The two halves of `interval`, split on the grid boundary nearest its middle; undefined when no
 * boundary lies inside it (the floor below which splitting cannot help).
 */
export function halveInterval(interval: Interval, grid: Grid): [Interval, Interval] | undefined {
  if (!Number.isFinite(grid.stepMs)) return undefined;
  const firstInside = floorToGrid(interval.startMs, grid) + grid.stepMs;
  const lastInside = floorToGrid(interval.endMs - 1, grid);
  if (firstInside > lastInside) return undefined;
  const nearestMiddle = floorToGrid((interval.startMs + interval.endMs) / 2 + grid.stepMs / 2, grid);
  const middleMs = Math.min(Math.max(nearestMiddle, firstInside), lastInside);
  return [{ startMs: interval.startMs, endMs: middleMs }, { startMs: middleMs, endMs: interval.endMs }];
}

/** How {@link fetchHalving} fetches, merges and decides to split. */
interface HalvingPlan<T> {
  /** Halves fall on this grid; an interval with no boundary inside is not split further. */
  grid: Grid;
  fetch(interval: Interval): Promise<T>;
  /** Merges the answers of consecutive parts, in time order. */
  merge(parts: T[]): T;
  /** Split and retry when the request failed this way (for example 413, spec 7). */
  halveOnError?(error: unknown): boolean;
  /** Split and fetch again when the answer is full (for example 500 viewer sessions, spec 4.3). */
  halveOnResult?(result: T): boolean;
}

/**
 * Fetches `interval`, and when the plan says so (an error such as 413, or a full answer) fetches
 * its two halves instead, in parallel, recursively, down to one grid step; then merges. A full answer
 * at the floor is returned as it is; an error at the floor is thrown. `first` replaces the first
 * request, so it can use a relative range (`days`) that the service resolves itself.
 */
export async function fetchHalving<T>(interval: Interval, plan: HalvingPlan<T>, first?: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await (first ?? (() => plan.fetch(interval)))();
  } catch (error) {
    const halves = plan.halveOnError?.(error) ? halveInterval(interval, plan.grid) : undefined;
    if (!halves) throw error;
    return plan.merge(await Promise.all(halves.map((half) => fetchHalving(half, plan))));
  }
  const halves = plan.halveOnResult?.(result) ? halveInterval(interval, plan.grid) : undefined;
  if (!halves) return result;
  return plan.merge(await Promise.all(halves.map((half) => fetchHalving(half, plan))));
}

/** Splits `items` into chunks of at most `size`, in order. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let index = 0; index < items.length; index += size) chunks.push(items.slice(index, index + size));
  return chunks;
}

/**
 * Chunks of at most `size` items that all contain `pinned` first: a group-by selection split this
 * way sorts every chunk by the same metric, so every chunk returns the same top entities.
 */
export function chunkWithPinned<T>(items: readonly T[], size: number, pinned: T): T[][] {
  const others = items.filter((item) => item !== pinned);
  if (others.length === 0) return [[pinned]];
  return chunk(others, size - 1).map((part) => [pinned, ...part]);
}

/**
 * Some chunks of a batch failed after others were applied. `completed` holds the results of the
 * chunks that succeeded (in input order), `failures` the error of each chunk that did not, and
 * `cause` the first of them.
 */
export class PartialFailureError<Result> extends InsightsError {
  /**
   * The message counts the failed chunks and quotes the first failure, which is also `cause`.
   *
   * @param chunkCount - How many chunks the batch was split into, failed or not.
   */
  constructor(
    /** Results of the chunks that succeeded, flattened in input order. */
    readonly completed: readonly Result[],
    /** The errors of the failed chunks, with the index of the chunk each belongs to. */
    readonly failures: ReadonlyArray<{
      /** The index of the failed chunk, from 0: the chunks hold the batch's items in input order, as many as one call takes. */
      chunk: number;
      /** What the chunk's call threw: an {@link InsightsError} as a rule. */
      error: unknown;
    }>,
    chunkCount: number,
  ) {
    const first = failures[0]?.error;
    super(
      `${failures.length} of ${chunkCount} chunks failed (the other chunks were applied): ${first instanceof Error ? first.message : String(first)}`,
      { cause: first },
    );
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      completed: this.completed.length,
      failures: this.failures.map(({ chunk, error }) => ({ chunk, error: error instanceof InsightsError ? error.toJSON() : String(error) })),
    };
  }
}

/**
 * Sends every chunk at once (the transport's semaphore bounds how many run) and flattens the results
 * in input order. When every chunk fails, the first error is thrown as is; when only some fail, a
 * {@link PartialFailureError} says which results were applied so the caller can reconcile.
 */
export async function sendChunks<Item, Result>(
  items: readonly Item[],
  size: number,
  send: (chunk: Item[]) => Promise<readonly Result[]>,
): Promise<Result[]> {
  const chunks = chunk(items, size);
  const outcomes = await Promise.allSettled(chunks.map(send));
  const completed: Result[] = [];
  const failures: Array<{ chunk: number; error: unknown }> = [];
  outcomes.forEach((outcome, index) => {
    if (outcome.status === "fulfilled") completed.push(...outcome.value);
    else failures.push({ chunk: index, error: outcome.reason });
  });
  if (failures.length === 0) return completed;
  if (failures.length === chunks.length) throw failures[0]!.error;
  throw new PartialFailureError(completed, failures, chunks.length);
}

/**
 * The items with distinct keys; where a key repeats, the LAST occurrence wins (parts are merged in
 * time order, so it is the most recent state), at the position of the first.
 */
export function dedupeBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) {
    // Map.set keeps a key's first position and replaces its value.
    byKey.set(key(item), item);
  }
  return [...byKey.values()];
}
