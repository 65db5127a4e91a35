/**
 * Rule trees the resource tests of both hosts declare (test/provider/saved-filter.test.ts through
 * the dynamic-provider host, test/plugin/resources.test.ts through the provider plugin), so that
 * both prove the same behaviour on the same trees.
 */

/** North America without test devices: a group of two leaves and a Tag leaf (spec 2.7). */
export const usRules = {
  op: "and",
  rules: [
    { op: "or", rules: [{ field: "Country", op: "equals", value: "United States" }, { field: "Country", op: "equals", value: "Canada" }] },
    { field: "Tag", key: "deviceId", op: "not_contains", value: "test-" },
  ],
};

/** The same filter as {@link usRules}, reordered and regrouped: must never diff. */
export const usRulesShuffled = {
  op: "and",
  rules: [
    { field: "Tag", key: "deviceId", op: "not_contains", value: "test-" },
    { op: "and", rules: [{ op: "or", rules: [{ field: "Country", op: "equals", value: "Canada" }, { field: "Country", op: "equals", value: "United States" }] }] },
  ],
};
