import { describe, expect, it } from "vitest";
import * as client from "../provider/schema/names";
import { METRICS_PER_SELECTION } from "../provider/client/metrics";
import { AD_ALERT_METRICS, ALERT_SEVERITIES, ALERT_STATUSES, CONTENT_ALERT_METRICS } from "../emulator/contract/alerts";
import {
  ERROR_CODE_DIMENSIONS, ERROR_FILTER_NAMES, GROUP_BY_DIMENSIONS, METRIC_FILTER_NAMES, SESSION_BOOLEAN_FILTER_NAMES,
  SESSION_DIMENSION_FILTER_NAMES, SESSION_FILTER_NAMES,
} from "../emulator/contract/dimensions";
import { FILTER_FIELDS, FILTER_LOOKUPS, FILTERS_PER_CALL, RULE_GROUP_OPS, RULE_LEAF_OPS } from "../emulator/contract/filters";
import { EMULATOR_METRIC_NAMES, METRIC_ALIASES, QUALITY_SUMMARY_MEMBERS, SPEC_METRIC_NAMES, VALUE_FIELDS } from "../emulator/contract/metrics";
import { MAX_FILTERS_PER_CALL } from "../emulator/filters/ids";
import { MAX_LIST_LIMIT } from "../emulator/filters/list-query";
import { PII_STATUSES } from "../emulator/pii/store";
import { MAX_IDENTIFIERS_PER_REQUEST, MAX_LISTED_REQUESTS } from "../emulator/routes/pii";
import { MAX_SELECTION } from "../emulator/routes/metrics";
import {
  FACT_EXTRA_METRIC, SPEC_ALERTS, SPEC_ERROR_CODE_DIMENSIONS, SPEC_ERROR_FILTERS, SPEC_FILTER_FIELDS, SPEC_FILTER_LOOKUPS,
  SPEC_GROUP_BY_DIMENSIONS, SPEC_LIMITS, SPEC_METRIC_NAMES as CONTRACT_METRIC_NAMES, SPEC_PII_STATUSES,
  SPEC_SAMPLE_SESSION_DIMENSION_FILTERS, SPEC_SAMPLE_SESSION_OTHER_FILTERS,
} from "./support/spec-values";

const FACT_EXTRA_METRIC_NAMES = [FACT_EXTRA_METRIC];
// The contract lists is_ad_requested among the sample-session dimensions and describes it as a boolean.
const SPEC_SESSION_FILTERS = [...SPEC_SAMPLE_SESSION_DIMENSION_FILTERS, ...SPEC_SAMPLE_SESSION_OTHER_FILTERS.identifiers];
const SPEC_SESSION_BOOLEAN_FILTERS = ["is_ad_requested", ...SPEC_SAMPLE_SESSION_OTHER_FILTERS.booleans];
const SPEC_CONTENT_ALERT_METRICS = [...SPEC_ALERTS.contentMetrics].sort();
const SPEC_AD_ALERT_METRICS = [...SPEC_ALERTS.adMetrics];
const SPEC_ALERT_SEVERITIES = [...SPEC_ALERTS.severities];
const SPEC_ALERT_STATUSES = [...SPEC_ALERTS.statuses];

/**
 * Two independent readings of the contract (docs/api.md, foreword): the emulator keeps its own copy
 * of every list both sides need (emulator/contract/), the client its own (provider/schema/names.ts).
 * Each copy is compared with the other and with literal values written from the contract
 * (test/support/spec-values.ts). No emulator file imports the client: test/layering.test.ts holds
 * emulator/ to its README's table, which lists nothing outside it.
 */

const sorted = (values: Iterable<string>) => [...values].sort();

describe("the contract's lists: emulator, client and contract agree", () => {
  it("metric names: the contract's list plus ad-plays (docs/api.md 10.4) on both sides", () => {
    expect(CONTRACT_METRIC_NAMES).toHaveLength(81);
    expect([...SPEC_METRIC_NAMES]).toEqual(CONTRACT_METRIC_NAMES);
    expect(sorted(EMULATOR_METRIC_NAMES)).toEqual(sorted([...CONTRACT_METRIC_NAMES, ...FACT_EXTRA_METRIC_NAMES]));
    expect(sorted(client.METRIC_NAMES)).toEqual(sorted(EMULATOR_METRIC_NAMES));
    expect(Object.keys(METRIC_ALIASES)).toEqual(Object.keys(client.METRIC_ALIASES));
    expect(sorted(QUALITY_SUMMARY_MEMBERS)).toEqual(sorted(client.QUALITY_SUMMARY_MEMBERS));
  });

  it("value fields: the same fields for every metric on both sides", () => {
    const clientFields = client.METRIC_VALUE_FIELDS as Record<string, readonly string[]>;
    expect(Object.keys(VALUE_FIELDS)).toHaveLength(EMULATOR_METRIC_NAMES.length);
    for (const metric of EMULATOR_METRIC_NAMES) expect(sorted(VALUE_FIELDS[metric]), metric).toEqual(sorted(clientFields[metric] ?? []));
  });

  it("group-by dimensions, error-code dimensions and metric filters", () => {
    expect(SPEC_GROUP_BY_DIMENSIONS).toHaveLength(89);
    expect([...GROUP_BY_DIMENSIONS]).toEqual(SPEC_GROUP_BY_DIMENSIONS);
    expect([...client.GROUP_BY_DIMENSIONS]).toEqual(SPEC_GROUP_BY_DIMENSIONS);
    expect(ERROR_CODE_DIMENSIONS).toEqual(SPEC_ERROR_CODE_DIMENSIONS);
    expect(client.ERROR_CODE_DIMENSIONS).toEqual(SPEC_ERROR_CODE_DIMENSIONS);
    expect(sorted(ERROR_FILTER_NAMES)).toEqual(sorted(SPEC_ERROR_FILTERS));
    expect(sorted(client.ERROR_FILTER_NAMES)).toEqual(sorted(SPEC_ERROR_FILTERS));
    const metricFilters = [...SPEC_GROUP_BY_DIMENSIONS.map((name) => name.replace(/-/g, "_")), ...SPEC_ERROR_FILTERS];
    expect(sorted(METRIC_FILTER_NAMES)).toEqual(sorted(metricFilters));
    expect(sorted(client.METRIC_FILTER_NAMES)).toEqual(sorted(metricFilters));
  });

  it("sample-session filters: dimensions, booleans and error filters", () => {
    expect([...SESSION_DIMENSION_FILTER_NAMES]).toEqual(SPEC_SESSION_FILTERS);
    expect([...client.SESSION_DIMENSION_FILTER_NAMES]).toEqual(SPEC_SESSION_FILTERS);
    expect(sorted(SESSION_BOOLEAN_FILTER_NAMES)).toEqual(sorted(SPEC_SESSION_BOOLEAN_FILTERS));
    expect(sorted(client.SESSION_BOOLEAN_FILTER_NAMES)).toEqual(sorted(SPEC_SESSION_BOOLEAN_FILTERS));
    const all = sorted(new Set([...SPEC_SESSION_FILTERS, ...SPEC_SESSION_BOOLEAN_FILTERS, ...SPEC_ERROR_FILTERS]));
    expect(sorted(SESSION_FILTER_NAMES)).toEqual(all);
    expect(sorted(client.SESSION_FILTER_NAMES)).toEqual(all);
  });

  it("saved filters: fields, lookups and rule operators", () => {
    expect([...FILTER_FIELDS]).toEqual(SPEC_FILTER_FIELDS);
    expect([...client.FILTER_FIELDS]).toEqual(SPEC_FILTER_FIELDS);
    expect([...FILTER_LOOKUPS]).toEqual(SPEC_FILTER_LOOKUPS);
    expect([...client.FILTER_LOOKUPS]).toEqual(SPEC_FILTER_LOOKUPS);
    expect([...RULE_GROUP_OPS]).toEqual(["and", "or"]);
    expect([...client.RULE_GROUP_OPS]).toEqual(["and", "or"]);
    // contains and not_contains from the contract (docs/api.md 2.7), equals from real use (10.2).
    expect(sorted(RULE_LEAF_OPS)).toEqual(["contains", "equals", "not_contains"]);
    expect(sorted(client.RULE_LEAF_OPS)).toEqual(["contains", "equals", "not_contains"]);
  });

  it("alerts and PII states", () => {
    expect(sorted(CONTENT_ALERT_METRICS)).toEqual(SPEC_CONTENT_ALERT_METRICS);
    expect(sorted(client.CONTENT_ALERT_METRICS)).toEqual(SPEC_CONTENT_ALERT_METRICS);
    expect([...AD_ALERT_METRICS]).toEqual(SPEC_AD_ALERT_METRICS);
    expect([...client.AD_ALERT_METRICS]).toEqual(SPEC_AD_ALERT_METRICS);
    expect([...ALERT_SEVERITIES]).toEqual(SPEC_ALERT_SEVERITIES);
    expect([...client.ALERT_SEVERITIES]).toEqual(SPEC_ALERT_SEVERITIES);
    expect([...ALERT_STATUSES]).toEqual(SPEC_ALERT_STATUSES);
    expect([...client.ALERT_STATUSES]).toEqual(SPEC_ALERT_STATUSES);
    expect([...PII_STATUSES]).toEqual([...SPEC_PII_STATUSES]);
    expect([...client.PII_STATUSES]).toEqual([...SPEC_PII_STATUSES]);
  });

  it("limits: 12 metrics a selection, 100 filters a call, 100 identifiers a request, listings capped at 500", () => {
    expect([MAX_SELECTION, METRICS_PER_SELECTION]).toEqual([SPEC_LIMITS.metricsPerSelection, SPEC_LIMITS.metricsPerSelection]);
    expect([FILTERS_PER_CALL, MAX_FILTERS_PER_CALL, client.FILTERS_PER_CALL]).toEqual(Array(3).fill(SPEC_LIMITS.filtersPerCall));
    expect([MAX_IDENTIFIERS_PER_REQUEST, client.PII_IDENTIFIERS_PER_REQUEST]).toEqual(Array(2).fill(SPEC_LIMITS.identifiersPerRequest));
    expect([MAX_LIST_LIMIT, MAX_LISTED_REQUESTS]).toEqual(Array(2).fill(SPEC_LIMITS.resultCap));
  });
});
