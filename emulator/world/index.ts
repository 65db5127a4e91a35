import { plantedAnomalies } from "./anomalies";
import { CUSTOM_TAG_NAMES } from "./catalog";
import { CompactCursor, CompactTables, expandSessions, startOf, type CompactHour } from "./compact";
import { createSetup, generateHour, type WorldSetup } from "./generate";
import { catalogLookupValues } from "./lookups";
import type { SessionKind, SessionRecord, World } from "./types";
import { HOUR_MS } from "../time";

export * from "./types";
export { renderSession, type RenderOptions } from "./render";
export { viewerIdForIdentifier, userIdOf, POPULATION_SIZE, HEAVY_VIEWERS } from "./population";

/**
 * Hours whose records are kept per account: the 35 days up to the newest hour asked for (about 0.1
 * MB an hour, some 90 MB at most). The sessions endpoints reach back 31 days and the viewer
 * endpoints 30, again and again, and their reads stay as fast as they were: these records are
 * handed out as they are, built once from the compact form.
 */
export const CACHED_HOURS = 35 * 24;

/**
 * Hours kept per account in the compact form of world/compact.ts: 400 days, more than the 13 months
 * the API reaches back (docs/api.md 8), so a year read once is read again without generating it.
 * Bounded: at about 160 bytes a session outside the JavaScript heap, a year costs some 300 MB and
 * the bound about 330 MB; the least recently used hour goes first.
 */
export const COMPACT_HOURS = 400 * 24;

/** Tuning of the hour caches, for tests and the benchmark's "before" column. */
export interface WorldOptions {
  /**
   * Keep every generated hour in the compact form (default true). False keeps only the recent
   * records and generates older hours again on every read (the benchmark's "before" column).
   */
  compactOldHours?: boolean;
}

/**
 * Creates the deterministic data world of one account (world/types.ts): viewers, sessions generated
 * lazily per clock hour from (seed, account, hour), anomalies, lookups and custom tags.
 */
export function createWorld(seed: number, accountId: string, options: WorldOptions = {}): World {
  const compactOldHours = options.compactOldHours ?? true;
  let generator: { setup: WorldSetup; tables: CompactTables; cursor: CompactCursor } | undefined;
  const generatorOf = () => {
    if (generator) return generator;
    const setup = createSetup(seed, accountId);
    const tables = new CompactTables(setup.population);
    return (generator = { setup, tables, cursor: new CompactCursor(tables) });
  };
  /** Recent hours as records, least recently used first. */
  const recent = new Map<number, Record<SessionKind, readonly SessionRecord[]>>();
  /** Hours in the compact form, least recently used first. */
  const compacted = new Map<number, CompactHour>();
  let newestHour = -Infinity;
  const isRecent = (hourIndex: number) => hourIndex > newestHour - CACHED_HOURS;
  /** Marks a map entry as used last, so the oldest use is evicted first. */
  const touch = <T>(map: Map<number, T>, hourIndex: number, value: T): T => {
    map.delete(hourIndex);
    map.set(hourIndex, value);
    return value;
  };
  const compactOf = (hourIndex: number): CompactHour => {
    const found = compacted.get(hourIndex);
    if (found) return touch(compacted, hourIndex, found);
    const { setup, tables } = generatorOf();
    const generated = generateHour(setup, hourIndex, tables);
    if (compactOldHours) {
      compacted.set(hourIndex, generated);
      if (compacted.size > COMPACT_HOURS) compacted.delete(compacted.keys().next().value!);
    }
    return generated;
  };
  const recordsOf = (hourIndex: number, kind: SessionKind): readonly SessionRecord[] => {
    const found = recent.get(hourIndex);
    if (found) return touch(recent, hourIndex, found)[kind];
    const compact = compactOf(hourIndex);
    const { tables } = generatorOf();
    const records = { content: expandSessions(compact.content, tables), ad: expandSessions(compact.ad, tables) };
    if (isRecent(hourIndex)) {
      recent.set(hourIndex, records);
      if (recent.size > CACHED_HOURS) recent.delete(recent.keys().next().value!);
    }
    return records[kind];
  };
  /** The hours of [fromMs, toMs), each with whether all of it is inside. */
  const hoursOf = function* (fromMs: number, toMs: number): Generator<[number, boolean]> {
    newestHour = Math.max(newestHour, Math.ceil(toMs / HOUR_MS) - 1);
    for (let hour = Math.floor(fromMs / HOUR_MS); hour * HOUR_MS < toMs; hour++) {
      yield [hour, hour * HOUR_MS >= fromMs && (hour + 1) * HOUR_MS <= toMs];
    }
  };
  return {
    sessionsStartedBetween(kind: SessionKind, fromMs: number, toMs: number): readonly SessionRecord[] {
      const result: SessionRecord[] = [];
      if (!(toMs > fromMs)) return result;
      for (const [hour, whole] of hoursOf(fromMs, toMs)) {
        const sessions = recordsOf(hour, kind);
        if (whole) {
          for (const session of sessions) result.push(session);
        } else {
          for (const session of sessions) if (session.startMs >= fromMs && session.startMs < toMs) result.push(session);
        }
      }
      return result;
    },
    visitSessionsStartedBetween(kind: SessionKind, fromMs: number, toMs: number, visit: (session: SessionRecord) => void): void {
      if (!(toMs > fromMs)) return;
      for (const [hour, whole] of hoursOf(fromMs, toMs)) {
        const records = recent.get(hour);
        if (records || !compactOldHours) {
          for (const session of records ? touch(recent, hour, records)[kind] : recordsOf(hour, kind)) {
            if (whole || (session.startMs >= fromMs && session.startMs < toMs)) visit(session);
          }
          continue;
        }
        const compact = compactOf(hour)[kind];
        const { cursor } = generatorOf();
        for (let index = 0; index < compact.count; index++) {
          if (!whole) {
            const startMs = startOf(compact, index);
            if (startMs < fromMs || startMs >= toMs) continue;
          }
          visit(cursor.load(compact, index));
        }
      }
    },
    anomaliesBetween: (fromMs, toMs) => plantedAnomalies(seed, accountId, fromMs, toMs),
    lookupValues: catalogLookupValues,
    customTagNames: () => CUSTOM_TAG_NAMES,
  };
}
