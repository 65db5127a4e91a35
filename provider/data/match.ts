import type * as pulumi from "@pulumi/pulumi";
import { estimateMatch, type MatchEstimate as Estimate, type MatchEstimateParams as EstimateParams } from "../match-estimate";
import { dataSource, dataSourceForms, type DataSourceArgs, type DataSourceOptions, type DataSourceOutputArgs, type DataSourceOutputOptions, type KnownFields, type Read } from "./define";

/** Arguments of {@link getFilterMatchEstimate}: the rule tree, and the windows and size of the sample. */
export type GetFilterMatchEstimateArgs = DataSourceArgs<EstimateParams>;
/** Arguments of {@link getFilterMatchEstimateOutput}: those of {@link getFilterMatchEstimate}, each an `Input`. */
export type GetFilterMatchEstimateOutputArgs = DataSourceOutputArgs<EstimateParams>;
/** The answer of {@link getFilterMatchEstimate}: the matched share with its interval, the sample, the fields no session carries. */
export interface GetFilterMatchEstimateResult extends KnownFields<Estimate> {}

const readEstimate: Read<EstimateParams, Estimate> = (client, params, options) => estimateMatch(client.sessions, Date.now(), params, options);
const filterMatchEstimate = dataSource("getFilterMatchEstimate", readEstimate);

/**
 * How much of the account's traffic a rule tree matches, estimated from sample sessions of a few
 * windows spread over recent days and evaluated locally (provider/match-estimate/estimate.ts):
 * the matched share with its 95% interval, the sample size and windows, and the fields no session
 * carries (Customer, Resource), which make the estimate partial. For reports, and for checks in a
 * pipeline (for example, fail when a filter's share moves by more than 5 points).
 *
 * @example
 * const estimate = await getFilterMatchEstimate({ rules: and(field("Country").equals("Canada")) });
 * if (estimate.share < 0.01) throw new Error(`the filter matches only ${estimate.matched} of ${estimate.sampled} sampled sessions`);
 */
export function getFilterMatchEstimate(args: GetFilterMatchEstimateArgs, opts?: DataSourceOptions): Promise<GetFilterMatchEstimateResult> {
  return filterMatchEstimate.invoke(args, opts);
}

/** The Output form of {@link getFilterMatchEstimate}: `Input`s in, an `Output` out. */
export function getFilterMatchEstimateOutput(args: GetFilterMatchEstimateOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetFilterMatchEstimateResult> {
  return filterMatchEstimate.output(args, opts);
}

/**
 * The name of version 0.1.0 keeps its mock token (`insights:index:estimateFilterMatch`), so a
 * program's mocks written for it answer as before.
 */
const legacyEstimate = dataSourceForms("estimateFilterMatch", readEstimate, { personalData: false, deprecated: true });

/**
 * {@link getFilterMatchEstimate} under its name of version 0.1.0.
 *
 * @deprecated Use {@link getFilterMatchEstimate}; this name goes in the next release.
 */
export function estimateFilterMatch(args: GetFilterMatchEstimateArgs, opts?: DataSourceOptions): Promise<GetFilterMatchEstimateResult> {
  return legacyEstimate.invoke(args, opts);
}

/**
 * {@link getFilterMatchEstimateOutput} under its name of version 0.1.0.
 *
 * @deprecated Use {@link getFilterMatchEstimateOutput}; this name goes in the next release.
 */
export function estimateFilterMatchOutput(args: GetFilterMatchEstimateOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetFilterMatchEstimateResult> {
  return legacyEstimate.output(args, opts);
}

/** @deprecated The answer of {@link getFilterMatchEstimate} is {@link GetFilterMatchEstimateResult}; this name goes in the next release. */
export type MatchEstimate = Estimate;
/** @deprecated The arguments of {@link getFilterMatchEstimate} are {@link GetFilterMatchEstimateArgs}; this name goes in the next release. */
export type MatchEstimateParams = EstimateParams;
