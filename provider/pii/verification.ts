import { z } from "zod";
import type { SessionsApi } from "../client";
import type * as records from "../schema/resource-records";
import { identifierSetDigest, type IdentifierKind } from "./digest";

/**
 * Evidence that a FINISHED opt-out did what it says: each viewer id's sessions are asked for over
 * the viewer-data retention window, and an identifier is clean when none is returned (docs/api.md
 * 8: viewer data is kept 30 days, and collection stops at once after an opt-out request). User ids
 * cannot be checked through this API (the viewer endpoints take viewer ids and addresses only,
 * docs/api.md 4.3), so they are counted as not verifiable rather than claimed clean.
 */

/** The retention window of viewer data asked for (docs/api.md 8: 30 days; 90 by arrangement is not assumed). */
const VERIFICATION_WINDOW_DAYS = 30;

/** @internal An identifier whose data is still present: its position in the resource's canonical (sorted) list and a salted digest, never the value. */
export const StillPresentIdentifier = z
  .object({
    position: z.number().int().describe("Zero-based position in the sorted, de-duplicated list of the resource's identifiers."),
    digest: z.string().describe("The salted scrypt digest of that one identifier (provider/pii/digest.ts), with the resource's salt."),
  })
  .describe("An identifier whose sessions are still returned, by position and digest (never the value).");
/** A {@link StillPresentIdentifier} (provider/schema/resource-records.ts, written from it). */
export type StillPresentIdentifier = records.StillPresentIdentifier;

/** @internal The figures of one verification, as the resource's `verification` output holds them. */
export const DeletionVerification = z
  .object({
    checkedAt: z.string().describe("When the check found these figures (ISO 8601); a later check that finds the same keeps it."),
    checked: z.number().int().describe("Identifiers asked for."),
    clean: z.number().int().describe("Identifiers with no session in the window."),
    stillPresent: z.number().int().describe("Identifiers whose sessions are still returned (the service may still be deleting)."),
    notVerifiable: z.number().int().describe("Identifiers that cannot be checked (user ids) or whose check failed."),
    stillPresentIdentifiers: z.array(StillPresentIdentifier).describe("Where the still-present identifiers stand, by position and digest."),
  })
  .describe("The figures of one deletion check after FINISHED.");
/** A {@link DeletionVerification} (provider/schema/resource-records.ts, written from it). */
export type DeletionVerification = records.DeletionVerification;

/** What {@link verifyDeletion} needs to know about the resource. */
export interface VerificationSubject {
  kind: IdentifierKind;
  /** The canonical (sorted, distinct) identifiers. */
  identifiers: readonly string[];
  /** The resource's digest salt, hex. */
  salt: string;
}

/**
 * Asks the viewer-sessions endpoint for each viewer id (one session is enough to know), all at once:
 * the client's concurrency bound and rate budget pace them. A failed check counts as not verifiable
 * and its error is passed to `onFailure` (the caller redacts it), so one bad answer never hides the others.
 */
export async function verifyDeletion(
  sessions: SessionsApi,
  subject: VerificationSubject,
  now: () => number,
  onFailure: (error: unknown) => void = () => {},
): Promise<DeletionVerification> {
  const checkedAt = new Date(now()).toISOString();
  if (subject.kind === "user") {
    return { checkedAt, checked: 0, clean: 0, stillPresent: 0, notVerifiable: subject.identifiers.length, stillPresentIdentifiers: [] };
  }
  const outcomes = await Promise.all(subject.identifiers.map(async (viewerId) => {
    try {
      const answer = await sessions.listViewer({ viewerId, range: { lastDays: VERIFICATION_WINDOW_DAYS }, limit: 1 });
      return answer.sessions.length === 0 ? "clean" : "present";
    } catch (error) {
      onFailure(error);
      return "failed";
    }
  }));
  const stillPresentIdentifiers = outcomes.flatMap((outcome, position) =>
    outcome === "present" ? [{ position, digest: identifierSetDigest(subject.kind, [subject.identifiers[position]!], subject.salt) }] : []);
  const failed = outcomes.filter((outcome) => outcome === "failed").length;
  return {
    checkedAt,
    checked: subject.identifiers.length - failed,
    clean: outcomes.filter((outcome) => outcome === "clean").length,
    stillPresent: stillPresentIdentifiers.length,
    notVerifiable: failed,
    stillPresentIdentifiers,
  };
}

/** One line for the engine's log: the figures, and a warning for identifiers still present. */
export function describeVerification(verification: DeletionVerification): string {
  const { checked, clean, stillPresent, notVerifiable } = verification;
  const figures = `verification: ${clean} of ${checked} checked identifiers clean${notVerifiable > 0 ? `, ${notVerifiable} not verifiable` : ""}`;
  if (stillPresent === 0) return figures;
  const shown = verification.stillPresentIdentifiers.slice(0, 10).map((entry) => `position ${entry.position} (${entry.digest})`);
  const more = stillPresent > shown.length ? ` and ${stillPresent - shown.length} more in the outputs` : "";
  return `${figures}; warning: ${stillPresent} still present: ${shown.join(", ")}${more} of the sorted list: the service may still be deleting, \`pulumi refresh\` checks again`;
}
