/**
 * pulumi-insights: Pulumi resources, data sources and a typed client for the Insights API.
 *
 * @example
 * import { SavedFilter, and, or, field, tag } from "pulumi-insights";
 * new SavedFilter("north-america", {
 *   name: "North America, no test devices",
 *   rules: and(or(field("Country").equals("United States"), field("Country").equals("Canada")), tag("deviceId").notContains("test-")),
 * });
 *
 * @module pulumi-insights
 */
export * from "./client";
export * from "./data";
export * from "./resources";
export * from "./rules";
export * as schema from "./schema";
