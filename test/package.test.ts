import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPOSITORY_ROOT, startProviderPlugin } from "../engine";
import { packPackage } from "./support/packed-package";
import { documentedCodeBlocks, fileNameOf } from "./support/code-blocks";

/**
 * The package as a user receives it (support/packed-package.ts), unpacked into a temporary folder,
 * and read as files.
 */
let work: string;
let unpacked: string;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "insights-package-"));
  execFileSync("tar", ["-xzf", packPackage(work), "-C", work]);
  unpacked = path.join(work, "package");
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every file under `folder`, relative to it. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)));
}

describe("npm pack", () => {
  it("ships the Apache-2.0 license that package.json names", () => {
    const manifest = JSON.parse(readFileSync(path.join(unpacked, "package.json"), "utf8")) as { license: string };
    expect(manifest.license).toBe("Apache-2.0");
    const license = readFileSync(path.join(unpacked, "LICENSE"), "utf8");
    expect(license).toContain("Apache License");
    expect(license).toContain("Version 2.0, January 2004");
    expect(license).toContain("END OF TERMS AND CONDITIONS");
  });

  it("ships every source map with the sources it points at", () => {
    const maps = filesUnder(unpacked).filter((file) => file.endsWith(".js.map"));
    expect(maps.length).toBeGreaterThan(50);
    const incomplete = maps.filter((file) => {
      const map = JSON.parse(readFileSync(path.join(unpacked, file), "utf8")) as { sources: string[]; sourcesContent?: (string | null)[] };
      const shipped = (source: string, index: number) => typeof map.sourcesContent?.[index] === "string" || existsSync(path.resolve(unpacked, path.dirname(file), source));
      return map.sources.length === 0 || !map.sources.every(shipped);
    });
    expect(incomplete).toEqual([]);
  });

  it("has no README link that leads nowhere inside the package", () => {
    const documents = filesUnder(unpacked).filter((file) => file.endsWith(".md"));
    expect(documents).toContain("README.md");
    const broken: string[] = [];
    let relativeLinks = 0;
    for (const document of documents) {
      const text = readFileSync(path.join(unpacked, document), "utf8");
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        relativeLinks += 1;
        if (!existsSync(path.resolve(unpacked, path.dirname(document), target!))) broken.push(`${document} -> ${target}`);
      }
    }
    expect(relativeLinks).toBeGreaterThan(5);
    expect(broken).toEqual([]);
  });

  it("states in the README the Node.js versions that `engines` accepts", () => {
    const manifest = JSON.parse(readFileSync(path.join(unpacked, "package.json"), "utf8")) as { engines: { node: string } };
    expect(manifest.engines.node).toBe(">=20.20 <21 || >=22");
    expect(readFileSync(path.join(unpacked, "README.md"), "utf8")).toContain("Node.js 20.20 or later on the 20 line, or 22 and later");
  });

  it("builds when packed from a clone or installed from git (prepare), and types resolve for every entry point", () => {
    const manifest = JSON.parse(readFileSync(path.join(unpacked, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
      exports: Record<string, { types?: string }>;
      typesVersions: Record<string, Record<string, string[]>>;
    };
    expect(manifest.scripts.prepare).toBe("npm run build");
    for (const entry of ["client", "schema", "emulator"]) {
      const declared = manifest.exports[`./${entry}`]!.types!;
      expect(existsSync(path.join(unpacked, declared))).toBe(true);
      // moduleResolution node10 (the 2024-2026 Pulumi template) reads typesVersions, not exports.
      expect(manifest.typesVersions["*"]![entry]).toEqual([declared.replace(/^\.\//, "")]);
    }
  });
});

describe("the provider plugin in the package", () => {
  it("ships its bin, its folder and its schema, and starts from the unpacked package as Pulumi starts it", async () => {
    const manifest = JSON.parse(readFileSync(path.join(unpacked, "package.json"), "utf8")) as { bin: Record<string, string> };
    expect(manifest.bin["pulumi-resource-insights"]).toBe("dist/provider/plugin/bin.js");
    for (const file of ["plugin/PulumiPlugin.yaml", "plugin/index.js", "dist/provider/plugin/bin.js", "dist/provider/plugin/schema.json", "docs/provider-plugins.md"]) {
      expect(existsSync(path.join(unpacked, file)), file).toBe(true);
    }
    // The engine executes it directly (docs/provider-plugins.md rule 13): it must stay executable once packed.
    expect(statSync(path.join(unpacked, "plugin/pulumi-resource-insights")).mode & 0o111).not.toBe(0);
    // A copy of its own, installed as npm would (the dependencies beside it), so the other tests read the package untouched.
    const installed = path.join(work, "installed");
    mkdirSync(installed);
    execFileSync("tar", ["-xzf", path.join(work, readdirSync(work).find((file) => file.endsWith(".tgz"))!), "-C", installed]);
    symlinkSync(path.join(REPOSITORY_ROOT, "node_modules"), path.join(installed, "package", "node_modules"), "dir");
    const plugin = await startProviderPlugin({ launcher: "executable", folder: path.join(installed, "package", "plugin"), cwd: work });
    try {
      const schema = JSON.parse(await plugin.getSchema()) as { name: string; resources: Record<string, unknown> };
      expect(schema.name).toBe("insights");
      expect(Object.keys(schema.resources)).toContain("insights:index:SavedFilter");
    } finally {
      await plugin.close();
    }
  });
});

/** A type in TypeDoc's JSON output, as far as these tests read it: a named type, or one made of others. */
type TypeDocType = { type: string; name?: string; typeArguments?: TypeDocType[]; declaration?: Reflection; [part: string]: unknown };
/** A comment in TypeDoc's JSON output: its summary is the description a reader sees. */
type TypeDocComment = { summary: { text: string }[] };
/** A call, construct or accessor signature in TypeDoc's JSON output. */
type Signature = { comment?: TypeDocComment; parameters?: Reflection[]; type: TypeDocType };
/** A reflection (module, class, member, parameter...) in TypeDoc's JSON output. */
type Reflection = {
  name: string;
  kind: number;
  comment?: TypeDocComment;
  flags?: { isExternal?: boolean };
  children?: Reflection[];
  signatures?: Signature[];
  getSignature?: Signature;
  setSignature?: Signature;
  type?: TypeDocType;
};

/** TypeDoc's ReflectionKind values that these tests look for. */
const KIND = { EnumMember: 16, Function: 64, Constructor: 512, Property: 1024, Method: 2048, Accessor: 262144 } as const;
const MEMBER_KINDS: ReadonlyMap<number, string> = new Map([
  [KIND.EnumMember, "enum member"],
  [KIND.Constructor, "constructor"],
  [KIND.Property, "property"],
  [KIND.Method, "method"],
  [KIND.Accessor, "accessor"],
]);
/** The reflections whose parameters a reader calls with: functions, methods and constructors (not a property of a function type). */
const CALLABLE_KINDS: ReadonlySet<number> = new Set([KIND.Function, KIND.Method, KIND.Constructor]);

/** Whether a comment has a description: a summary with text (a comment of tags alone has none). */
const hasDescription = (comment: TypeDocComment | undefined) => comment?.summary.some((part) => part.text.trim() !== "") ?? false;

/**
 * What the API reference shows without a description: every member of a class, an interface or an
 * object type (properties, constructors, methods, accessors, enum members), wherever it appears (an
 * interface, a variable's type, an inline parameter or result type), and every parameter of a
 * function, method or constructor whose type is not a named type: a parameter of a named type is
 * described by its type's page, one of type `string` or of an inline type only by its `@param`.
 * Members that the TypeScript library declares (an Error's `message`) are its to describe.
 */
function undescribed(project: Reflection): { checked: Record<"members" | "parameters", number>; missing: string[] } {
  const checked = { members: 0, parameters: 0 };
  const missing: string[] = [];
  const visit = (reflection: Reflection, where: string): void => {
    const kind = MEMBER_KINDS.get(reflection.kind);
    const signatures = [...(reflection.signatures ?? []), reflection.getSignature, reflection.setSignature].filter((signature) => signature !== undefined);
    if (kind !== undefined && !reflection.flags?.isExternal) {
      checked.members += 1;
      if (!hasDescription(reflection.comment) && !signatures.some((signature) => hasDescription(signature.comment))) missing.push(`${kind} ${where}`);
    }
    for (const child of reflection.children ?? []) visit(child, `${where}.${child.name}`);
    for (const signature of signatures) {
      for (const parameter of signature.parameters ?? []) {
        if (CALLABLE_KINDS.has(reflection.kind) && parameter.type?.type !== "reference") {
          checked.parameters += 1;
          if (!hasDescription(parameter.comment)) missing.push(`parameter ${where}(${parameter.name})`);
        }
        visitType(parameter.type, `${where}(${parameter.name})`);
      }
      visitType(signature.type, `${where}()`);
    }
    visitType(reflection.type, where);
  };
  const visitType = (type: unknown, where: string): void => {
    if (typeof type !== "object" || type === null) return;
    if ((type as TypeDocType).type === "reflection") return visit((type as TypeDocType).declaration!, where);
    for (const part of Object.values(type)) for (const inner of Array.isArray(part) ? part : [part]) visitType(inner, where);
  };
  for (const module of project.children ?? []) visit(module, module.name);
  return { checked, missing: [...new Set(missing)].sort() };
}


describe("API reference (TypeDoc)", () => {
  let project: Reflection;
  beforeAll(() => {
    const output = path.join(work, "api.json");
    // Without TypeDoc's own type check: `npm test` builds tsconfig.json, the same program, before the suite runs.
    execFileSync("npx", ["typedoc", "--json", output, "--out", path.join(work, "api"), "--skipErrorChecking"], { cwd: REPOSITORY_ROOT, stdio: ["ignore", "ignore", "pipe"] });
    project = JSON.parse(readFileSync(output, "utf8")) as Reflection;
  }, 120_000);

  it("titles modules by import path and documents every data source as a function with argument and result types", () => {
    expect(project.children!.map((module) => module.name).sort()).toEqual(["pulumi-insights", "pulumi-insights/client", "pulumi-insights/emulator"]);
    const main = project.children!.find((module) => module.name === "pulumi-insights")!;
    const names = new Set(main.children!.map((child) => child.name));
    const dataSources = main.children!.filter((child) => /^(get|estimate)[A-Z]/.test(child.name) && names.has(`${child.name}Output`));
    expect(dataSources.length).toBeGreaterThan(25);
    for (const promiseForm of dataSources) {
      const outputForm = main.children!.find((child) => child.name === `${promiseForm.name}Output`)!;
      // Pulumi's names: getX takes GetXArgs and answers GetXResult (the deprecated estimateFilterMatch those of getFilterMatchEstimate).
      const stem = promiseForm.name === "estimateFilterMatch" ? "GetFilterMatchEstimate" : promiseForm.name.replace(/^get/, "Get");
      for (const [form, result, argsType, optsType] of [
        [promiseForm, "Promise", `${stem}Args`, "DataSourceOptions"],
        [outputForm, "Output", `${stem}OutputArgs`, "DataSourceOutputOptions"],
      ] as const) {
        expect(form.kind, form.name).toBe(KIND.Function);
        const [signature] = form.signatures!;
        expect(signature!.parameters!.map((parameter) => [parameter.name, parameter.type!.name]), form.name).toEqual([["args", argsType], ["opts", optsType]]);
        expect(signature!.type.name, form.name).toBe(result);
        expect(signature!.type.typeArguments?.[0]?.name, form.name).toBe(`${stem}Result`);
      }
    }
  });

  it("gives every member, and every parameter of a plain or inline type, a description", () => {
    const { checked, missing } = undescribed(project);
    // The walk reaches what the reference shows: over a thousand members, some dozens of such parameters.
    expect(checked.members).toBeGreaterThan(1000);
    expect(checked.parameters).toBeGreaterThan(30);
    expect(missing).toEqual([]);
  });
});

/**
 * The compiler settings of `pulumi new typescript` projects: the template's tsconfig of today, and
 * the one it wrote from 2024 until early 2026 (CommonJS with node10 resolution, no esModuleInterop,
 * no skipLibCheck), which most existing projects still have.
 */
const TEMPLATE_OPTIONS = {
  strict: true,
  outDir: "bin",
  target: "es2020",
  sourceMap: true,
  experimentalDecorators: true,
  pretty: true,
  noFallthroughCasesInSwitch: true,
  noImplicitReturns: true,
  forceConsistentCasingInFileNames: true,
};
const TODAYS_TEMPLATE = { ...TEMPLATE_OPTIONS, module: "nodenext", moduleResolution: "nodenext" };
const OLD_TEMPLATE = { ...TEMPLATE_OPTIONS, module: "commonjs", moduleResolution: "node" };

/**
 * The compilers a user's program meets: the project's own TypeScript 5.9, TypeScript 6.0 (the
 * devDependency `typescript6`), the last within @pulumi/pulumi's peer range of typescript (below 7),
 * and TypeScript 7.0 (`typescript7`), npm's latest, outside that range but quick to check with
 * (docs/typescript-versions.md "TypeScript 7").
 */
const COMPILERS = {
  "TypeScript 5.9": { tsc: "node_modules/typescript/bin/tsc", version: /^Version 5\.9\./ },
  "TypeScript 6.0": { tsc: "node_modules/typescript6/bin/tsc", version: /^Version 6\.0\./ },
  "TypeScript 7.0": { tsc: "node_modules/typescript7/bin/tsc", version: /^Version 7\.0\./ },
};
type Compiler = keyof typeof COMPILERS;

/**
 * Each template with each compiler. TypeScript 6 deprecates node10 resolution (`moduleResolution`
 * `node`): the old template needs `"ignoreDeprecations": "6.0"` there, or a move to node16, which
 * every compiler takes; TypeScript 7 removed node10, so only node16 is left for the old template
 * (docs/typescript-versions.md "TypeScript 6 and the older template").
 */
const CONSUMERS: Array<[Compiler, string, Record<string, unknown>]> = [
  ["TypeScript 5.9", "today's template (module nodenext)", TODAYS_TEMPLATE],
  ["TypeScript 5.9", "the 2024-2026 template (commonjs, node, no esModuleInterop, no skipLibCheck)", OLD_TEMPLATE],
  ["TypeScript 6.0", "today's template (module nodenext)", TODAYS_TEMPLATE],
  ["TypeScript 6.0", "the 2024-2026 template with ignoreDeprecations 6.0", { ...OLD_TEMPLATE, ignoreDeprecations: "6.0" }],
  ["TypeScript 6.0", "the 2024-2026 template moved to module and moduleResolution node16", { ...OLD_TEMPLATE, module: "node16", moduleResolution: "node16" }],
  ["TypeScript 7.0", "today's template (module nodenext)", TODAYS_TEMPLATE],
  ["TypeScript 7.0", "the 2024-2026 template moved to module and moduleResolution node16", { ...OLD_TEMPLATE, module: "node16", moduleResolution: "node16" }],
];

/**
 * Every TypeScript block of README.md and docs/ (test/support/code-blocks.ts), each a file of the
 * consumer program beside index.ts, named after where it is (`snippets/README-md-L100.ts`): checked
 * by the same compiler runs, so a snippet that fails in a template names its block.
 */
const SNIPPETS = documentedCodeBlocks()
  .filter((block) => block.kind === "typescript")
  .map((block) => ({ file: `snippets/${fileNameOf(block, "ts")}`, code: block.code }));

describe("a Pulumi project using the packed package type-checks", () => {
  // The projects share one node_modules beside them, as npm would lay it out: the unpacked package,
  // and the repository's own installed dependencies linked in (offline, no install needed).
  let projects: string;
  beforeAll(() => {
    projects = path.join(work, "projects");
    const modules = path.join(projects, "node_modules");
    mkdirSync(modules, { recursive: true });
    for (const entry of readdirSync(path.join(REPOSITORY_ROOT, "node_modules"))) {
      if (entry.startsWith(".")) continue;
      symlinkSync(path.join(REPOSITORY_ROOT, "node_modules", entry), path.join(modules, entry));
    }
    execFileSync("tar", ["-xzf", path.join(work, readdirSync(work).find((file) => file.endsWith(".tgz"))!), "-C", modules]);
    execFileSync("mv", [path.join(modules, "package"), path.join(modules, "pulumi-insights")]);
  });

  /** A project of the consumer program with these compiler options; the compiler's output, errors included. */
  const compile = (compiler: Compiler, name: string, compilerOptions: Record<string, unknown>, args: string[]): string => {
    const project = path.join(projects, `${compiler}-${name}`.replace(/\W+/g, "-"));
    mkdirSync(project);
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", main: "index.js", dependencies: { "pulumi-insights": "0.1.0" } }));
    writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["index.ts", ...SNIPPETS.map(({ file }) => file)] }));
    copyFileSync(path.join(REPOSITORY_ROOT, "test/fixtures/consumer/index.ts"), path.join(project, "index.ts"));
    mkdirSync(path.join(project, "snippets"));
    for (const { file, code } of SNIPPETS) writeFileSync(path.join(project, file), code);
    try {
      return execFileSync(process.execPath, [path.join(REPOSITORY_ROOT, COMPILERS[compiler].tsc), "-p", project, "--pretty", "false", ...args], { cwd: project, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      return String((error as { stdout?: string }).stdout ?? error);
    }
  };

  it("has TypeScript 5.9 build the project and TypeScript 6.0 and 7.0 beside it", () => {
    for (const { tsc, version } of Object.values(COMPILERS)) {
      expect(execFileSync(process.execPath, [path.join(REPOSITORY_ROOT, tsc), "--version"], { encoding: "utf8" })).toMatch(version);
    }
    // `npm run build` runs the tsc that npm linked: 5.9's, which comes first by name (npm ci links so).
    expect(execFileSync(path.join(REPOSITORY_ROOT, "node_modules/.bin/tsc"), ["--version"], { encoding: "utf8" })).toMatch(COMPILERS["TypeScript 5.9"].version);
  });

  it.each(CONSUMERS)("with %s and %s: tsc --noEmit on a program that uses every entry point, and every TypeScript block of the docs", (compiler, name, compilerOptions) => {
    const listed = compile(compiler, name, compilerOptions, ["--noEmit", "--listFiles"]).split("\n");
    expect(listed.filter((line) => /error TS\d+/.test(line))).toEqual([]);
    // Every block was a file of the program.
    expect(SNIPPETS.length).toBeGreaterThan(10);
    expect(SNIPPETS.filter(({ file }) => !listed.some((listedFile) => listedFile.endsWith(file)))).toEqual([]);
    // The program really reached the package's declarations (not an `any` from a failed resolution),
    // and none of zod's.
    for (const entry of ["dist/provider/index.d.ts", "dist/provider/client/index.d.ts", "dist/emulator/index.d.ts", "dist/provider/schema/public.d.ts"]) {
      expect(listed.some((file) => file.endsWith(`pulumi-insights/${entry}`)), entry).toBe(true);
    }
    expect(listed.filter((file) => file.includes("/zod/"))).toEqual([]);
  }, 120_000);

  it("has TypeScript 6.0 refuse the 2024-2026 template as it is, naming the setting, which TypeScript 5.9 refuses in turn, and TypeScript 7.0 refuse node10 outright", () => {
    // --listFilesOnly reports the options' errors without checking the program.
    const refused = compile("TypeScript 6.0", "the 2024-2026 template as it is", OLD_TEMPLATE, ["--listFilesOnly"]);
    expect(refused).toMatch(/error TS5107: Option 'moduleResolution=node10' is deprecated .*"ignoreDeprecations": "6\.0"/);
    const older = compile("TypeScript 5.9", "the 2024-2026 template with ignoreDeprecations 6.0", { ...OLD_TEMPLATE, ignoreDeprecations: "6.0" }, ["--listFilesOnly"]);
    expect(older).toContain("error TS5103: Invalid value for '--ignoreDeprecations'.");
    const removed = compile("TypeScript 7.0", "the 2024-2026 template with ignoreDeprecations 6.0", { ...OLD_TEMPLATE, ignoreDeprecations: "6.0" }, ["--listFilesOnly"]);
    expect(removed).toContain("error TS5108: Option 'moduleResolution=node10' has been removed.");
  }, 120_000);
});
