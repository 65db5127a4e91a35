import { z } from "zod";
import type * as records from "./records";
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
 * The POST answer (spec 2.9): the id, `created`, and the count of previously submitted identifiers,
 * named `ignored` (docs/api.md 10.3: the real name is not public).
 * @internal
 */
export const PiiOptOutSubmitResponse = z.looseObject({
  id: Identifier,
  created: z.number().int(),
  ignored: z.number().int().default(0),
});
/** A {@link PiiOptOutSubmitResponse} after parsing. */
export type PiiOptOutSubmitResponse = records.PiiOptOutSubmitResponse;

/** @internal A PII opt-out request (spec 2.9). */
export const PiiOptOutRequest = z.looseObject({
  id: Identifier,
  status: z.enum(PII_STATUSES),
  identifiers: z.looseObject({ viewer_id: z.array(z.string()) }),
  "@notification_email": z.array(z.string()).optional(),
  created_at: z.string(),
  updated_at: z.string().optional(),
  creator: z.string().optional(),
});
/** A {@link PiiOptOutRequest} after parsing. */
export type PiiOptOutRequest = records.PiiOptOutRequest;

/** @internal `GET /pii-opt-out` (spec 4.10): the wrapper member is the emulator's choice. */
export const PiiOptOutRequestList = z.looseObject({ requests: z.array(PiiOptOutRequest) });
/** A {@link PiiOptOutRequestList} after parsing. */
export type PiiOptOutRequestList = records.PiiOptOutRequestList;
