import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto";

/**
 * The reviewable fingerprint of a PII opt-out resource's identifier set, stored in plain outputs so
 * that a privacy reviewer can confirm "this stack asked to forget exactly these people" without the
 * state disclosing who they are.
 *
 * Design, for the privacy review:
 * - The digest covers the identifier kind and the set (sorted, duplicates removed), so reordering a
 *   list never changes it and a viewer id never matches the same string given as a user id.
 * - A random 128-bit salt per resource (stored next to the digest, not secret) makes equal sets in
 *   two stacks give unrelated digests, so digests cannot be joined across stacks or precomputed.
 * - The function is scrypt (N=2^14, r=8, p=1: ~16 MiB and tens of milliseconds per evaluation),
 *   not a fast hash: identifiers are often low-entropy (`user-000123`), and with the salt public a
 *   fast hash of a one-person set could be guessed by enumeration. Scrypt makes each guess costly;
 *   a set of several identifiers multiplies the guesses needed.
 * - Whoever already holds the candidate list recomputes the digest with {@link identifierSetDigest}
 *   and the stored salt; nobody else learns anything from it.
 */

/** The kind of identifiers of a set: `viewer` or `user` ids (both travel in `viewer_id`, docs/api.md 4.10). */
export type IdentifierKind = "viewer" | "user";

/** The scrypt cost parameters; part of the digest's text so that they can change later. */
const SCRYPT = { N: 16_384, r: 8, p: 1 } as const;
const DIGEST_BYTES = 32;
const SALT_BYTES = 16;
const DIGEST_PREFIX = `scrypt:N=${SCRYPT.N},r=${SCRYPT.r},p=${SCRYPT.p}:`;

/** A fresh random salt, as hex. */
export function newDigestSalt(): string {
  return randomBytes(SALT_BYTES).toString("hex");
}

/** The canonical text of a set: kind, then the sorted distinct identifiers, one per line. */
function canonicalSet(kind: string, identifiers: Iterable<string>): string {
  return [kind, ...[...new Set(identifiers)].sort()].join("\n");
}

/**
 * The salted scrypt digest of an identifier set, as `scrypt:N=16384,r=8,p=1:<hex>`; why scrypt and a
 * salt per resource, provider/pii/digest.ts says at its top. Order and repetition of the identifiers
 * do not change it.
 *
 * @param kind - `viewer` or `user`: the same string digests differently as a viewer id and as a user id.
 * @param identifiers - The identifier set, as given to the PiiOptOutRequest.
 * @param salt - The hex salt stored with the digest: the resource's `identifierDigestSalt` output.
 *
 * @example
 * // A reviewer holding the list checks a stack's outputs:
 * identifierSetDigest("viewer", candidateIds, outputs.identifierDigestSalt) === outputs.identifierDigest
 */
export function identifierSetDigest(kind: string, identifiers: Iterable<string>, salt: string): string {
  const key = scryptSync(canonicalSet(kind, identifiers), Buffer.from(salt, "hex"), DIGEST_BYTES, SCRYPT);
  return `${DIGEST_PREFIX}${key.toString("hex")}`;
}

/** Whether `identifiers` are the set a digest was made of (constant-time comparison). */
export function matchesIdentifierSetDigest(digest: string, kind: string, identifiers: Iterable<string>, salt: string): boolean {
  const expected = Buffer.from(identifierSetDigest(kind, identifiers, salt));
  const actual = Buffer.from(digest);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
