/**
 * Data sources: read the Insights account from a Pulumi program, to decide what to declare and to
 * export what a pipeline reports. Each is a Pulumi function, `getX(args: GetXArgs, opts?)` (a
 * Promise of `GetXResult`) and `getXOutput(args: GetXOutputArgs, opts?)` (`Input`s in, an `Output`
 * out; personal data comes back secret); under mocks, the mocks' `call` answers token
 * `insights:index:getX`. Settings: `connection` in the arguments, else the named `account`, else the
 * stack config `insights:*`, else `INSIGHTS_*` (define.ts says how they are made).
 */
export * from "./alerts";
export { closeDataSourceClients, type InsightsConnection } from "./connection";
export { withAccountReads, type DataSourceOptions, type DataSourceOutputOptions } from "./define";
export * from "./filters";
export type { FieldsOf, GroupByData, GroupByEntity, MetricData, MetricPoint, PerMetric } from "./metric-data";
export * from "./metrics";
export * from "./pii";
export * from "./sessions";
export * from "./match";
export * from "./pii-receipt";
