import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as root from "../provider";
import "../provider/data";
import { dataSourceDefinitions } from "../provider/data/define";
import * as schema from "../provider/schema/public";

/**
 * The package's public surface (README.md "Upgrading from 0.1.0"): the root exports by name what a
 * Pulumi program uses, and nothing else. The lists below are the surface: a new export fails here
 * until it is added on purpose, and no internal helper may reach the root or `pulumi-insights/schema`.
 */

/** The names of a list written as words. */
const words = (text: string): string[] => text.split(/\s+/).filter((word) => word !== "");

/** The root's values at run time, sorted. */
const ROOT_VALUES = words(`
  ApiError ArgumentError IncompleteListingError InsightsError NotFoundError PermissionDeniedError
  PiiOptOutRequest SavedFilter SavedFilterSet SettingsError and canonicalRules closeDataSourceClients
  describeRulesDiff estimateFilterMatch estimateFilterMatchOutput field getAdAlert getAdAlertOutput
  getAdAlerts getAdAlertsOutput getAdSessions getAdSessionsOutput getContentAlert getContentAlertOutput
  getContentAlerts getContentAlertsOutput getContentSessions getContentSessionsOutput getDimensionTags
  getDimensionTagsOutput getFilterFieldValues getFilterFieldValuesOutput getFilterFields getFilterFieldsOutput
  getFilterMatchEstimate getFilterMatchEstimateOutput getGroupByDimensions getGroupByDimensionsOutput getKpis
  getKpisOutput getMetric getMetricDimensions getMetricDimensionsOutput getMetricGroupBy
  getMetricGroupByOutput getMetricGroupByTag getMetricGroupByTagOutput getMetricOutput getMetrics
  getMetricsGroupBy getMetricsGroupByOutput getMetricsOutput getPiiOptOutReceipt getPiiOptOutReceiptOutput
  getPiiOptOutRequest getPiiOptOutRequestOutput getPiiOptOutRequests getPiiOptOutRequestsOutput getSavedFilter
  getSavedFilterByName getSavedFilterByNameOutput getSavedFilterOutput getSavedFilterReferences
  getSavedFilterReferencesOutput getSavedFilters getSavedFiltersOutput getSessionDimensions
  getSessionDimensionsOutput getViewerSessions getViewerSessionsOutput getViewerSummary getViewerSummaryOutput
  identifierSetDigest or rulesEqual tag validateRuleValues validateRules withAccountReads
`);

/** The root's names that are types only, sorted. */
const ROOT_TYPES = words(`
  DataSourceArgs DataSourceOptions DataSourceOutputArgs DataSourceOutputOptions DeletionVerification
  FieldValuesQuery FieldsOf FilterFieldValues GetAdAlertArgs GetAdAlertOutputArgs GetAdAlertResult
  GetAdAlertsArgs GetAdAlertsOutputArgs GetAdAlertsResult GetAdSessionsArgs GetAdSessionsOutputArgs
  GetAdSessionsResult GetContentAlertArgs GetContentAlertOutputArgs GetContentAlertResult GetContentAlertsArgs
  GetContentAlertsOutputArgs GetContentAlertsResult GetContentSessionsArgs GetContentSessionsOutputArgs
  GetContentSessionsResult GetDimensionTagsArgs GetDimensionTagsOutputArgs GetDimensionTagsResult
  GetFilterFieldValuesArgs GetFilterFieldValuesOutputArgs GetFilterFieldValuesResult GetFilterFieldsArgs
  GetFilterFieldsOutputArgs GetFilterFieldsResult GetFilterMatchEstimateArgs GetFilterMatchEstimateOutputArgs
  GetFilterMatchEstimateResult GetGroupByDimensionsArgs GetGroupByDimensionsOutputArgs
  GetGroupByDimensionsResult GetKpisArgs GetKpisOutputArgs GetKpisResult GetMetricArgs GetMetricDimensionsArgs
  GetMetricDimensionsOutputArgs GetMetricDimensionsResult GetMetricGroupByArgs GetMetricGroupByOutputArgs
  GetMetricGroupByResult GetMetricGroupByTagArgs GetMetricGroupByTagOutputArgs GetMetricGroupByTagResult
  GetMetricListingArgs GetMetricOutputArgs GetMetricResult GetMetricsArgs GetMetricsGroupByArgs
  GetMetricsGroupByOutputArgs GetMetricsGroupByResult GetMetricsOutputArgs GetMetricsResult
  GetPiiOptOutReceiptArgs GetPiiOptOutReceiptOutputArgs GetPiiOptOutReceiptResult GetPiiOptOutRequestArgs
  GetPiiOptOutRequestOutputArgs GetPiiOptOutRequestResult GetPiiOptOutRequestsArgs
  GetPiiOptOutRequestsOutputArgs GetPiiOptOutRequestsResult GetSavedFilterArgs GetSavedFilterByNameArgs
  GetSavedFilterByNameOutputArgs GetSavedFilterByNameResult GetSavedFilterOutputArgs
  GetSavedFilterReferencesArgs GetSavedFilterReferencesOutputArgs GetSavedFilterReferencesResult
  GetSavedFilterResult GetSavedFiltersArgs GetSavedFiltersOutputArgs GetSavedFiltersResult
  GetSessionDimensionsArgs GetSessionDimensionsOutputArgs GetSessionDimensionsResult GetViewerSessionsArgs
  GetViewerSessionsOutputArgs GetViewerSessionsResult GetViewerSummaryArgs GetViewerSummaryOutputArgs
  GetViewerSummaryResult GroupByData GroupByEntity InsightsConnection KeylessFilterField KnownFields
  LookupValueSets MatchEstimate MatchEstimateParams MetricData MetricGroupByQuery MetricGroupByTagQuery
  MetricListing MetricPoint MetricQuery MetricsGroupByQuery MetricsQuery NoArguments OverallStatus PerMetric
  PiiOptOutReceipt PiiOptOutReceiptParams PiiOptOutReceiptQuery PiiOptOutRequestArgs ReceiptRequest
  RecordedAccount RuleFailure RuleGroup RuleLeaf RuleLeafBuilder RuleNode SavedFilterArgs SavedFilterName
  SavedFilterQuery SavedFilterSetArgs SavedFilterSetMember SavedFilterSetMemberArgs SavedFilterSpec StillPresentIdentifier
  TrackedRequest
`);

/** Helpers of the package's own code, which no program should build on. */
const INTERNAL = words(`
  InsightsClient wilsonInterval estimateFromSample estimateMatch takeSessionSample forEachLeaf childPath
  isUnknown PREVIEW_UNKNOWN FIELD_READINGS lookupsForRules lookupCandidates ruleMatcher dataSourceToken
  dataSourceForms schema editDistance closestMatch isJsonObject describeChoices FILTER_CATEGORIES
  FILTER_SUBCATEGORIES
`);

const ROOT_FILE = path.resolve(__dirname, "../provider/index.ts");
const program = ts.createProgram([ROOT_FILE], { strict: true, noEmit: true, skipLibCheck: true, types: ["node"], module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 });
const checker = program.getTypeChecker();
const rootSymbol = checker.getSymbolAtLocation(program.getSourceFile(ROOT_FILE)!)!;
/** Every name the type checker sees at the root, with the declaration it resolves to. */
const exported = new Map(checker.getExportsOfModule(rootSymbol).map((symbol) => {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return [symbol.name, target.declarations?.[0]] as const;
}));

describe("the package root (`pulumi-insights`)", () => {
  it("exports exactly the values a Pulumi program uses, well under 90", () => {
    expect(Object.keys(root).sort()).toEqual(ROOT_VALUES);
    expect(ROOT_VALUES.length).toBeLessThan(90);
  });

  it("exports exactly these names to the type checker: the values and the types", () => {
    expect([...exported.keys()].sort()).toEqual([...ROOT_VALUES, ...ROOT_TYPES].sort());
  });

  it("exports none of the package's internal helpers, nor the client", () => {
    expect(INTERNAL.filter((name) => exported.has(name) || name in root)).toEqual([]);
  });

  it("names every data source as Pulumi does: getX(args: GetXArgs, opts?): Promise<GetXResult>, getXOutput(args: GetXOutputArgs, opts?): Output<GetXResult>", () => {
    const functions = [...dataSourceDefinitions().keys()].map((token) => token.replace(/^insights:index:/, ""));
    expect(functions.length).toBeGreaterThan(25);
    const wrong: string[] = [];
    for (const name of functions) {
      const declaration = exported.get(name);
      if (declaration !== undefined && ts.getJSDocDeprecatedTag(declaration) !== undefined) continue;
      const stem = name.replace(/^get/, "Get");
      for (const [form, args, opts, result] of [
        [name, `${stem}Args`, "DataSourceOptions", `Promise<${stem}Result>`],
        [`${name}Output`, `${stem}OutputArgs`, "DataSourceOutputOptions", `pulumi.Output<${stem}Result>`],
      ] as const) {
        const node = exported.get(form);
        if (node === undefined || !ts.isFunctionDeclaration(node)) {
          wrong.push(`${form}: no function of that name at the root`);
          continue;
        }
        const typeArguments = node.typeParameters === undefined ? "" : `<${node.typeParameters.map((parameter) => parameter.name.text).join(", ")}>`;
        const signature = `${node.parameters.map((parameter) => `${parameter.name.getText()}: ${parameter.type?.getText()}`).join(", ")} => ${node.type?.getText()}`;
        const expected = `args: ${args}${typeArguments}, opts: ${opts} => ${result.replace(/>$/, `${typeArguments}>`)}`;
        if (signature !== expected) wrong.push(`${form}: ${signature}, not ${expected}`);
      }
      for (const type of [`${stem}Args`, `${stem}OutputArgs`, `${stem}Result`]) if (!exported.has(type)) wrong.push(`${type}: not exported`);
    }
    expect(wrong).toEqual([]);
  });

  it("keeps each name of version 0.1.0 that was renamed, marked deprecated", () => {
    const deprecated = ["estimateFilterMatch", "estimateFilterMatchOutput", "PiiOptOutReceiptParams", "GetMetricListingArgs", "FilterFieldValues", "MatchEstimate", "MatchEstimateParams"];
    expect(deprecated.filter((name) => {
      const declaration = exported.get(name);
      return declaration === undefined || ts.getJSDocDeprecatedTag(declaration) === undefined;
    })).toEqual([]);
  });
});

describe("`pulumi-insights/schema`", () => {
  it("holds the contract's name lists and limits at run time: no zod schema, no helper", () => {
    const values = Object.entries(schema);
    expect(values.length).toBeGreaterThan(20);
    const notLists = values.filter(([, value]) => !(Array.isArray(value) || typeof value === "string" || typeof value === "number" || Object.getPrototypeOf(value) === Object.prototype));
    expect(notLists.map(([name]) => name)).toEqual([]);
    expect(INTERNAL.filter((name) => name in schema)).toEqual([]);
  });
});
