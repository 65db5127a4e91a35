/**
 * pulumi-insights: Pulumi resources and data sources for the Insights API. The root exports what a
 * Pulumi program uses, by name: the resources with their arguments and the types of their outputs,
 * the rule builder and rule types, the data sources (`getX` and `getXOutput`, with `GetXArgs`,
 * `GetXOutputArgs` and `GetXResult`), the errors a program may catch from a data source, and the
 * digest a reviewer checks a PII opt-out against. The typed client on its own, with its whole error
 * hierarchy (the same classes: `instanceof` holds across both), is `pulumi-insights/client`; the
 * API's record types and name lists are `pulumi-insights/schema`. test/public-surface.test.ts holds
 * this list, so a new export is a deliberate change.
 *
 * @example
 * import { SavedFilter, and, or, field, tag } from "pulumi-insights";
 * new SavedFilter("north-america", {
 *   name: "North America, no test devices",
 *   rules: and(or(field("Country").equals("United States"), field("Country").equals("Canada")), tag("deviceId").notContains("test-")),
 * });
 *
 * @module pulumi-insights
 */

// Resources, their arguments and the types of their outputs; the digest a reviewer checks a PiiOptOutRequest's identifiers against.
export {
  PiiOptOutRequest,
  SavedFilter,
  SavedFilterSet,
  type DeletionVerification,
  type OverallStatus,
  type PiiOptOutReceipt,
  type PiiOptOutRequestArgs,
  type ReceiptRequest,
  type RecordedAccount,
  type SavedFilterArgs,
  type SavedFilterSetArgs,
  type SavedFilterSetMember,
  type SavedFilterSetMemberArgs,
  type SavedFilterSpec,
  type StillPresentIdentifier,
  type TrackedRequest,
} from "./resources";
export { identifierSetDigest } from "./pii";

// The rule builder and the rule tree, and the checks docs/resources.md "The rule builder" offers for a program's own tests.
export { and, field, or, tag, type KeylessFilterField, type RuleLeafBuilder } from "./rules/builder";
export type { RuleGroup, RuleLeaf, RuleNode } from "./rules/tree";
export { canonicalRules, rulesEqual } from "./rules/canonical";
export { describeRulesDiff } from "./rules/diff";
export type { RuleFailure } from "./rules/failure";
export { validateRuleValues, type LookupValueSets } from "./rules/lookups";
export { validateRules } from "./rules/validate";

// Errors a program can meet through a data source and decide on; the rest of the hierarchy is at `pulumi-insights/client`.
export { ApiError, ArgumentError, InsightsError, NotFoundError, PermissionDeniedError, SettingsError } from "./client/core/errors";
export { IncompleteListingError } from "./client/core/listing";

// Data sources: how they are called, and each with its arguments and answer.
export { closeDataSourceClients, type InsightsConnection } from "./data/connection";
export {
  withAccountReads,
  type DataSourceArgs,
  type DataSourceOptions,
  type DataSourceOutputArgs,
  type DataSourceOutputOptions,
  type KnownFields,
  type NoArguments,
} from "./data/define";
export {
  getAdAlert,
  getAdAlertOutput,
  getAdAlerts,
  getAdAlertsOutput,
  getContentAlert,
  getContentAlertOutput,
  getContentAlerts,
  getContentAlertsOutput,
  type GetAdAlertArgs,
  type GetAdAlertOutputArgs,
  type GetAdAlertResult,
  type GetAdAlertsArgs,
  type GetAdAlertsOutputArgs,
  type GetAdAlertsResult,
  type GetContentAlertArgs,
  type GetContentAlertOutputArgs,
  type GetContentAlertResult,
  type GetContentAlertsArgs,
  type GetContentAlertsOutputArgs,
  type GetContentAlertsResult,
} from "./data/alerts";
export {
  getFilterFields,
  getFilterFieldsOutput,
  getFilterFieldValues,
  getFilterFieldValuesOutput,
  getSavedFilter,
  getSavedFilterByName,
  getSavedFilterByNameOutput,
  getSavedFilterOutput,
  getSavedFilters,
  getSavedFiltersOutput,
  type FieldValuesQuery,
  type FilterFieldValues,
  type GetFilterFieldsArgs,
  type GetFilterFieldsOutputArgs,
  type GetFilterFieldsResult,
  type GetFilterFieldValuesArgs,
  type GetFilterFieldValuesOutputArgs,
  type GetFilterFieldValuesResult,
  type GetSavedFilterArgs,
  type GetSavedFilterByNameArgs,
  type GetSavedFilterByNameOutputArgs,
  type GetSavedFilterByNameResult,
  type GetSavedFilterOutputArgs,
  type GetSavedFilterResult,
  type GetSavedFiltersArgs,
  type GetSavedFiltersOutputArgs,
  type GetSavedFiltersResult,
  type SavedFilterName,
  type SavedFilterQuery,
} from "./data/filters";
export {
  getDimensionTags,
  getDimensionTagsOutput,
  getGroupByDimensions,
  getGroupByDimensionsOutput,
  getKpis,
  getKpisOutput,
  getMetric,
  getMetricDimensions,
  getMetricDimensionsOutput,
  getMetricGroupBy,
  getMetricGroupByOutput,
  getMetricGroupByTag,
  getMetricGroupByTagOutput,
  getMetricOutput,
  getMetrics,
  getMetricsGroupBy,
  getMetricsGroupByOutput,
  getMetricsOutput,
  getSavedFilterReferences,
  getSavedFilterReferencesOutput,
  type GetDimensionTagsArgs,
  type GetDimensionTagsOutputArgs,
  type GetDimensionTagsResult,
  type GetGroupByDimensionsArgs,
  type GetGroupByDimensionsOutputArgs,
  type GetGroupByDimensionsResult,
  type GetKpisArgs,
  type GetKpisOutputArgs,
  type GetKpisResult,
  type GetMetricArgs,
  type GetMetricDimensionsArgs,
  type GetMetricDimensionsOutputArgs,
  type GetMetricDimensionsResult,
  type GetMetricGroupByArgs,
  type GetMetricGroupByOutputArgs,
  type GetMetricGroupByResult,
  type GetMetricGroupByTagArgs,
  type GetMetricGroupByTagOutputArgs,
  type GetMetricGroupByTagResult,
  type GetMetricListingArgs,
  type GetMetricOutputArgs,
  type GetMetricResult,
  type GetMetricsArgs,
  type GetMetricsGroupByArgs,
  type GetMetricsGroupByOutputArgs,
  type GetMetricsGroupByResult,
  type GetMetricsOutputArgs,
  type GetMetricsResult,
  type GetSavedFilterReferencesArgs,
  type GetSavedFilterReferencesOutputArgs,
  type GetSavedFilterReferencesResult,
  type MetricGroupByQuery,
  type MetricGroupByTagQuery,
  type MetricListing,
  type MetricQuery,
  type MetricsGroupByQuery,
  type MetricsQuery,
} from "./data/metrics";
export {
  getPiiOptOutRequest,
  getPiiOptOutRequestOutput,
  getPiiOptOutRequests,
  getPiiOptOutRequestsOutput,
  type GetPiiOptOutRequestArgs,
  type GetPiiOptOutRequestOutputArgs,
  type GetPiiOptOutRequestResult,
  type GetPiiOptOutRequestsArgs,
  type GetPiiOptOutRequestsOutputArgs,
  type GetPiiOptOutRequestsResult,
} from "./data/pii";
export {
  getAdSessions,
  getAdSessionsOutput,
  getContentSessions,
  getContentSessionsOutput,
  getSessionDimensions,
  getSessionDimensionsOutput,
  getViewerSessions,
  getViewerSessionsOutput,
  getViewerSummary,
  getViewerSummaryOutput,
  type GetAdSessionsArgs,
  type GetAdSessionsOutputArgs,
  type GetAdSessionsResult,
  type GetContentSessionsArgs,
  type GetContentSessionsOutputArgs,
  type GetContentSessionsResult,
  type GetSessionDimensionsArgs,
  type GetSessionDimensionsOutputArgs,
  type GetSessionDimensionsResult,
  type GetViewerSessionsArgs,
  type GetViewerSessionsOutputArgs,
  type GetViewerSessionsResult,
  type GetViewerSummaryArgs,
  type GetViewerSummaryOutputArgs,
  type GetViewerSummaryResult,
} from "./data/sessions";
export {
  estimateFilterMatch,
  estimateFilterMatchOutput,
  getFilterMatchEstimate,
  getFilterMatchEstimateOutput,
  type GetFilterMatchEstimateArgs,
  type GetFilterMatchEstimateOutputArgs,
  type GetFilterMatchEstimateResult,
  type MatchEstimate,
  type MatchEstimateParams,
} from "./data/match";
export {
  getPiiOptOutReceipt,
  getPiiOptOutReceiptOutput,
  type GetPiiOptOutReceiptArgs,
  type GetPiiOptOutReceiptOutputArgs,
  type GetPiiOptOutReceiptResult,
  type PiiOptOutReceiptParams,
  type PiiOptOutReceiptQuery,
} from "./data/pii-receipt";
export type { FieldsOf, GroupByData, GroupByEntity, MetricData, MetricPoint, PerMetric } from "./data/metric-data";
