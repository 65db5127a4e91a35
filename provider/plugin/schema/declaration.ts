import { z } from "zod";
import { FilterFindByNameParams, FilterGetParams, FilterListQuery } from "../../client/filters";
import { ALERT_PARAMS } from "../../client/alerts";
import { metricParamSchemas } from "../../client/metrics";
import { PiiGetParams, PiiListQuery } from "../../client/pii";
import { sessionParamSchemas } from "../../client/sessions";
import { ExplicitRange } from "../../client/core/time-range";
import { RecordedAccount } from "../../accounts/account-properties";
import type { ResourceDeclaration } from "../../accounts/calls";
import { PII_OPT_OUT_REQUEST } from "../../pii/opt-out-properties";
import { TrackedRequest } from "../../pii/progress";
import { PiiOptOutReceipt, ReceiptRequest } from "../../pii/receipt";
import { DeletionVerification, StillPresentIdentifier } from "../../pii/verification";
import { SAVED_FILTER, SAVED_FILTER_SET, SavedFilterSetMember } from "../../saved-filters/filter-properties";
import { FilterState } from "../../saved-filters/model/state";
import {
  ACCEPTED_METRIC_PATH_NAMES,
  AD_ALERT_METRICS,
  ALERT_SEVERITIES,
  ALERT_STATUSES,
  AlertDetail,
  AlertList,
  AlertSummary,
  AlertTimelinePoint,
  AlertTimestamp,
  CONTENT_ALERT_METRICS,
  DimensionTagList,
  FILTER_LOOKUPS,
  FilterReferenceList,
  GroupByDimensionList,
  GroupByTotal,
  Kpi,
  KpiList,
  MetricDimensionReferenceList,
  MetricMembers,
  MetricValue,
  PII_STATUSES,
  PiiOptOutRequest as PiiOptOutRequestRecord,
  RULE_GROUP_OPS,
  RULE_LEAF_OPS,
  RuleGroup,
  RuleNode,
  SavedFilter as SavedFilterRecord,
  Session,
  SessionDimension,
  SessionDimensionList,
  SessionList,
  Timestamp,
  ViewerSummary,
} from "../../schema";
import { AccountSettings, ProviderSettings, SETTINGS, type SettingDeclaration } from "../../accounts/settings";
import type { ResourceName } from "../tokens";

/**
 * What the package schema of the plugin says (docs/provider-plugins.md rule 12), declared over the
 * package's zod schemas, the one source of its types: the provider's settings
 * (accounts/settings.ts), the resources as each is declared beside its core
 * (saved-filters/filter-properties.ts, pii/opt-out-properties.ts), each function's arguments and
 * result, and the names of the object types. ./generate.ts turns it into provider/plugin/schema.json.
 *
 * Descriptions come from the zod schemas' metadata (`.describe()`, `.meta({ description, secret })`).
 * Where a source has none yet, this module describes a clone of it (`.describe()` leaves the source
 * as it is); such descriptions move into the sources as these gain them. Where a result has no zod
 * source (the metric series), its shape is declared here, and test/plugin/schema.test.ts holds it to
 * the TypeScript type.
 */

/** A declared function (a data source): its description, arguments and result. */
export interface FunctionDeclaration {
  description: string;
  inputs: z.ZodObject;
  /** An object schema, or one that declares the object it gives (a listing: provider/schema/meta.ts `declareShape`). */
  outputs: z.ZodType;
  /** The result holds personal data: every property is a secret (the plugin answers them so). */
  personalData?: boolean;
}

/** The name (and description, else the schema's own) of an object or enum type, for the zod schema it is written from. */
export interface TypeName {
  name: string;
  description?: string;
}

const accountArgument = z.string().optional().describe("The account to read: a name of the provider's `accounts`; left out, the provider's own settings.");

/** The resources of the package, each declared beside its core (accounts/calls.ts `ResourceDeclaration`). */
export const RESOURCES = {
  SavedFilter: SAVED_FILTER,
  SavedFilterSet: SAVED_FILTER_SET,
  PiiOptOutRequest: PII_OPT_OUT_REQUEST,
} satisfies Record<ResourceName, ResourceDeclaration>;

/** One interval of a metric series (client/metric-results.ts `MetricPoint`). */
const MetricPoint = z.object({
  time: z.string().describe("The start of the interval, ISO 8601 UTC."),
  epochMs: z.number().describe("The start of the interval, epoch milliseconds."),
  value: z.number().describe("The value over the interval."),
});

/**
 * `[metric][field]` maps of a metric answer (client/metric-results.ts `PerMetric`): maps, since their
 * keys are the metrics asked for (`quality-summary` answers for its members) and their value fields.
 */
const perMetric = {
  series: z
    .record(z.string(), z.record(z.string(), z.array(MetricPoint)))
    .describe("`series[metric][field]`: the values per interval, in time order (intervals without a value left out); `quality-summary` answers for its members."),
  total: z
    .record(z.string(), z.record(z.string(), z.number().optional()))
    .optional()
    .describe("`total[metric][field]` over the whole range; absent when the client split the range (over 90 days, or after a 413): totals do not add up across windows, see `windows`."),
};

/** One window a metric query was fetched in, with its own total as on the wire (client/metric-merge.ts `WindowTotal`). */
const windowOf = <Total extends z.ZodType>(total: Total) =>
  z.object({
    startMs: z.number().describe("The window's start, epoch milliseconds."),
    endMs: z.number().describe("The window's end, epoch milliseconds (excluded)."),
    total: total.optional().describe("The window's own total, members keyed as on the wire; absent when the window itself was split, or the service sent none."),
  });
const MetricWindow = windowOf(MetricMembers);
const GroupByWindow = windowOf(GroupByTotal);
const windowsOf = <Window extends z.ZodType>(window: Window) =>
  z.array(window).describe("The windows the range was fetched in, each with its exact total: more than one when the client split the range (over 90 days, or after a 413).");

/** The arguments of the metric families (client/metrics.ts `metricParamSchemas`; the clock only bounds what they accept, not their shape). */
const METRIC_PARAMS = { historical: metricParamSchemas(false, Date.now), realTime: metricParamSchemas(true, Date.now) };

/** A range of either metric family: historical (explicit or `lastDays`) or real time (explicit or `lastMinutes`). */
const MetricRange = z.union([METRIC_PARAMS.historical.SeriesParams.shape.range.unwrap(), METRIC_PARAMS.realTime.SeriesParams.shape.range.unwrap()]);

/**
 * The result of a metric series (client/metric-results.ts `MetricResult`), which
 * test/plugin/schema.test.ts holds to the TypeScript type. The merged wire answer (`response`) is
 * answered too but not declared: its points key a member per metric beside the timestamp, which a
 * Pulumi object type cannot say, and `series` and `total` hold the same values, typed.
 */
export const MetricSeriesResult = z.object({ ...perMetric, windows: windowsOf(MetricWindow) });

/** One entity of a group-by answer (client/metric-results.ts `GroupByEntity`). */
export const GroupByEntity = z.object({
  value: z.string().describe("The dimension value, as a filter would take it."),
  description: z.string().optional().describe("The value's description, when the answer gives one (a country's name for its code)."),
  ...perMetric,
});

/** The result of a group-by series (client/metric-results.ts `GroupByResult`), `response` left out as for {@link MetricSeriesResult}. */
export const GroupBySeriesResult = z.object({
  entities: z.array(GroupByEntity).describe("The entities answered: ordered as the total ranks them (the top ones, sorted as asked), then by first appearance."),
  windows: windowsOf(GroupByWindow),
});

/** The arguments of `getFilterFieldValues` (provider/data/filters.ts `GetFilterFieldValuesArgs`). */
const FilterFieldValuesArgs = z.object({
  field: z
    .enum([...FILTER_LOOKUPS, "subcategories"])
    .describe("A lookup of spec 4.8, or `subcategories` (of one `category`): the values filter rules may use for that field."),
  pattern: z.string().optional().describe("Only the values that contain this text."),
  category: z.string().optional().describe("With `subcategories`: the category whose subcategories are listed."),
});

/** The functions of the package whose arguments and result have a source (see {@link PENDING_FUNCTIONS}). */
export const FUNCTIONS: Record<string, FunctionDeclaration> = {
  getSavedFilters: {
    description: "The saved filters matching the query (spec 4.8); more than 100 ids are fetched in several calls.",
    inputs: z.object({ ...FilterListQuery.omit({ fields: true }).shape, account: accountArgument }),
    outputs: z.object({ filters: z.array(SavedFilterRecord).describe("The matching filters.") }),
  },
  getSavedFilter: {
    description: "The saved filter with this id (spec 2.7); none is an error.",
    inputs: z.object({ ...FilterGetParams.shape, account: accountArgument }),
    outputs: SavedFilterRecord,
  },
  getSavedFilterByName: {
    description: "The saved filter named exactly `name` (the API's `name` query matches substrings); none, or several of that name, is an error that says what there is.",
    inputs: z.object({ ...FilterFindByNameParams.shape, account: accountArgument }),
    outputs: SavedFilterRecord,
  },
  getFilterFields: {
    description: "The filter field names rules may use (spec 4.8 `GET /bulk_filters/fields`, 2.7).",
    inputs: z.object({ account: accountArgument }),
    outputs: z.object({ fields: z.array(z.string()).describe("The field names.") }),
  },
  getFilterFieldValues: {
    description:
      "The values a filter rule may use for one field (spec 4.8 lookups), optionally only those that contain `pattern`. One answer holds at most 500 values: `complete` is false when it may have been cut (narrow with `pattern`).",
    inputs: FilterFieldValuesArgs.extend({ account: accountArgument }),
    outputs: z.object({
      values: z.array(z.string()).describe("The values."),
      complete: z.boolean().describe("False when the answer holds as many values as one answer can (500): the account may have more, which a `pattern` narrows to."),
    }),
  },
  getPiiOptOutRequests: {
    description: "The opt-out requests matching the query (spec 4.10): `status`, a creation range `start`/`end` (YYYY-MM-DD) and `limit`. The result is secret: personal data.",
    inputs: z.object({ ...PiiListQuery.shape, account: accountArgument }),
    outputs: z.object({ requests: z.array(PiiOptOutRequestRecord).describe("The matching requests.") }),
    personalData: true,
  },
  getPiiOptOutRequest: {
    description: "One opt-out request with its state (spec 3.1); an unknown id is an error. The result is secret: personal data.",
    inputs: z.object({ ...PiiGetParams.shape, account: accountArgument }),
    outputs: PiiOptOutRequestRecord,
    personalData: true,
  },
  getPiiOptOutReceipt: {
    description: "The audit receipt of an opt-out request made outside Pulumi (the console, another tool), in the shape of a PiiOptOutRequest's `receipt` output. It names no identifier.",
    inputs: z.object({
      id: z.string().describe("The opt-out request's id (spec 2.9)."),
      verify: z.boolean().optional().describe("Check after FINISHED that the viewers' sessions are gone (default true; user ids cannot be checked)."),
      account: accountArgument,
    }),
    outputs: PiiOptOutReceipt,
  },
  ...alertFunctions(),
  ...sessionFunctions(),
  ...metricLookupFunctions(),
  ...metricSeriesFunctions(),
};

/** The AI alert functions (spec 4.9, 2.8): arguments of client/alerts.ts `ALERT_PARAMS`, results of schema/alerts.ts. */
function alertFunctions(): Record<string, FunctionDeclaration> {
  const list = (kind: "content" | "ad", metrics: string): FunctionDeclaration => ({
    description: `Alerts on ${kind} metrics (spec 4.9) whose status changed in \`range\` (any length: fetched in 30-day windows and merged), filtered by \`severity\`, \`status\` and \`alertMetric\` (${metrics}); newest start first.`,
    inputs: z.object({ ...ALERT_PARAMS[kind].in.shape, account: accountArgument }),
    outputs: AlertList,
  });
  const detail = (kind: "content" | "ad"): FunctionDeclaration => ({
    description: `One ${kind} alert with its timeline (spec 4.9, 2.8: start, and info, warning, critical and end as reached, each with the metric value and the impacted uniques); an unknown id is an error.`,
    inputs: z.object({ ...ALERT_PARAMS.AlertDetailParams.shape, account: accountArgument }),
    outputs: AlertDetail,
  });
  return {
    getContentAlerts: list("content", CONTENT_ALERT_METRICS.join(", ")),
    getAdAlerts: list("ad", AD_ALERT_METRICS.join(", ")),
    getContentAlert: detail("content"),
    getAdAlert: detail("ad"),
  };
}

/**
 * The session functions (spec 4.2 to 4.5): arguments of client/sessions.ts `sessionParamSchemas`
 * (the clock only bounds what they accept, not their shape), results of schema/sessions.ts. Sessions
 * carry viewer ids and IP addresses and a summary names its viewer: personal data, answered as secrets.
 */
function sessionFunctions(): Record<string, FunctionDeclaration> {
  const params = sessionParamSchemas(Date.now);
  const sample = (kind: string, needs: string): FunctionDeclaration => ({
    description: `Samples of ended ${kind} sessions (spec 4.2${needs}): dimension \`filters\` (spec 4.7), custom \`tags\` or one saved filter (\`filterId\`), a \`range\` of at most 3 hours within the last 31 days (default the latest 3 hours), \`limit\` 1 to 500 (default 50; when more sessions match, which ones the sample holds is the service's choice). The result is secret: personal data.`,
    inputs: z.object({ ...params.SampleSessionParams.in.shape, account: accountArgument }),
    outputs: SessionList,
    personalData: true,
  });
  return {
    getContentSessions: sample("content", ""),
    getAdSessions: sample("ad", "; the account needs ad insights"),
    getViewerSessions: {
      description:
        "The content sessions of one viewer, ended and ongoing (spec 4.3; the account needs the viewer module): by `viewerId` or `viewerIp`, a `range` or the last N days (default the last day); without a `limit` every session of the range, with one the newest `limit`. The result is secret: personal data.",
      inputs: z.object({ ...params.ViewerSessionParams.in.shape, account: accountArgument }),
      outputs: SessionList,
      personalData: true,
    },
    getViewerSummary: {
      description: "Summary metrics of one viewer (spec 4.4, 2.3), by `viewerId` or `viewerIp`, over a `range` (default the last day). The result is secret: personal data.",
      inputs: z.object({ ...params.ViewerSummaryParams.in.shape, account: accountArgument }),
      outputs: ViewerSummary,
      personalData: true,
    },
    getSessionDimensions: {
      description: "The sessions dimension lookup (spec 4.5, 2.5): the filters the account can use on sample sessions, custom tags included (`is_custom`).",
      inputs: z.object({ account: accountArgument }),
      outputs: SessionDimensionList,
    },
  };
}

/** The metric lookups (spec 4.6, 2.6): arguments of client/metrics.ts `metricParamSchemas`, results of schema/metrics.ts. */
function metricLookupFunctions(): Record<string, FunctionDeclaration> {
  const listing = z.object({
    ...METRIC_PARAMS.historical.MetricListingParams.shape,
    realTime: z.boolean().optional().describe("The real-time family (spec 4.6 `/insights/3.0/real-time-metrics`); default false, historical."),
    account: accountArgument,
  });
  const noArguments = z.object({ account: accountArgument });
  return {
    getGroupByDimensions: {
      description: "The dimensions a metric can be grouped by (spec 4.6 `{base}/{metric_name}/group-by`), historical or real time.",
      inputs: listing,
      outputs: GroupByDimensionList,
    },
    getDimensionTags: {
      description: "The account's custom tags a metric can be grouped by (spec 4.6 `{base}/{metric_name}/group-by/dimension-tag`), historical or real time.",
      inputs: listing,
      outputs: DimensionTagList,
    },
    getMetricDimensions: {
      description: "The filtering and group-by dimensions of the metrics API (spec 4.6 `/3.0/metrics/_meta/references/dimensions`).",
      inputs: noArguments,
      outputs: MetricDimensionReferenceList,
    },
    getSavedFilterReferences: {
      description: "Basic data (id, name) about the saved filters, as the metrics API knows them (spec 4.6 `/3.0/metrics/_meta/references/filters`).",
      inputs: noArguments,
      outputs: FilterReferenceList,
    },
    getKpis: {
      description: "The KPI sets (spec 4.6 `/kpis`, 2.6): `kpi_id` (1 is the default set) and `kpi_name`.",
      inputs: noArguments,
      outputs: KpiList,
    },
  };
}

/**
 * The metric series (spec 4.6): arguments of client/metrics.ts `metricParamSchemas`, with a range
 * of either family (historical: explicit or `lastDays`; real time: explicit or `lastMinutes`) and
 * `realTime`; results declared above.
 */
function metricSeriesFunctions(): Record<string, FunctionDeclaration> {
  const { historical } = METRIC_PARAMS;
  const range = MetricRange.optional()
    .describe(
      "Explicit (`start`, `end`), `lastDays` (historical) or `lastMinutes` (real time). Default: the last 24 hours (historical) or 5 minutes (real time) ending now by the client's clock (docs/api.md 11.9).",
    );
  const flavoured = (params: z.ZodObject) =>
    z.object({
      ...params.shape,
      range,
      realTime: z.boolean().optional().describe("The real-time family (spec 4.6 `/insights/3.0/real-time-metrics`; spec 8: at most 15 minutes, not older than 15 minutes); default false, historical."),
      account: accountArgument,
    });
  const common = "a `range` (historical: split past 90 days), a `granularity` (PT1H historical, PT1M real time by default; `ALL` for one interval), dimension `filters`, custom `tags` or a saved filter (`filterId`), a KPI set (`kpiId`); `realTime: true` for the real-time family";
  const groupBy = "the top entities (`limit`, default 50; above 50 the range is at most 24 hours), ranked by `sortBy` in `order`";
  return {
    getMetric: {
      description: `One metric as a time series (spec 4.6 \`{base}/{metric_name}\`): ${common}. The answer has \`series[metric][field]\` and \`total[metric][field]\` for the metric's value fields (docs/api.md 10.4).`,
      inputs: flavoured(historical.MetricParams.in),
      outputs: MetricSeriesResult,
    },
    getMetrics: {
      description: `Several metrics as one time series (spec 4.6 \`{base}/custom-selection\`; more than 12 are asked in several requests and merged): ${common}.`,
      inputs: flavoured(historical.SelectionParams.in),
      outputs: MetricSeriesResult,
    },
    getMetricGroupBy: {
      description: `One metric grouped by a dimension or an error-code dimension (spec 4.6, 4.7): ${groupBy}, each entity with its \`series\` and \`total\`; ${common}.`,
      inputs: flavoured(historical.GroupByParams.in),
      outputs: GroupBySeriesResult,
    },
    getMetricsGroupBy: {
      description: `Several metrics grouped by a dimension (spec 4.6 \`custom-selection/group-by/{dimension}\`): ${groupBy}; ${common}.`,
      inputs: flavoured(historical.SelectionGroupByParams.in),
      outputs: GroupBySeriesResult,
    },
    getMetricGroupByTag: {
      description: `One metric grouped by one of the account's custom tags (spec 4.6 \`group-by/dimension-tag/{custom_tag}\`): ${groupBy}; ${common}.`,
      inputs: flavoured(historical.TagGroupByParams.in),
      outputs: GroupBySeriesResult,
    },
  };
}

/**
 * Functions the plugin serves through Invoke but the schema does not declare yet, each with why:
 * the source its arguments or its result would be written from does not exist yet. Each moves to
 * {@link FUNCTIONS} once its source exists; test/plugin/schema.test.ts keeps every data source in
 * one of the two lists.
 */
export const PENDING_FUNCTIONS: Record<string, string> = {
  getFilterMatchEstimate: "the arguments are checked by hand and the result is a TypeScript interface (match-estimate/estimate.ts), not zod schemas",
};

/** The names of object and enum types whose zod schema is used in several places or is recursive. */
export const TYPE_NAMES = new Map<z.ZodType, TypeName>([
  [RuleGroup, { name: "RuleGroup", description: "A group of rules (spec 2.7): `op` joins its `rules`, each a group or a leaf." }],
  [
    RuleNode,
    {
      name: "RuleNode",
      description:
        "A node of a rule tree (spec 2.7): a group (`op` `and` or `or`, and `rules`) or a leaf (`field`, `op` `contains`, `not_contains` or `equals`, `value`, and `key` for a `Tag` field).",
    },
  ],
  // The resources' named types are described where they are declared.
  [FilterState, { name: "SavedFilterState" }],
  [SavedFilterSetMember, { name: "SavedFilterSetMember" }],
  [RecordedAccount, { name: "RecordedAccount" }],
  [SavedFilterRecord, { name: "SavedFilterDetails", description: "A saved filter as the API answers it (spec 2.7)." }],
  [PiiOptOutRequestRecord, { name: "PiiOptOutRequestDetails", description: "A PII opt-out request as the API answers it (spec 2.9)." }],
  [TrackedRequest, { name: "PiiOptOutTrackedRequest" }],
  [DeletionVerification, { name: "PiiDeletionVerification" }],
  [StillPresentIdentifier, { name: "PiiStillPresentIdentifier" }],
  [PiiOptOutReceipt, { name: "PiiOptOutReceipt" }],
  [ReceiptRequest, { name: "PiiOptOutReceiptRequest" }],
  [AccountSettings, { name: "Account", description: "A named account: where it is and its credentials." }],
  [ExplicitRange, { name: "ExplicitRange", description: "A time range `[start, end)`: start included, end excluded (spec 4.1)." }],
  [AlertSummary, { name: "AlertSummary", description: "An AI alert as listed (spec 2.8): its timeline holds `start` and, once ended, `end`." }],
  [AlertDetail, { name: "AlertDetail", description: "An AI alert's detail (spec 2.8): a timeline point per severity reached." }],
  [AlertTimelinePoint, { name: "AlertTimelinePoint", description: "A point of an alert's timeline: the metric value and the impacted uniques when it was reached." }],
  [AlertTimestamp, { name: "AlertTimestamp", description: "When something happened to an alert (spec 2.8)." }],
  [Session, { name: "Session", description: "A session (spec 2.2): one viewing stream of content or of an ad. Its viewer id and IP addresses are personal data." }],
  [Timestamp, { name: "SessionTimestamp", description: "When a session started or ended (spec 2.2)." }],
  [SessionDimension, { name: "SessionDimension", description: "A dimension sample sessions can be filtered by (spec 2.5)." }],
  [ViewerSummary, { name: "ViewerSummary", description: "Totals over one viewer's sessions (spec 2.3)." }],
  [Kpi, { name: "Kpi", description: "A KPI set (spec 2.6)." }],
  [MetricPoint, { name: "MetricPoint", description: "One interval of a metric series: its start and the value." }],
  [GroupByEntity, { name: "GroupByEntity", description: "One entity of a group-by answer: a value of the dimension, with its series and total." }],
  [MetricWindow, { name: "MetricWindow", description: "One window a metric series was fetched in, with its own total." }],
  [GroupByWindow, { name: "GroupByWindow", description: "One window a group-by series was fetched in, with its entities' totals." }],
  [MetricRange, { name: "MetricRange", description: "A time range of historical or real-time metrics (spec 4.1): `start` and `end`, `lastDays` (historical) or `lastMinutes` (real time)." }],
  [MetricValue, { name: "MetricValue", description: "The value fields of one metric member as on the wire (docs/api.md 10.4)." }],
]);

/** The names of closed lists met in several places, by their values in order. */
const ENUM_NAMES = new Map<string, string>(
  (
    [
      [RULE_GROUP_OPS, "RuleGroupOperator"],
      [[...RULE_GROUP_OPS, ...RULE_LEAF_OPS], "RuleOperator"],
      [[...FILTER_LOOKUPS, "subcategories"], "FilterLookup"],
      [PII_STATUSES, "PiiOptOutStatus"],
      [["SUBMITTING", ...PII_STATUSES, "UNTRACKED"], "PiiOptOutProgress"],
      [["submitted", "adopted"], "PiiOptOutRequestOrigin"],
      [["viewer", "user"], "PiiIdentifierKind"],
      [ALERT_SEVERITIES, "AlertSeverity"],
      [ALERT_STATUSES, "AlertStatus"],
      [CONTENT_ALERT_METRICS, "ContentAlertMetric"],
      [AD_ALERT_METRICS, "AdAlertMetric"],
      [ACCEPTED_METRIC_PATH_NAMES, "MetricName"],
      [METRIC_PARAMS.historical.GroupByParams.in.shape.dimension.options, "GroupByDimension"],
      [METRIC_PARAMS.historical.GroupByOptions.shape.order.unwrap().options, "SortOrder"],
    ] as Array<[readonly string[], string]>
  ).map(([values, name]) => [JSON.stringify(values), name]),
);

/** The declared name of an enum of `values` (in their order), if any. */
export function enumName(values: readonly string[]): string | undefined {
  return ENUM_NAMES.get(JSON.stringify(values));
}

/** The provider's settings: config variables and provider inputs, with the environment variable each falls back to. */
export const CONFIG = {
  settings: ProviderSettings,
  environment: Object.fromEntries(Object.entries(SETTINGS as Record<string, SettingDeclaration>).flatMap(([name, { env }]) => (env === undefined ? [] : [[name, env]]))) as Readonly<Record<string, string>>,
};
