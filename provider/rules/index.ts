/**
 * Saved-filter rule trees (spec 2.7): the builder, the canonical form and equality, validation for
 * `check()`, the lookup-value check and a readable diff for previews.
 */
export * from "./builder";
export * from "./canonical";
export * from "./diff";
export * from "./failure";
export * from "./lookups";
export * from "./tree";
export * from "./validate";
export * from "./match";
