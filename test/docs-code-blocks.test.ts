import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { BLOCK_KINDS, documentedCodeBlocks, type CodeBlock } from "./support/code-blocks";
import { DEV, useTestEmulator } from "./support/emulator";

/**
 * Every code block of README.md, CONTRIBUTING.md and docs/ is checked, by the kind its info string
 * names (CONTRIBUTING.md "Code blocks in the documentation"): shell blocks run against an emulator
 * with the package's commands on PATH, Python is compiled, YAML parsed and held to the plugin's
 * package schema; TypeScript blocks are type-checked by test/package.test.ts in both Pulumi
 * templates. A block of no known kind fails here.
 */

const ROOT = path.resolve(__dirname, "..");
const run = promisify(execFile);
const blocks = documentedCodeBlocks();
const where = (block: CodeBlock) => `${block.document}:${block.line}`;
const ofKind = (kind: CodeBlock["kind"]) => blocks.filter((block) => block.kind === kind);

describe("code blocks of the documentation", () => {
  it("each says what it is, in an info string the suite knows", () => {
    expect(blocks.length).toBeGreaterThan(30);
    const unknown = blocks.filter((block) => block.kind === undefined).map((block) => `${where(block)}: \`\`\`${block.info}`);
    expect(unknown, `info strings the suite knows: ${Object.keys(BLOCK_KINDS).join(", ")}`).toEqual([]);
    // Every kind the convention names is in use, so none is a dead letter.
    expect(new Set(blocks.map((block) => block.kind))).toEqual(new Set(Object.values(BLOCK_KINDS)));
  });

  it("compiles every Python block with python3", async () => {
    const python = ofKind("python");
    expect(python.length).toBeGreaterThan(0);
    const script = "import json, sys\nfor name, code in json.load(sys.stdin):\n    compile(code, name, 'exec')\n";
    const child = run("python3", ["-c", script]);
    child.child.stdin!.end(JSON.stringify(python.map((block) => [where(block), block.code])));
    await expect(child).resolves.toBeDefined();
  });

  it("parses every YAML block, and holds a Pulumi YAML program's types and properties to the plugin's schema", () => {
    const schema = JSON.parse(readFileSync(path.join(ROOT, "provider/plugin/schema.json"), "utf8")) as {
      resources: Record<string, { inputProperties: Record<string, unknown>; properties: Record<string, unknown> }>;
    };
    const yamlBlocks = ofKind("yaml");
    expect(yamlBlocks.length).toBeGreaterThan(0);
    const problems = yamlBlocks.flatMap((block) => {
      const program = YAML.parse(block.code) as { resources?: Record<string, { type: string; properties?: Record<string, unknown> }>; outputs?: Record<string, unknown> };
      const resources = Object.entries(program.resources ?? {});
      return [
        ...resources.flatMap(([name, { type, properties }]) => {
          const declared = schema.resources[type];
          if (declared === undefined) return [`${where(block)}: ${name}: ${type} is not a resource of provider/plugin/schema.json`];
          return Object.keys(properties ?? {}).filter((key) => !(key in declared.inputProperties)).map((key) => `${where(block)}: ${name}.${key} is not an input of ${type}`);
        }),
        // `${resource.output}` reads an output the schema declares.
        ...[...JSON.stringify(program.outputs ?? {}).matchAll(/\$\{([^.}]+)\.([^}]+)\}/g)].flatMap(([reference, subject, property]) => {
          const type = program.resources?.[subject!]?.type;
          return type !== undefined && property! in (schema.resources[type]?.properties ?? {}) ? [] : [`${where(block)}: ${reference} reads no output of the schema`];
        }),
      ];
    });
    expect(problems).toEqual([]);
  });

  describe("shell blocks, run against an emulator", () => {
    const emulator = useTestEmulator();
    let project: string;

    // A user's project: the package's commands in node_modules/.bin as npm puts them there on
    // install, running the build `npm test` made; a home folder with the secret file the blocks name.
    beforeAll(() => {
      project = mkdtempSync(path.join(tmpdir(), "insights-docs-shell-"));
      const bin = path.join(project, "node_modules", ".bin");
      mkdirSync(bin, { recursive: true });
      symlinkSync(ROOT, path.join(project, "node_modules", "pulumi-insights"), "dir");
      const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string> };
      // A launcher each (npm would make the built file executable; the build leaves it as tsc wrote it).
      for (const [command, file] of Object.entries(manifest.bin)) {
        writeFileSync(path.join(bin, command), `#!/bin/sh\nexec "${process.execPath}" "${path.join(ROOT, file)}" "$@"\n`, { mode: 0o755 });
      }
      writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "docs-shell", private: true, dependencies: { "pulumi-insights": "*" } }));
      mkdirSync(path.join(project, "home"));
      writeFileSync(path.join(project, "home", ".insights-secret"), `${DEV.clientSecret}\n`);
    });
    afterAll(() => rmSync(project, { recursive: true, force: true }));

    /** The block with the placeholders of CONTRIBUTING.md "Code blocks in the documentation" filled in for the emulator. */
    const filledIn = (code: string) => {
      const address = new URL(emulator.url).host;
      return code
        .replaceAll("https://<your API host>", emulator.url)
        .replaceAll("<client id>", DEV.clientId)
        .replaceAll("127.0.0.1:8080", address);
    };

    // A block that repeats another's commands (the README's short form of a page's) runs once, for both.
    const commandsOf = (block: CodeBlock) => block.code.split("\n").map((line) => line.replace(/\s+#.*$|^#.*$/, "").trim()).filter(Boolean).join("\n");
    const byCommands = new Map<string, CodeBlock[]>();
    for (const block of ofKind("shell")) byCommands.set(commandsOf(block), [...(byCommands.get(commandsOf(block)) ?? []), block]);
    const shell = [...byCommands.values()];
    it("has shell blocks to run", () => expect(shell.length).toBeGreaterThan(1));

    it.each(shell.map((same) => [same.map(where).join(" and "), same[0]!] as const))("%s runs and exits 0", async (_, block) => {
      const outcome = await run("bash", ["-euo", "pipefail", "-c", filledIn(block.code)], {
        cwd: project,
        // Offline: npx runs the linked commands and never asks the registry.
        env: { ...process.env, HOME: path.join(project, "home"), PATH: `${path.join(project, "node_modules", ".bin")}${path.delimiter}${process.env.PATH}`, npm_config_offline: "true" },
        timeout: 60_000,
      }).then(
        () => "exit 0",
        (error: { code?: number | string; stdout?: string; stderr?: string }) => `exit ${error.code}: ${error.stdout ?? ""}${error.stderr ?? ""}`,
      );
      expect(outcome).toBe("exit 0");
    });
  });
});
