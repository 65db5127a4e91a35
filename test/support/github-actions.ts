/**
 * Enough of GitHub Actions to reason about a workflow read as YAML (test/gitops-workflow.test.ts):
 * its expressions (`if:` conditions and `${{ }}` in concurrency groups) and its concurrency groups
 * (examples/gitops/pulumi.yml says how GitHub runs them).
 */

/** A step of a job, as the workflows' tests read it. */
export interface WorkflowStep {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  shell?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}

/** The contexts an expression reads (`github`, `vars`, ...). */
export type Contexts = Record<string, unknown>;

/**
 * Evaluates an expression as GitHub does: literals, context paths, `!`, `==`, `!=`, `&&`, `||` and
 * parentheses; `&&` and `||` answer an operand, strings compare ignoring case. Anything else (a
 * function call, an index) throws, so a workflow that needs more fails its test instead of being
 * read wrongly.
 */
export function evaluateExpression(source: string, contexts: Contexts): unknown {
  const tokens = [...source.matchAll(/\s*('(?:[^']|'')*'|[A-Za-z_][\w-]*(?:\.[A-Za-z_*][\w-]*)*|\d+(?:\.\d+)?|==|!=|&&|\|\||!|\(|\))/gy)];
  if (tokens.map((token) => token[0]).join("").trim() !== source.trim()) throw new Error(`cannot read the expression ${JSON.stringify(source)}`);
  const items = tokens.map((token) => token[1]!);
  let position = 0;
  const peek = () => items[position];
  const take = () => items[position++];

  const primary = (): unknown => {
    const token = take();
    if (token === undefined) throw new Error(`the expression ${JSON.stringify(source)} ends too early`);
    if (token === "(") {
      const value = or();
      if (take() !== ")") throw new Error(`a parenthesis of ${JSON.stringify(source)} is not closed`);
      return value;
    }
    if (token.startsWith("'")) return token.slice(1, -1).replace(/''/g, "'");
    if (/^\d/.test(token)) return Number(token);
    if (token === "true" || token === "false") return token === "true";
    if (token === "null") return null;
    if (peek() === "(") throw new Error(`the function ${token}() of ${JSON.stringify(source)} is not modelled`);
    return token.split(".").reduce<unknown>((value, name) => (value !== null && typeof value === "object" ? ((value as Record<string, unknown>)[name] ?? null) : null), contexts);
  };
  const unary = (): unknown => (peek() === "!" ? (take(), !truthy(unary())) : primary());
  const equality = (): unknown => {
    const left = unary();
    if (peek() !== "==" && peek() !== "!=") return left;
    const negate = take() === "!=";
    return looselyEqual(left, unary()) !== negate;
  };
  /** `&&` answers its left operand when that is falsy, else its right one; `||` the reverse. */
  const chain = (operator: "&&" | "||", operand: () => unknown) => (): unknown => {
    let value = operand();
    while (peek() === operator) {
      take();
      const right = operand();
      value = truthy(value) === (operator === "&&") ? right : value;
    }
    return value;
  };
  const and = chain("&&", equality);
  const or = chain("||", and);
  const value = or();
  if (position !== items.length) throw new Error(`cannot read ${JSON.stringify(source)} past ${JSON.stringify(items[position])}`);
  return value;
}

/** GitHub's falsy values: false, 0, the empty string and null. */
function truthy(value: unknown): boolean {
  return !(value === false || value === 0 || value === "" || value === null || value === undefined);
}

function looselyEqual(left: unknown, right: unknown): boolean {
  if (typeof left === "string" && typeof right === "string") return left.toLowerCase() === right.toLowerCase();
  return (left ?? null) === (right ?? null);
}

/** A string with every `${{ expression }}` replaced by its value. */
export function interpolate(text: string, contexts: Contexts): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_whole, expression: string) => {
    const value = evaluateExpression(expression, contexts);
    return value === null || value === undefined ? "" : String(value);
  });
}

/** Whether a job's `if:` lets it run (a job without one always runs). */
export function jobRuns(job: { if?: string }, contexts: Contexts): boolean {
  if (job.if === undefined) return true;
  const bare = /^\s*\$\{\{(.*)\}\}\s*$/s.exec(job.if)?.[1] ?? job.if;
  return truthy(evaluateExpression(bare, contexts));
}

/** A job queued into a concurrency group. */
export interface QueuedJob {
  name: string;
  group: string;
  cancelInProgress: boolean;
  /** Called when the job starts running. */
  onStart?: () => void;
}

/** What became of a queued job. */
export type JobOutcome = "pending" | "running" | "finished" | { cancelledBy: QueuedJob; whileRunning: boolean };

/**
 * GitHub's concurrency groups (examples/gitops/pulumi.yml, its top comment): at most one running
 * and one pending job per group, names compared ignoring case; a job queued into a group whose job
 * runs waits and cancels the job waiting there, if any; with `cancel-in-progress: true` it cancels
 * the running one too and starts.
 */
export class ConcurrencyGroups {
  private readonly running = new Map<string, QueuedJob>();
  private readonly pending = new Map<string, QueuedJob>();
  readonly outcomes = new Map<QueuedJob, JobOutcome>();

  queue(job: QueuedJob): void {
    const group = job.group.toLowerCase();
    const waiting = this.pending.get(group);
    if (waiting) this.outcomes.set(waiting, { cancelledBy: job, whileRunning: false });
    this.pending.delete(group);
    const current = this.running.get(group);
    if (current && job.cancelInProgress) {
      this.outcomes.set(current, { cancelledBy: job, whileRunning: true });
      this.running.delete(group);
    }
    if (this.running.has(group)) {
      this.pending.set(group, job);
      this.outcomes.set(job, "pending");
    } else {
      this.start(group, job);
    }
  }

  /** The running job of the group ends; the pending one, if any, starts. */
  finish(group: string): void {
    const key = group.toLowerCase();
    const current = this.running.get(key);
    if (current === undefined) throw new Error(`no job runs in the group ${group}`);
    this.outcomes.set(current, "finished");
    this.running.delete(key);
    const next = this.pending.get(key);
    this.pending.delete(key);
    if (next) this.start(key, next);
  }

  /** Ends every running job, and the pending ones after them, until every group is empty. */
  finishAll(): void {
    while (this.running.size > 0) this.finish([...this.running.keys()][0]!);
  }

  private start(group: string, job: QueuedJob): void {
    this.running.set(group, job);
    this.outcomes.set(job, "running");
    job.onStart?.();
  }
}
