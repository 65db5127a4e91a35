/**
 * Data sources: read the Insights account from a Pulumi program, to decide what to declare and to
 * export what a pipeline reports. Each is a Pulumi function, `getX(args?, opts?: InvokeOptions)` (a
 * Promise) and `getXOutput(args?, opts?: InvokeOutputOptions)` (`Input`s in, an `Output` out;
 * personal data comes back secret); under mocks, the mocks' `call` answers token `insights:index:getX`.
 * Settings: `connection` in the arguments, else the stack config `insights:*`, else `INSIGHTS_*`.
 */
export * from "./alerts";
export { closeDataSourceClients, type InsightsConnection, type TransportTuning } from "./connection";
export { dataSourceToken, withAccountReads } from "./define";
export type { DataSourceArgs, DataSourceFunction, DataSourceOptions, DataSourceOutputArgs, DataSourceOutputFunction, DataSourceOutputOptions, KnownFields, NoArguments } from "./define";
export * from "./filters";
export type { FieldsOf, GroupByData, GroupByEntity, MetricData, MetricPoint, PerMetric } from "./metric-data";
export * from "./metrics";
export * from "./pii";
export * from "./sessions";
export * from "./match";
export * from "./pii-receipt";
