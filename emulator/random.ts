/**
 * Seeded pseudo-random numbers (mulberry32) and stable hashing, so that the data world, fault
 * probabilities and generated ids are the same for the same seed on every machine.
 */

/**
 * A generator of floats in [0, 1) from a 32-bit seed, as an object: the world generator draws
 * millions of numbers a year, and a method reading a field is inlined where a closure call was
 * not (the profile of a cold year showed a boxed number allocated for every draw).
 */
export class SeededRandom {
  /** The state as a signed 32-bit integer: the same bits as unsigned, and a small integer to V8. */
  private state: number;

  constructor(seed: number) {
    this.state = seed | 0;
  }

  /** The next float in [0, 1). */
  next(): number {
    const state = (this.state = (this.state + 0x6d2b79f5) | 0);
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
}

/** A generator of floats in [0, 1) from a 32-bit seed, as a function. */
export function seededRandom(seed: number): () => number {
  const random = new SeededRandom(seed);
  return () => random.next();
}

/** A stable 32-bit hash (FNV-1a) of the parts, to derive sub-seeds such as (seed, account, hour). */
export function hashSeed(...parts: Array<string | number>): number {
  let hash = 0x811c9dc5;
  for (const part of parts) {
    const text = `${String(part)}\u0000`;
    for (let index = 0; index < text.length; index++) {
      hash ^= text.charCodeAt(index);
      hash = Math.imul(hash, 0x01000193);
    }
  }
  return hash >>> 0;
}
