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

/** A TypeScript module as CommonJS, as a program's build would emit it. */
const transpiled = (text: string): string => ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;

/** Writes `program` (its `run` export) as `<base>-program.js` of the project and registers what it declares, under Pulumi's mocks in a child process. */
function registrationsOf(project: TestProject, base: string, program: string): Promise<Registration[]> {
  writeFileSync(path.join(project.dir, `${base}-program.js`), program);
  return captureRegistrations({ module: path.join(project.dir, `${base}-program.js`), exportName: "run", args: [], construct: "call" });
}

/** Registers the resources the module declares, as a Pulumi program importing it would (under Pulumi's mocks, in a child process). */
export async function declaredResources(project: TestProject, moduleFile: string): Promise<Registration[]> {
  const base = moduleFile.replace(/\.ts$/, "");
  writeFileSync(path.join(project.dir, `${base}.js`), transpiled(readFileSync(path.join(project.dir, moduleFile), "utf8")));
  return registrationsOf(project, base, `exports.run = () => { require("./${base}.js"); };\n`);
}

/** What a program made of each declaration of a module registers, and the declarations its resources' constructors refuse. */
export interface DeclarationsLoaded {
  registrations: Registration[];
  /** Each refused declaration: its position among the module's declarations, and the error's name and message. */
  refusals: Array<{ declaration: number; name: string; message: string }>;
}

/**
 * Registers the resources the module declares, each declaration loaded as a module of its own (the
 * module's imports, then the one statement), as a Pulumi program under Pulumi's mocks in a child
 * process: a declaration the constructors refuse (provider/resources/known-inputs.ts: a field
 * outside the contract, an id that is not a number) fails alone, the others still register.
 */
export async function declaredResourcesOneByOne(project: TestProject, moduleFile: string): Promise<DeclarationsLoaded> {
  const text = readFileSync(path.join(project.dir, moduleFile), "utf8");
  const file = ts.createSourceFile(moduleFile, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const imports = file.statements.filter(ts.isImportDeclaration).map((statement) => statement.getText(file)).join("\n");
  const declarations = file.statements.filter((statement) => ts.isExpressionStatement(statement) && ts.isNewExpression(statement.expression));
  const base = moduleFile.replace(/\.ts$/, "");
  const modules = declarations.map((statement, index) => {
    const module = `${base}-declaration-${index}.js`;
    writeFileSync(path.join(project.dir, module), transpiled(`${imports}\n${statement.getText(file)}\n`));
    return `./${module}`;
  });
  const refusalsFile = path.join(project.dir, `${base}-refusals.json`);
  const registrations = await registrationsOf(project, base, [
    `exports.run = () => {`,
    `  const refusals = [];`,
    `  ${JSON.stringify(modules)}.forEach((module, declaration) => {`,
    `    try { require(module); } catch (error) { refusals.push({ declaration, name: error.name, message: error.message }); }`,
    `  });`,
    `  require("node:fs").writeFileSync(${JSON.stringify(refusalsFile)}, JSON.stringify(refusals));`,
    `};`,
    "",
  ].join("\n"));
  return { registrations, refusals: JSON.parse(readFileSync(refusalsFile, "utf8")) as DeclarationsLoaded["refusals"] };
}
