import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The fenced code blocks of the user documentation (README.md, CONTRIBUTING.md, docs/*.md) and what
 * the suite does with each, by the block's info string (CONTRIBUTING.md "Code blocks in the
 * documentation"): test/docs-code-blocks.test.ts classifies them and runs the shell, Python and
 * YAML blocks; test/package.test.ts type-checks the TypeScript ones in Pulumi's project templates.
 */

const ROOT = path.resolve(__dirname, "..", "..");

/** What the suite does with a block, by its info string. */
export const BLOCK_KINDS = {
  /** Type-checked as a file of a Pulumi program, in both templates, by every compiler of test/package.test.ts. */
  ts: "typescript",
  /** Run with bash against an emulator the test starts, with the package's commands on PATH. */
  sh: "shell",
  /** Shown, not run: needs the Pulumi CLI (or an account). */
  "sh pulumi-cli": "pulumi-cli",
  /** Shown, not run: commands of a clone of this repository, which the suite runs its own way. */
  "sh clone": "clone",
  /** Compiled by python3. */
  python: "python",
  /** Parsed; a Pulumi YAML program is held to the plugin's package schema. */
  yaml: "yaml",
  /** What a user sees (output, a message): not a program. */
  text: "text",
} as const;

/** One fenced block: where it starts, its info string and its text (indentation of the fence removed). */
export interface CodeBlock {
  /** The document, relative to the repository root (`docs/resources.md`). */
  document: string;
  /** Line of the opening fence, from 1. */
  line: number;
  /** The info string after the fence, trimmed (`sh pulumi-cli`). */
  info: string;
  /** What the suite does with it, or undefined for an info string it does not know. */
  kind: (typeof BLOCK_KINDS)[keyof typeof BLOCK_KINDS] | undefined;
  code: string;
}

/** README.md, CONTRIBUTING.md and every page of docs/, relative to the repository root. */
export function documentedPages(): string[] {
  const pages = readdirSync(path.join(ROOT, "docs")).filter((file) => file.endsWith(".md")).sort().map((file) => `docs/${file}`);
  return ["README.md", "CONTRIBUTING.md", ...pages];
}

/** The fenced blocks of `document` (a path relative to the repository root). */
export function codeBlocksOf(document: string): CodeBlock[] {
  const lines = readFileSync(path.join(ROOT, document), "utf8").split("\n");
  const blocks: CodeBlock[] = [];
  let open: { line: number; indent: string; fence: string; info: string; body: string[] } | undefined;
  lines.forEach((text, index) => {
    if (open === undefined) {
      const start = /^(\s*)(```+|~~~+)(.*)$/.exec(text);
      if (start) open = { line: index + 1, indent: start[1]!, fence: start[2]!, info: start[3]!.trim(), body: [] };
      return;
    }
    if (text.trim() === open.fence) {
      const kind = (BLOCK_KINDS as Record<string, CodeBlock["kind"]>)[open.info];
      blocks.push({ document, line: open.line, info: open.info, kind, code: `${open.body.join("\n")}\n` });
      open = undefined;
      return;
    }
    open.body.push(text.startsWith(open.indent) ? text.slice(open.indent.length) : text);
  });
  if (open !== undefined) blocks.push({ document, line: open.line, info: `${open.info} (never closed)`, kind: undefined, code: open.body.join("\n") });
  return blocks;
}

/** Every block of the user documentation. */
export function documentedCodeBlocks(): CodeBlock[] {
  return documentedPages().flatMap(codeBlocksOf);
}

/** A file name that says where a block comes from: `docs-resources-md-L42.ts`. */
export function fileNameOf(block: CodeBlock, extension: string): string {
  return `${block.document.replace(/\W+/g, "-")}-L${block.line}.${extension}`;
}
