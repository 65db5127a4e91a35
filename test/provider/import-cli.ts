import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { captureRegistrations, REPOSITORY_ROOT, type Registration, type TestProject } from "../../engine";

/**
 * What the tests of `pulumi-insights import` share: the built command run as a user runs it, the
 * type check of the module it writes, and the resources a program importing that module registers.
 */

/** The built command (package.json `bin`). */
export const CLI = path.join(REPOSITORY_ROOT, "dist", "provider", "cli", "bin.js");

/** What a run of the command showed. */
export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built command as a user runs it, with `env` as its whole environment (and PATH). */
export function runCli(args: string[], env: Record<string, string>, stdin?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}

/** Type-checks modules of the project as a user's `tsc --strict` would, against the package's declarations. */
export function typeErrors(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10, esModuleInterop: true, skipLibCheck: true, types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) =>
    `${diagnostic.file?.fileName ?? "(program)"}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`);
}

/** Registers the resources the module declares, as a Pulumi program importing it would (under Pulumi's mocks, in a child process). */
export async function declaredResources(project: TestProject, moduleFile: string): Promise<Registration[]> {
  const compiled = ts.transpileModule(readFileSync(path.join(project.dir, moduleFile), "utf8"), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const base = moduleFile.replace(/\.ts$/, "");
  writeFileSync(path.join(project.dir, `${base}.js`), compiled);
  writeFileSync(path.join(project.dir, `${base}-program.js`), `exports.run = () => { require("./${base}.js"); };\n`);
  return captureRegistrations({ module: path.join(project.dir, `${base}-program.js`), exportName: "run", args: [], construct: "call" });
}
