/**
 * "Did you mean" suggestions for near misses of closed vocabularies (metric, dimension and field
 * names), shared by the client's argument validation, the rule checker and the emulator's errors.
 */

/** Levenshtein distance between two strings, case-insensitive. */
export function editDistance(a: string, b: string): number {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[right.length]!;
}

/**
 * The closest candidate to `input`, if it is close enough to be a plausible typo: within a third of
 * the input's length, or the same name in another case or separator style.
 */
export function closestMatch(input: string, candidates: readonly string[]): string | undefined {
  const normalise = (text: string) => text.toLowerCase().replace(/[-_ ]/g, "");
  const exactish = candidates.find((candidate) => normalise(candidate) === normalise(input));
  if (exactish) return exactish;
  let best: string | undefined;
  let bestDistance = Infinity;
  const within = Math.max(2, Math.ceil(input.length / 3));
  for (const candidate of candidates) {
    // The distance is at least the difference of the lengths: a far longer input (a property name of
    // 100,000 characters) is compared with nothing.
    if (Math.abs(input.length - candidate.length) > within) continue;
    const distance = editDistance(input, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= within ? best : undefined;
}

/** Choices named in a message before the list is cut short. */
const CHOICES_SHOWN = 8;

/** The choices quoted, e.g. `"and", "or"`; a long list shows its first 8 and `… (N in all)`. */
export function listChoices(choices: readonly string[]): string {
  const shown = choices.slice(0, CHOICES_SHOWN).map((choice) => `"${choice}"`).join(", ");
  return choices.length > CHOICES_SHOWN ? `${shown}, … (${choices.length} in all)` : shown;
}

/**
 * The properties of `value` that are not in `known` (those in `ignored` aside), each with a sentence
 * naming what would be valid: `enabeld` gets `did you mean "enabled"?`. A misspelt property would
 * otherwise be dropped silently and its default applied.
 */
export function unknownProperties(
  value: Record<string, unknown>,
  known: readonly string[],
  ignored: readonly string[] = [],
): Array<{ property: string; reason: string }> {
  return Object.keys(value)
    .filter((property) => !known.includes(property) && !ignored.includes(property))
    .map((property) => ({ property, reason: `unknown property; ${describeChoices(property, known, "properties")}` }));
}

/** A sentence that names the valid choices: a suggestion for a near miss, else the first few. */
export function describeChoices(input: string, candidates: readonly string[], noun: string): string {
  const suggestion = closestMatch(input, candidates);
  if (suggestion) return `did you mean "${suggestion}"?`;
  return `valid ${noun} are ${listChoices(candidates)}`;
}
