import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { interpolate, type Contexts, type WorkflowStep } from "./support/github-actions";

/**
 * The release workflow (.github/workflows/release.yml, docs/releasing.md) read as YAML, as GitHub
 * reads it: on a `v*` tag it checks the version, runs the suite, builds the standalone plugin of six
 * platforms each on its own runner, releases them with their checksums, then publishes to npm and
 * the SDKs; each job with the least permissions it needs, every action pinned to a commit, every
 * script it calls present, and each publishing step run with its secret absent passes with a notice.
 */

type Step = WorkflowStep;
interface Job {
  needs?: string | string[];
  "runs-on": string;
  permissions?: Record<string, string>;
  strategy?: { matrix: { include: Array<Record<string, string>> } };
  env?: Record<string, string>;
  outputs?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  concurrency: { group: string; "cancel-in-progress": boolean };
  jobs: Record<string, Job>;
}

const ROOT = path.join(__dirname, "..");
const WORKFLOW_FILE = path.join(ROOT, ".github", "workflows", "release.yml");
const text = readFileSync(WORKFLOW_FILE, "utf8");
const workflow = parse(text) as Workflow;
const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string>; devDependencies: Record<string, string> };
const jobNames = Object.keys(workflow.jobs);
const needsOf = (job: string): string[] => [workflow.jobs[job]!.needs ?? []].flat();
const script = (job: string) => workflow.jobs[job]!.steps.map((step) => step.run ?? "").join("\n");
const stepNamed = (job: string, name: string) => workflow.jobs[job]!.steps.find((step) => step.name === name)!;
/** Every job that must have finished before `job` starts, through `needs`. */
function before(job: string): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string) => needsOf(name).forEach((need) => (seen.has(need) ? undefined : (seen.add(need), visit(need))));
  visit(job);
  return seen;
}

/** GitHub's standard runners, by label: Pulumi's name of their operating system and architecture. */
const RUNNER_PLATFORMS: Record<string, string> = {
  "ubuntu-24.04": "linux-amd64",
  "ubuntu-24.04-arm": "linux-arm64",
  "macos-15-intel": "darwin-amd64",
  "macos-15": "darwin-arm64",
  "windows-2025": "windows-amd64",
  "windows-11-arm": "windows-arm64",
};

describe("the release workflow: when and in which order", () => {
  it("runs on a v* tag only, one release of a tag at a time, never cancelled halfway", () => {
    expect(workflow.on).toEqual({ push: { tags: ["v*"] } });
    expect(workflow.concurrency["cancel-in-progress"]).toBe(false);
    const tag = (name: string): Contexts => ({ github: { ref: `refs/tags/${name}` } });
    expect(interpolate(workflow.concurrency.group, tag("v0.2.0"))).not.toBe(interpolate(workflow.concurrency.group, tag("v0.2.1")));
  });

  it("checks the version before anything, publishes nothing before the suite passed and the archives are released", () => {
    expect(jobNames.filter((job) => needsOf(job).length === 0)).toEqual(["check"]);
    for (const job of jobNames.filter((name) => name !== "check")) expect(before(job).has("check"), job).toBe(true);
    expect(before("release")).toEqual(new Set(["check", "test", "plugin"]));
    // npm's package names the archives in its schema: they are released first; so are the SDKs'.
    for (const job of ["npm", "sdks"]) expect([...before(job)].sort(), job).toEqual(["check", "plugin", "release", "test"]);
    expect(script("check")).toMatch(/^node scripts\/release-check\.cjs --tag "\$GITHUB_REF_NAME" --repository "\$GITHUB_REPOSITORY"$/m);
    expect(workflow.jobs.check!.outputs).toEqual({ version: "${{ steps.check.outputs.version }}" });
    expect(script("test")).toMatch(/^npm test$/m);
  });
});

describe("the release workflow: the standalone plugin", () => {
  it("builds linux, darwin and windows on amd64 and arm64, each on a runner of that platform", () => {
    const plugin = workflow.jobs.plugin!;
    const entries = plugin.strategy!.matrix.include;
    const platforms = entries.map((entry) => `${entry.os}-${entry.arch}`);
    expect([...platforms].sort()).toEqual(["darwin-amd64", "darwin-arm64", "linux-amd64", "linux-arm64", "windows-amd64", "windows-arm64"]);
    for (const entry of entries) expect(RUNNER_PLATFORMS[entry.runner!], entry.runner).toBe(`${entry.os}-${entry.arch}`);
    expect(plugin["runs-on"]).toBe("${{ matrix.runner }}");
  });

  it("packages, checks the archive's name, runs it through the lifecycle with no node on PATH, and uploads it", () => {
    const steps = workflow.jobs.plugin!.steps;
    const order = [
      steps.findIndex((step) => step.run === "npm ci"),
      steps.findIndex((step) => step.run === "npm run plugin:package -- --out release"),
      steps.findIndex((step) => /pulumi-resource-insights-v\$VERSION-\$\{\{ matrix\.os \}\}-\$\{\{ matrix\.arch \}\}\.tar\.gz/.test(step.run ?? "")),
      steps.findIndex((step) => step.run === "npx vitest run test/plugin/standalone.test.ts --project standard" && step.env?.INSIGHTS_PLUGIN_RELEASE === "release"),
      steps.findIndex((step) => step.uses?.startsWith("actions/upload-artifact@") && step.with?.path === "release/"),
    ];
    expect(order.every((index) => index >= 0), order.join(", ")).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it("releases six archives with their checksums, the schema and the npm tarball, its notes the changelog's section", () => {
    const gather = script("release");
    expect(gather).toContain("npm pack --pack-destination release");
    expect(gather).toContain("sha256sum --check *.sha256");
    expect(gather).toMatch(/sha256sum \*\.tar\.gz \*\.tgz "\$schema" > "pulumi-insights-v\$VERSION-checksums\.txt"/);
    expect(gather).toMatch(/= 6$/m);
    expect(gather).toMatch(/node scripts\/release-check\.cjs .*--notes notes\.md/);
    expect(gather).toMatch(/^gh release create "\$GITHUB_REF_NAME" release\/\* --verify-tag .*--notes-file notes\.md$/m);
  });
});

describe("the release workflow: publishing", () => {
  it("publishes to npm with provenance, and generates the SDKs of four languages from the released schema", () => {
    expect(script("npm")).toMatch(/^\s*npm publish --provenance --access public$/m);
    expect(workflow.jobs.npm!.steps.find((step) => step.uses?.startsWith("actions/setup-node@"))!.with).toMatchObject({ "registry-url": "https://registry.npmjs.org" });
    const generate = stepNamed("sdks", "pulumi package gen-sdk").run!;
    expect(generate).toMatch(/for language in python go dotnet nodejs; do/);
    expect(generate).toContain('npx --no-install pulumi package gen-sdk "plugin/pulumi-insights-v$VERSION-schema.json" --language "$language" --out sdk');
    // The schema of the release, as the linux-amd64 runner wrote it (the release job compared it with the others').
    expect(workflow.jobs.sdks!.steps.find((step) => step.uses?.startsWith("actions/download-artifact@"))!.with).toEqual({ name: "plugin-linux-amd64", path: "plugin" });
    expect(script("sdks")).toMatch(/^\s*git push origin "sdk\/v\$VERSION"$/m);
    expect(script("sdks")).toMatch(/^\s*go mod init "github\.com\/\$GITHUB_REPOSITORY\/sdk"$/m);
  });

  describe("each publishing step, its secret absent, says so and passes; with it, publishes", () => {
    const work = mkdtempSync(path.join(tmpdir(), "insights-release-steps-"));
    afterAll(() => rmSync(work, { recursive: true, force: true }));
    // Stand-ins for the tools a step would publish with: each records its arguments and fails.
    const bin = path.join(work, "bin");
    const calls = path.join(work, "calls.txt");
    mkdirSync(bin);
    for (const tool of ["npm", "python", "dotnet"]) {
      writeFileSync(path.join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> "${calls}"\nexit 1\n`);
      chmodSync(path.join(bin, tool), 0o755);
    }
    mkdirSync(path.join(work, "sdk", "python"), { recursive: true });
    mkdirSync(path.join(work, "sdk", "dotnet"), { recursive: true });

    /** Runs a step's script as its `bash` step would, with its env's secret given `secret` as value. */
    const runStep = (job: string, name: string, secret: string) => {
      const step = stepNamed(job, name);
      expect(step.shell).toBe("bash");
      const [variable, value] = Object.entries(step.env ?? {}).find(([, source]) => /^\$\{\{ secrets\.\w+ \}\}$/.test(source))!;
      rmSync(calls, { force: true });
      const result = spawnSync("bash", ["-e", "-c", step.run!], { cwd: work, encoding: "utf8", env: { PATH: `${bin}${path.delimiter}${process.env.PATH}`, [variable]: secret } });
      return { secretName: /secrets\.(\w+)/.exec(value)![1]!, status: result.status, stdout: result.stdout, calls: existsSync(calls) ? readFileSync(calls, "utf8") : "" };
    };

    it.each([
      ["npm", "npm publish --provenance", "NPM_TOKEN", /^npm publish --provenance --access public$/m],
      ["sdks", "Publish to PyPI", "PYPI_API_TOKEN", /^python -m pip install /m],
      ["sdks", "Publish to NuGet", "NUGET_API_KEY", /^dotnet pack /m],
    ] as const)("%s: %s", (job, name, secretName, publishes) => {
      const skipped = runStep(job, name, "");
      expect(skipped).toMatchObject({ secretName, status: 0, calls: "" });
      expect(skipped.stdout).toMatch(new RegExp(`^::notice title=[^:]+ skipped::the secret ${secretName} is not set`, "m"));
      // The secret set, the step goes on to publish (here into a stand-in that fails).
      const published = runStep(job, name, "a-token");
      expect(published.status).not.toBe(0);
      expect(published.calls).toMatch(publishes);
    });
  });
});

describe("the release workflow: least privilege and pinned actions", () => {
  it("grants nothing by default; each job asks for what it needs, writes only where it releases", () => {
    expect(workflow.permissions).toEqual({});
    const permissions = Object.fromEntries(jobNames.map((job) => [job, workflow.jobs[job]!.permissions]));
    expect(permissions).toEqual({
      check: { contents: "read" },
      test: { contents: "read" },
      plugin: { contents: "read" },
      release: { contents: "write" },
      npm: { contents: "read", "id-token": "write" },
      sdks: { contents: "write" },
    });
    // Secrets reach only the steps that publish with them, never a job that runs the suite or a build.
    for (const job of ["check", "test", "plugin", "release"]) expect(JSON.stringify(workflow.jobs[job]), job).not.toContain("secrets.");
    for (const job of jobNames) {
      for (const step of workflow.jobs[job]!.steps) {
        if (step.env && JSON.stringify(step.env).includes("secrets.")) expect(step.name, `${job}: a step with a secret`).toMatch(/publish/i);
      }
    }
    // Only the job that pushes the Go module's tag keeps the checkout's credentials.
    for (const job of jobNames) {
      const checkout = workflow.jobs[job]!.steps.find((step) => step.uses?.startsWith("actions/checkout@"))!;
      expect(checkout.with?.["persist-credentials"], job).toBe(job === "sdks" ? undefined : false);
    }
  });

  it("pins every action to a full commit SHA with its tag beside it, the same in every job", () => {
    const uses = [...text.matchAll(/^\s*- uses: (\S+)(.*)$/gm)].map(([, reference, comment]) => ({ reference: reference!, comment: comment!.trim() }));
    expect(uses.length).toBeGreaterThan(10);
    const shaOf = new Map<string, string>();
    for (const { reference, comment } of uses) {
      const [action, sha] = reference.split("@");
      expect(sha, reference).toMatch(/^[0-9a-f]{40}$/);
      expect(comment, reference).toMatch(/^# v\d+\.\d+\.\d+$/);
      expect(shaOf.get(action!) ?? sha, action).toBe(sha);
      shaOf.set(action!, sha!);
    }
    expect([...shaOf.keys()].sort()).toEqual(["actions/checkout", "actions/download-artifact", "actions/setup-go", "actions/setup-node", "actions/setup-python", "actions/upload-artifact"]);
  });

  it("calls only scripts that exist: files under scripts/, npm scripts, test files, the pinned Pulumi CLI", () => {
    const commands = jobNames.map(script).join("\n");
    const files = [...commands.matchAll(/\bnode (scripts\/\S+)/g), ...commands.matchAll(/\bnpx vitest run (\S+)/g)].map((match) => match[1]!);
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) expect(existsSync(path.join(ROOT, file)), file).toBe(true);
    const npmScripts = [...commands.matchAll(/\bnpm run ([\w:-]+)/g)].map((match) => match[1]!);
    expect(npmScripts).toContain("plugin:package");
    for (const name of npmScripts) expect(manifest.scripts, name).toHaveProperty([name]);
    expect(manifest.scripts).toHaveProperty(["test"]);
    // `npx --no-install` runs only what npm ci installed: the Pulumi CLI's launcher, pinned.
    expect([...commands.matchAll(/\bnpx --no-install (\S+)/g)].map((match) => match[1])).toEqual(["pulumi"]);
    expect(manifest.devDependencies.pulumi).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
