import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalRules, describeRulesDiff, rulesEqual, validateRules, type RuleGroup, type RuleLeaf, type RuleNode } from "../provider/rules";
import { RuleGroup as RuleGroupSchema } from "../provider/schema";

// Small pools so that generated trees often hold duplicates and same-op nesting.
const leafArbitrary: fc.Arbitrary<RuleLeaf> = fc.oneof(
  fc.record({
    field: fc.constantFrom("Country", "CDN", "Asset Name"),
    op: fc.constantFrom("contains", "not_contains", "equals" as const),
    value: fc.constantFrom("a", "b", "A", ""),
  }),
  fc.record({
    field: fc.constant("Tag"),
    key: fc.constantFrom("deviceId", "region"),
    op: fc.constantFrom("contains", "not_contains", "equals" as const),
    value: fc.constantFrom("a", "b"),
  }),
);

const { tree: nodeArbitrary } = fc.letrec<{ tree: RuleNode; group: RuleGroup }>((tie) => ({
  tree: fc.oneof({ depthSize: "small", withCrossShrink: true }, leafArbitrary, tie("group")),
  group: fc.record({
    op: fc.constantFrom("and", "or" as const),
    rules: fc.array(tie("tree"), { minLength: 1, maxLength: 4 }),
  }),
}));
const treeArbitrary: fc.Arbitrary<RuleGroup> = fc.record({
  op: fc.constantFrom("and", "or" as const),
  rules: fc.array(nodeArbitrary, { minLength: 1, maxLength: 5 }),
});

/** Random choices for the rewrites, seeded by fast-check so that failures replay and shrink. */
interface Chooser {
  /** An integer in [min, max]. */
  nextInt(min: number, max: number): number;
}

/** A seeded {@link Chooser} (mulberry32). */
function chooser(seed: number): Chooser {
  let state = seed >>> 0;
  return {
    nextInt(min, max) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const unit = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      return min + Math.floor(unit * (max - min + 1));
    },
  };
}

const isGroup = (node: RuleNode): node is RuleGroup => "rules" in node;

/**
 * An equivalent rewrite of a tree, driven by random choices: children shuffled, some duplicated,
 * runs of children wrapped in a group of the parent's op, nodes wrapped in one-child groups.
 */
function rewrite(node: RuleNode, random: Chooser): RuleNode {
  if (!isGroup(node)) return random.nextInt(0, 3) === 0 ? { op: random.nextInt(0, 1) ? "and" : "or", rules: [node] } : node;
  let children = node.rules.map((child) => rewrite(child, random));
  if (random.nextInt(0, 2) === 0) children.push(children[random.nextInt(0, children.length - 1)]!);
  children = shuffle(children, random);
  if (children.length > 1 && random.nextInt(0, 1) === 0) {
    const start = random.nextInt(0, children.length - 1);
    const end = random.nextInt(start + 1, children.length);
    children = [...children.slice(0, start), { op: node.op, rules: children.slice(start, end) }, ...children.slice(end)];
  }
  return { op: node.op, rules: children };
}

function shuffle<T>(items: T[], random: Chooser): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.nextInt(0, i);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

function rewriteRoot(tree: RuleGroup, random: Chooser): RuleGroup {
  const rewritten = rewrite(tree, random) as RuleGroup;
  // The root may itself end up wrapped in a one-child group of either op.
  return random.nextInt(0, 3) === 0 ? { op: random.nextInt(0, 1) ? "and" : "or", rules: [rewritten] } : rewritten;
}

/** A copy of `tree` with the leaf at depth-first position `target` (modulo the leaf count) given `value`. */
function withChangedLeaf(tree: RuleGroup, target: number, value: string): RuleGroup {
  let count = 0;
  const countLeaves = (node: RuleNode): void => (isGroup(node) ? node.rules.forEach(countLeaves) : void count++);
  countLeaves(tree);
  let index = target % count;
  const change = (node: RuleNode): RuleNode => {
    if (isGroup(node)) return { op: node.op, rules: node.rules.map(change) };
    return index-- === 0 ? { ...node, value } : node;
  };
  return change(tree) as RuleGroup;
}

/**
 * One change to a node of a tree: `property` set to `value` (removed when `value` is undefined), or,
 * when `property` is null, the whole node replaced by `value`. Plain data, so counterexamples print.
 */
interface Mutation {
  /** Which node, in depth-first order (modulo the node count). */
  target: number;
  property: string | null;
  value: unknown;
}

const mutationArbitrary: fc.Arbitrary<Mutation> = fc.record({
  target: fc.nat(),
  property: fc.constantFrom(null, "field", "op", "value", "key", "rules", "vale", "rule"),
  value: fc.constantFrom(undefined, null, "Country", "Contry", "Tag", "", "and", "xor", "equals", "not-contains", 7, []),
});

/** True for a node that holds a `rules` array (a group, or a mutated one). */
const hasRules = (node: unknown): node is { rules: unknown[] } =>
  node !== null && typeof node === "object" && Array.isArray((node as { rules?: unknown }).rules);

/** A copy of `tree` with `mutation` applied. */
function mutated(tree: unknown, mutation: Mutation): unknown {
  let count = 0;
  const countNodes = (node: unknown): void => {
    count++;
    if (hasRules(node)) node.rules.forEach(countNodes);
  };
  countNodes(tree);
  let index = mutation.target % count;
  const change = (node: unknown): unknown => {
    if (index-- === 0) {
      if (mutation.property === null) return mutation.value;
      const copy: Record<string, unknown> = { ...(node as object) };
      if (mutation.value === undefined) delete copy[mutation.property];
      else copy[mutation.property] = mutation.value;
      return copy;
    }
    return hasRules(node) ? { ...node, rules: node.rules.map(change) } : node;
  };
  return change(tree);
}

/** Valid trees with zero to three mutations: often still valid, often broken in one place. */
const mutatedTreeArbitrary: fc.Arbitrary<unknown> = fc
  .tuple(treeArbitrary, fc.array(mutationArbitrary, { maxLength: 3 }))
  .map(([tree, mutations]) => mutations.reduce<unknown>(mutated, tree));

describe("rule trees: properties", () => {
  it("the canonical form is idempotent, valid and leaves its input untouched", () => {
    fc.assert(fc.property(treeArbitrary, (tree) => {
      const before = structuredClone(tree);
      const canonical = canonicalRules(tree);
      expect(tree).toEqual(before);
      expect(canonicalRules(canonical)).toEqual(canonical);
      expect(JSON.stringify(canonicalRules(structuredClone(tree)))).toBe(JSON.stringify(canonical));
      expect(validateRules(canonical)).toEqual([]);
      expect(isGroup(canonical)).toBe(true);
    }), { numRuns: 300 });
  });

  it("shuffled, duplicated and regrouped equivalents never diff", () => {
    fc.assert(fc.property(treeArbitrary, fc.integer(), (tree, seed) => {
      const equivalent = rewriteRoot(tree, chooser(seed));
      expect(rulesEqual(tree, equivalent)).toBe(true);
      expect(canonicalRules(equivalent)).toEqual(canonicalRules(tree));
      expect(describeRulesDiff(tree, equivalent)).toBe("");
    }), { numRuns: 300 });
  });

  it("a changed value always diffs, and the diff shows the new value", () => {
    fc.assert(fc.property(treeArbitrary, fc.nat(), fc.integer(), (tree, target, seed) => {
      const changed = withChangedLeaf(rewriteRoot(tree, chooser(seed)), target, "changed-value");
      expect(rulesEqual(tree, changed)).toBe(false);
      expect(describeRulesDiff(tree, changed)).toContain(`+`);
      expect(describeRulesDiff(tree, changed)).toContain(`"changed-value"`);
    }), { numRuns: 300 });
  });

  it("generated trees pass validation, and whatever validation accepts the schema accepts", () => {
    fc.assert(fc.property(treeArbitrary, (tree) => {
      expect(validateRules(tree)).toEqual([]);
    }), { numRuns: 200 });
    // Mutated valid trees: some mutations keep the tree valid (no mutation, a known field, an empty
    // value), most break it in one place: about 3 in 10 of the samples are accepted (counted once).
    fc.assert(fc.property(mutatedTreeArbitrary, (input) => {
      if (validateRules(input).length === 0) expect(RuleGroupSchema.safeParse(input).success).toBe(true);
    }), { numRuns: 500 });
  });
});
