/**
 * "Did you mean" hints of the emulator's error messages: the emulator names the nearest valid
 * spelling of a near miss (a metric, a dimension, a field, a parameter), or else the first few valid
 * ones. Its own code: the emulator shares nothing with the client (docs/api.md, foreword).
 */

/** Number of single-character edits (insert, delete, replace) between two texts, ignoring case. */
export function distanceBetween(first: string, second: string): number {
  const a = first.toLowerCase();
  const b = second.toLowerCase();
  if (a === b) return 0;
  // One row of the edit-distance table at a time: row[j] is the distance of a[0..i) and b[0..j).
  let row: number[] = [];
  for (let j = 0; j <= b.length; j++) row.push(j);
  for (let i = 0; i < a.length; i++) {
    const next = [i + 1];
    for (let j = 0; j < b.length; j++) {
      const replace = row[j]! + (a.charAt(i) === b.charAt(j) ? 0 : 1);
      next.push(Math.min(replace, row[j + 1]! + 1, next[j]! + 1));
    }
    row = next;
  }
  return row[b.length]!;
}

/** The text without case and without the separators `-`, `_` and space. */
function folded(text: string): string {
  return text.toLowerCase().split(/[-_ ]/).join("");
}

/**
 * The valid spelling nearest to `input` when it is a plausible slip: the same words in another
 * case or separator style, or at most max(2, a third of its length) edits away.
 */
export function closestMatch(input: string, valid: readonly string[]): string | undefined {
  const sameWords = valid.find((candidate) => folded(candidate) === folded(input));
  if (sameWords !== undefined) return sameWords;
  const allowed = Math.max(2, Math.ceil(input.length / 3));
  let nearest: { candidate: string; distance: number } | undefined;
  for (const candidate of valid) {
    const distance = distanceBetween(input, candidate);
    if (distance <= allowed && (nearest === undefined || distance < nearest.distance)) nearest = { candidate, distance };
  }
  return nearest?.candidate;
}

/** How many valid values a message quotes before it says how many there are. */
const QUOTED = 8;

/** The values quoted and comma-separated; a long list ends with `… (N in all)`. */
export function quoteChoices(values: readonly string[]): string {
  const quoted = values.slice(0, QUOTED).map((value) => `"${value}"`);
  return values.length > QUOTED ? `${quoted.join(", ")}, … (${values.length} in all)` : quoted.join(", ");
}

/** `did you mean "x"?` for a near miss, else `valid <noun> are "a", "b", …`. */
export function describeChoices(input: string, valid: readonly string[], noun: string): string {
  const suggestion = closestMatch(input, valid);
  return suggestion === undefined ? `valid ${noun} are ${quoteChoices(valid)}` : `did you mean "${suggestion}"?`;
}
