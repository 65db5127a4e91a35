import { z } from "zod";
import { packageVersion } from "../client/core/version";
import type * as records from "../schema/resource-records";
import { DeletionVerification } from "./verification";

/**
 * The receipt of a PII opt-out: one JSON document, stable in shape, for an audit trail. It answers
 * "this set of people asked to be forgotten; here is proof the requests were made, completed, and
 * that their data is gone" without naming anybody: identifiers appear only as a salted digest of the
 * set (digest.ts) and, where data is still present, by position and per-identifier digest.
 *
 * The shape is versioned by `format`; a change that removes or renames a member gets a new version.
 */

/** The `format` of receipts of this shape. */
export const RECEIPT_FORMAT = "pulumi-insights/pii-opt-out-receipt@1";

/** @internal One opt-out request of a receipt. */
export const ReceiptRequest = z
  .object({
    id: z.string().describe("The service's request id (spec 2.9)."),
    status: z.string().describe("Its state when last read: ENQUEUED, STARTED or FINISHED (spec 3.1)."),
    createdAt: z.string().optional().describe("When the service created it, as the service wrote it (spec 2.9 `created_at`), when known."),
    finishedAt: z.string().optional().describe("When it reached FINISHED (its `updated_at` once FINISHED), when known."),
    identifiers: z.number().int().describe("How many of the set's identifiers it processes."),
    origin: z.enum(["submitted", "adopted"]).optional().describe("`submitted` by this resource, or `adopted` (made earlier, for identifiers previously submitted)."),
  })
  .describe("One request of a receipt.");
/** A {@link ReceiptRequest} (provider/schema/resource-records.ts, written from it). */
export type ReceiptRequest = records.ReceiptRequest;

/** @internal A receipt, its shape named by `format` (`pulumi-insights/pii-opt-out-receipt@1`). */
export const PiiOptOutReceipt = z
  .object({
    format: z
      .literal(RECEIPT_FORMAT)
      .describe(`The receipt's shape and its version, \`${RECEIPT_FORMAT}\`; a change that removes or renames a member gets a new version.`),
    generatedBy: z.string().describe("`pulumi-insights/<version>`: the package that made the receipt."),
    generatedAt: z.string().describe("The time of the last event the receipt reports (ISO 8601): the deletion check, else the last request finished or made."),
    status: z.string().describe("The least advanced state of the requests (FINISHED once every request is)."),
    requests: z.array(ReceiptRequest).describe("Every opt-out request made for the set (at most 100 identifiers each, spec 4.10)."),
    identifiers: z
      .object({
        kind: z.string().describe("`viewer` or `user`."),
        count: z.number().int().describe("Distinct identifiers in the set."),
        created: z.number().int().optional().describe("Identifiers the requests processed as new (the POST answers' `created`), when known."),
        previouslySubmitted: z.number().int().describe("Identifiers the service already had from earlier requests."),
        digest: z.string().describe("The salted scrypt digest of the set (provider/pii/digest.ts): whoever holds the list can check it."),
        digestSalt: z.string().describe("The hex salt of `digest`, for `identifierSetDigest`; not secret."),
      })
      .describe("The identifier set, by count and digest only: a receipt names nobody."),
    verification: DeletionVerification.optional().describe("The deletion check after FINISHED (provider/pii/verification.ts), when it ran."),
  })
  .describe("The audit receipt of an opt-out request: names no identifier.");
/** A {@link PiiOptOutReceipt} (provider/schema/resource-records.ts, written from it). */
export type PiiOptOutReceipt = records.PiiOptOutReceipt;

/** What a receipt is made of. */
export type ReceiptParts = Omit<PiiOptOutReceipt, "format" | "generatedBy">;

/** The receipt of `parts`, stamped with the package that made it. */
export function buildReceipt(parts: ReceiptParts): PiiOptOutReceipt {
  return { format: RECEIPT_FORMAT, generatedBy: `pulumi-insights/${packageVersion()}`, ...parts };
}
