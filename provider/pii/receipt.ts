import type { DeletionVerification } from "./verification";
import { packageVersion } from "../client/core/version";

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

/** One opt-out request of a receipt. */
export interface ReceiptRequest {
  /** The service's request id (docs/api.md 2.9). */
  id: string;
  /** Its state when last read: ENQUEUED, STARTED or FINISHED (docs/api.md 3.1). */
  status: string;
  /** When the service created it, as the service wrote it (docs/api.md 2.9 `created_at`), when known. */
  createdAt?: string;
  /** When it reached FINISHED (its `updated_at` once FINISHED), when known. */
  finishedAt?: string;
  /** How many of the set's identifiers it processes. */
  identifiers: number;
  /** `submitted` by this resource, or `adopted` (made earlier, for identifiers previously submitted). */
  origin?: "submitted" | "adopted";
}

/** A receipt, its shape named by `format` (`pulumi-insights/pii-opt-out-receipt@1`). */
export interface PiiOptOutReceipt {
  /** The receipt's shape and its version, `pulumi-insights/pii-opt-out-receipt@1`; a change that removes or renames a member gets a new version. */
  format: typeof RECEIPT_FORMAT;
  /** `pulumi-insights/<version>`: the package that made the receipt. */
  generatedBy: string;
  /** The time of the last event the receipt reports (ISO 8601): the deletion check, else the last request finished or made. */
  generatedAt: string;
  /** The least advanced state of the requests (FINISHED once every request is). */
  status: string;
  /** Every opt-out request made for the set (at most 100 identifiers each, docs/api.md 4.10). */
  requests: ReceiptRequest[];
  /** The identifier set, by count and digest only: a receipt names nobody. */
  identifiers: {
    /** `viewer` or `user`. */
    kind: string;
    /** Distinct identifiers in the set. */
    count: number;
    /** Identifiers the requests processed as new (the POST answers' `created`), when known. */
    created?: number;
    /** Identifiers the service already had from earlier requests. */
    previouslySubmitted: number;
    /** The salted scrypt digest of the set (digest.ts) and its salt: whoever holds the list can check it. */
    digest: string;
    /** The hex salt of `digest`, for {@link identifierSetDigest}; not secret. */
    digestSalt: string;
  };
  /** The deletion check after FINISHED (verification.ts), when it ran. */
  verification?: DeletionVerification;
}

/** What a receipt is made of. */
export type ReceiptParts = Omit<PiiOptOutReceipt, "format" | "generatedBy">;

/** The receipt of `parts`, stamped with the package that made it. */
export function buildReceipt(parts: ReceiptParts): PiiOptOutReceipt {
  return { format: RECEIPT_FORMAT, generatedBy: `pulumi-insights/${packageVersion()}`, ...parts };
}
