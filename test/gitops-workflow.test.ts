import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ConcurrencyGroups, interpolate, jobRuns, type Contexts, type QueuedJob, type WorkflowStep } from "./support/github-actions";

/**
 * The GitOps workflow (examples/gitops/pulumi.yml) read as YAML, as GitHub reads it: which jobs each
 * event runs, what each job runs, and how its concurrency groups behave under GitHub's rules
 * (test/support/github-actions.ts): no update is ever dropped or stopped halfway, a push to a pull
 * request replaces only that pull request's preview, a fork's pull request gets a message rather
 * than a failure, and the workflow works when copied into a plain Pulumi project.
 */

type Step = WorkflowStep;
interface Job {
  if?: string;
  concurrency?: { group: string; "cancel-in-progress": boolean };
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, { branches?: string[] } | Array<{ cron: string }> | null>;
  concurrency?: unknown;
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

const workflow = parse(readFileSync(path.join(__dirname, "..", "examples", "gitops", "pulumi.yml"), "utf8")) as Workflow;
const jobNames = Object.keys(workflow.jobs);
const REPOSITORY = "acme/insights-filters";

/** The contexts of a run started by an event (only what the workflow's expressions read). */
function contextsOf(event: "push" | "pull_request" | "schedule" | "workflow_dispatch", options: { sha?: string; pullRequest?: number; fromFork?: boolean; stack?: string } = {}): Contexts {
  return {
    vars: options.stack === undefined ? {} : { PULUMI_STACK: options.stack },
    github: {
      event_name: event,
      repository: REPOSITORY,
      ref: event === "pull_request" ? `refs/pull/${options.pullRequest}/merge` : "refs/heads/main",
      sha: options.sha ?? "0000000",
      event:
        event === "pull_request"
          ? { pull_request: { number: options.pullRequest, head: { repo: { full_name: options.fromFork ? "someone/insights-filters" : REPOSITORY } } } }
          : {},
    },
  };
}

const jobsFor = (contexts: Contexts) => jobNames.filter((name) => jobRuns(workflow.jobs[name]!, contexts));
const script = (job: string) => workflow.jobs[job]!.steps.map((step) => step.run ?? "").join("\n");
/** The index of the first step of a job that satisfies `test`, -1 when none does. */
const stepIndex = (job: string, test: (step: Step) => boolean) => workflow.jobs[job]!.steps.findIndex(test);

describe("the GitOps workflow: events and jobs", () => {
  it("runs on pull requests to main, pushes to main, a daily schedule and on demand, each event its own job", () => {
    expect(Object.keys(workflow.on).sort()).toEqual(["pull_request", "push", "schedule", "workflow_dispatch"]);
    expect(workflow.on.pull_request).toEqual({ branches: ["main"] });
    expect(workflow.on.push).toEqual({ branches: ["main"] });
    expect(workflow.on.schedule).toEqual([{ cron: expect.stringMatching(/^\d+ \d+ \* \* \*$/) }]);

    expect(jobsFor(contextsOf("push"))).toEqual(["up"]);
    expect(jobsFor(contextsOf("pull_request", { pullRequest: 7 }))).toEqual(["preview"]);
    expect(jobsFor(contextsOf("schedule"))).toEqual(["drift"]);
    expect(jobsFor(contextsOf("workflow_dispatch"))).toEqual(["drift"]);
  });

  it("runs the command of each job, and only the update applies anything", () => {
    expect(script("preview")).toMatch(/^pulumi preview --diff --refresh .*--stack "\$PULUMI_STACK" 2>&1 \| tee preview\.txt$/m);
    expect(script("up")).toMatch(/^pulumi up --yes --refresh --non-interactive --stack "\$PULUMI_STACK"$/m);
    expect(script("drift")).toMatch(/^pulumi preview --refresh --expect-no-changes --diff .*--stack "\$PULUMI_STACK" 2>&1 \| tee drift\.txt && exit 0$/m);
    for (const job of jobNames.filter((name) => name !== "up")) {
      expect(script(job), job).not.toMatch(/^\s*pulumi (up|update|destroy|refresh|import|state)\b/m);
    }
    // The preview's own exit status survives the pipe into tee.
    expect(script("preview")).toContain("set -o pipefail");
    expect(script("drift")).toContain("set -o pipefail");
  });

  it("installs, builds only where the project has a build script, installs the CLI, then runs pulumi", () => {
    for (const job of ["preview", "up", "drift"]) {
      const order = [
        stepIndex(job, (step) => step.uses?.startsWith("actions/checkout@") ?? false),
        stepIndex(job, (step) => step.run === "npm ci"),
        stepIndex(job, (step) => step.run === "npm run build --if-present"),
        stepIndex(job, (step) => step.uses?.startsWith("pulumi/actions@") ?? false),
        stepIndex(job, (step) => /^pulumi (preview|up) /m.test(step.run ?? "")),
      ];
      expect(order.every((index) => index >= 0), `${job}: ${order.join(", ")}`).toBe(true);
      expect([...order].sort((a, b) => a - b), job).toEqual(order);
    }
    // No script of this repository is relied on: a script run through npm is skipped when absent.
    const npmScripts = jobNames.flatMap((job) => [...script(job).matchAll(/\bnpm (?:run(?:-script)?|start|test)\b[^\n]*/g)].map((match) => match[0]));
    expect(npmScripts.length).toBeGreaterThan(0);
    for (const command of npmScripts) expect(command).toMatch(/^npm run \S+ --if-present$/);
    expect(jobNames.flatMap((job) => script(job).match(/\b(?:scripts|dist|examples)\//g) ?? [])).toEqual([]);
  });

  it("uses the current major version of every action, the same in every job", () => {
    // The newest major of each, looked up in November 2026: actions/checkout 7 (June 2026), actions/setup-node 7
    // (July 2026), pulumi/actions 7 (May 2026, the Node 24 runtime).
    const CURRENT_MAJORS: Record<string, string> = { "actions/checkout": "v7", "actions/setup-node": "v7", "pulumi/actions": "v7" };
    const used = jobNames.flatMap((job) => workflow.jobs[job]!.steps.flatMap((step) => (step.uses ? [step.uses] : [])));
    expect(used.length).toBeGreaterThan(0);
    for (const uses of used) {
      const [action, version] = uses.split("@");
      expect(CURRENT_MAJORS, uses).toHaveProperty([action!]);
      expect(version, uses).toBe(CURRENT_MAJORS[action!]);
    }
  });

  it("names the settings it reads: the backend and passphrase secrets and the stack variable", () => {
    expect(workflow.env).toMatchObject({
      PULUMI_STACK: "${{ vars.PULUMI_STACK || 'prod' }}",
      PULUMI_CONFIG_PASSPHRASE: "${{ secrets.PULUMI_CONFIG_PASSPHRASE }}",
      PULUMI_BACKEND_URL: "${{ secrets.PULUMI_BACKEND_URL }}",
      PULUMI_ACCESS_TOKEN: "${{ secrets.PULUMI_ACCESS_TOKEN }}",
    });
    expect(interpolate(workflow.env.PULUMI_STACK!, contextsOf("push"))).toBe("prod");
    expect(interpolate(workflow.env.PULUMI_STACK!, contextsOf("push", { stack: "staging" }))).toBe("staging");
  });
});

describe("the GitOps workflow: pull requests from forks", () => {
  it("answers a fork's pull request with a job that says why there is no preview, and passes", () => {
    const fromFork = contextsOf("pull_request", { pullRequest: 9, fromFork: true });
    expect(jobsFor(fromFork)).toEqual(["preview-from-fork"]);
    // A deleted fork has no head repository at all.
    const deletedFork = contextsOf("pull_request", { pullRequest: 9 }) as { github: { event: { pull_request: { head: { repo: unknown } } } } };
    deletedFork.github.event.pull_request.head.repo = null;
    expect(jobsFor(deletedFork as unknown as Contexts)).toEqual(["preview-from-fork"]);

    const notice = workflow.jobs["preview-from-fork"]!;
    const text = script("preview-from-fork");
    expect(text).toContain('>> "$GITHUB_STEP_SUMMARY"');
    expect(text).toMatch(/no secrets/);
    expect(text).toMatch(/^echo "::notice /m);
    // It passes: nothing in it can fail for want of a secret, and it runs nothing of the fork.
    expect(text).not.toMatch(/\bexit [1-9]|^\s*(?:pulumi|npm|gh|node|npx)\b/m);
    expect(notice.steps.filter((step) => step.uses !== undefined)).toEqual([]);
    expect(JSON.stringify(notice)).not.toContain("secrets.");
  });

  it("posts the preview as one comment per pull request, edited on each push", () => {
    const preview = workflow.jobs.preview!;
    expect(preview.permissions).toEqual({ contents: "read", "pull-requests": "write", actions: "read" });
    const previewStep = stepIndex("preview", (step) => /^pulumi preview --diff /m.test(step.run ?? ""));
    const commentStep = stepIndex("preview", (step) => (step.run ?? "").includes("/comments"));
    // After the preview, and even when it failed, so that the reviewer reads why.
    expect(commentStep).toBeGreaterThan(previewStep);
    const comment = preview.steps[commentStep]!;
    expect(comment.if).toContain("always()");
    expect(comment.env).toMatchObject({ GH_TOKEN: "${{ github.token }}", PULL_REQUEST: "${{ github.event.pull_request.number }}" });
    // The comment carrying the marker is edited (PATCH) when there is one; a new one is made only otherwise.
    const commands = comment.run!;
    const marker = /marker='([^']+)'/.exec(commands)?.[1];
    expect(marker).toMatch(/^<!-- .+ -->$/);
    expect(commands).toContain('echo "$marker"');
    expect(commands).toMatch(/gh api --paginate "repos\/\$GITHUB_REPOSITORY\/issues\/\$PULL_REQUEST\/comments"[\s\S]*startswith\(\\"\$marker\\"\)/);
    expect(commands).toMatch(/if \[ -n "\$existing" \]; then\s+gh api --method PATCH "repos\/\$GITHUB_REPOSITORY\/issues\/comments\/\$existing" -F body=@comment.md[^\n]*\n\s*else\s+gh api --method POST "repos\/\$GITHUB_REPOSITORY\/issues\/\$PULL_REQUEST\/comments"/);
  });

  it("fails the drift check with what changed: the diff in the summary, an error annotation", () => {
    expect(script("drift")).toMatch(/tee drift\.txt && exit 0\n[\s\S]*drift\.txt[\s\S]*GITHUB_STEP_SUMMARY[\s\S]*::error[\s\S]*exit 1\s*$/);
  });
});

describe("the GitOps workflow: concurrency", () => {
  it("has no workflow-wide group: each job has its own, updates never cancelled while running", () => {
    expect(workflow.concurrency).toBeUndefined();
    expect(workflow.jobs.preview!.concurrency?.["cancel-in-progress"]).toBe(true);
    expect(workflow.jobs.up!.concurrency?.["cancel-in-progress"]).toBe(false);
    expect(workflow.jobs.drift!.concurrency?.["cancel-in-progress"]).toBe(false);
  });

  it("groups previews per pull request and stack, updates and drift checks per stack, each apart", () => {
    const group = (job: string, contexts: Contexts) => interpolate(workflow.jobs[job]!.concurrency!.group, contexts).toLowerCase();
    const preview7 = group("preview", contextsOf("pull_request", { pullRequest: 7 }));
    expect(group("preview", contextsOf("pull_request", { pullRequest: 7, sha: "later" }))).toBe(preview7);
    expect(group("preview", contextsOf("pull_request", { pullRequest: 8 }))).not.toBe(preview7);
    expect(group("preview", contextsOf("pull_request", { pullRequest: 7, stack: "staging" }))).not.toBe(preview7);
    const up = group("up", contextsOf("push", { sha: "a" }));
    expect(group("up", contextsOf("push", { sha: "b" }))).toBe(up);
    expect(group("up", contextsOf("push", { stack: "staging" }))).not.toBe(up);
    const drift = group("drift", contextsOf("schedule"));
    expect(group("drift", contextsOf("workflow_dispatch"))).toBe(drift);
    expect(new Set([preview7, up, drift]).size).toBe(3);
  });

  it("applies the last push whatever GitHub cancels on the way, and never stops an update or replaces a preview of another pull request", () => {
    const groups = new ConcurrencyGroups();
    let head = "c0";
    const applied: string[] = [];
    const queued: Array<{ job: string; run: QueuedJob }> = [];
    /** The runs of one event: each job the event runs, queued into its group. */
    const trigger = (contexts: Contexts) => {
      for (const job of jobsFor(contexts)) {
        const definition = workflow.jobs[job]!;
        const checkout = definition.steps.find((step) => step.uses?.startsWith("actions/checkout@"))!;
        const run: QueuedJob = {
          name: `${job} of ${JSON.stringify((contexts.github as { sha: string }).sha)}`,
          group: interpolate(definition.concurrency!.group, contexts),
          cancelInProgress: definition.concurrency!["cancel-in-progress"],
          onStart: () => {
            if (job !== "up") return;
            // actions/checkout takes the event's commit unless told a ref; a branch ref is its head now.
            const ref = checkout.with?.ref === undefined ? undefined : interpolate(String(checkout.with.ref), contexts);
            applied.push(ref === "refs/heads/main" ? head : (contexts.github as { sha: string }).sha);
          },
        };
        queued.push({ job, run });
        groups.queue(run);
      }
    };
    const push = (commit: string) => contextsOf("push", { sha: commit });
    const upGroup = interpolate(workflow.jobs.up!.concurrency!.group, push("c0"));

    head = "c1";
    trigger(push("c1")); // runs
    trigger(contextsOf("pull_request", { pullRequest: 7, sha: "p7a" }));
    head = "c2";
    trigger(push("c2")); // waits behind c1
    trigger(contextsOf("schedule", { sha: "daily" })); // a drift check while an update runs and another waits
    trigger(contextsOf("pull_request", { pullRequest: 7, sha: "p7b" })); // replaces p7a
    trigger(contextsOf("pull_request", { pullRequest: 8, sha: "p8" }));
    trigger(contextsOf("workflow_dispatch", { sha: "on demand" })); // a second drift check waits
    // c3 then c4 pushed in quick succession, and GitHub queues their runs in the other order.
    head = "c4";
    trigger(push("c4"));
    trigger(push("c3"));
    groups.finish(upGroup);
    trigger(contextsOf("schedule", { sha: "next day" }));
    groups.finishAll();

    // The update of c1, then one that holds every later push.
    expect(applied).toEqual(["c1", "c4"]);
    const outcomes = queued.map(({ job, run }) => ({ job, name: run.name, outcome: groups.outcomes.get(run)! }));
    const cancellations = outcomes.flatMap(({ job, name, outcome }) =>
      typeof outcome === "object" ? [{ job, name, by: outcome.cancelledBy.name, whileRunning: outcome.whileRunning }] : [],
    );
    expect(cancellations).toEqual([
      { job: "preview", name: 'preview of "p7a"', by: 'preview of "p7b"', whileRunning: true },
      { job: "up", name: 'up of "c2"', by: 'up of "c4"', whileRunning: false },
      { job: "drift", name: 'drift of "on demand"', by: 'drift of "next day"', whileRunning: false },
      { job: "up", name: 'up of "c4"', by: 'up of "c3"', whileRunning: false },
    ]);
    expect(outcomes.filter(({ outcome }) => outcome !== "finished" && typeof outcome !== "object")).toEqual([]);
  });
});
