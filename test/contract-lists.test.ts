import { describe, expect, it } from "vitest";
import {
  AD_ALERT_METRICS, ALERT_SEVERITIES, ALERT_STATUSES, CONTENT_ALERT_METRICS, ERROR_CODE_DIMENSIONS, ERROR_FILTER_NAMES,
  FILTER_FIELDS, GROUP_BY_DIMENSIONS, METRIC_FILTER_NAMES, METRIC_NAMES, METRIC_VALUE_FIELDS, PII_STATUSES, SESSION_FILTER_NAMES,
} from "../provider/schema";
import { useTestEmulator } from "./support/emulator";
import {
  FACT_EXTRA_METRIC, FACT_VALUE_FIELDS, SPEC_ALERTS, SPEC_ERROR_CODE_DIMENSIONS, SPEC_ERROR_FILTERS, SPEC_FILTER_FIELDS,
  SPEC_GROUP_BY_DIMENSIONS, SPEC_METRIC_NAMES, SPEC_PII_STATUSES, SPEC_SAMPLE_SESSION_DIMENSION_FILTERS,
  SPEC_SAMPLE_SESSION_OTHER_FILTERS,
} from "./support/spec-values";

/**
 * The contract's lists (docs/api.md 2.7, 2.8, 3.1, 4.6, 4.7, 4.9, 10.4), written out in
 * test/support/spec-values.ts, against each reading of them: the client's lists
 * (provider/schema/names.ts) and what the emulator answers over HTTP. Neither side is compared with
 * its own constants.
 */

const sorted = (values: Iterable<string>) => [...values].sort();
const snake = (name: string) => name.replace(/-/g, "_");
const ALL_METRICS = [...SPEC_METRIC_NAMES, FACT_EXTRA_METRIC];
const SAMPLE_SESSION_FILTERS = [
  ...SPEC_SAMPLE_SESSION_DIMENSION_FILTERS, ...SPEC_SAMPLE_SESSION_OTHER_FILTERS.identifiers,
  ...SPEC_SAMPLE_SESSION_OTHER_FILTERS.booleans, ...SPEC_ERROR_FILTERS,
];

describe("the client's lists are the contract's", () => {
  it("knows the metric names of spec 4.6 and ad-plays (docs/api.md 10.4)", () => {
    expect(sorted(METRIC_NAMES)).toEqual(sorted(ALL_METRICS));
  });

  it("knows the group-by dimensions, the error-code dimensions with their metric and the filters of spec 4.7", () => {
    expect(sorted(GROUP_BY_DIMENSIONS)).toEqual(sorted(SPEC_GROUP_BY_DIMENSIONS));
    expect(ERROR_CODE_DIMENSIONS).toEqual(SPEC_ERROR_CODE_DIMENSIONS);
    expect(sorted(ERROR_FILTER_NAMES)).toEqual(sorted(SPEC_ERROR_FILTERS));
    expect(sorted(METRIC_FILTER_NAMES)).toEqual(sorted([...SPEC_GROUP_BY_DIMENSIONS.map(snake), ...SPEC_ERROR_FILTERS]));
    expect(sorted(SESSION_FILTER_NAMES)).toEqual(sorted(new Set(SAMPLE_SESSION_FILTERS)));
  });

  it("reads the value fields of every metric docs/api.md 10.4 names as the facts say", () => {
    const members = Object.keys(FACT_VALUE_FIELDS);
    expect(members.length).toBeGreaterThan(40);
    for (const member of members) {
      const metric = ALL_METRICS.find((name) => snake(name) === member);
      expect(metric, member).toBeDefined();
      expect(sorted(METRIC_VALUE_FIELDS[metric as keyof typeof METRIC_VALUE_FIELDS]), member).toEqual(sorted(FACT_VALUE_FIELDS[member]!));
    }
  });

  it("knows the filter fields of spec 2.7, the alert vocabularies of spec 2.8 and 4.9 and the PII statuses of spec 3.1", () => {
    expect([...FILTER_FIELDS]).toEqual(SPEC_FILTER_FIELDS);
    expect(sorted(CONTENT_ALERT_METRICS)).toEqual(sorted(SPEC_ALERTS.contentMetrics));
    expect(sorted(AD_ALERT_METRICS)).toEqual(sorted(SPEC_ALERTS.adMetrics));
    expect([...ALERT_SEVERITIES]).toEqual(SPEC_ALERTS.severities);
    expect(sorted(ALERT_STATUSES)).toEqual(sorted(SPEC_ALERTS.statuses));
    expect([...PII_STATUSES]).toEqual(SPEC_PII_STATUSES);
  });
});

describe("the emulator answers the contract's lists", () => {
  const emulator = useTestEmulator();
  const ok = async (path: string, query: Record<string, string | string[]> = {}) => {
    const response = await emulator.get(path, query);
    expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
    return response.body;
  };
  const RANGE = { start_date: "2026-11-20T00:00:00Z", end_date: "2026-11-20T06:00:00Z" };

  it("answers every metric of spec 4.6 and ad-plays, with the value fields of docs/api.md 10.4 where it names them", async () => {
    const seen = new Set<string>();
    for (let start = 0; start < ALL_METRICS.length; start += 12) {
      const metrics = ALL_METRICS.slice(start, start + 12);
      const body = await ok("/insights/3.0/metrics/custom-selection", { metric: metrics, ...RANGE });
      for (const metric of metrics) {
        const member = snake(metric);
        expect(body.total[member], metric).toBeDefined();
        seen.add(member);
        const expected = FACT_VALUE_FIELDS[member];
        if (expected !== undefined) expect(sorted(Object.keys(body.total[member])), metric).toEqual(sorted(expected));
      }
    }
    expect(seen.size).toBe(ALL_METRICS.length);
  });

  it("lists the group-by dimensions of spec 4.7, and an error-code dimension only for its metric", async () => {
    const names = (body: { dimensions: Array<{ name: string }> }) => sorted(body.dimensions.map((dimension) => dimension.name));
    expect(names(await ok("/insights/3.0/metrics/attempts/group-by"))).toEqual(sorted(SPEC_GROUP_BY_DIMENSIONS));
    for (const [dimension, metric] of Object.entries(SPEC_ERROR_CODE_DIMENSIONS)) {
      expect(names(await ok(`/insights/3.0/metrics/${metric}/group-by`)), metric).toEqual(sorted([...SPEC_GROUP_BY_DIMENSIONS, dimension]));
    }
  });

  it("takes the metric filters of spec 4.7 in its dimension references", async () => {
    const body = await ok("/3.0/metrics/_meta/references/dimensions");
    const filters = (body.dimensions as Array<{ filter?: string }>).map((dimension) => dimension.filter).filter((filter) => filter !== undefined && !filter.startsWith("tag_"));
    expect(sorted(filters as string[])).toEqual(sorted([...SPEC_GROUP_BY_DIMENSIONS.map(snake), ...SPEC_ERROR_FILTERS]));
  });

  it("accepts every sample-session filter of spec 4.7 and refuses a name outside it", async () => {
    const booleans = new Set<string>(SPEC_SAMPLE_SESSION_OTHER_FILTERS.booleans);
    const query = Object.fromEntries(SAMPLE_SESSION_FILTERS.map((name) => [name, booleans.has(name) || name === "is_ad_requested" ? "true" : "x"]));
    expect((await ok("/insights/3.0/sessions/content", query)).sessions).toEqual([]);
    const refused = await emulator.get("/insights/3.0/sessions/content", { geo_country: "US" });
    expect(refused.status).toBe(400);
  });

  it("filters alerts by the alert metrics, severities and statuses of spec 2.8 and 4.9, and refuses others", async () => {
    await ok("/insights/2.6/ai-alerts/content-metrics", { alert_metric: SPEC_ALERTS.contentMetrics.join(","), severity: SPEC_ALERTS.severities.join(","), status: SPEC_ALERTS.statuses.join(",") });
    await ok("/insights/2.6/ai-alerts/ad-metrics", { alert_metric: SPEC_ALERTS.adMetrics.join(",") });
    expect((await emulator.get("/insights/2.6/ai-alerts/ad-metrics", { alert_metric: "EBVS" })).status).toBe(400);
  });

  it("answers the filter fields of spec 2.7", async () => {
    expect((await ok("/bulk_filters/fields")).values).toEqual(SPEC_FILTER_FIELDS);
  });
});
