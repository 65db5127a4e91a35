/**
 * Where the code under test lives: the repository's tsc output (dist/) and the Pulumi project
 * directory the provider host runs in. The host resolves `require("<package>/...")` inside
 * `__provider` from its working directory (docs/dynamic-providers.md rule 2), as in a user's project.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * The repository root (package.json `name`: pulumi-insights): the nearest folder with a
 * package.json, so the driver works from engine/ and from its tsc build in dist/engine
 * (the provider benchmark, bench/provider-batching.ts, runs it from there).
 */
export const REPOSITORY_ROOT = nearestPackageRoot(__dirname);

function nearestPackageRoot(start: string): string {
  for (let folder = start; ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, "package.json"))) return folder;
    if (path.dirname(folder) === folder) throw new Error(`engine driver: no package.json above ${start}`);
  }
}

/** The package name that `__provider` texts require their implementation by. */
export const PACKAGE_NAME = "pulumi-insights";

/**
 * The absolute path of a module of the code under test, refusing with a clear message a module
 * that is not built or older than its TypeScript source: provider-path tests must run the tsc
 * output (docs/dynamic-providers.md rule 4), and `npm test` builds it first.
 */
export function builtModule(modulePath: string): string {
  const absolute = path.resolve(REPOSITORY_ROOT, modulePath);
  const relative = path.relative(REPOSITORY_ROOT, absolute);
  if (!existsSync(absolute)) {
    const hint = relative.startsWith(`dist${path.sep}`)
      ? "run `npm run build` first (`npm test` runs it before vitest)"
      : "check the path (relative to the repository root)";
    throw new Error(`engine driver: ${relative} does not exist; ${hint}`);
  }
  if (relative.startsWith(`dist${path.sep}`) && relative.endsWith(".js")) {
    const source = path.join(REPOSITORY_ROOT, relative.slice("dist/".length).replace(/\.js$/, ".ts"));
    if (existsSync(source) && statSync(source).mtimeMs > statSync(absolute).mtimeMs) {
      throw new Error(`engine driver: ${relative} is older than ${path.relative(REPOSITORY_ROOT, source)}; run \`npm run build\` first`);
    }
  }
  return absolute;
}

/** A throwaway Pulumi project directory: its node_modules resolve the packages given by name. */
export interface TestProject {
  /** The project directory (the host's working directory). */
  readonly dir: string;
  /** Removes the directory (the linked packages are untouched). */
  remove(): void;
}

/** Options of {@link createTestProject}. */
export interface TestProjectOptions {
  /** Project name, written to package.json and Pulumi.yaml. */
  name?: string;
  /**
   * Packages to make resolvable, by name, as directories to link to. Default: this repository as
   * `pulumi-insights`. `@pulumi/pulumi` (and its scope) always comes from this repository.
   */
  packages?: Record<string, string>;
}

/**
 * Creates a temporary project laid out like a user's: `node_modules/<name>` symlinks to each
 * package and `node_modules/@pulumi` to this repository's. Needed because the host loads `__provider`
 * with require-from-string, whose module has no file name: Node's package self-reference does not
 * apply to it, so `require("pulumi-insights/...")` fails with the repository itself as cwd.
 */
export function createTestProject(options: TestProjectOptions = {}): TestProject {
  const name = options.name ?? "insights-test-project";
  const packages = options.packages ?? { [PACKAGE_NAME]: REPOSITORY_ROOT };
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  const modules = path.join(dir, "node_modules");
  mkdirSync(modules);
  symlinkSync(path.join(REPOSITORY_ROOT, "node_modules", "@pulumi"), path.join(modules, "@pulumi"), "dir");
  for (const [packageName, target] of Object.entries(packages)) {
    const link = path.join(modules, packageName);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(path.resolve(target), link, "dir");
  }
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, private: true, main: "index.js" }, null, 2));
  writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
