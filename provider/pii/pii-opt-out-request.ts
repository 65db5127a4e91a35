import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { InsightsError, InternalServerError, RateLimitError } from "../client/core/errors";
import { changeKind, ResourcePartialFailureError, type PlannedDiff, type PropertyChanges, type PropertyFailure, type ResourceCore } from "../accounts/calls";
import { outcomeWait, report, sharedClient } from "../accounts/runtime";
import { describeRequests, isSettled, overallStatus, SubmissionProgress, untrackedIdentifiers, type OverallStatus } from "./progress";
import { redactor } from "./redact";
import { batchesOf, Submission } from "./submission";
import { refreshStatuses, waitUntilFinished, WaitTimeoutError } from "./waiting";
import { isUnknown } from "../rules";
import {
  checkInputs,
  declarationOf,
  distinctSorted,
  IDENTIFIER_PROPERTIES,
  OPT_OUT_DEFAULTS,
  PERSONAL_PROPERTIES,
  type OptOutDeclaration,
} from "./inputs";
import { revealed, wireSecret, type WireSecret } from "../accounts/wire-secret";
import { accountChange, accountChanges, accountOutputs, boundAccount, checkAccountConnection, declaredAccount } from "../accounts/binding";
import type { PiiOptOutRequestOutputs } from "../schema/resource-records";
import type { AccountNeed } from "../connection-check/probe";
import { identifierSetDigest, newDigestSalt, type IdentifierKind } from "./digest";
import { buildReceipt, type PiiOptOutReceipt } from "./receipt";
import { describeVerification, verifyDeletion, type DeletionVerification } from "./verification";

/**
 * The outputs recorded in the state (./opt-out-properties.ts): the personal lists as secret markers,
 * which the engine stores encrypted whatever the host; the rest plain (the account included).
 */
export type PiiOptOutOutputs = Omit<PiiOptOutRequestOutputs, (typeof PERSONAL_PROPERTIES)[number]> & {
  [Property in (typeof PERSONAL_PROPERTIES)[number]]?: WireSecret<string[]>;
};

/** The parts of stored outputs the host reads back (tolerant: older or partial states parse too). */
const StoredOutputs = z.looseObject({
  identifierDigest: z.string(),
  identifierDigestSalt: z.string(),
  requests: SubmissionProgress.shape.requests,
  batchesSubmitted: SubmissionProgress.shape.batchesSubmitted,
  batchCount: z.number().int().nonnegative().optional(),
  status: z.string().optional(),
  waitForCompletion: z.boolean().optional(),
  waitTimeoutSeconds: z.number().optional(),
  pollIntervalSeconds: z.number().optional(),
  verifyDeletion: z.boolean().optional(),
  resourceName: z.string().optional(),
  // Written by this provider (provider/pii/verification.ts); read back only to keep it when no new check runs.
  verification: z.custom<DeletionVerification>((value) => typeof value === "object" && value !== null).optional(),
});

/** Whatever part of {@link StoredOutputs} a state holds: diff, read and delete accept any state. */
const StoredParts = StoredOutputs.partial();
type StoredParts = z.infer<typeof StoredParts>;

/** The parts of `olds` that parse; none when any of them is malformed. */
function storedParts(olds: Record<string, unknown>): StoredParts {
  const parsed = StoredParts.safeParse(olds);
  return parsed.success ? parsed.data : {};
}

/** One resource's run: its id, digest, progress, declaration and the redactor of its personal data. */
interface OptOutRun {
  id: string;
  digest: string;
  salt: string;
  progress: SubmissionProgress;
  declaration: OptOutDeclaration;
  batches: string[][];
  redact: (text: string) => string;
  verification?: DeletionVerification;
  /** The account of `insights:accounts` the requests are made in; undefined: the stack's default settings. */
  account?: string;
}

function labelOf(declaration: Pick<OptOutDeclaration, "resourceName">, id?: string): string {
  return `PiiOptOutRequest ${declaration.resourceName !== undefined ? `"${declaration.resourceName}"` : (id ?? "")}`.trim();
}

/** The redactor of a declaration's identifiers and addresses. */
function personalRedactor(declaration: Pick<OptOutDeclaration, "identifiers" | "notificationEmails">): (text: string) => string {
  return redactor([...declaration.identifiers, ...(declaration.notificationEmails ?? [])]);
}

function runOf(id: string, declaration: OptOutDeclaration, salt: string, digest: string, progress: SubmissionProgress, account: string | undefined): OptOutRun {
  return { id, digest, salt, progress, declaration, batches: batchesOf(declaration.identifiers), redact: personalRedactor(declaration), ...(account === undefined ? {} : { account }) };
}

/**
 * The receipt of a run: its requests with their times, the identifier figures and digest, and the
 * verification. Dated by the last event it reports (the deletion check, else the last request
 * finished, else the last request made), never by the clock of the read, so an unchanged resource
 * keeps the same receipt and a refresh shows no drift.
 */
function receiptOf(run: OptOutRun, status: OverallStatus, previouslySubmitted: number): PiiOptOutReceipt {
  const { declaration, progress } = run;
  // Compared as instants, whatever offset the service writes them in.
  const latest = (times: Array<string | undefined>) =>
    times.filter((time): time is string => time !== undefined).sort((left, right) => Date.parse(left) - Date.parse(right)).at(-1);
  return buildReceipt({
    generatedAt: run.verification?.checkedAt
      ?? latest(progress.requests.map((request) => request.finishedAt))
      ?? latest(progress.requests.map((request) => request.createdAt))
      ?? new Date().toISOString(),
    status,
    requests: progress.requests.map((request) => ({
      id: request.id,
      status: request.status,
      ...(request.createdAt === undefined ? {} : { createdAt: request.createdAt }),
      ...(request.finishedAt === undefined ? {} : { finishedAt: request.finishedAt }),
      identifiers: request.identifiers,
      origin: request.origin,
    })),
    identifiers: {
      kind: declaration.kind,
      count: declaration.identifiers.length,
      created: progress.requests.reduce((sum, request) => sum + (request.created ?? 0), 0),
      previouslySubmitted,
      digest: run.digest,
      digestSalt: run.salt,
    },
    ...(run.verification === undefined ? {} : { verification: run.verification }),
  });
}

function outputsOf(run: OptOutRun): PiiOptOutOutputs {
  const { declaration, progress } = run;
  const batchCount = run.batches.length;
  const untracked = untrackedIdentifiers(progress, declaration.identifiers.length, batchCount);
  const adopted = progress.requests.filter((request) => request.origin === "adopted").reduce((sum, request) => sum + request.identifiers, 0);
  const status = overallStatus(progress, batchCount);
  return {
    [IDENTIFIER_PROPERTIES[declaration.kind]]: wireSecret(declaration.identifiers),
    ...(declaration.notificationEmails === undefined ? {} : { notificationEmails: wireSecret(declaration.notificationEmails) }),
    identifierKind: declaration.kind,
    identifierCount: declaration.identifiers.length,
    identifierDigest: run.digest,
    identifierDigestSalt: run.salt,
    requests: progress.requests.map((request) => ({ ...request })),
    status,
    batchCount,
    batchesSubmitted: progress.batchesSubmitted,
    previouslySubmitted: adopted + untracked,
    untracked,
    waitForCompletion: declaration.waitForCompletion,
    waitTimeoutSeconds: declaration.waitTimeoutSeconds,
    pollIntervalSeconds: declaration.pollIntervalSeconds,
    verifyDeletion: declaration.verifyDeletion,
    ...(declaration.resourceName === undefined ? {} : { resourceName: declaration.resourceName }),
    ...(run.verification === undefined ? {} : { verification: run.verification }),
    receipt: receiptOf(run, status, adopted + untracked),
    ...accountOutputs(run.account),
  };
}

/**
 * Once every request is FINISHED and `verifyDeletion` is on, checks that the viewers' sessions are
 * gone (provider/pii/verification.ts) and prints the figures, with a warning for identifiers still present. A
 * check that fails counts as not verifiable; one line says why (redacted), and the run goes on.
 */
async function verify(run: OptOutRun): Promise<void> {
  if (!run.declaration.verifyDeletion || overallStatus(run.progress, run.batches.length) !== "FINISHED") return;
  const say = reporterOf(run);
  let failed = 0;
  let firstFailure: unknown;
  const { kind, identifiers } = run.declaration;
  const checked = await verifyDeletion(sharedClient(run.account).sessions, { kind, identifiers, salt: run.salt }, Date.now, (error) => {
    failed++;
    firstFailure ??= error;
  });
  if (failed > 0) say(`verification: ${failed} check(s) failed and count as not verifiable: ${firstFailure instanceof Error ? firstFailure.message : String(firstFailure)}`);
  // The same figures keep their first `checkedAt`, so a refresh that finds nothing new shows no drift.
  const { checkedAt: _new, ...figures } = checked;
  const { checkedAt: _old, ...previous } = run.verification ?? {};
  if (run.verification === undefined || !isDeepStrictEqual(figures, previous)) run.verification = checked;
  say(describeVerification(run.verification));
}

/** Prints `line` for this resource, with its personal data redacted (it should hold none anyway). */
function reporterOf(run: OptOutRun): (line: string) => void {
  const label = labelOf(run.declaration, run.id);
  return (line) => report(run.redact(`${label}: ${line}`));
}

/**
 * Submits what is left, then waits for FINISHED (or, without waiting, reads the states once when
 * `refresh` is set). Mutates `run.progress` as it goes, so a failure can record how far it got.
 */
async function advance(run: OptOutRun, refresh: boolean): Promise<void> {
  const pii = sharedClient(run.account).pii;
  const say = reporterOf(run);
  const { declaration, progress } = run;
  if (progress.batchesSubmitted < run.batches.length) {
    const emails = declaration.notificationEmails;
    await new Submission({ pii, identifiers: new Set(declaration.identifiers), ...(emails ? { notificationEmails: emails } : {}), report: say, outcomeWait: outcomeWait() }, progress)
      .submitRemaining(run.batches);
  }
  if (declaration.waitForCompletion) {
    await waitUntilFinished(pii, progress, run.batches.length, {
      timeoutMs: declaration.waitTimeoutSeconds * 1000,
      pollIntervalMs: declaration.pollIntervalSeconds * 1000,
      report: say,
    });
  } else if (refresh) {
    await refreshStatuses(pii, progress, say);
  }
}

/**
 * The error to throw for `error` during `action`: redacted, and a partial failure (the resource
 * stays in the state with what was made, and the next `pulumi up` resumes) once any request is
 * tracked or any batch handled.
 */
function failureOf(run: OptOutRun, action: string, error: unknown): Error {
  const label = labelOf(run.declaration, run.id);
  // Spec 7: a PII processing error (400 and 500 series) is retried after several minutes.
  const hint = error instanceof InternalServerError || error instanceof RateLimitError ? " (spec 7: retry after several minutes)" : "";
  const cause = `${error instanceof Error ? error.message : String(error)}${hint}`;
  const made = run.progress.requests.length > 0 || run.progress.batchesSubmitted > 0;
  if (!made) return new InsightsError(run.redact(`${label}: ${action} failed: ${cause}`));
  const timedOut = error instanceof WaitTimeoutError;
  const message = run.redact(
    `${label}: ${timedOut ? `requests are ${cause}` : `${action} failed: ${cause}`}. The requests made so far are recorded ` +
      `in the state (${describeRequests(run.progress.requests)}; ${run.progress.batchesSubmitted}/${run.batches.length} batches submitted): ` +
      (timedOut
        ? "the next `pulumi up` resumes waiting and submits nothing again"
        : "the next `pulumi up` resumes from there and makes none of them again"),
  );
  return new ResourcePartialFailureError(message, run.id, { ...outputsOf(run) }, [message]);
}

/** A thrown value with the personal data of `inputs` redacted, for calls that have no run yet. */
function redactedError(inputs: Record<string, unknown>, action: string, error: unknown): Error {
  const personal = PERSONAL_PROPERTIES.flatMap((property) => {
    const value = revealed(inputs[property]);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  });
  const message = error instanceof Error ? error.message : String(error);
  return new InsightsError(redactor(personal)(`PiiOptOutRequest: ${action} failed: ${message}`));
}

function declaredFrom(inputs: Record<string, unknown>, action: string): OptOutDeclaration {
  try {
    return declarationOf(Object.fromEntries(Object.entries(inputs).map(([key, value]) => [key, revealed(value)])));
  } catch (error) {
    throw redactedError(inputs, action, error);
  }
}

/** The run of a resource from its stored outputs and (new) inputs, in `account`. */
function runFrom(id: string, olds: Record<string, unknown>, declaration: OptOutDeclaration, action: string, account: string | undefined): OptOutRun {
  const parsed = StoredOutputs.safeParse(olds);
  if (!parsed.success) throw redactedError(olds, action, new InsightsError(`the stored outputs of ${id} are not those of a PiiOptOutRequest: ${z.prettifyError(parsed.error)}`));
  const stored = parsed.data;
  const run = runOf(id, declaration, stored.identifierDigestSalt, stored.identifierDigest, { requests: stored.requests, batchesSubmitted: stored.batchesSubmitted }, account);
  if (stored.verification !== undefined && declaration.verifyDeletion) run.verification = stored.verification;
  return run;
}

/** The list of a property, canonical, or undefined when absent. */
function listOf(value: unknown): string[] | undefined {
  const plain = revealed(value);
  return Array.isArray(plain) ? distinctSorted(plain.map(String)) : undefined;
}

/** The declaration stored in outputs, as far as `diff`, `read` and `delete` need it. */
function storedDeclaration(olds: Record<string, unknown>, stored: StoredParts = storedParts(olds)): OptOutDeclaration {
  const kind: IdentifierKind = olds.userIds !== undefined && olds.viewerIds === undefined ? "user" : "viewer";
  const emails = listOf(olds.notificationEmails);
  return {
    kind,
    identifiers: listOf(olds[IDENTIFIER_PROPERTIES[kind]]) ?? [],
    ...(emails === undefined ? {} : { notificationEmails: emails }),
    waitForCompletion: stored.waitForCompletion ?? OPT_OUT_DEFAULTS.waitForCompletion,
    waitTimeoutSeconds: stored.waitTimeoutSeconds ?? OPT_OUT_DEFAULTS.waitTimeoutSeconds,
    pollIntervalSeconds: stored.pollIntervalSeconds ?? OPT_OUT_DEFAULTS.pollIntervalSeconds,
    verifyDeletion: stored.verifyDeletion ?? OPT_OUT_DEFAULTS.verifyDeletion,
    ...(stored.resourceName === undefined ? {} : { resourceName: stored.resourceName }),
  };
}

/**
 * What the declared request needs of its account (connection-check/probe.ts): the PII endpoints,
 * and the viewer module when viewer ids are to be verified (provider/pii/verification.ts; user ids cannot be,
 * and a `verifyDeletion` not known until apply is not assumed).
 */
function accountNeeds(news: Record<string, unknown>): AccountNeed[] {
  const verifyDeletion = revealed(news.verifyDeletion) ?? OPT_OUT_DEFAULTS.verifyDeletion;
  const verifiesViewers = verifyDeletion === true && news.viewerIds !== undefined && news.userIds === undefined;
  return verifiesViewers ? ["piiOptOut", "deletionCheck"] : ["piiOptOut"];
}

/**
 * The PiiOptOutRequest resource's core, host-neutral (spec 2.9, 3.1, 4.10): submits the declared
 * identifiers in requests of at most 100, waits for FINISHED, checks the deletion, and keeps the
 * personal data out of everything it prints, throws or stores in plain text (identifiers and
 * addresses are answered as secret markers, accounts/wire-secret.ts). The dynamic-provider host
 * (provider/host/pii-opt-out-request-adapter.ts) and the provider plugin adapt it.
 */
export const piiOptOutRequestCore: ResourceCore<PiiOptOutOutputs> = {
  /**
   * Exactly one identifier kind, non-empty lists, valid addresses and wait settings; lists made
   * canonical. The account's connection is checked first (accounts/binding.ts
   * `checkAccountConnection`): the PII endpoints accept its credentials, and, when the deletion is
   * to be verified, the account has the viewer module the verification reads with.
   */
  async check(_olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ inputs: Record<string, unknown>; failures: PropertyFailure[] }> {
    const checked = checkInputs(news);
    const accountFailures = await checkAccountConnection(news, accountNeeds(news));
    return { ...checked, failures: [...accountFailures, ...checked.failures.filter((failure) => failure.property !== "account")] };
  },

  /**
   * Identifiers and addresses are create-only: a change replaces the resource (create first: the new
   * one submits only what is new, the service ignoring the rest). Wait settings update in place, and
   * so does a resource whose submission or wait is unfinished, so that the next `up` resumes it.
   * Another account replaces it (docs/configuration.md "Accounts"): its requests are of the old account.
   */
  async diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<PlannedDiff> {
    const account = accountChange(labelOf(storedDeclaration(olds), id), olds, news);
    const replaces: string[] = PERSONAL_PROPERTIES.filter((property) => {
      if (isUnknown(news[property])) return true;
      return JSON.stringify(listOf(olds[property])) !== JSON.stringify(listOf(news[property]));
    });
    const stored = storedParts(olds);
    const before = storedDeclaration(olds, stored);
    const settings = (["waitForCompletion", "waitTimeoutSeconds", "pollIntervalSeconds", "verifyDeletion", "resourceName"] as const).filter((property) => {
      const next = news[property] ?? (property === "resourceName" ? undefined : OPT_OUT_DEFAULTS[property]);
      return isUnknown(next) || next !== before[property];
    });
    // Progress counts only in a state this provider wrote, which holds the digest (as runFrom requires).
    const progress = stored.identifierDigest !== undefined && stored.identifierDigestSalt !== undefined
      ? { requests: stored.requests ?? [], batchesSubmitted: stored.batchesSubmitted ?? 0 }
      : undefined;
    const batchCount = stored.batchCount ?? 0;
    const waitWanted = news.waitForCompletion ?? OPT_OUT_DEFAULTS.waitForCompletion;
    const unfinished = progress !== undefined && (
      progress.batchesSubmitted < batchCount ||
      (waitWanted !== false && !isSettled(progress, batchCount))
    );
    if (account.replace) replaces.push("account");
    if (unfinished && replaces.length === 0) {
      report(`${labelOf(before)}: status ${stored.status ?? "unknown"}; the update resumes the submission or the wait (no request is made again)`);
    }
    // Where: each replaced personal list (compared as sets above, never again), each wait setting, the account.
    const paths: PropertyChanges = {};
    for (const property of PERSONAL_PROPERTIES.filter((candidate) => replaces.includes(candidate))) {
      paths[property] = { kind: olds[property] === undefined ? "add" : news[property] === undefined ? "delete" : "update", replace: true };
    }
    for (const property of settings) {
      paths[property] = { kind: changeKind(olds[property], news[property] ?? OPT_OUT_DEFAULTS[property as keyof typeof OPT_OUT_DEFAULTS]) ?? "update", replace: false };
    }
    Object.assign(paths, accountChanges(olds, news, { accountReplaced: account.replace }));
    return { changes: replaces.length > 0 || settings.length > 0 || unfinished || account.changed, replaces, paths };
  },

  /** Submits the identifiers in batches of 100 and, by default, waits until every request is FINISHED. */
  async create(inputs: Record<string, unknown>): Promise<{ id: string; outputs: PiiOptOutOutputs }> {
    const declaration = declaredFrom(inputs, "create");
    const salt = newDigestSalt();
    const digest = identifierSetDigest(declaration.kind, declaration.identifiers, salt);
    // The id derives from the salted digest: stable for the resource, and it discloses nothing.
    const id = `pii-${digest.slice(digest.lastIndexOf(":") + 1).slice(0, 16)}`;
    const run = runOf(id, declaration, salt, digest, { requests: [], batchesSubmitted: 0 }, declaredAccount(inputs));
    try {
      // Without waiting, the states are still read once: the POST answers carry no creation time
      // (docs/api.md 2.9), and a state without it would change at the first refresh.
      await advance(run, true);
      await verify(run);
      return { id, outputs: outputsOf(run) };
    } catch (error) {
      throw failureOf(run, "create", error);
    }
  },

  /** Refresh: the current state of every request. */
  async read(id: string, props: Record<string, unknown>): Promise<{ id: string; outputs: PiiOptOutOutputs }> {
    const declaration = storedDeclaration(props);
    const run = runFrom(id, props, declaration, "read", boundAccount(labelOf(declaration, id), declaredAccount(props), props));
    try {
      await refreshStatuses(sharedClient(run.account).pii, run.progress, reporterOf(run));
      // Refresh checks the deletion again: the figures move as the service finishes deleting.
      await verify(run);
    } catch (error) {
      throw new InsightsError(run.redact(`${labelOf(run.declaration, id)}: read failed: ${error instanceof Error ? error.message : String(error)}`));
    }
    return { id, outputs: outputsOf(run) };
  },

  /** Resumes what a previous run left (batches, wait) with the new wait settings; returns the full outputs. */
  async update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<PiiOptOutOutputs> {
    const declaration = declaredFrom(news, "update");
    const run = runFrom(id, olds, declaration, "update", boundAccount(labelOf(declaration, id), declaredAccount(news), olds));
    try {
      await advance(run, true);
      // A run that just finished, or whose check was turned on, is checked; an earlier check is kept otherwise.
      if (run.verification === undefined) await verify(run);
      return outputsOf(run);
    } catch (error) {
      throw failureOf(run, "update", error);
    }
  },

  /**
   * A deletion of personal data cannot be withdrawn (spec 4.10 has no such call): the resource leaves
   * the state and the service keeps processing its requests. Says so, and sends nothing.
   */
  async delete(id: string, props: Record<string, unknown>): Promise<void> {
    // Never fails: whatever the stored outputs hold, there is nothing to undo at the service.
    const stored = SubmissionProgress.safeParse(props);
    const requests = describeRequests(stored.success ? stored.data.requests : []);
    const declaration = storedDeclaration(props);
    report(personalRedactor(declaration)(`${labelOf(declaration, id)}: removed from the state only: an opt-out request cannot be withdrawn, the service keeps processing ${requests}`));
  },
};
