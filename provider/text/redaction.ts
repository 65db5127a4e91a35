/**
 * Values that must never be shown (PII identifiers and e-mail addresses, the client's credential)
 * removed from text, however the text writes them. A service may echo a value with its separators
 * changed or hidden (`viewer\u00a0000777`, `viewer\u200b000778`, `viewer 000777`), in another case,
 * with look-alike letters and digits (fullwidth `ｖｉｅｗｅｒ０００７７７`, Cyrillic `о` for `o`), escaped
 * (`\u00a0` in JSON or inert text, `%C2%A0` in a URL), or cut (`viewer-100` of `viewer-100031`).
 * Matching therefore runs on a skeleton of both sides: escapes decoded, compatibility forms folded
 * (NFKC), case and common look-alikes folded, digits of every script read as 0 to 9, and every
 * separator, punctuation mark, symbol and invisible character left out; the raw text the match covers
 * is replaced. Where the text may have been cut (its end, or an ellipsis), a fragment right
 * before the cut that begins a value (at least {@link MIN_FRAGMENT} skeleton characters, starting a
 * word) is replaced too. Redacting more than needed is harmless; missing a value is not. No regular
 * expression is built from the values, so any number of values of any length is fine.
 */

/** What replaces each value. */
export const REDACTED = "[redacted]";

/** A function that returns its text with every one of its values replaced by {@link REDACTED}. */
export type Redactor = (text: string) => string;

/** The shortest beginning of a value that is redacted where the text may have been cut. */
export const MIN_FRAGMENT = 4;

/** Look-alikes that NFKC keeps apart from the Latin letters they imitate (Cyrillic, Greek, others). */
const LOOK_ALIKES: Readonly<Record<string, string>> = Object.fromEntries(
  [
    ["а", "a"], ["в", "b"], ["с", "c"], ["ԁ", "d"], ["е", "e"], ["ё", "e"], ["һ", "h"], ["і", "i"], ["ї", "i"], ["ј", "j"], ["к", "k"],
    ["ӏ", "l"], ["м", "m"], ["н", "h"], ["о", "o"], ["р", "p"], ["ԛ", "q"], ["ѕ", "s"], ["т", "t"], ["у", "y"], ["х", "x"], ["ԝ", "w"],
    ["α", "a"], ["β", "b"], ["ε", "e"], ["η", "n"], ["ι", "i"], ["κ", "k"], ["ν", "v"], ["ο", "o"], ["ρ", "p"], ["τ", "t"], ["υ", "u"],
    ["χ", "x"], ["ı", "i"], ["ȷ", "j"], ["ℓ", "l"], ["ɡ", "g"], ["ꞵ", "b"],
  ],
);

/** Characters left out of a skeleton: separators, punctuation, symbols, controls and invisible characters. */
const LEFT_OUT = /^[\p{Z}\p{P}\p{S}\p{C}\p{M}\p{Default_Ignorable_Code_Point}]$/u;
const DECIMAL_DIGIT = /^\p{Nd}$/u;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/** The value of a decimal digit of any script: its place in its run of ten (U+0660 is 0, U+0669 is 9). */
function digitValue(char: string): string {
  const code = char.codePointAt(0)!;
  let place = 0;
  while (place < 9 && DECIMAL_DIGIT.test(String.fromCodePoint(code - place - 1))) place++;
  return String(place);
}

const folded = new Map<string, string>();

/** One character of the text as the skeleton holds it: "" when left out, else one or more letters and digits. */
function fold(char: string): string {
  const code = char.charCodeAt(0);
  if (char.length === 1 && code < 0x80) {
    if (code >= 0x41 && code <= 0x5a) return String.fromCharCode(code + 32);
    return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) ? char : "";
  }
  let skeleton = folded.get(char);
  if (skeleton === undefined) {
    skeleton = "";
    for (const part of char.normalize("NFKC").toLowerCase()) {
      if (LEFT_OUT.test(part)) continue;
      const plain = part.normalize("NFD").replace(/\p{M}/gu, "") || part;
      skeleton += LOOK_ALIKES[plain] ?? (DECIMAL_DIGIT.test(plain) && plain > "9" ? digitValue(plain) : plain);
    }
    if (folded.size < 10_000) folded.set(char, skeleton);
  }
  return skeleton;
}

/** A text's skeleton, and the raw range each of its characters comes from. */
interface Skeleton {
  text: string;
  /** Raw index where the skeleton's character at each index starts. */
  starts: number[];
  /** Raw index where it ends (exclusive). */
  ends: number[];
}

const HEX4 = /^[0-9a-fA-F]{4}$/;
const HEX2 = /^[0-9a-fA-F]{2}$/;

/**
 * The character of `raw` at `index` with its escapes decoded: `\uXXXX` (a pair of them for a character
 * outside the BMP), `%XX` sequences of UTF-8, and the one-letter escapes `\n`, `\t`, `\"`, ... (read as
 * nothing). Answers the character and where the raw text goes on.
 */
function decodedAt(raw: string, index: number): { char: string; next: number } {
  const head = raw[index]!;
  if (head === "\\" && raw[index + 1] === "u" && HEX4.test(raw.slice(index + 2, index + 6))) {
    const unit = Number.parseInt(raw.slice(index + 2, index + 6), 16);
    if (unit >= 0xd800 && unit <= 0xdbff && raw.slice(index + 6, index + 8) === "\\u" && HEX4.test(raw.slice(index + 8, index + 12))) {
      return { char: String.fromCharCode(unit, Number.parseInt(raw.slice(index + 8, index + 12), 16)), next: index + 12 };
    }
    return { char: String.fromCharCode(unit), next: index + 6 };
  }
  if (head === "\\" && index + 1 < raw.length) return { char: "", next: index + 2 };
  if (head === "%" && HEX2.test(raw.slice(index + 1, index + 3))) {
    const lead = Number.parseInt(raw.slice(index + 1, index + 3), 16);
    const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    const bytes: number[] = [];
    for (let at = index; bytes.length < length && raw[at] === "%" && HEX2.test(raw.slice(at + 1, at + 3)); at += 3) bytes.push(Number.parseInt(raw.slice(at + 1, at + 3), 16));
    if (bytes.length === length) return { char: Buffer.from(bytes).toString("utf8"), next: index + 3 * length };
    return { char: "", next: index + 3 };
  }
  const code = raw.codePointAt(index)!;
  const char = String.fromCodePoint(code);
  return { char, next: index + char.length };
}

function skeletonOf(raw: string): Skeleton {
  const skeleton: Skeleton = { text: "", starts: [], ends: [] };
  const parts: string[] = [];
  for (let index = 0; index < raw.length; ) {
    const { char, next } = decodedAt(raw, index);
    for (const part of char === "" ? "" : fold(char)) {
      parts.push(part);
      skeleton.starts.push(index);
      skeleton.ends.push(next);
    }
    index = next;
  }
  skeleton.text = parts.join("");
  return skeleton;
}

/** The raw ranges of `text` to replace, sorted and merged. */
function merged(ranges: Array<[number, number]>): Array<[number, number]> {
  const sorted = ranges.sort((left, right) => left[0] - right[0]);
  const result: Array<[number, number]> = [];
  for (const [start, end] of sorted) {
    const last = result.at(-1);
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else result.push([start, end]);
  }
  return result;
}

/** True when `raw` has no letter or digit just before `index` (a word starts there). */
function startsWord(raw: string, index: number): boolean {
  if (index === 0) return true;
  const before = String.fromCodePoint(raw.codePointAt(index - 1) ?? 0x20);
  return !WORD_CHARACTER.test(before) || /[\uDC00-\uDFFF]/.test(raw[index - 1]!);
}

/** How many skeleton characters end at or before the raw index `point` (`ends` never decreases). */
function countEndingBy(ends: readonly number[], point: number): number {
  let [low, high] = [0, ends.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ends[middle]! <= point) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Where `raw` may have been cut: its end and every ellipsis (`…`, `...`), as raw indexes. */
function cutPoints(raw: string): number[] {
  const points = [raw.length];
  for (let index = raw.indexOf("…"); index >= 0; index = raw.indexOf("…", index + 1)) points.push(index);
  for (let index = raw.indexOf("..."); index >= 0; index = raw.indexOf("...", index + 3)) points.push(index);
  return points;
}

/**
 * A redactor of `values`: every occurrence, however written (see the module's comment), and every
 * fragment that begins one where the text may have been cut, replaced by {@link REDACTED}. A value
 * with no letter or digit is matched only as written.
 */
export function redactor(values: Iterable<string>): Redactor {
  const distinct = [...new Set([...values].filter((value) => value.length > 0))];
  if (distinct.length === 0) return (text) => text;
  const byLength = new Map<number, Set<string>>();
  const firsts = new Set<string>();
  const literal: string[] = [];
  let longest = 0;
  for (const value of distinct) {
    const { text } = skeletonOf(value);
    if (text === "") {
      literal.push(value);
      continue;
    }
    if (!byLength.has(text.length)) byLength.set(text.length, new Set());
    byLength.get(text.length)!.add(text);
    firsts.add(text[0]!);
    longest = Math.max(longest, text.length);
  }
  const lengths = [...byLength.keys()].sort((left, right) => right - left);
  let beginnings: Set<string> | undefined;
  const beginningsOf = () => {
    if (beginnings !== undefined) return beginnings;
    beginnings = new Set();
    for (const set of byLength.values()) for (const text of set) for (let length = MIN_FRAGMENT; length < text.length; length++) beginnings.add(text.slice(0, length));
    return beginnings;
  };

  return (raw) => {
    const skeleton = skeletonOf(raw);
    const { text, starts, ends } = skeleton;
    const ranges: Array<[number, number]> = [];
    for (let index = 0; index < text.length; ) {
      let matched = 0;
      if (firsts.has(text[index]!)) {
        for (const length of lengths) {
          if (index + length > text.length) continue;
          if (!byLength.get(length)!.has(text.slice(index, index + length))) continue;
          const [start, end] = [starts[index]!, ends[index + length - 1]!];
          // A short value stands alone: `ab1` is not redacted inside `cab12`.
          if (length < MIN_FRAGMENT && (!startsWord(raw, start) || WORD_CHARACTER.test(raw[end] ?? " "))) continue;
          ranges.push([start, end]);
          matched = length;
          break;
        }
      }
      index += matched === 0 ? 1 : matched;
    }
    // Fragments where the text may have been cut: a word that begins a value and ends there.
    for (const point of cutPoints(raw)) {
      const end = countEndingBy(ends, point);
      // A cut leaves the fragment right at the cut: `viewer-100` at the end, not `the viewer.`
      if (end === 0 || ends[end - 1] !== point) continue;
      for (let start = Math.max(0, end - longest + 1); start <= end - MIN_FRAGMENT; start++) {
        if (!startsWord(raw, starts[start]!) || !beginningsOf().has(text.slice(start, end))) continue;
        ranges.push([starts[start]!, ends[end - 1]!]);
        break;
      }
    }
    let result = raw;
    if (ranges.length > 0) {
      result = "";
      let at = 0;
      for (const [start, end] of merged(ranges)) {
        result += `${raw.slice(at, start)}${REDACTED}`;
        at = end;
      }
      result += raw.slice(at);
    }
    for (const value of literal) result = result.split(value).join(REDACTED);
    return result;
  };
}
