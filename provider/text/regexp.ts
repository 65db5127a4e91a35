/**
 * `text` as a regular expression that matches it literally: every character a pattern gives a
 * meaning to is escaped. Used where a value from outside (a PII identifier to redact, a property
 * name a failure starts with) becomes part of a pattern.
 */
export function literalPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
