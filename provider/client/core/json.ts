/**
 * JSON as the client reads an answer: `JSON.parse`, except that an integer beyond 2^53 is read as its
 * digits (a string) rather than rounded. A JSON number loses digits past 2^53 (9007199254740993 and
 * 9007199254740992 both read as 9007199254740992), and the service writes ids as numbers in some
 * answers (docs/api.md 2.7, 10.2): two filters would share one id. The identifiers' schema takes the
 * digits as the id exactly (schema/assumptions.ts `Identifier`); any other member that gets digits
 * where it wants a number fails its schema, naming the path, rather than hold a rounded value.
 */

/** A run of 16 digits: the shortest integer literal that can exceed 2^53 (9007199254740991 has 16). */
const LONG_DIGITS = /\d{16}/;

/**
 * `text` parsed as JSON (throws as `JSON.parse` does), integers beyond `Number.MAX_SAFE_INTEGER`
 * read as their digits. Text without 16 digits in a row is parsed as it is.
 */
export function readJson(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  return JSON.parse(quoteLongIntegers(text));
}

/** `text` with every integer literal beyond 2^53 outside strings quoted; one pass, no recursion. */
function quoteLongIntegers(text: string): string {
  const pieces: string[] = [];
  let copied = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      inString = true;
      continue;
    }
    if (char !== "-" && (char < "0" || char > "9")) continue;
    let end = index + 1;
    while (end < text.length && /[0-9.eE+-]/.test(text[end]!)) end++;
    const literal = text.slice(index, end);
    if (/^-?\d+$/.test(literal) && !Number.isSafeInteger(Number(literal))) {
      pieces.push(text.slice(copied, index), `"${literal}"`);
      copied = end;
    }
    index = end - 1;
  }
  pieces.push(text.slice(copied));
  return pieces.join("");
}
