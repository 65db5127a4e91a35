import type * as pulumi from "@pulumi/pulumi";
import type { PiiGetParams, PiiListQuery } from "../client";
import type { PiiOptOutRequest } from "../schema";
import { type DataSourceArgs, type DataSourceOptions, type DataSourceOutputArgs, type DataSourceOutputOptions, type KnownFields, personalDataSource } from "./define";

/**
 * Data sources of the PII opt-out API (spec 4.10, 2.9), for status reporting. Requests hold viewer
 * or user ids and e-mail addresses, so the Output forms answer secrets.
 */

/** Arguments of {@link getPiiOptOutRequests}: `status`, a creation range `start`/`end` and `limit`. */
export type GetPiiOptOutRequestsArgs = DataSourceArgs<PiiListQuery>;
/** Arguments of {@link getPiiOptOutRequestsOutput}: those of {@link getPiiOptOutRequests}, each an `Input`. */
export type GetPiiOptOutRequestsOutputArgs = DataSourceOutputArgs<PiiListQuery>;
/** The answer of {@link getPiiOptOutRequests}. */
export interface GetPiiOptOutRequestsResult {
  /** The requests matching the query (spec 2.9). */
  requests: Array<KnownFields<PiiOptOutRequest>>;
}

const optOutRequests = personalDataSource("getPiiOptOutRequests", async (client, params: PiiListQuery, options) => ({ requests: await client.pii.list(params, options) }));

/**
 * The opt-out requests matching the query (spec 4.10): `status` (ENQUEUED, STARTED, FINISHED), a
 * creation range `start`/`end` (YYYY-MM-DD) and `limit`. `getPiiOptOutRequestsOutput` answers a secret.
 *
 * @example
 * // What a pipeline reports: how many requests are still being processed.
 * export const pendingOptOuts = getPiiOptOutRequestsOutput({ status: ["ENQUEUED", "STARTED"] }).apply(({ requests }) => requests.length);
 */
export function getPiiOptOutRequests(args?: GetPiiOptOutRequestsArgs, opts?: DataSourceOptions): Promise<GetPiiOptOutRequestsResult> {
  return optOutRequests.invoke(args, opts);
}

/** The Output form of {@link getPiiOptOutRequests}: `Input`s in, an `Output` out (a secret: personal data). */
export function getPiiOptOutRequestsOutput(args?: GetPiiOptOutRequestsOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetPiiOptOutRequestsResult> {
  return optOutRequests.output(args, opts);
}

/** Arguments of {@link getPiiOptOutRequest}: the request's `id`. */
export type GetPiiOptOutRequestArgs = DataSourceArgs<PiiGetParams>;
/** Arguments of {@link getPiiOptOutRequestOutput}: those of {@link getPiiOptOutRequest}, each an `Input`. */
export type GetPiiOptOutRequestOutputArgs = DataSourceOutputArgs<PiiGetParams>;
/** The answer of {@link getPiiOptOutRequest}: the request with its state (spec 2.9, 3.1). */
export interface GetPiiOptOutRequestResult extends KnownFields<PiiOptOutRequest> {}

const optOutRequest = personalDataSource("getPiiOptOutRequest", (client, params: PiiGetParams, options) => client.pii.get(params, options));

/** One opt-out request with its state (spec 3.1); an unknown id is a `NotFoundError`. `getPiiOptOutRequestOutput` answers a secret. */
export function getPiiOptOutRequest(args: GetPiiOptOutRequestArgs, opts?: DataSourceOptions): Promise<GetPiiOptOutRequestResult> {
  return optOutRequest.invoke(args, opts);
}

/** The Output form of {@link getPiiOptOutRequest}: `Input`s in, an `Output` out (a secret: personal data). */
export function getPiiOptOutRequestOutput(args: GetPiiOptOutRequestOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetPiiOptOutRequestResult> {
  return optOutRequest.output(args, opts);
}
