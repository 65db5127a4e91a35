import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkLayering, readTable } from "./support/layering";

/**
 * What may import what, as each folder's README states it in its "may import" column, and no cycle
 * of value imports, nor under provider/ of any import, type-only ones too (test/README.md "Layering
 * tables": how a table is read, and why `import type` is held to it too).
 */

/** The folders held to their tables with no break. */
const HELD = ["provider", "emulator", "engine", "bench", "examples", "test"];

/** The folders where no import goes round in a cycle, type-only ones included. */
const NO_TYPE_CYCLES = ["provider"];

describe.each(HELD)("%s/ keeps the layering its README states", (folder) => {
  it("its table is in form, no import breaks it, and no value imports go round in a cycle", () => {
    expect(checkLayering(folder, undefined, { typeCycles: NO_TYPE_CYCLES.includes(folder) })).toEqual({ form: [], breaks: [], cycles: [] });
  });
});

describe("emulator/ is a reading of the contract of its own", () => {
  it("its table lets no file import anything outside emulator/: nothing of provider/ (emulator/README.md \"Layout\")", () => {
    const rows = readTable("emulator").rows;
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.filter((row) => row.anything).map((row) => row.label)).toEqual([]);
    expect(rows.flatMap((row) => row.allowed).filter((reference) => !reference.startsWith("emulator/"))).toEqual([]);
  });
});

describe("the layering checker", () => {
  const root = mkdtempSync(path.join(tmpdir(), "layering-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  write("app/low/a.ts", 'import type { C } from "../high/c";\nexport const a = 1;\nexport type A = C;\n');
  write("app/low/b.ts", 'import { a } from "./a";\nexport const b = a;\n');
  write("app/high/c.ts", 'import { b } from "../low/b";\nexport type C = typeof b;\nexport const c = () => import("./d");\n');
  write("app/high/d.ts", 'export { c } from "./c";\nimport "../../outside/e";\n');
  write("app/top.ts", 'import { c } from "./high/c";\nconst x = require("./missing");\nexport { c, x };\n');
  write("outside/e.ts", "export {};\n");
  write("app/low/types-e.ts", 'import type { F } from "./types-f";\nexport type E = F | 1;\n');
  write("app/low/types-f.ts", 'import type { E } from "./types-e";\nexport type F = E | 2;\n');
  /** Writes app/README.md with a table of these rows (first cell, may import) and checks app/. */
  const checkWithTable = (rows: ReadonlyArray<readonly [string, string]>) => {
    const lines = ["| folder | what | may import |", "|---|---|---|", ...rows.map(([unit, allowed]) => `| ${unit} | a part | ${allowed} |`)];
    write("app/README.md", `${lines.join("\n")}\n`);
    return checkLayering("app", root);
  };

  it("names the file, the import and the row it breaks; a type import counts; a file in no row is a break", () => {
    const report = checkWithTable([["`low/`", "nothing of ours"], ["`high/`", "`low/b.ts` (its one value)"]]);
    expect(report.form).toEqual([]);
    expect(report.breaks).toEqual([
      "app/top.ts: in no row of app/README.md",
      'app/high/d.ts: import "../../outside/e" (outside/e.ts) breaks the row "`high/`" of app/README.md, which may import: `low/b.ts` (its one value)',
      'app/low/a.ts: import type "../high/c" (app/high/c.ts) breaks the row "`low/`" of app/README.md, which may import: nothing of ours',
      'app/top.ts: import "./missing" resolves to no file',
    ]);
    // c -> d by import(), d -> c by a re-export: a cycle. a -> c is a type import: no cycle through a.
    expect(report.cycles).toEqual(["app/high/c.ts -> app/high/d.ts -> app/high/c.ts"]);
    // Counting type imports too, the two type-only modules go round.
    expect(checkLayering("app", root, { typeCycles: true }).cycles).toContain("app/low/types-e.ts -> app/low/types-f.ts -> app/low/types-e.ts");
  });

  it("reads 'all of the above', `top level`, folders outside, and refuses a table out of form", () => {
    const report = checkWithTable([
      ["`low/`", "`high/` and `gone/`"],
      ["`high/`", "all of the above, `../outside`"],
      ["top level", "all of the above, the helpers"],
    ]);
    expect(report.form).toEqual([
      "app/README.md, row \"`low/`\": `gone/` is no folder or file",
      'app/README.md, row "top level": "the helpers" names no folder or file in a code span (or several); say "nothing of ours", "all of the above" or "anything" otherwise',
    ]);
    expect(report.breaks).toEqual(['app/top.ts: import "./missing" resolves to no file']);
  });
});
