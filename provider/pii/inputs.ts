import { z } from "zod";
import { InsightsError, issuePath } from "../client/core/errors";
import type { PropertyFailure } from "../accounts/calls";
import type { IdentifierKind } from "./digest";
import { isUnknown } from "../rules";
import { unknownProperties } from "../schema/suggest";
import { revealed, wireSecret } from "../accounts/wire-secret";
import { accountInput } from "../accounts/account-properties";

/**
 * The declared inputs of a PiiOptOutRequest (spec 4.10): validation for `check`, with messages that
 * name the property and never quote a value (identifiers and addresses are personal data), and the
 * normalized form the host works with.
 */

/** Defaults of the optional inputs. */
export const OPT_OUT_DEFAULTS = {
  waitForCompletion: true,
  /** Half an hour: the emulator finishes in 5 minutes by default; the real service takes longer. */
  waitTimeoutSeconds: 1_800,
  pollIntervalSeconds: 10,
  /** Check after FINISHED that the viewers' sessions are gone (provider/pii/verification.ts). */
  verifyDeletion: true,
} satisfies { waitForCompletion: boolean; waitTimeoutSeconds: number; pollIntervalSeconds: number; verifyDeletion: boolean };

/** The two identifier properties: both kinds travel in `viewer_id` (spec 4.10). */
export const IDENTIFIER_PROPERTIES = { viewer: "viewerIds", user: "userIds" } as const satisfies Record<IdentifierKind, string>;
/**
 * The properties that carry personal data: kept only as secrets, and create-only (a change replaces
 * the resource: a submitted deletion cannot be edited).
 */
export const PERSONAL_PROPERTIES = ["viewerIds", "userIds", "notificationEmails"] as const;

const IdentifierList = z
  .array(z.string({ error: "must be a string" }).min(1, "must be a non-empty string"), { error: "must be a list of strings" })
  .min(1, "must list at least one identifier");

/**
 * @internal
 * The inputs `check` accepts, each with what it means, its default and whether it is personal data
 * (a secret): the PiiOptOutRequest's declaration (./opt-out-properties.ts) is these, but
 * `resourceName`, which the TypeScript resource sets itself.
 */
export const DeclaredInputs = z.object({
  viewerIds: IdentifierList.optional().meta({ description: "Viewer ids whose personal data is to be deleted; sent in `viewer_id` (spec 4.10). Stored as a secret.", secret: true }),
  userIds: IdentifierList.optional().meta({ description: "User ids whose personal data is to be deleted; also sent in `viewer_id` (spec 4.10). Stored as a secret.", secret: true }),
  notificationEmails: z
    .array(z.email({ error: "must be an e-mail address" }), { error: "must be a list of e-mail addresses" })
    .optional()
    .meta({ description: "Addresses the service e-mails when a request is FINISHED (spec 3.1, 6). Stored as a secret.", secret: true }),
  waitForCompletion: z.boolean({ error: "must be true or false" }).default(OPT_OUT_DEFAULTS.waitForCompletion).describe("Wait until every request is FINISHED before `up` completes."),
  waitTimeoutSeconds: z
    .number({ error: "must be a number of seconds" })
    .positive("must be a positive number of seconds")
    .max(86_400 * 7, "must be at most a week (604800 seconds)")
    .default(OPT_OUT_DEFAULTS.waitTimeoutSeconds)
    .describe("How long one `up` waits, in seconds; when it runs out, the requests stay in the state and the next `up` waits again (the engine passes the dynamic resources no timeout of its own)."),
  pollIntervalSeconds: z
    .number({ error: "must be a number of seconds" })
    .min(0.01, "must be at least 0.01 seconds")
    .max(3_600, "must be at most 3600 seconds")
    .default(OPT_OUT_DEFAULTS.pollIntervalSeconds)
    .describe("First pause between status reads, in seconds; pauses grow up to 8 times it."),
  verifyDeletion: z
    .boolean({ error: "must be true or false" })
    .default(OPT_OUT_DEFAULTS.verifyDeletion)
    .describe(
      "Once every request is FINISHED, ask the viewer-sessions endpoint for each viewer id over the 30-day retention window (spec 8) and report in `verification` which still return data; user ids cannot be checked through the API and are counted as not verifiable.",
    ),
  resourceName: z.string().optional().describe("The resource's name, which progress lines and errors name (the TypeScript resource sets it: the host is not told the URN)."),
  // Checked by accounts/binding.ts `checkAccountConnection`, which names the accounts that exist and checks the one named.
  account: accountInput("its requests are made in"),
});

/** The inputs as the host works with them: one kind, sorted distinct identifiers, defaults applied. */
export interface OptOutDeclaration {
  kind: IdentifierKind;
  identifiers: string[];
  notificationEmails?: string[];
  waitForCompletion: boolean;
  waitTimeoutSeconds: number;
  pollIntervalSeconds: number;
  verifyDeletion: boolean;
  resourceName?: string;
}

/** Sorted distinct strings: the identity of an identifier or address list. */
export function distinctSorted(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

/**
 * The identifiers of the other kind in a list, by position and never quoted: a request mixes no
 * kinds, and an identifier starting with `user-` is a user id (docs/api.md 11.3, our choice, which
 * the service's `mixed_identifier_kinds` refusal at `up` would otherwise report).
 */
function mixedKindFailures(plain: Record<string, unknown>): PropertyFailure[] {
  const failures: PropertyFailure[] = [];
  for (const [kind, property] of Object.entries(IDENTIFIER_PROPERTIES) as Array<[IdentifierKind, string]>) {
    const list = plain[property];
    if (!Array.isArray(list) || isUnknown(list)) continue;
    const strays = list.flatMap((item, index) => (typeof item === "string" && item.startsWith(USER_ID_PREFIX) !== (kind === "user") ? [index] : []));
    if (strays.length === 0) continue;
    const other = kind === "user" ? "viewer ids (no \"user-\" prefix)" : "user ids (\"user-\" prefix)";
    const where = strays.slice(0, 5).map((index) => `${property}[${index}]`).join(", ") + (strays.length > 5 ? ` and ${strays.length - 5} more` : "");
    const move = kind === "user" ? "viewerIds" : "userIds";
    failures.push({ property, reason: `${where}: ${other} in ${property}; a request holds one kind (docs/api.md 11.3): move them to a PiiOptOutRequest with ${move}` });
  }
  return failures;
}

/** The prefix of a user id (docs/api.md 11.3); anything else is a viewer id. */
const USER_ID_PREFIX = "user-";

/**
 * Check: the failures (property and reason, no value quoted) and the inputs with the lists in their
 * canonical order, so reordering or repeating an identifier never shows as a change.
 */
export function checkInputs(news: Record<string, unknown>): { inputs: Record<string, unknown>; failures: PropertyFailure[] } {
  const plain = Object.fromEntries(Object.entries(news).map(([key, value]) => [key, revealed(value)]));
  const known = Object.fromEntries(Object.entries(plain).filter(([, value]) => !isUnknown(value)));
  const parsed = DeclaredInputs.safeParse(known);
  const failures: PropertyFailure[] = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({ property: String(issue.path[0] ?? ""), reason: `${issuePath("", issue.path)}: ${issue.message}` }));
  for (const { property, reason } of unknownProperties(plain, Object.keys(DeclaredInputs.shape), ["__provider"])) failures.push({ property, reason: `${property}: ${reason}` });
  failures.push(...mixedKindFailures(plain));
  const given = Object.values(IDENTIFIER_PROPERTIES).filter((property) => plain[property] !== undefined && plain[property] !== null);
  if (given.length !== 1) {
    const reason = given.length === 0 ? "give viewerIds or userIds" : "give viewerIds or userIds, not both";
    failures.push({ property: "viewerIds", reason: `${reason} (spec 4.10: the identifiers of a request are all viewer ids or all user ids; use two resources for both kinds)` });
  }
  // Personal lists go back as secrets whatever the program passed (the engine keeps them so).
  const inputs = { ...news };
  for (const property of PERSONAL_PROPERTIES) {
    const value = plain[property];
    if (!Array.isArray(value) || isUnknown(value)) continue;
    inputs[property] = wireSecret(value.every((item) => typeof item === "string") ? distinctSorted(value) : value);
  }
  return { inputs, failures };
}

/** The declaration of checked inputs (throws on inputs that `check` would refuse). */
export function declarationOf(inputs: Record<string, unknown>): OptOutDeclaration {
  const parsed = DeclaredInputs.parse(inputs);
  const kind: IdentifierKind = parsed.viewerIds !== undefined ? "viewer" : "user";
  const identifiers = parsed.viewerIds ?? parsed.userIds;
  if (identifiers === undefined || (parsed.viewerIds !== undefined && parsed.userIds !== undefined)) {
    throw new InsightsError("give exactly one of viewerIds or userIds");
  }
  return {
    kind,
    identifiers: distinctSorted(identifiers),
    ...(parsed.notificationEmails === undefined ? {} : { notificationEmails: distinctSorted(parsed.notificationEmails) }),
    waitForCompletion: parsed.waitForCompletion,
    waitTimeoutSeconds: parsed.waitTimeoutSeconds,
    pollIntervalSeconds: parsed.pollIntervalSeconds,
    verifyDeletion: parsed.verifyDeletion,
    ...(parsed.resourceName === undefined ? {} : { resourceName: parsed.resourceName }),
  };
}
