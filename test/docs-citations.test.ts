import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Comments, messages and documents cite only files of the repository, with a section that exists:
 * `docs/api.md 4.8` (a short `spec 4.8` means the same, docs/README.md), `docs/dynamic-providers.md
 * rule 6` or `docs/dynamic-providers.md "Testing without the CLI"`, `docs/provider-plugins.md rule 8`,
 * `emulator/README.md "Fault rules"`, `docs/configuration.md "Accounts"`, and `README "Troubleshooting"`
 * (a bare README is the one at the root).
 * Never the notes the docs were written from, nor an issue.
 */

const ROOT = path.resolve(__dirname, "..");
const FOLDERS = ["provider", "emulator", "engine", "test", "bench", "scripts", "examples", "plugin", "docs"];
const TOP_FILES = ["README.md", "BENCHMARKS.md", "CONTRIBUTING.md", "CHANGELOG.md"].filter((file) => existsSync(path.join(ROOT, file)));
const SOURCE = /\.(ts|js|cjs|mjs|md|yml|yaml)$/;

function filesBelow(folder: string): string[] {
  let entries;
  try {
    entries = readdirSync(path.join(ROOT, folder), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "dist" ? [] : filesBelow(relative);
    return SOURCE.test(entry.name) ? [relative] : [];
  });
}

const THIS_FILE = path.relative(ROOT, __filename);
const files = [...FOLDERS.flatMap(filesBelow), ...TOP_FILES].filter((file) => file !== THIS_FILE);
const text = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** Each match of `pattern` in the files, as `file:line: text`. */
function occurrences(pattern: RegExp): Array<{ file: string; where: string; match: RegExpExecArray }> {
  return files.flatMap((file) =>
    text(file).split("\n").flatMap((line, index) =>
      [...line.matchAll(new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`))].map((match) => ({
        file,
        where: `${file}:${index + 1}: ${line.trim()}`,
        match,
      })),
    ),
  );
}

/** The numbered sections of docs/api.md: headings `## 4.` / `### 4.8` and items `**5.4**`. */
const API_SECTIONS = new Set(
  [...text("docs/api.md").matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? |^- \*\*(\d+\.\d+)\*\*/gm)].map((match) => match[1] ?? match[2]!),
);
/** The numbered rules of a document: items `N. **Title.**`. */
const rulesOf = (file: string) => new Set([...text(file).matchAll(/^(\d+)\. \*\*/gm)].map((match) => match[1]!));
const PROVIDER_RULES = rulesOf("docs/dynamic-providers.md");
const PLUGIN_RULES = rulesOf("docs/provider-plugins.md");
/** A section number, and more after commas (`4.1, 8`); a number followed by a word (`12 per`) is not one. */
const SECTION = String.raw`\d+(?:\.\d+)?(?!\d|\.\d| [a-z])`;
const SECTION_LIST = `${SECTION}(?:, ${SECTION})*`;
const headings = (file: string) => new Set([...text(file).matchAll(/^#{2,4} (.+)$/gm)].map((match) => match[1]!.trim()));

describe("citations of documents", () => {
  it("reads the sections it checks against", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(API_SECTIONS).toContain("4.8");
    expect(API_SECTIONS).toContain("5.4");
    expect(API_SECTIONS).toContain("10.4");
    expect(PROVIDER_RULES.size).toBe(13);
    expect(PLUGIN_RULES.size).toBe(14);
  });

  it("never cites the notes outside the repository, an issue, or 'the module comment'", () => {
    const outside = occurrences(/api-?facts|dynamic-providers? note|[(]?\bnote, rule|shared\/(?:spec|notes)|\bissue:? #?\d|module comment/i);
    expect(outside.map(({ where }) => where)).toEqual([]);
  });

  it("cites sections of docs/api.md that exist", () => {
    const cited = [
      ...occurrences(new RegExp(`docs/api\\.md\`? (${SECTION_LIST})`)),
      ...occurrences(new RegExp(`\\b[Ss]pec (?:sections? )?(${SECTION_LIST})`)),
    ];
    expect(cited.length).toBeGreaterThan(100);
    const missing = cited.flatMap(({ where, match }) =>
      match[1]!.split(", ").filter((section) => !API_SECTIONS.has(section.replace(/\.$/, ""))).map((section) => `${section} in ${where}`),
    );
    expect(missing).toEqual([]);
  });

  it("cites rules of docs/dynamic-providers.md and docs/provider-plugins.md, and headings of any document, that exist", () => {
    const citedRules = (file: string, known: Set<string>) => {
      const rules = occurrences(new RegExp(`${file.replace(/[./]/g, "\\$&")}\`? rules? (\\d+)(?: and (\\d+))?`));
      return {
        count: rules.length,
        missing: rules.flatMap(({ where, match }) => [match[1], match[2]].filter((rule) => rule !== undefined && !known.has(rule)).map((rule) => `rule ${rule} in ${where}`)),
      };
    };
    const dynamic = citedRules("docs/dynamic-providers.md", PROVIDER_RULES);
    const plugin = citedRules("docs/provider-plugins.md", PLUGIN_RULES);
    expect(dynamic.count).toBeGreaterThan(5);
    expect(plugin.count).toBeGreaterThan(0);
    const missingRules = [...dynamic.missing, ...plugin.missing];
    // `docs/configuration.md "Accounts"`, `emulator/README.md` "Dialects", `README "Troubleshooting"`:
    // a document of the repository (a path from its root, or in a document from the document's
    // folder, as its links go) and a heading of it.
    const named = occurrences(/(?<![\w/.-])((?:[\w-]+\/)*[\w.-]+\.md|README)`? "([^"]+)"/);
    expect(named.length).toBeGreaterThan(50);
    const missingHeadings = named.flatMap(({ file: citing, where, match }) => {
      const cited = match[1] === "README" ? "README.md" : match[1]!;
      const file = [cited, path.join(path.dirname(citing), cited)].find((candidate) => existsSync(path.join(ROOT, candidate)));
      if (file === undefined) return [`${cited} (no such document) in ${where}`];
      // A citation names a heading by its start: "Control plane" for `## Control plane (...)`.
      return [...headings(file)].some((heading) => heading.startsWith(match[2]!)) ? [] : [`"${match[2]}" of ${file} in ${where}`];
    });
    expect([...missingRules, ...missingHeadings]).toEqual([]);
  });
});
