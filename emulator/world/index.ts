import type { World } from "./types";

export * from "./types";

/**
 * Creates the deterministic data world of one account.
 * STUB: replaced by the world generator (emulator/world owner).
 */
export function createWorld(_seed: number, _accountId: string): World {
  return {
    sessionsStartedBetween: () => [],
    anomaliesBetween: () => [],
    lookupValues: () => [],
    customTagNames: () => [],
  };
}
