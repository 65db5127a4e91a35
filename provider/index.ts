/**
 * pulumi-insights: Pulumi resources, data sources and a typed client for the Insights API.
 * STUB: exports are added as the resources, data sources and client land.
 */
export * as schema from "./schema";
