import { estimateMatch, type MatchEstimateParams } from "../match-estimate";
export type { MatchEstimate, MatchEstimateParams } from "../match-estimate";
import { dataSourceForms } from "./define";

const estimateForms = dataSourceForms("estimateFilterMatch", (client, params: MatchEstimateParams, options) => estimateMatch(client.sessions, Date.now(), params, options), {
  personalData: false,
});

/**
 * How much of the account's traffic a rule tree matches, estimated from sample sessions of a few
 * windows spread over recent days and evaluated locally (provider/match-estimate/estimate.ts):
 * the matched share with its 95% interval, the sample size and windows, and the fields no session
 * carries (Customer, Resource), which make the estimate partial. For reports, and for checks in a
 * pipeline (for example, fail when a filter's share moves by more than 5 points).
 *
 * @example
 * const estimate = await estimateFilterMatch({ rules: and(field("Country").equals("Canada")) });
 * if (estimate.share < 0.01) throw new Error(`the filter matches only ${estimate.matched} of ${estimate.sampled} sampled sessions`);
 *
 * @function
 */
export const estimateFilterMatch = estimateForms.invoke;
/**
 * The Output form of {@link estimateFilterMatch}: `Input`s in, an `Output` out.
 *
 * @function
 */
export const estimateFilterMatchOutput = estimateForms.output;
