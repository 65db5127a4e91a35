/**
 * zod schemas of every object of the Insights API (spec section 2) and its closed vocabularies,
 * shared by the typed client and the provider; the public types (records.ts) are written from them.
 */
export * from "./alerts";
export * from "./common";
export * from "./filters";
export * from "./metrics";
export * from "./names";
export * from "./pii";
export * from "./sessions";
export * from "./suggest";
