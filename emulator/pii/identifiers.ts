import { viewerIdForIdentifier } from "../world";

/**
 * The two kinds of identifier a PII opt-out request may carry in its `viewer_id` array (spec 4.10):
 * viewer ids or user ids, all of one kind per request.
 */
export const IDENTIFIER_KINDS = ["viewer", "user"] as const;
/** One of {@link IDENTIFIER_KINDS}. */
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

/**
 * The kind of an identifier. The emulator's world names users `user-NNNNNN`; anything else is a
 * viewer id, since viewer ids are free-form strings that the customer's player sets (emulator's
 * choice: an unknown viewer id is accepted and simply matches no data).
 */
export function identifierKind(identifier: string): IdentifierKind {
  return identifier.startsWith("user-") ? "user" : "viewer";
}

/**
 * The viewer whose data an identifier names, for deleting it once the request is FINISHED
 * (spec 3.1): a user id maps to its viewer through the world; a viewer id is itself, even when the
 * world has no such viewer.
 */
export function viewerOf(identifier: string, kind: IdentifierKind): string | undefined {
  return viewerIdForIdentifier(identifier) ?? (kind === "viewer" ? identifier : undefined);
}
