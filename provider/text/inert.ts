/**
 * Text from outside (the service's answers, the command line) made inert where a person reads it:
 * as a string literal of generated TypeScript, and as a line of a terminal or a log. Both escape the
 * same characters, the ones that can change how text reads or parses without being seen:
 *
 * - controls: C0 (U+0000 to U+001F, the terminal's escape sequences among them), DEL, C1 (U+0080 to
 *   U+009F, whose U+009B opens a sequence on its own);
 * - line and paragraph separators (U+2028, U+2029: each ends a `//` comment in TypeScript);
 * - format characters: bidi controls (U+202A to U+202E, U+2066 to U+2069, U+200E, U+200F, U+061C),
 *   zero-width characters (U+200B to U+200D, U+2060), the BOM (U+FEFF), soft hyphen, tags;
 * - every other invisible character: spaces other than U+0020 (U+00A0, U+3000, ...), variation
 *   selectors, Hangul fillers (Unicode's Default_Ignorable_Code_Point);
 * - lone surrogates, private-use and unassigned code points (which no font shows for what they are);
 * - a combining mark at the start or after an escaped character, where it would draw on the quote
 *   or on the escape instead of a letter.
 *
 * Everything else stays as it is, readable in a review and a terminal: letters of any script
 * (`Zürich`, `東京`, `Ελλάδα`), combining marks on letters (`e` + U+0301), symbols and emoji. Escapes
 * are `\uXXXX` (UTF-16 units, so a character outside the BMP is two of them), and `\t`, `\n`, `\r`.
 * Unassigned code points follow the Unicode version of the running Node.js.
 */

/** A character that is escaped wherever it appears (see the module's comment). */
const HIDDEN = /^[\p{C}\p{Z}\p{Default_Ignorable_Code_Point}]$/u;
/** A combining mark, escaped where it has no letter to draw on. */
const MARK = /^\p{M}$/u;

const SHORT_ESCAPES: Readonly<Record<string, string>> = { "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/** `char` (one code point, or a lone surrogate) as `\u` escapes of its UTF-16 units. */
function unicodeEscape(char: string): string {
  let text = "";
  for (let index = 0; index < char.length; index++) text += `\\u${char.charCodeAt(index).toString(16).padStart(4, "0")}`;
  return text;
}

/**
 * `value` with every hidden character escaped, and the characters `syntax` names written as it
 * says (the quote and backslash of a string literal).
 */
function escapeHidden(value: string, syntax: Readonly<Record<string, string>>): string {
  let text = "";
  let afterEscape = true;
  // By code point: a lone surrogate comes out alone, a pair as one character.
  for (const char of value) {
    const written: string | undefined = syntax[char] ?? (char !== " " && (HIDDEN.test(char) || (afterEscape && MARK.test(char))) ? SHORT_ESCAPES[char] ?? unicodeEscape(char) : undefined);
    afterEscape = written !== undefined;
    text += written ?? char;
  }
  return text;
}

/**
 * `value` as a TypeScript (and JavaScript) string literal in double quotes that evaluates to exactly
 * `value`, lone surrogates included, and shows a reviewer what it holds: `"` and `\` escaped, every
 * hidden character (see the module's comment) as a `\u` escape, everything else (`é`, `東京`,
 * emoji) as it is. The literal holds no line terminator, so it is safe in a comment as well, and
 * the same value always gives the same text.
 *
 * @example
 * // The field of a hostile listing, "Country " + U+2028 + "x", is written as the 17 characters
 * // "Country \u2028x" (quotes included), which TypeScript reads back as the same 10 characters.
 * typeScriptStringLiteral("Country \u2028x");
 */
export function typeScriptStringLiteral(value: string): string {
  return `"${escapeHidden(value, { '"': '\\"', "\\": "\\\\" })}"`;
}

/**
 * `value` as inert text for a terminal or a log line: every hidden character (see the module's
 * comment) as a `\u` escape (`\n`, `\t` and `\r` as such), so an escape sequence (`\u001b[2J`),
 * a bidi control or a line break from the service cannot clear the screen, reorder the line or
 * start a line of its own. Everything else is kept; backslashes are not doubled, so text already
 * inert comes out unchanged. Code that breaks its own lines makes each line inert and joins them.
 */
export function inertText(value: string): string {
  return escapeHidden(value, {});
}

/**
 * `text` made inert line by line ({@link inertText}), the line breaks that code composed kept: for a
 * message of several lines, such as an error with its reasons.
 */
export function inertLines(text: string): string {
  return text.split("\n").map(inertText).join("\n");
}
