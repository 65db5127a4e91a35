import { z } from "zod";
import type * as records from "./records";
import { listingOf, optionalMember, PII_LISTING_MEMBER, PiiSubmitAnswer } from "./assumptions";
import { Identifier } from "./common";
import { PII_IDENTIFIERS_PER_REQUEST, PII_STATUSES } from "./names";

/** @internal The POST body of `/pii-opt-out` (spec 4.10): at most 100 identifiers of one kind. */
export const PiiOptOutSubmission = z
  .object({
    viewer_id: z
      .array(z.string().min(1))
      .min(1)
      .max(PII_IDENTIFIERS_PER_REQUEST)
      .meta({ description: "The viewer ids or user ids to delete the data of, all of one kind.", secret: true }),
    "@notification_email": z.array(z.email()).optional().meta({ description: "Addresses to notify when the request is FINISHED.", secret: true }),
  })
  .describe("The POST body of `/pii-opt-out` (spec 4.10): at most 100 identifiers of one kind.");
/** A {@link PiiOptOutSubmission}. */
export type PiiOptOutSubmission = records.PiiOptOutSubmission;

/**
 * The POST answer (docs/api.md 2.9) as it comes: the id, `created`, and `ignored`, the count of
 * previously submitted identifiers (docs/api.md 10.3). On the wire the ignored count may be missing
 * or named otherwise; `PiiSubmitAnswer` of provider/schema/assumptions.ts reads it, and the client
 * answers {@link PiiOptOutSubmitResult} with the count derived from what was sent.
 * @internal
 */
export const PiiOptOutSubmitResponse = PiiSubmitAnswer;

/**
 * @internal
 * What the client answers for a POST (docs/api.md 2.9, 10.3): the ignored count always known. It
 * parses nothing: it is the source of the {@link PiiOptOutSubmitResponse} interface.
 */
export const PiiOptOutSubmitResult = z
  .object({
    id: z.string().describe("The id of the request made."),
    created: z.number().int().nonnegative().describe("How many identifiers the request holds."),
    ignored: z.number().int().nonnegative().describe("How many identifiers were ignored as submitted before."),
  })
  .describe(
    "The POST answer (spec 2.9): the id, `created`, and the count of previously submitted identifiers, named `ignored` (docs/api.md 10.3: the real name is not public).",
  );
/** A POST answer as the client answers it: the ignored count always known. */
export type PiiOptOutSubmitResponse = records.PiiOptOutSubmitResponse;

/**
 * A PII opt-out request (docs/api.md 2.9), read leniently (provider/schema/assumptions.ts): unknown
 * members kept, the members the client can do without may be missing or `null`.
 * @internal
 */
export const PiiOptOutRequest = z
  .looseObject({
    id: Identifier.describe("The request's id (alphanumeric)."),
    status: z.enum(PII_STATUSES).describe("Where the deletion is: ENQUEUED, STARTED or FINISHED (spec 3.1)."),
    identifiers: z
      .looseObject({ viewer_id: z.array(z.string()).meta({ description: "The viewer ids or user ids of the request.", secret: true }) })
      .describe("The identifiers whose data is deleted."),
    "@notification_email": optionalMember(z.array(z.string())).meta({ description: "The addresses notified when the request is FINISHED.", secret: true }),
    created_at: optionalMember(z.string()).describe("When the request was made, ISO 8601 (the zone may be local)."),
    updated_at: optionalMember(z.string()).describe("When its status last changed, ISO 8601."),
    creator: optionalMember(z.string()).describe("The API client or user that made it."),
  })
  .describe("A PII opt-out request (spec 2.9).");
/** A {@link PiiOptOutRequest} after parsing. */
export type PiiOptOutRequest = records.PiiOptOutRequest;

/**
 * `GET /pii-opt-out` (docs/api.md 4.10): the wrapper is not shown; read as `{requests}` whatever
 * single array came (provider/schema/assumptions.ts `listingOf`).
 * @internal
 */
export const PiiOptOutRequestList = listingOf(PiiOptOutRequest, PII_LISTING_MEMBER, "The requests listed.").describe(
  "`GET /pii-opt-out` (spec 4.10): the wrapper member is the emulator's choice.",
);
/** A {@link PiiOptOutRequestList} after parsing. */
export type PiiOptOutRequestList = records.PiiOptOutRequestList;
