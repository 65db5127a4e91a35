import { z } from "zod";
import type * as records from "./records";
import { listingOf, optionalMember, PII_LISTING_MEMBER, PiiSubmitAnswer } from "./assumptions";
import { Identifier } from "./common";
import { PII_IDENTIFIERS_PER_REQUEST, PII_STATUSES } from "./names";

/** @internal The POST body of `/pii-opt-out` (spec 4.10): at most 100 identifiers of one kind. */
export const PiiOptOutSubmission = z.object({
  viewer_id: z.array(z.string().min(1)).min(1).max(PII_IDENTIFIERS_PER_REQUEST),
  "@notification_email": z.array(z.email()).optional(),
});
/** A {@link PiiOptOutSubmission}. */
export type PiiOptOutSubmission = records.PiiOptOutSubmission;

/**
 * The POST answer (docs/api.md 2.9) as the client answers it: the id, `created`, and `ignored`, the
 * count of previously submitted identifiers (docs/api.md 10.3). On the wire the ignored count may be
 * missing or named otherwise; `PiiSubmitAnswer` of provider/schema/assumptions.ts reads it and the
 * client derives the count from what was sent.
 * @internal
 */
export const PiiOptOutSubmitResponse = PiiSubmitAnswer;
/** A {@link PiiOptOutSubmitResponse} as the client answers it: the ignored count always known. */
export interface PiiOptOutSubmitResponse {
  /** The id of the request made. */
  id: string;
  /** How many identifiers the request holds. */
  created: number;
  /** How many identifiers were ignored as submitted before. */
  ignored: number;
}

/**
 * A PII opt-out request (docs/api.md 2.9), read leniently (provider/schema/assumptions.ts): unknown
 * members kept, the members the client can do without may be missing or `null`.
 * @internal
 */
export const PiiOptOutRequest = z.looseObject({
  id: Identifier,
  status: z.enum(PII_STATUSES),
  identifiers: z.looseObject({ viewer_id: z.array(z.string()) }),
  "@notification_email": optionalMember(z.array(z.string())),
  created_at: optionalMember(z.string()),
  updated_at: optionalMember(z.string()),
  creator: optionalMember(z.string()),
});
/** A {@link PiiOptOutRequest} after parsing. */
export type PiiOptOutRequest = records.PiiOptOutRequest;

/**
 * `GET /pii-opt-out` (docs/api.md 4.10): the wrapper is not shown; read as `{requests}` whatever
 * single array came (provider/schema/assumptions.ts `listingOf`).
 * @internal
 */
export const PiiOptOutRequestList = listingOf(PiiOptOutRequest, PII_LISTING_MEMBER);
/** A {@link PiiOptOutRequestList} after parsing. */
export type PiiOptOutRequestList = records.PiiOptOutRequestList;
