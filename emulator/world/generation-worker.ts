import { parentPort } from "node:worker_threads";
import { CompactTables, type TablesMark } from "./compact";
import { createSetup, generateHour, type WorldSetup } from "./generate";
import type { GenerationAnswer, GenerationRequest } from "./generation-pool";

/**
 * A generation worker (world/generation-pool.ts): generates the hours it is asked for with the same
 * code as the main thread (world/generate.ts), so the same seed gives the same sessions, and answers
 * them in the compact form, the buffer of each hour moved rather than copied, with what its tables
 * gained.
 */

interface WorkerWorld {
  setup: WorldSetup;
  tables: CompactTables;
  sent: TablesMark;
}

const worlds = new Map<string, WorkerWorld>();

function worldOf(seed: number, accountId: string): WorkerWorld {
  const key = `${seed}\u0000${accountId}`;
  let world = worlds.get(key);
  if (!world) {
    const setup = createSetup(seed, accountId);
    const tables = new CompactTables(setup.population);
    world = { setup, tables, sent: tables.mark() };
    worlds.set(key, world);
  }
  return world;
}

parentPort!.on("message", (request: GenerationRequest) => {
  let answer: GenerationAnswer;
  const transfer: ArrayBuffer[] = [];
  try {
    const world = worldOf(request.seed, request.accountId);
    const hours = request.hours.map((hourIndex) => {
      const hour = generateHour(world.setup, hourIndex, world.tables);
      // Both kinds' columns share one buffer (world/compact.ts `buildHour`); a transfer list names it once.
      transfer.push(hour.content.numbers.buffer as ArrayBuffer);
      return { hourIndex, hour };
    });
    const delta = world.tables.deltaSince(world.sent);
    world.sent = world.tables.mark();
    answer = { id: request.id, hours, delta };
  } catch (error) {
    answer = { id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort!.postMessage(answer, transfer);
});
