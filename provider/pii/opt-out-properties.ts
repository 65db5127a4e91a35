import { z } from "zod";
import { AccountOutputs } from "../accounts/account-properties";
import type { ResourceDeclaration } from "../accounts/calls";
import { DeclaredInputs, PERSONAL_PROPERTIES } from "./inputs";
import { OverallStatus, TrackedRequest } from "./progress";
import { PiiOptOutReceipt, RECEIPT_FORMAT } from "./receipt";
import { DeletionVerification } from "./verification";

/**
 * PiiOptOutRequest as a resource (accounts/calls.ts `ResourceDeclaration`): what it is, its inputs
 * (./inputs.ts `DeclaredInputs`, which its core checks) and its outputs. The TypeScript types
 * (provider/resources/args.ts, provider/schema/resource-records.ts, the class's outputs) and the
 * plugin's package schema are written from it. Personal data (identifiers, addresses) is secret in
 * both.
 */

/** A personal list in the outputs: sorted, distinct, secret. */
const personalList = (what: string) => z.array(z.string()).optional().meta({ description: `${what}, sorted and distinct; a secret in the state and wherever the output goes.`, secret: true });

/** The inputs a program gives: the core's, but `resourceName`, which the TypeScript resource sets itself. */
const inputs = DeclaredInputs.omit({ resourceName: true });

/** @internal PiiOptOutRequest: the deletion of the personal data of viewers or users. */
export const PII_OPT_OUT_REQUEST = {
  description:
    "Asks the service to delete the personal data of viewers or users (spec 4.10), and by default waits until it has (spec 3.1: ENQUEUED, STARTED, FINISHED). More than 100 identifiers become several requests; for identifiers submitted before, the earlier requests are followed rather than new ones made, and a lost answer is reconciled through the list, never sent blindly again. Identifiers and addresses are kept only as secrets (inputs and outputs, whatever the program passes); the outputs carry a salted digest of the set for review without disclosure. Changing the identifiers or addresses replaces the resource; deleting it cannot withdraw a deletion and only removes it from the state.",
  inputs,
  outputs: z.object({
    viewerIds: personalList("The viewer ids"),
    userIds: personalList("The user ids"),
    notificationEmails: personalList("The notification addresses"),
    identifierKind: z.enum(["viewer", "user"]).describe("`viewer` or `user`."),
    identifierCount: z.number().int().describe("How many distinct identifiers the resource declares."),
    identifierDigest: z.string().describe("Salted scrypt digest of the identifier set (`identifierSetDigest` recomputes it from the list and the salt)."),
    identifierDigestSalt: z
      .string()
      .describe("The hex salt of `identifierDigest`, random and made once per resource; not secret: with it, whoever holds the list recomputes the digest, and nobody else learns from it."),
    requests: z.array(TrackedRequest).describe("Every request that processes the identifiers: id, status, origin, counts."),
    status: OverallStatus.describe("The least advanced status of the requests, or SUBMITTING while batches remain, or UNTRACKED when no request can be followed."),
    batchCount: z.number().int().describe("Batches of at most 100 identifiers the set is submitted in."),
    batchesSubmitted: z.number().int().describe("Batches already handled."),
    previouslySubmitted: z.number().int().describe("Identifiers the service already had from earlier requests."),
    untracked: z.number().int().describe("Previously submitted identifiers whose earlier request the list did not show."),
    waitForCompletion: inputs.shape.waitForCompletion,
    waitTimeoutSeconds: inputs.shape.waitTimeoutSeconds,
    pollIntervalSeconds: inputs.shape.pollIntervalSeconds,
    verifyDeletion: inputs.shape.verifyDeletion,
    resourceName: DeclaredInputs.shape.resourceName,
    verification: DeletionVerification.optional().describe(
      "The deletion check after FINISHED (`verifyDeletion`): when it ran, how many identifiers were checked, clean, still present (by position in the sorted list and salted digest, never the value) and not verifiable; `pulumi refresh` checks again. Absent before every request is FINISHED, or with `verifyDeletion` false.",
    ),
    receipt: PiiOptOutReceipt.describe(`The audit receipt (format \`${RECEIPT_FORMAT}\`, README "PiiOptOutRequest"): names no identifier.`),
    ...AccountOutputs.shape,
  }),
  replacedBy: [...PERSONAL_PROPERTIES, "account"],
} satisfies ResourceDeclaration;
