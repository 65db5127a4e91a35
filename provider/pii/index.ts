/**
 * What of the PII core the PiiOptOutRequest resource's core (pii-opt-out-request.ts) shares with
 * the receipt data source (provider/data/pii-receipt.ts): the salted digest of an identifier set,
 * the audit receipt and the deletion check after FINISHED.
 */
export { identifierSetDigest, matchesIdentifierSetDigest, newDigestSalt, type IdentifierKind } from "./digest";
export { buildReceipt, RECEIPT_FORMAT, type PiiOptOutReceipt, type ReceiptParts, type ReceiptRequest } from "./receipt";
export {
  describeVerification,
  VERIFICATION_WINDOW_DAYS,
  verifyDeletion,
  type DeletionVerification,
  type StillPresentIdentifier,
  type VerificationSubject,
} from "./verification";
