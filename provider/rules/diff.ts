/**
 * A readable diff of two rule trees for previews. Trees that differ only in order or grouping show
 * nothing (they compare on their canonical forms). A real change is shown on the trees as written,
 * with each child matched to its counterpart by content, never by position: an unchanged child
 * reads `...` wherever it moved, a leaf whose op or value changed reads as that leaf with the old
 * and new value, and only what has no counterpart is added or removed. Positional pairing (what a
 * generic JSON diff does) would show a removed Country leaf and an added Tag leaf as one leaf whose
 * every property changed.
 */
import { canonicalRules, rulesEqual } from "./canonical";
import { isRuleGroup, PREVIEW_UNKNOWN, TAG_FIELD, type RuleGroup, type RuleLeaf, type RuleNode } from "./tree";

/** The first column of a line: unchanged, only in the old tree, only in the new one. */
type Sign = " " | "-" | "+";

const keys = new WeakMap<RuleNode, string>();

/** Text equal for nodes that mean the same (`and(x)` is `x`): the canonical form of the node. */
function keyOf(node: RuleNode): string {
  let key = keys.get(node);
  if (key === undefined) {
    key = JSON.stringify(canonicalRules({ op: "and", rules: [node] }));
    keys.set(node, key);
  }
  return key;
}

/** A leaf with a fixed key order; `key` only for Tag (canonical.ts says why). */
function leafOf(leaf: RuleLeaf): RuleLeaf {
  return leaf.field === TAG_FIELD && leaf.key !== undefined
    ? { field: leaf.field, key: leaf.key, op: leaf.op, value: leaf.value }
    : { field: leaf.field, op: leaf.op, value: leaf.value };
}

/**
 * The tree as written, with the laws of the canonical form that do not reorder (canonical.ts):
 * same-op groups flattened into their parent, duplicates dropped, one-child groups as their child.
 */
function asWritten(node: RuleNode): RuleNode {
  if (!isRuleGroup(node)) return leafOf(node);
  const children = new Map<string, RuleNode>();
  for (const child of node.rules) {
    const shown = asWritten(child);
    for (const member of isRuleGroup(shown) && shown.op === node.op ? shown.rules : [shown]) {
      const key = keyOf(member);
      if (!children.has(key)) children.set(key, member);
    }
  }
  const rules = [...children.values()];
  return rules.length === 1 ? rules[0]! : { op: node.op, rules };
}

function rootOf(tree: RuleGroup): RuleGroup {
  const shown = asWritten(tree);
  return isRuleGroup(shown) ? shown : { op: "and", rules: [shown] };
}

/** Lines in json-diff's layout: the sign, two spaces per level, the text. */
class Lines {
  readonly lines: string[] = [];

  add(sign: Sign, depth: number, text: string): void {
    this.lines.push(`${sign}${"  ".repeat(depth)}${text}`);
  }

  /** A whole node on one side (sign `-` or `+`), or unchanged. */
  node(sign: Sign, depth: number, node: RuleNode): void {
    this.add(sign, depth, "{");
    if (isRuleGroup(node)) {
      this.add(sign, depth + 1, `op: ${JSON.stringify(node.op)}`);
      this.add(sign, depth + 1, "rules: [");
      for (const child of node.rules) this.node(sign, depth + 2, child);
      this.add(sign, depth + 1, "]");
    } else {
      for (const [property, value] of Object.entries(node)) this.add(sign, depth + 1, `${property}: ${JSON.stringify(value)}`);
    }
    this.add(sign, depth, "}");
  }

  /** A property shown once when equal, else as its old and new value. */
  property(depth: number, name: string, before: unknown, after: unknown): void {
    if (before === after) {
      this.add(" ", depth, `${name}: ${JSON.stringify(after)}`);
    } else {
      this.add("-", depth, `${name}: ${JSON.stringify(before)}`);
      this.add("+", depth, `${name}: ${JSON.stringify(after)}`);
    }
  }
}

/** Two leaves of the same field (and tag key): the leaf once, with its op and value old and new. */
function diffLeaves(out: Lines, depth: number, before: RuleLeaf, after: RuleLeaf): void {
  out.add(" ", depth, "{");
  out.add(" ", depth + 1, `field: ${JSON.stringify(after.field)}`);
  if (after.key !== undefined) out.add(" ", depth + 1, `key: ${JSON.stringify(after.key)}`);
  out.property(depth + 1, "op", before.op, after.op);
  out.property(depth + 1, "value", before.value, after.value);
  out.add(" ", depth, "}");
}

/** True when two unmatched leaves are one leaf changed: the same field and tag key. */
function sameLeaf(before: RuleLeaf, after: RuleLeaf): boolean {
  return before.field === after.field && before.key === after.key;
}

/** How much two groups have in common, to pair changed groups: shared children first, then the op. */
function kinship(before: RuleGroup, after: RuleGroup): number {
  const keys = new Set(before.rules.map(keyOf));
  return after.rules.filter((child) => keys.has(keyOf(child))).length * 2 + (before.op === after.op ? 1 : 0);
}

/**
 * For each new child, the old child it corresponds to: an equal one first (whatever its position),
 * then a leaf of the same field and tag key (the same op preferred), then the group with most in
 * common. A child left without one is added; an old child left without one is removed.
 */
function counterparts(before: readonly RuleNode[], after: readonly RuleNode[]): Array<{ index: number; equal: boolean } | undefined> {
  const taken = new Set<number>();
  const result: Array<{ index: number; equal: boolean } | undefined> = after.map(() => undefined);
  const take = (newIndex: number, oldIndex: number, equal: boolean) => {
    taken.add(oldIndex);
    result[newIndex] = { index: oldIndex, equal };
  };
  const oldKeys = before.map(keyOf);
  after.forEach((child, newIndex) => {
    const oldIndex = oldKeys.findIndex((key, index) => !taken.has(index) && key === keyOf(child));
    if (oldIndex >= 0) take(newIndex, oldIndex, true);
  });
  const free = (test: (candidate: RuleNode) => boolean) => before.findIndex((candidate, index) => !taken.has(index) && test(candidate));
  for (const sameOp of [true, false]) {
    after.forEach((child, newIndex) => {
      if (result[newIndex] !== undefined || isRuleGroup(child)) return;
      const oldIndex = free((candidate) => !isRuleGroup(candidate) && sameLeaf(candidate, child) && (!sameOp || candidate.op === child.op));
      if (oldIndex >= 0) take(newIndex, oldIndex, false);
    });
  }
  after.forEach((child, newIndex) => {
    if (result[newIndex] !== undefined || !isRuleGroup(child)) return;
    let best = -1;
    let bestScore = 0;
    before.forEach((candidate, oldIndex) => {
      if (taken.has(oldIndex) || !isRuleGroup(candidate)) return;
      const score = kinship(candidate, child);
      if (score > bestScore) [best, bestScore] = [oldIndex, score];
    });
    if (best >= 0) take(newIndex, best, false);
  });
  return result;
}

/**
 * Two groups of different ops where one holds a group of the other's op: the other is read as a
 * one-child group of the outer op (`or(a, b)` is `and(or(a, b))`), so that its children meet their
 * counterparts instead of the whole group showing as replaced.
 */
function aligned(before: RuleGroup, after: RuleGroup): [RuleGroup, RuleGroup] {
  if (before.op === after.op) return [before, after];
  if (after.rules.some((child) => isRuleGroup(child) && child.op === before.op)) return [{ op: after.op, rules: [before] }, after];
  if (before.rules.some((child) => isRuleGroup(child) && child.op === after.op)) return [before, { op: before.op, rules: [after] }];
  return [before, after];
}

function diffGroups(out: Lines, depth: number, oldGroup: RuleGroup, newGroup: RuleGroup): void {
  const [before, after] = aligned(oldGroup, newGroup);
  out.add(" ", depth, "{");
  out.property(depth + 1, "op", before.op, after.op);
  out.add(" ", depth + 1, "rules: [");
  const pairs = counterparts(before.rules, after.rules);
  const paired = new Set(pairs.flatMap((pair) => (pair === undefined ? [] : [pair.index])));
  let nextOld = 0;
  let elided = false;
  // Removed children are shown where they stood: before the first new child paired past them,
  // and before a child added in their place.
  const removedUpTo = (end: number) => {
    for (; nextOld < end; nextOld++) {
      if (paired.has(nextOld)) continue;
      out.node("-", depth + 2, before.rules[nextOld]!);
      elided = false;
    }
  };
  after.rules.forEach((child, newIndex) => {
    const pair = pairs[newIndex];
    removedUpTo(pair?.index ?? pairs.slice(newIndex + 1).find((next) => next !== undefined)?.index ?? before.rules.length);
    if (pair?.equal) {
      if (!elided) out.add(" ", depth + 2, "...");
      elided = true;
      return;
    }
    elided = false;
    const counterpart = pair === undefined ? undefined : before.rules[pair.index]!;
    if (counterpart === undefined) out.node("+", depth + 2, child);
    else if (isRuleGroup(counterpart) && isRuleGroup(child)) diffGroups(out, depth + 2, counterpart, child);
    else diffLeaves(out, depth + 2, counterpart as RuleLeaf, child as RuleLeaf);
  });
  removedUpTo(before.rules.length);
  out.add(" ", depth + 1, "]");
  out.add(" ", depth, "}");
}

/**
 * The change from `oldTree` to `newTree`, "" when they are equal (the same canonical form). Lines
 * start with `-` (only in the old tree), `+` (only in the new one) or a space; a changed leaf shows
 * its field, tag key and op, so a changed value reads as "Country equals: - x + y", and unchanged
 * children read `...`.
 */
export function describeRulesDiff(oldTree: RuleGroup, newTree: RuleGroup): string {
  if (rulesEqual(oldTree, newTree)) return "";
  const out = new Lines();
  diffGroups(out, 0, rootOf(oldTree), rootOf(newTree));
  return `${out.lines.join("\n")}\n`;
}

/** A change at a path of a rule tree (`rules.rules[1].value`): added, deleted or updated there. */
export interface RuleTreeChange {
  /** The path, from the tree's own path given to {@link ruleTreeChanges}. */
  path: string;
  kind: "add" | "delete" | "update";
}

/** True for something shaped like a rule group (`op` and a list of `rules`). */
function isGroupShape(value: unknown): value is RuleGroup {
  return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as RuleGroup).op === "string" && Array.isArray((value as RuleGroup).rules);
}

/** The changes between two nodes at the same path: none when they mean the same. */
function nodeChanges(before: RuleNode, after: RuleNode, path: string): RuleTreeChange[] {
  if (keyOf(before) === keyOf(after)) return [];
  if (isRuleGroup(before) && isRuleGroup(after)) return groupChanges(before, after, path);
  if (isRuleGroup(before) || isRuleGroup(after)) return [{ path, kind: "update" }];
  const changes: RuleTreeChange[] = [];
  // `key` means something only on a Tag leaf (canonical.ts): elsewhere it is no change.
  const keyMatters = before.field === TAG_FIELD || after.field === TAG_FIELD;
  for (const property of ["field", "key", "op", "value"] as const) {
    if (property === "key" && !keyMatters) continue;
    const [old, current] = [before[property], after[property]];
    if (old === current) continue;
    changes.push({ path: `${path}.${property}`, kind: old === undefined ? "add" : current === undefined ? "delete" : "update" });
  }
  return changes;
}

/**
 * The changes between two groups at the same path: their op, and their children. A child that
 * means the same as one on the other side (canonically) is no change wherever it stands, repeated
 * or not; of the others, those at the same position are compared, the rest deleted or added.
 */
function groupChanges(before: RuleGroup, after: RuleGroup, path: string): RuleTreeChange[] {
  const changes: RuleTreeChange[] = [];
  if (before.op !== after.op) changes.push({ path: `${path}.op`, kind: "update" });
  const beforeKeys = before.rules.map(keyOf);
  const afterKeys = after.rules.map(keyOf);
  const oldLeft = beforeKeys.flatMap((key, index) => (afterKeys.includes(key) ? [] : [index]));
  const newLeft = new Set(afterKeys.flatMap((key, index) => (beforeKeys.includes(key) ? [] : [index])));
  for (const index of oldLeft) {
    const child = `${path}.rules[${index}]`;
    if (newLeft.delete(index)) changes.push(...nodeChanges(before.rules[index]!, after.rules[index]!, child));
    else changes.push({ path: child, kind: "delete" });
  }
  for (const index of newLeft) changes.push({ path: `${path}.rules[${index}]`, kind: "add" });
  return changes.sort((left, right) => left.path.localeCompare(right.path, "en", { numeric: true }));
}

/**
 * Where two rule trees at `path` differ, at the paths of the trees as they are, so that whoever
 * looks each path up in both trees finds the values that changed (docs/provider-plugins.md rule 8):
 * none when their canonical forms are equal (children reordered, repeated or regrouped under a
 * group of the same op); a child that is the same on both sides is matched wherever it stands; of
 * the others, those at the same position are compared property by property, and the rest are
 * deletions at their old position and additions at their new one. A tree not known yet (a
 * preview's) or not a group is an update of the whole.
 */
export function ruleTreeChanges(before: unknown, after: unknown, path: string): RuleTreeChange[] {
  const holdsUnknown = (value: unknown) => JSON.stringify(value ?? null).includes(PREVIEW_UNKNOWN);
  if (!isGroupShape(before) || !isGroupShape(after) || holdsUnknown(before) || holdsUnknown(after)) {
    return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path, kind: "update" }];
  }
  return rulesEqual(before, after) ? [] : groupChanges(before, after, path);
}
