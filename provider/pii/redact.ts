import { literalPattern } from "../text/regexp";
/**
 * Removes personal data from text before it leaves the provider: the service's error messages may
 * quote identifiers (the emulator's do, for example for mixed identifier kinds), and everything a
 * dynamic provider throws or prints ends up in the engine's output and logs in plain text (the
 * dynamic-provider host receives no secrets and keeps none).
 */

/** What replaces each personal value. */
export const REDACTED = "[redacted]";

/** A function that returns its text with every one of the given personal values replaced. */
export type Redactor = (text: string) => string;

/**
 * A redactor for `personal` values (identifiers, e-mail addresses). Longer values are replaced
 * first, so a value that contains another (`user-1` in `user-12`) leaves no fragment behind.
 * Matching is case-insensitive: services may echo addresses in another case.
 */
export function redactor(personal: Iterable<string>): Redactor {
  const values = [...new Set([...personal].filter((value) => value.length > 0))].sort((a, b) => b.length - a.length);
  if (values.length === 0) return (text) => text;
  const pattern = new RegExp(values.map(literalPattern).join("|"), "gi");
  return (text) => text.replace(pattern, REDACTED);
}
