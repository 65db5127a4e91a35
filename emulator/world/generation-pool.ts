import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { CompactHour, TablesDelta } from "./compact";

/**
 * One generation worker per process, beside the main thread (the emulator's machine has 2 cores):
 * a long read of hours not yet generated (world/index.ts `prepare`) hands half of them to it, so a
 * cold year takes about half the time. Started on first need and not keeping the process alive.
 * The worker runs the built code (dist/emulator/world/generation-worker.js); where there is none
 * (the TypeScript sources run by the tests) there is no worker and every hour is generated on the
 * main thread, with the same result.
 */

/** A request to the worker: hours of one account's world. */
export interface GenerationRequest {
  id: number;
  seed: number;
  accountId: string;
  hours: number[];
}

/** The worker's answer: the hours in the compact form and what its tables gained, or why it failed. */
export type GenerationAnswer =
  | { id: number; hours: Array<{ hourIndex: number; hour: CompactHour }>; delta: TablesDelta; error?: undefined }
  | { id: number; error: string };

/** The worker's answer to one request, once it has come. */
export type GeneratedHours = Extract<GenerationAnswer, { hours: unknown }>;

const WORKER_FILE = path.join(__dirname, "generation-worker.js");

let worker: Worker | undefined;
let unavailable = !existsSync(WORKER_FILE);
let nextId = 1;
let hoursGenerated = 0;
const pending = new Map<number, { resolve: (answer: GeneratedHours) => void; reject: (error: Error) => void }>();

function failAll(error: Error): void {
  for (const { reject } of pending.values()) reject(error);
  pending.clear();
}

function started(): Worker | undefined {
  if (worker || unavailable) return worker;
  try {
    worker = new Worker(WORKER_FILE);
  } catch {
    unavailable = true;
    return undefined;
  }
  worker.unref();
  worker.on("message", (answer: GenerationAnswer) => {
    const waiting = pending.get(answer.id);
    if (!waiting) return;
    pending.delete(answer.id);
    if (answer.error !== undefined) waiting.reject(new Error(`generation worker: ${answer.error}`));
    else {
      hoursGenerated += answer.hours.length;
      waiting.resolve(answer);
    }
    if (pending.size === 0) worker?.unref();
  });
  const stop = (error: Error) => {
    // A worker that failed is not started again: the main thread generates everything.
    unavailable = true;
    worker = undefined;
    failAll(error);
  };
  worker.on("error", stop);
  worker.on("exit", (code) => stop(new Error(`generation worker exited with ${code}`)));
  return worker;
}

/** How many hours the worker has generated in this process (tests check that it did). */
export function hoursGeneratedInWorker(): number {
  return hoursGenerated;
}

/** Whether a worker can be used in this process. */
export function generationWorkerAvailable(): boolean {
  return !unavailable;
}

/** Asks the worker for `hours` of the world of (seed, account). Rejects if there is no worker or it fails. */
export function generateInWorker(seed: number, accountId: string, hours: number[]): Promise<GeneratedHours> {
  const running = started();
  if (!running) return Promise.reject(new Error("no generation worker"));
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    // Referenced while it works, so an answer awaited by a request is not lost at exit.
    running.ref();
    running.postMessage({ id, seed, accountId, hours } satisfies GenerationRequest);
  });
}
