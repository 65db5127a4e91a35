import { SeededRandom } from "../random";

/**
 * Draws from one seeded stream (emulator/random.ts): the world generator's only source of chance,
 * so the same seed gives the same world everywhere.
 */
export class Sampler extends SeededRandom {
  /** A float in [0, 1). */
  unit(): number {
    return this.next();
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** An integer in [min, max]. */
  integer(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `probability`. */
  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** One item, uniformly. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One item, with chances proportional to `weightOf`. */
  weighted<T>(items: readonly T[], weightOf: (item: T) => number): T {
    let total = 0;
    for (const item of items) total += weightOf(item);
    let target = this.next() * total;
    for (const item of items) {
      target -= weightOf(item);
      if (target < 0) return item;
    }
    return items[items.length - 1]!;
  }

  /** A standard normal value (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** A log-normal value with this median and spread (sigma of the log). */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** An exponential value with this mean. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.next());
  }

  /**
   * A 52-bit integer, for ids that must not collide (the id is its decimal text). Kept as a number
   * (exact in a double) until the text is read: world/compact.ts stores it in a typed array.
   */
  bigId(): number {
    return Math.floor(this.next() * 2 ** 20) * 2 ** 32 + Math.floor(this.next() * 2 ** 32);
  }

  /** `length` lowercase hex digits. */
  hex(length: number): string {
    let text = "";
    while (text.length < length) text += Math.floor(this.next() * 2 ** 32).toString(16).padStart(8, "0");
    return text.slice(0, length);
  }
}

/**
 * Picks from a fixed population with chances proportional to weights, in O(log n) per draw:
 * the hour generator draws viewers and assets thousands of times.
 */
export class WeightedTable<T> {
  private readonly cumulative: number[] = [];
  private readonly total: number;

  constructor(private readonly items: readonly T[], weightOf: (item: T) => number) {
    let running = 0;
    for (const item of items) {
      running += weightOf(item);
      this.cumulative.push(running);
    }
    this.total = running;
  }

  /** The sum of the weights. */
  get totalWeight(): number {
    return this.total;
  }

  /** One item drawn with `sampler`. */
  draw(sampler: Sampler): T {
    const target = sampler.unit() * this.total;
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.cumulative[middle]! > target) high = middle;
      else low = middle + 1;
    }
    return this.items[low]!;
  }
}
