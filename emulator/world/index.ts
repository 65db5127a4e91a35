import { plantedAnomalies } from "./anomalies";
import { CUSTOM_TAG_NAMES } from "./catalog";
import { createSetup, generateHour, type HourSessions } from "./generate";
import { catalogLookupValues } from "./lookups";
import type { SessionKind, SessionRecord, World } from "./types";
import { HOUR_MS } from "../time";

export * from "./types";
export { renderSession, type RenderOptions } from "./render";
export { viewerIdForIdentifier, userIdOf, POPULATION_SIZE, HEAVY_VIEWERS } from "./population";

/**
 * Hours kept in memory per account: 35 days (about 0.13 MB an hour, some 110 MB at most). The
 * sessions endpoints reach back 31 days and the viewer endpoints 30, again and again; only hours
 * within this window of the newest hour asked for (now, in practice: every endpoint reads up to
 * now) are cached. Older hours (long metric ranges) are generated again when asked for, with the
 * same result, and never cached: a 90-day range would otherwise push out every recent hour before
 * reaching them, and gain nothing on a repeat either.
 */
export const CACHED_HOURS = 35 * 24;

/**
 * Creates the deterministic data world of one account (world/types.ts): viewers, sessions generated
 * lazily per clock hour from (seed, account, hour), anomalies, lookups and custom tags.
 */
export function createWorld(seed: number, accountId: string): World {
  let setup: ReturnType<typeof createSetup> | undefined;
  const hours = new Map<number, HourSessions>();
  let newestHour = -Infinity;
  const hourAt = (hourIndex: number): HourSessions => {
    let found = hours.get(hourIndex);
    if (found) {
      // Most recently used last, so the oldest use is evicted first.
      hours.delete(hourIndex);
      hours.set(hourIndex, found);
      return found;
    }
    setup ??= createSetup(seed, accountId);
    found = generateHour(setup, hourIndex);
    if (hourIndex > newestHour - CACHED_HOURS) {
      hours.set(hourIndex, found);
      if (hours.size > CACHED_HOURS) hours.delete(hours.keys().next().value!);
    }
    return found;
  };
  return {
    sessionsStartedBetween(kind: SessionKind, fromMs: number, toMs: number): readonly SessionRecord[] {
      const result: SessionRecord[] = [];
      if (!(toMs > fromMs)) return result;
      newestHour = Math.max(newestHour, Math.ceil(toMs / HOUR_MS) - 1);
      for (let hour = Math.floor(fromMs / HOUR_MS); hour * HOUR_MS < toMs; hour++) {
        const sessions = hourAt(hour)[kind];
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
