import type { z } from "zod";
import { ALERT_PARAMS } from "../provider/client/alerts";
import * as ranges from "../provider/client/core/time-range";
import * as filterArguments from "../provider/client/core/validation";
import * as filterParams from "../provider/client/filters";
import { metricParamSchemas } from "../provider/client/metrics";
import * as piiParams from "../provider/client/pii";
import * as sessionSchemas from "../provider/client/sessions";
import * as schema from "../provider/schema";
import { PiiOptOutSubmitResult } from "../provider/schema/pii";
import * as accountProperties from "../provider/accounts/account-properties";
import { SAVED_FILTER, SAVED_FILTER_SET, SavedFilterSetMember } from "../provider/saved-filters/filter-properties";
import { FilterState } from "../provider/saved-filters/model/state";
import { PII_OPT_OUT_REQUEST } from "../provider/pii/opt-out-properties";
import { OverallStatus, TrackedRequest } from "../provider/pii/progress";
import { PiiOptOutReceipt, ReceiptRequest } from "../provider/pii/receipt";
import { DeletionVerification, StillPresentIdentifier } from "../provider/pii/verification";

/**
 * Which zod schemas become which public interfaces, in which file (scripts/generate-types.ts).
 * `output` types say what a parse answers (the client's answers), `input` types what a caller
 * writes (the parameters of the client's methods).
 */

/** One named type of a generated file. */
export interface PublicType {
  /** The type's name: the name of its schema, as the schema's module exports both. */
  name: string;
  /** The zod schema it is written from; met below another schema, it is written as `name`. */
  schema: z.core.$ZodType;
  /**
   * What the type describes: what a parse gives (`output`), what a caller writes (`input`), or what
   * a Pulumi program writes for a resource (`args`: an input, each value a Pulumi `Input`).
   */
  mode: "input" | "output" | "args";
  /** The type parameters, as TypeScript writes them between `<` and `>`. */
  typeParameters?: string;
  /** The type's description where its schema is another type's (an alias); else the schema's own. */
  description?: string;
  /** Named object types whose members (the same schemas) this one has too, with their type arguments: written as `extends`. */
  extends?: readonly string[];
}

/** One generated file. */
export interface PublicTypeFile {
  /** Its path from the repository's root. */
  path: string;
  /** What the file holds: the first comment of the file. */
  description: string;
  /** Hand-written types the TypeScript-only spellings of its schemas name, by module. */
  imports?: Record<string, readonly string[]>;
  /** Its types, in order. */
  types: readonly PublicType[];
}

/**
 * The named types of `module` in one direction, each written from the schema the module exports
 * under its name; `extended` names the object type each extends, by name.
 */
function typesOf(module: object, mode: PublicType["mode"], names: readonly string[], extended: Record<string, string> = {}): PublicType[] {
  return names.map((name) => {
    const schema = (module as Record<string, z.core.$ZodType | undefined>)[name];
    if (schema === undefined) throw new Error(`no schema named ${name} (scripts/public-types.ts)`);
    return { name, schema, mode, ...(extended[name] === undefined ? {} : { extends: [extended[name]] }) };
  });
}

/** The schemas of the metrics and sessions families, as a family builds them for its clock (the clock is not read here). */
const metricParams = metricParamSchemas(false, Date.now);
const sessionParams = sessionSchemas.sessionParamSchemas(Date.now);

/** The type parameters of the metric queries: the metrics asked for, and the family. */
const METRIC_QUERY = "Metric extends AcceptedMetricName, RealTime extends boolean";

/** A generic or extending type of the metrics family, by its name in {@link metricParamSchemas}. */
function metricType(name: keyof typeof metricParams, typeParameters: string | undefined, ...extended: string[]): PublicType {
  return { name, schema: metricParams[name], mode: "input", ...(typeParameters === undefined ? {} : { typeParameters }), ...(extended.length === 0 ? {} : { extends: extended }) };
}

/**
 * The output members of a resource class (`declare readonly name: pulumi.Output<T>`), which
 * scripts/generate-types.ts writes between two marker lines of the class's hand-written file.
 */
export interface PublicMembers {
  /** The file of the class, from the repository's root. */
  path: string;
  /** The class. */
  name: string;
  /** The resource's outputs (its declaration's). */
  schema: z.core.$ZodType;
  /** The name to write for a named type in this file, by the name it has elsewhere. */
  aliases?: Record<string, string>;
}

/** The resource classes whose output members scripts/generate-types.ts writes. */
export const PUBLIC_MEMBERS: readonly PublicMembers[] = [
  { path: "provider/resources/saved-filter/resource.ts", name: "SavedFilter", schema: SAVED_FILTER.outputs },
  { path: "provider/resources/saved-filter/set-resource.ts", name: "SavedFilterSet", schema: SAVED_FILTER_SET.outputs, aliases: { FilterState: "SavedFilterSetMember" } },
  { path: "provider/resources/pii-opt-out-request/resource.ts", name: "PiiOptOutRequest", schema: PII_OPT_OUT_REQUEST.outputs },
];

/** The files scripts/generate-types.ts writes. */
export const PUBLIC_TYPE_FILES: readonly PublicTypeFile[] = [
  {
    path: "provider/schema/records.ts",
    description:
      "The records of the Insights API (spec section 2) as plain TypeScript interfaces: what the client answers and the data sources return. They are the public types of the package; the zod schemas of the other modules of this folder, which they are written from, parse the wire into them and stay an implementation detail, so that a program type-checks without zod's declarations. Objects the service may extend keep an index signature of unknown fields.",
    types: [
      ...typesOf(schema, "output", ["Timestamp", "AlertTimestamp", "LookupValues", "ErrorBody", "RuleLeaf", "RuleGroup", "RuleNode"]),
      ...typesOf(schema, "output", ["SavedFilter", "SavedFilterInput"]),
      // What a caller writes: an id may be a number.
      ...typesOf(schema, "input", ["SavedFilterUpdate"]),
      ...typesOf(schema, "output", ["SavedFilterList", "SavedFilterUpdateResponse", "DeletedFilter", "SavedFilterDeleteResponse"]),
      ...typesOf(schema, "output", ["AlertTimelinePoint", "AlertFields", "AlertSummary", "AlertDetail", "AlertList"], { AlertSummary: "AlertFields", AlertDetail: "AlertFields" }),
      ...typesOf(schema, "output", ["MetricValue", "MetricMembers", "TimeSeriesPoint", "DimensionalDatum", "GroupByPoint", "MetricMeta", "MetricResponse"]),
      ...typesOf(schema, "output", ["GroupByTotal", "GroupByResponse", "GroupByDimensionList", "DimensionTagList", "MetricDimensionReferenceList"]),
      ...typesOf(schema, "output", ["FilterReferenceList", "KpiList", "PiiOptOutSubmission"]),
      // The client's answer to a POST, not the wire's (provider/schema/pii.ts).
      { name: "PiiOptOutSubmitResponse", schema: PiiOptOutSubmitResult, mode: "output" },
      ...typesOf(schema, "output", ["PiiOptOutRequest", "PiiOptOutRequestList", "Session", "SessionList", "ViewerSummary", "SessionDimensionList", "DiscoveryList"]),
    ],
  },
  {
    path: "provider/client/params.ts",
    description:
      "The parameters of the client's methods as plain TypeScript interfaces: the public types of those methods. The zod schemas they are written from check them before sending and stay an implementation detail.",
    types: [
      ...typesOf(filterParams, "input", ["SavedFilterField", "FilterLookupName", "FilterListQuery", "FilterGetParams", "FilterFindByNameParams"]),
      { name: "FilterToCreate", schema: schema.SavedFilterInput, mode: "input", description: "The writable fields of a saved filter to create (spec 4.8, POST body item)." },
      ...typesOf(filterParams, "input", ["FilterCreateParams"]),
      {
        name: "FilterChange",
        schema: schema.SavedFilterUpdate,
        mode: "input",
        description: "A change of one filter (spec 4.8, PUT body item): its id and the fields to merge into it; `null` clears `category` and `subcategory`.",
      },
      ...typesOf(filterParams, "input", ["FilterUpdateParams", "FilterDeleteParams", "FilterFieldsParams", "FilterLookupParams", "SubcategoryQuery"]),
      ...typesOf(piiParams, "input", ["PiiSubmitArguments", "PiiListQuery", "PiiGetParams"]),
      metricType("SeriesParams", "RealTime extends boolean"),
      metricType("MetricParams", METRIC_QUERY, "SeriesParams<RealTime>"),
      metricType("SelectionParams", METRIC_QUERY, "SeriesParams<RealTime>"),
      metricType("GroupByOptions", undefined),
      metricType("GroupByParams", METRIC_QUERY, "MetricParams<Metric, RealTime>", "GroupByOptions"),
      metricType("SelectionGroupByParams", METRIC_QUERY, "SelectionParams<Metric, RealTime>", "GroupByOptions"),
      metricType("TagGroupByParams", METRIC_QUERY, "MetricParams<Metric, RealTime>", "GroupByOptions"),
      metricType("MetricListingParams", undefined),
      ...typesOf({ ...sessionParams, ViewerIdentity: sessionSchemas.ViewerIdentity }, "input", ["SampleSessionParams", "ViewerIdentity", "ViewerSummaryParams", "ViewerSessionParams"]),
      { name: "AlertListParams", schema: ALERT_PARAMS.content, mode: "input", typeParameters: "Metric extends string" },
      { name: "AlertDetailParams", schema: ALERT_PARAMS.AlertDetailParams, mode: "input" },
    ],
    imports: {
      "./core/validation": ["AcceptedMetricName", "GroupByName", "MetricFilters", "SessionFilters"],
      "./core/time-range": ["MetricRange"],
    },
  },
  {
    path: "provider/client/core/params.ts",
    description:
      "The arguments the query families share, as plain TypeScript interfaces: time ranges and filters. The zod schemas they are written from (time-range.ts, validation.ts) stay an implementation detail.",
    types: [
      ...typesOf(ranges, "input", ["DateInput", "ExplicitRange", "LastDaysRange", "LastMinutesRange", "TimeRange"]),
      ...typesOf(filterArguments, "input", ["FilterValue", "TagFilters"]),
      { name: "FilterArguments", schema: filterArguments.FilterArguments, mode: "input", typeParameters: "Filters" },
    ],
  },
  {
    path: "provider/schema/resource-records.ts",
    description:
      "What the resources record in their state, as plain TypeScript interfaces: each written from the resource's declaration beside its core (provider/accounts/account-properties.ts, provider/saved-filters/filter-properties.ts, provider/pii/opt-out-properties.ts), which the plugin's package schema is written from too.",
    types: [
      { name: "RecordedAccount", schema: accountProperties.RecordedAccount, mode: "output" },
      { name: "AccountOutputs", schema: accountProperties.AccountOutputs, mode: "output" },
      { name: "FilterState", schema: FilterState, mode: "output" },
      { name: "SavedFilterOutputs", schema: SAVED_FILTER.outputs, mode: "output", description: "What a SavedFilter records: the filter as the account holds it, the adopted id and its account.", extends: ["FilterState", "AccountOutputs"] },
      { name: "SavedFilterSetOutputs", schema: SAVED_FILTER_SET.outputs, mode: "output", description: "What a SavedFilterSet records: each member's id and state, the adoption map and its account.", extends: ["AccountOutputs"] },
      { name: "TrackedRequest", schema: TrackedRequest, mode: "output" },
      { name: "OverallStatus", schema: OverallStatus, mode: "output" },
      { name: "StillPresentIdentifier", schema: StillPresentIdentifier, mode: "output" },
      { name: "DeletionVerification", schema: DeletionVerification, mode: "output" },
      { name: "ReceiptRequest", schema: ReceiptRequest, mode: "output" },
      { name: "PiiOptOutReceipt", schema: PiiOptOutReceipt, mode: "output" },
      {
        name: "PiiOptOutRequestOutputs",
        schema: PII_OPT_OUT_REQUEST.outputs,
        mode: "output",
        description: "What a PiiOptOutRequest records: its identifiers as secrets, their digest, the requests, the wait settings, the deletion check, the receipt and its account.",
        extends: ["AccountOutputs"],
      },
    ],
  },
  {
    path: "provider/resources/args.ts",
    description:
      "The inputs of the resources as a TypeScript program writes them, each value a Pulumi `Input`: written from each resource's declaration beside its core (provider/saved-filters/filter-properties.ts, provider/pii/opt-out-properties.ts), which the plugin's package schema is written from too.",
    imports: { "@pulumi/pulumi": ["Input"] },
    types: [
      { name: "SavedFilterArgs", schema: SAVED_FILTER.inputs, mode: "args", description: "Inputs of a `SavedFilter` (spec 2.7)." },
      { name: "SavedFilterSetMemberArgs", schema: SavedFilterSetMember, mode: "args" },
      { name: "SavedFilterSetArgs", schema: SAVED_FILTER_SET.inputs, mode: "args", description: "Inputs of a `SavedFilterSet`." },
      { name: "PiiOptOutRequestArgs", schema: PII_OPT_OUT_REQUEST.inputs, mode: "args", description: "Inputs of a `PiiOptOutRequest` (spec 4.10). Give `viewerIds` or `userIds`, not both." },
    ],
  },
];
