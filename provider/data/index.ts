/**
 * Data sources: read the Insights account from a Pulumi program, to decide what to declare and to
 * export what a pipeline reports. Each comes as `getX(args, options?)` (a Promise) and
 * `getXOutput(args, options?)` (`Input`s in, an `Output` out; personal data comes back secret).
 * Settings: `connection` in the arguments, else the stack config `insights:*`, else `INSIGHTS_*`.
 */
export * from "./alerts";
export { closeDataSourceClients, type InsightsConnection, type TransportTuning } from "./connection";
export type { DataSourceArgs, DataSourceOptions, DataSourceOutputArgs, DataSourceOutputOptions, KnownFields } from "./define";
export * from "./filters";
export type { FieldsOf, GroupByData, GroupByEntity, MetricData, MetricPoint, PerMetric } from "./metric-data";
export * from "./metrics";
export * from "./pii";
export * from "./sessions";
export * from "./match";
export * from "./pii-receipt";
