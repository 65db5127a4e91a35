/**
 * The match-rate estimate of a rule tree (docs/resources.md "Match-rate estimates in previews"): sample sessions
 * of a few windows (sample.ts), evaluated locally (estimate.ts), described in the preview's words.
 * Used by the preview of the filter resources and by the data source `getFilterMatchEstimate`.
 */
export { describeEstimate, estimateFromSample, estimateMatch, estimateWarning, wilsonInterval, type MatchEstimate, type MatchEstimateParams } from "./estimate";
export { DEFAULT_SESSION_SAMPLE, takeSessionSample, type SessionSample, type SessionSampleParams } from "./sample";
