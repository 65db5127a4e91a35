import { z } from "zod";
import { seededRandom } from "./random";

/**
 * Fault injection for `POST /_emulator/faults`: rules that match requests by method and path and
 * make them fail on purpose, so retries and recovery are tested against real HTTP behaviour.
 *
 * @internal
 */
export const FaultRuleInput = z.strictObject({
  /** HTTP method to match, or `*` (default). */
  method: z.string().default("*"),
  /** Path to match: exact, or a prefix ending in `*` (for example `/bulk_filters*`). */
  path: z.string().min(1),
  /** Only requests of this client id. */
  account: z.string().optional(),
  /** Answer this status instead of the real answer (for example 429 or 503). */
  status: z.number().int().min(400).max(599).optional(),
  /** `Retry-After` header sent with `status`: seconds, or an HTTP date. */
  retryAfter: z.union([z.number().nonnegative(), z.string()]).optional(),
  /** JSON body sent with `status` (default: an error body naming the fault). */
  body: z.unknown().optional(),
  /** Added latency before the request is handled, in milliseconds. */
  latencyMs: z.number().int().nonnegative().optional(),
  /**
   * The request is handled this many milliseconds after it arrived, and its effect applied then,
   * whether or not the client is still waiting; the answer follows if the connection is still open.
   * With a client timeout shorter than this, it is the answer that comes too late while the write
   * still lands: the unknown outcome a client must not answer by sending the write again.
   */
  lateWriteMs: z.number().int().positive().optional(),
  /**
   * `before`: the connection is reset before the request is handled (nothing is applied).
   * `after-write`: the request is handled and its effect applied, then the connection is reset
   * before the answer arrives (the lost-answer case the provider must reconcile).
   */
  reset: z.enum(["before", "after-write"]).optional(),
  /** Act on the first N matching requests only, then stop ("fail N times then succeed"). */
  times: z.number().int().positive().optional(),
  /** Act on a matching request with this probability, drawn from the emulator's seeded generator. */
  probability: z.number().min(0).max(1).optional(),
});
/** A fault rule as posted. */
export interface FaultRuleInput {
  /** Path to match: exact, or a prefix ending in `*` (for example `/bulk_filters*`). */
  path: string;
  /** HTTP method to match, or `*` (default). */
  method?: string;
  /** Only requests of this client id. */
  account?: string;
  /** Answer this status instead of the real answer (for example 429 or 503). */
  status?: number;
  /** `Retry-After` header sent with `status`: seconds, or an HTTP date. */
  retryAfter?: string | number;
  /** JSON body sent with `status` (default: an error body naming the fault). */
  body?: unknown;
  /** Added latency before the request is handled, in milliseconds. */
  latencyMs?: number;
  /** The request is handled (and its effect applied) this many milliseconds after it arrived. */
  lateWriteMs?: number;
  /** `before`: reset before the request is handled; `after-write`: reset after its effect is applied. */
  reset?: "before" | "after-write";
  /** Act on the first N matching requests only, then stop ("fail N times then succeed"). */
  times?: number;
  /** Act on a matching request with this probability, drawn from the emulator's seeded generator. */
  probability?: number;
}
/** A fault rule after parsing, with its id and how often it acted. */
export interface FaultRule extends Omit<FaultRuleInput, "method"> {
  /** HTTP method matched, or `*`. */
  method: string;
  /** The rule's id, to delete it. */
  id: string;
  /** How many requests it acted on. */
  hits: number;
}

/** The active fault rules, matched in the order they were added. */
export class Faults {
  private rules: FaultRule[] = [];
  private nextId = 1;
  private random: () => number;

  constructor(seed: number) {
    this.random = seededRandom(seed ^ 0x5eed);
  }

  /** Adds rules (validated) and returns them with their ids. */
  add(inputs: unknown[]): FaultRule[] {
    const added = inputs.map((input) => ({
      ...FaultRuleInput.parse(input),
      id: `fault-${this.nextId++}`,
      hits: 0,
    }));
    this.rules.push(...added);
    return added;
  }

  /** The active rules. */
  list(): FaultRule[] {
    return this.rules;
  }

  /** Removes one rule by id, or all rules. */
  clear(id?: string): void {
    this.rules = id === undefined ? [] : this.rules.filter((rule) => rule.id !== id);
  }

  /**
   * The first rule that acts on this request, counting the hit; rules whose `times` are used up are
   * dropped. Probability is drawn only for rules that match, so the sequence is reproducible.
   */
  match(method: string, path: string, account: string | undefined): FaultRule | undefined {
    for (const rule of this.rules) {
      if (rule.method !== "*" && rule.method.toUpperCase() !== method) continue;
      if (!pathMatches(rule.path, path)) continue;
      if (rule.account !== undefined && rule.account !== account) continue;
      if (rule.probability !== undefined && this.random() >= rule.probability) continue;
      rule.hits++;
      if (rule.times !== undefined && rule.hits >= rule.times) this.rules = this.rules.filter((r) => r !== rule);
      return rule;
    }
    return undefined;
  }
}

function pathMatches(pattern: string, path: string): boolean {
  const trim = (text: string) => (text.length > 1 ? text.replace(/\/+$/, "") : text);
  if (pattern.endsWith("*")) return path.startsWith(pattern.slice(0, -1));
  return trim(pattern) === trim(path);
}
