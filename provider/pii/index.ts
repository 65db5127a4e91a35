/**
 * What of the PII core the PiiOptOutRequest resource's core (pii-opt-out-request.ts) shares with
 * the receipt data source (provider/data/pii-receipt.ts): the salted digest of an identifier set,
 * the audit receipt and the deletion check after FINISHED.
 */
export { identifierSetDigest, newDigestSalt, type IdentifierKind } from "./digest";
export { buildReceipt, type PiiOptOutReceipt } from "./receipt";
export { verifyDeletion, type DeletionVerification } from "./verification";
