import type { PiiGetParams, PiiListQuery } from "../client";
import { personalDataSource } from "./define";

/**
 * Data sources of the PII opt-out API (spec 4.10, 2.9), for status reporting. Requests hold viewer
 * or user ids and e-mail addresses, so the Output forms answer secrets.
 */

export const {
  /**
   * The opt-out requests matching the query (spec 4.10): `status` (ENQUEUED, STARTED, FINISHED), a
   * creation range `start`/`end` (YYYY-MM-DD) and `limit`. `getPiiOptOutRequestsOutput` answers a secret.
   *
   * @example
   * // What a pipeline reports: how many requests are still being processed.
   * export const pendingOptOuts = getPiiOptOutRequestsOutput({ status: ["ENQUEUED", "STARTED"] }).apply(({ requests }) => requests.length);
   *
   * @function
   */
  getPiiOptOutRequests,
  /**
   * The Output form of {@link getPiiOptOutRequests}: `Input`s in, an `Output` out (a secret: personal data).
   *
   * @function
   */
  getPiiOptOutRequestsOutput,
} = personalDataSource("PiiOptOutRequests", async (client, params: PiiListQuery, options) => ({ requests: await client.pii.list(params, options) }));

export const {
  /**
   * One opt-out request with its state (spec 3.1); an unknown id is a `NotFoundError`. `getPiiOptOutRequestOutput` answers a secret.
   *
   * @function
   */
  getPiiOptOutRequest,
  /**
   * The Output form of {@link getPiiOptOutRequest}: `Input`s in, an `Output` out (a secret: personal data).
   *
   * @function
   */
  getPiiOptOutRequestOutput,
} = personalDataSource("PiiOptOutRequest", (client, params: PiiGetParams, options) => client.pii.get(params, options));
