import { describe, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import * as schema from "../provider/schema";
import type * as records from "../provider/schema/records";
import type * as params from "../provider/client/params";
import * as piiSchema from "../provider/schema/pii";
import * as filters from "../provider/client/filters";
import * as pii from "../provider/client/pii";
import { ALERT_PARAMS, type ContentAlertMetric } from "../provider/client/alerts";
import type * as shared from "../provider/client/core/params";
import * as ranges from "../provider/client/core/time-range";
import * as validation from "../provider/client/core/validation";
import { metricParamSchemas } from "../provider/client/metrics";
import { sessionParamSchemas, ViewerIdentity } from "../provider/client/sessions";
import * as progress from "../provider/pii/progress";
import type * as resourceRecords from "../provider/schema/resource-records";
import type * as args from "../provider/resources/args";
import * as accountProperties from "../provider/accounts/account-properties";
import { SAVED_FILTER, SAVED_FILTER_SET, SavedFilterSetMember } from "../provider/saved-filters/filter-properties";
import { FilterState } from "../provider/saved-filters/model/state";
import { PII_OPT_OUT_REQUEST } from "../provider/pii/opt-out-properties";
import * as receipt from "../provider/pii/receipt";
import * as verification from "../provider/pii/verification";
import * as accounts from "../emulator/accounts";
import * as faults from "../emulator/faults";
import * as filterStore from "../emulator/filters/store";
import * as filterSchema from "../emulator/filters/schema";
import * as piiStore from "../emulator/pii/store";

/** One object type of the members of `Type` (an interface that extends, or an intersection). */
type Flat<Type> = { [Key in keyof Type]: Type[Key] };

/**
 * The public interfaces (plain TypeScript, no zod in the package's declarations) equal what the zod
 * schemas parse. These are type-level assertions: `npm test` type-checks this file (tsconfig.test.json)
 * before running it, and a schema that drifts from its interface fails that step with both types named.
 */
describe("public interfaces equal the schemas' types", () => {
  it("records of the API (provider/schema/records.ts)", () => {
    expectTypeOf<records.Timestamp>().toEqualTypeOf<z.infer<typeof schema.Timestamp>>();
    expectTypeOf<records.AlertTimestamp>().toEqualTypeOf<z.infer<typeof schema.AlertTimestamp>>();
    expectTypeOf<records.LookupValues>().toEqualTypeOf<z.infer<typeof schema.LookupValues>>();
    expectTypeOf<records.ErrorBody>().toEqualTypeOf<z.infer<typeof schema.ErrorBody>>();
    expectTypeOf<records.RuleLeaf>().toEqualTypeOf<z.infer<typeof schema.RuleLeaf>>();
    expectTypeOf<records.SavedFilter>().toEqualTypeOf<z.infer<typeof schema.SavedFilter>>();
    expectTypeOf<records.SavedFilterInput>().toEqualTypeOf<z.infer<typeof schema.SavedFilterInput>>();
    expectTypeOf<records.SavedFilterUpdate>().toEqualTypeOf<z.input<typeof schema.SavedFilterUpdate>>();
    expectTypeOf<records.SavedFilterList>().toEqualTypeOf<z.infer<typeof schema.SavedFilterList>>();
    expectTypeOf<records.SavedFilterUpdateResponse>().toEqualTypeOf<z.infer<typeof schema.SavedFilterUpdateResponse>>();
    expectTypeOf<records.DeletedFilter>().toEqualTypeOf<z.infer<typeof schema.DeletedFilter>>();
    expectTypeOf<records.SavedFilterDeleteResponse>().toEqualTypeOf<z.infer<typeof schema.SavedFilterDeleteResponse>>();
    expectTypeOf<records.AlertTimelinePoint>().toEqualTypeOf<z.infer<typeof schema.AlertTimelinePoint>>();
    expectTypeOf<records.AlertFields>().toEqualTypeOf<z.infer<typeof schema.AlertFields>>();
    expectTypeOf<records.AlertSummary>().toEqualTypeOf<z.infer<typeof schema.AlertSummary>>();
    expectTypeOf<records.AlertDetail>().toEqualTypeOf<z.infer<typeof schema.AlertDetail>>();
    expectTypeOf<records.AlertList>().toEqualTypeOf<z.infer<typeof schema.AlertList>>();
    expectTypeOf<records.MetricValue>().toEqualTypeOf<z.infer<typeof schema.MetricValue>>();
    expectTypeOf<records.MetricMembers>().toEqualTypeOf<z.infer<typeof schema.MetricMembers>>();
    expectTypeOf<records.TimeSeriesPoint>().toEqualTypeOf<z.infer<typeof schema.TimeSeriesPoint>>();
    expectTypeOf<records.DimensionalDatum>().toEqualTypeOf<z.infer<typeof schema.DimensionalDatum>>();
    expectTypeOf<records.GroupByPoint>().toEqualTypeOf<z.infer<typeof schema.GroupByPoint>>();
    expectTypeOf<records.MetricMeta>().toEqualTypeOf<z.infer<typeof schema.MetricMeta>>();
    expectTypeOf<records.MetricResponse>().toEqualTypeOf<z.infer<typeof schema.MetricResponse>>();
    expectTypeOf<records.GroupByTotal>().toEqualTypeOf<z.infer<typeof schema.GroupByTotal>>();
    expectTypeOf<records.GroupByResponse>().toEqualTypeOf<z.infer<typeof schema.GroupByResponse>>();
    expectTypeOf<records.GroupByDimensionList>().toEqualTypeOf<z.infer<typeof schema.GroupByDimensionList>>();
    expectTypeOf<records.DimensionTagList>().toEqualTypeOf<z.infer<typeof schema.DimensionTagList>>();
    expectTypeOf<records.MetricDimensionReferenceList>().toEqualTypeOf<z.infer<typeof schema.MetricDimensionReferenceList>>();
    expectTypeOf<records.FilterReferenceList>().toEqualTypeOf<z.infer<typeof schema.FilterReferenceList>>();
    expectTypeOf<records.KpiList>().toEqualTypeOf<z.infer<typeof schema.KpiList>>();
    expectTypeOf<records.PiiOptOutSubmission>().toEqualTypeOf<z.infer<typeof schema.PiiOptOutSubmission>>();
    // The client's answer: the wire's ignored count may be missing and is then derived (provider/schema/assumptions.ts).
    expectTypeOf<records.PiiOptOutSubmitResponse>().toEqualTypeOf<{ id: string; created: number; ignored: number }>();
    expectTypeOf<records.PiiOptOutSubmitResponse>().toEqualTypeOf<z.infer<typeof piiSchema.PiiOptOutSubmitResult>>();
    expectTypeOf<records.PiiOptOutRequest>().toEqualTypeOf<z.infer<typeof schema.PiiOptOutRequest>>();
    expectTypeOf<records.PiiOptOutRequestList>().toEqualTypeOf<z.infer<typeof schema.PiiOptOutRequestList>>();
    expectTypeOf<records.Session>().toEqualTypeOf<z.infer<typeof schema.Session>>();
    expectTypeOf<records.SessionList>().toEqualTypeOf<z.infer<typeof schema.SessionList>>();
    expectTypeOf<records.ViewerSummary>().toEqualTypeOf<z.infer<typeof schema.ViewerSummary>>();
    expectTypeOf<records.SessionDimensionList>().toEqualTypeOf<z.infer<typeof schema.SessionDimensionList>>();
    expectTypeOf<records.DiscoveryList>().toEqualTypeOf<z.infer<typeof schema.DiscoveryList>>();
    expectTypeOf<records.RuleGroup>().toEqualTypeOf<z.infer<typeof schema.RuleGroup>>();
    expectTypeOf<records.RuleNode>().toEqualTypeOf<z.infer<typeof schema.RuleNode>>();
  });

  it("parameters of the client's methods (provider/client/params.ts), as a caller writes them", () => {
    expectTypeOf<params.FilterListQuery>().toEqualTypeOf<z.input<typeof filters.FilterListQuery>>();
    expectTypeOf<params.FilterGetParams>().toEqualTypeOf<z.input<typeof filters.FilterGetParams>>();
    expectTypeOf<params.FilterFindByNameParams>().toEqualTypeOf<z.input<typeof filters.FilterFindByNameParams>>();
    expectTypeOf<params.FilterCreateParams>().toEqualTypeOf<z.input<typeof filters.FilterCreateParams>>();
    expectTypeOf<params.FilterUpdateParams>().toEqualTypeOf<z.input<typeof filters.FilterUpdateParams>>();
    expectTypeOf<params.FilterDeleteParams>().toEqualTypeOf<z.input<typeof filters.FilterDeleteParams>>();
    expectTypeOf<params.FilterFieldsParams>().toEqualTypeOf<z.input<typeof filters.FilterFieldsParams>>();
    expectTypeOf<params.FilterLookupParams>().toEqualTypeOf<z.input<typeof filters.FilterLookupParams>>();
    expectTypeOf<params.SubcategoryQuery>().toEqualTypeOf<z.input<typeof filters.SubcategoryQuery>>();
    expectTypeOf<params.SavedFilterField>().toEqualTypeOf<keyof typeof schema.SavedFilter.shape>();
    expectTypeOf<params.FilterLookupName>().toEqualTypeOf<(typeof schema.FILTER_LOOKUPS)[number]>();
    expectTypeOf<params.PiiSubmitArguments>().toEqualTypeOf<z.input<typeof pii.PiiSubmitArguments>>();
    expectTypeOf<params.PiiListQuery>().toEqualTypeOf<z.input<typeof pii.PiiListQuery>>();
    expectTypeOf<params.PiiGetParams>().toEqualTypeOf<z.input<typeof pii.PiiGetParams>>();
  });

  it("parameters of the query families (provider/client/params.ts, core/params.ts), as a caller writes them", () => {
    // The generic types at the arguments a family's schemas are built for: any metric of either family (historical or real time), content alerts.
    type Metrics = ReturnType<typeof metricParamSchemas>;
    type Sessions = ReturnType<typeof sessionParamSchemas>;
    expectTypeOf<params.SeriesParams<boolean>>().toEqualTypeOf<z.input<Metrics["SeriesParams"]>>();
    expectTypeOf<Flat<params.MetricParams<validation.AcceptedMetricName, boolean>>>().toEqualTypeOf<z.input<Metrics["MetricParams"]>>();
    expectTypeOf<Flat<params.SelectionParams<validation.AcceptedMetricName, boolean>>>().toEqualTypeOf<z.input<Metrics["SelectionParams"]>>();
    expectTypeOf<params.GroupByOptions>().toEqualTypeOf<z.input<Metrics["GroupByOptions"]>>();
    expectTypeOf<Flat<params.GroupByParams<validation.AcceptedMetricName, boolean>>>().toEqualTypeOf<z.input<Metrics["GroupByParams"]>>();
    expectTypeOf<Flat<params.SelectionGroupByParams<validation.AcceptedMetricName, boolean>>>().toEqualTypeOf<z.input<Metrics["SelectionGroupByParams"]>>();
    expectTypeOf<Flat<params.TagGroupByParams<validation.AcceptedMetricName, boolean>>>().toEqualTypeOf<z.input<Metrics["TagGroupByParams"]>>();
    expectTypeOf<params.MetricListingParams>().toEqualTypeOf<z.input<Metrics["MetricListingParams"]>>();
    expectTypeOf<params.SampleSessionParams>().toEqualTypeOf<z.input<Sessions["SampleSessionParams"]>>();
    expectTypeOf<params.ViewerIdentity>().toEqualTypeOf<z.input<typeof ViewerIdentity>>();
    expectTypeOf<params.AlertListParams<ContentAlertMetric>>().toEqualTypeOf<z.input<typeof ALERT_PARAMS.content>>();
    expectTypeOf<params.AlertDetailParams>().toEqualTypeOf<z.input<typeof ALERT_PARAMS.AlertDetailParams>>();
    expectTypeOf<shared.DateInput>().toEqualTypeOf<z.input<typeof ranges.DateInput>>();
    expectTypeOf<shared.ExplicitRange>().toEqualTypeOf<z.input<typeof ranges.ExplicitRange>>();
    expectTypeOf<shared.LastDaysRange>().toEqualTypeOf<z.input<typeof ranges.LastDaysRange>>();
    expectTypeOf<shared.LastMinutesRange>().toEqualTypeOf<z.input<typeof ranges.LastMinutesRange>>();
    expectTypeOf<shared.TimeRange>().toEqualTypeOf<z.input<typeof ranges.TimeRange>>();
    expectTypeOf<shared.FilterValue>().toEqualTypeOf<z.input<typeof validation.FilterValue>>();
    expectTypeOf<shared.TagFilters>().toEqualTypeOf<z.input<typeof validation.TagFilters>>();
  });

  it("what resources keep in their state (provider/schema/resource-records.ts)", () => {
    expectTypeOf<resourceRecords.RecordedAccount>().toEqualTypeOf<z.infer<typeof accountProperties.RecordedAccount>>();
    expectTypeOf<Flat<resourceRecords.AccountOutputs>>().toEqualTypeOf<z.infer<typeof accountProperties.AccountOutputs>>();
    expectTypeOf<resourceRecords.FilterState>().toEqualTypeOf<z.infer<typeof FilterState>>();
    expectTypeOf<Flat<resourceRecords.SavedFilterOutputs>>().toEqualTypeOf<z.infer<typeof SAVED_FILTER.outputs>>();
    expectTypeOf<Flat<resourceRecords.SavedFilterSetOutputs>>().toEqualTypeOf<z.infer<typeof SAVED_FILTER_SET.outputs>>();
    expectTypeOf<Flat<resourceRecords.PiiOptOutRequestOutputs>>().toEqualTypeOf<z.infer<typeof PII_OPT_OUT_REQUEST.outputs>>();
    expectTypeOf<resourceRecords.TrackedRequest>().toEqualTypeOf<z.infer<typeof progress.TrackedRequest>>();
    expectTypeOf<resourceRecords.OverallStatus>().toEqualTypeOf<z.infer<typeof progress.OverallStatus>>();
    expectTypeOf<resourceRecords.DeletionVerification>().toEqualTypeOf<z.infer<typeof verification.DeletionVerification>>();
    expectTypeOf<resourceRecords.PiiOptOutReceipt>().toEqualTypeOf<z.infer<typeof receipt.PiiOptOutReceipt>>();
    expectTypeOf<progress.SubmissionProgress>().toEqualTypeOf<z.infer<typeof progress.SubmissionProgress>>();
  });

  it("what a program gives the resources (provider/resources/args.ts): their declared inputs, each an Input", () => {
    type Plain<Args> = { [Key in keyof Args]: Args[Key] extends infer Value ? (Value extends import("@pulumi/pulumi").Input<infer Inner> ? Inner : never) : never };
    expectTypeOf<keyof args.SavedFilterArgs>().toEqualTypeOf<keyof z.input<typeof SAVED_FILTER.inputs>>();
    expectTypeOf<Plain<args.SavedFilterArgs>["rules"]>().toEqualTypeOf<z.input<typeof SAVED_FILTER.inputs>["rules"]>();
    expectTypeOf<keyof args.SavedFilterSetMemberArgs>().toEqualTypeOf<keyof z.input<typeof SavedFilterSetMember>>();
    expectTypeOf<keyof args.SavedFilterSetArgs>().toEqualTypeOf<keyof z.input<typeof SAVED_FILTER_SET.inputs>>();
    expectTypeOf<keyof args.PiiOptOutRequestArgs>().toEqualTypeOf<keyof z.input<typeof PII_OPT_OUT_REQUEST.inputs>>();
  });

  it("the emulator's accounts, fault rules and state export", () => {
    expectTypeOf<accounts.AccountFeatures>().toEqualTypeOf<z.infer<typeof accounts.AccountFeatures>>();
    expectTypeOf<accounts.AccountConfigInput>().toEqualTypeOf<z.input<typeof accounts.AccountConfig>>();
    expectTypeOf<accounts.AccountConfig>().toEqualTypeOf<z.infer<typeof accounts.AccountConfig>>();
    expectTypeOf<faults.FaultRuleInput>().toEqualTypeOf<z.input<typeof faults.FaultRuleInput>>();
    expectTypeOf<Flat<faults.FaultRule>>().toEqualTypeOf<Flat<z.infer<typeof faults.FaultRuleInput> & { id: string; hits: number }>>();
    expectTypeOf<filterSchema.FilterInput>().toEqualTypeOf<z.infer<typeof filterSchema.CreateItem>>();
    expectTypeOf<filterStore.StoredFilter>().toEqualTypeOf<z.infer<typeof filterStore.StoredFilter>>();
    expectTypeOf<filterStore.FilterStoreSnapshot>().toEqualTypeOf<z.infer<typeof filterStore.FilterStoreSnapshot>>();
    expectTypeOf<piiStore.StoredPiiRequest>().toEqualTypeOf<z.infer<typeof piiStore.StoredPiiRequest>>();
    expectTypeOf<piiStore.PiiStoreSnapshot>().toEqualTypeOf<z.infer<typeof piiStore.PiiStoreSnapshot>>();
    expectTypeOf<piiStore.PiiDeletionFault>().toEqualTypeOf<z.infer<typeof piiStore.PiiDeletionFault>>();
  });
});
