import { plantedAnomalies } from "./anomalies";
import { CUSTOM_TAG_NAMES } from "./catalog";
import { compactHour, expandSessions, type CompactHour } from "./compact";
import { createSetup, generateHour, type HourSessions } from "./generate";
import { catalogLookupValues } from "./lookups";
import type { SessionKind, SessionRecord, World } from "./types";
import { HOUR_MS } from "../time";

export * from "./types";
export { renderSession, type RenderOptions } from "./render";
export { viewerIdForIdentifier, userIdOf, POPULATION_SIZE, HEAVY_VIEWERS } from "./population";

/**
 * Hours kept in memory per account as generated records: 35 days (about 0.1 MB an hour, some 90 MB
 * at most). The sessions endpoints reach back 31 days and the viewer endpoints 30, again and again,
 * and their reads stay as fast as they were: these hours are handed out as they are.
 */
export const CACHED_HOURS = 35 * 24;

/**
 * Hours kept per account in the compact form of world/compact.ts, beyond the recent ones: 400 days,
 * more than the 13 months the API reaches back (docs/api.md 8), so a year read once is read again
 * without generating it. Bounded: at about 300 bytes a session, a year costs some 550 MB and the
 * bound about 600 MB; the least recently used hour goes first. Generating an hour costs about 1 ms
 * on the 2-core machine, rebuilding its records from the compact form a fraction of that (the
 * emulator benchmark, BENCHMARKS.md, measures both).
 */
export const COMPACT_HOURS = 400 * 24;

/** Tuning of the hour caches, for tests and the benchmark's "before" column. */
export interface WorldOptions {
  /** Keep hours beyond the recent window in the compact form (default true). */
  compactOldHours?: boolean;
}

/**
 * Creates the deterministic data world of one account (world/types.ts): viewers, sessions generated
 * lazily per clock hour from (seed, account, hour), anomalies, lookups and custom tags.
 */
export function createWorld(seed: number, accountId: string, options: WorldOptions = {}): World {
  const compactOldHours = options.compactOldHours ?? true;
  let setup: ReturnType<typeof createSetup> | undefined;
  /** Recent hours as generated records, least recently used first. */
  const recent = new Map<number, HourSessions>();
  /** Older hours in the compact form, least recently used first. */
  const compacted = new Map<number, CompactHour>();
  let newestHour = -Infinity;
  const keepCompact = (hourIndex: number, hour: CompactHour): void => {
    if (!compactOldHours) return;
    compacted.set(hourIndex, hour);
    if (compacted.size > COMPACT_HOURS) compacted.delete(compacted.keys().next().value!);
  };
  const sessionsOf = (hourIndex: number, kind: SessionKind): readonly SessionRecord[] => {
    const found = recent.get(hourIndex);
    if (found) {
      // Most recently used last, so the oldest use is evicted first.
      recent.delete(hourIndex);
      recent.set(hourIndex, found);
      return found[kind];
    }
    const compact = compacted.get(hourIndex);
    if (compact) {
      compacted.delete(hourIndex);
      compacted.set(hourIndex, compact);
      return expandSessions(kind, compact[kind]);
    }
    setup ??= createSetup(seed, accountId);
    const generated = generateHour(setup, hourIndex);
    if (hourIndex > newestHour - CACHED_HOURS) {
      recent.set(hourIndex, generated);
      if (recent.size > CACHED_HOURS) {
        // The hour leaving the recent window stays, compact: a long range may read it again.
        const [oldestIndex, oldest] = recent.entries().next().value!;
        recent.delete(oldestIndex);
        keepCompact(oldestIndex, compactHour(oldest));
      }
    } else {
      keepCompact(hourIndex, compactHour(generated));
    }
    return generated[kind];
  };
  return {
    sessionsStartedBetween(kind: SessionKind, fromMs: number, toMs: number): readonly SessionRecord[] {
      const result: SessionRecord[] = [];
      if (!(toMs > fromMs)) return result;
      newestHour = Math.max(newestHour, Math.ceil(toMs / HOUR_MS) - 1);
      for (let hour = Math.floor(fromMs / HOUR_MS); hour * HOUR_MS < toMs; hour++) {
        const sessions = sessionsOf(hour, kind);
        const whole = hour * HOUR_MS >= fromMs && (hour + 1) * HOUR_MS <= toMs;
        if (whole) {
          for (const session of sessions) result.push(session);
        } else {
          for (const session of sessions) if (session.startMs >= fromMs && session.startMs < toMs) result.push(session);
        }
      }
      return result;
    },
    anomaliesBetween: (fromMs, toMs) => plantedAnomalies(seed, accountId, fromMs, toMs),
    lookupValues: catalogLookupValues,
    customTagNames: () => CUSTOM_TAG_NAMES,
  };
}
