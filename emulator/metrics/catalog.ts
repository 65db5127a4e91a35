import { ERROR_CODE_DIMENSIONS, GROUP_BY_DIMENSIONS } from "../contract/dimensions";
import {
  isMetricName, memberName, METRIC_ALIASES, QUALITY_SUMMARY, QUALITY_SUMMARY_MEMBERS, VALUE_FIELDS, type MetricName, type ValueField,
} from "../contract/metrics";
import { METRIC_DEFINITIONS, type MetricDefinition } from "./definitions";

/**
 * The metric and dimension vocabularies as the metric endpoints resolve them (spec 4.6, 4.7): a
 * metric path name becomes one or more response members, a dimension path name its snake_case key
 * and description.
 */

/** One member of a response: the metric as named, its member name, value fields and definition. */
export interface RequestedMetric {
  /** The metric name as the request spelled it (a member of quality-summary: that member's name). */
  name: string;
  /** The response member (spec 2.4: hyphens become underscores; the alias keeps its own, docs/api.md 10.4). */
  member: string;
  /** The metric of spec 4.6 whose value fields and definition apply. */
  metric: MetricName;
  fields: readonly ValueField[];
  definition: MetricDefinition;
}

/**
 * The members a metric path name stands for: one for a metric of spec 4.6 or the alias
 * `exit-before-video-starts` (docs/api.md 10.4), several for `quality-summary`; undefined for an unknown name.
 */
export function resolveMetric(name: string): RequestedMetric[] | undefined {
  if (name === QUALITY_SUMMARY) return QUALITY_SUMMARY_MEMBERS.map((member) => requested(member, member));
  const alias = METRIC_ALIASES[name];
  if (alias) return [requested(name, alias.metric)];
  return isMetricName(name) ? [requested(name, name)] : undefined;
}

function requested(name: string, metric: MetricName): RequestedMetric {
  return { name, member: memberName(name), metric, fields: VALUE_FIELDS[metric], definition: METRIC_DEFINITIONS[metric] };
}

/** Whether any of the members reads ad sessions (ad metrics need ad insights, spec 1, 4.2). */
export function readsAdSessions(metrics: readonly RequestedMetric[]): boolean {
  return metrics.some((metric) => metric.definition.source === "ad");
}

/** A group-by dimension as the endpoints resolve it. */
export interface ResolvedDimension {
  /** snake_case key of `dimension.key` (spec 2.4) and of `_meta.group_by_dimension`. */
  key: string;
  description: string;
  /** For an error-code dimension (spec 4.7): the one metric it is valid with. */
  errorCodeOf?: MetricName;
}

/** A predefined or error-code group-by dimension by its kebab-case path name; undefined if unknown. */
export function resolveDimension(name: string): ResolvedDimension | undefined {
  const errorCodeOf = ERROR_CODE_DIMENSIONS[name];
  if (errorCodeOf) return { key: snakeCase(name), description: describeDimension(name), errorCodeOf };
  return (GROUP_BY_DIMENSIONS as readonly string[]).includes(name)
    ? { key: snakeCase(name), description: describeDimension(name) }
    : undefined;
}

/** Every group-by path name, predefined and error-code. */
export const ALL_GROUP_BY_NAMES: readonly string[] = [...GROUP_BY_DIMENSIONS, ...Object.keys(ERROR_CODE_DIMENSIONS)];

/** kebab-case to snake_case (spec 4.7: filter names are the group-by names with underscores). */
export function snakeCase(name: string): string {
  return name.replace(/-/g, "_");
}

const ACRONYMS: Readonly<Record<string, string>> = {
  asn: "ASN", isp: "ISP", cdn: "CDN", os: "OS", dma: "DMA", id: "ID", sdk: "SDK", utm: "UTM", rs: "RS", svc: "SVC", api: "API",
};

/** A display name of a dimension: `geo-country-code` gives "Geo Country Code", `asn` gives "ASN". */
export function describeDimension(name: string): string {
  return name
    .split(/[-_]/)
    .map((word) => ACRONYMS[word] ?? word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}
