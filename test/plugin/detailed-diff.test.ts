import { describe, expect, it } from "vitest";
import { secret } from "../../engine";
import type { PropertyChanges as DetailedDiff } from "../../provider/accounts/calls";
import { pathFailure, plannedAnswer } from "../../provider/plugin/core-adapter";
import { savedFilterChanges as savedFilterDiff } from "../../provider/saved-filters/saved-filter";
import { savedFilterSetChanges as savedFilterSetDiff } from "../../provider/saved-filters/saved-filter-set";
import { diffResponse } from "../../provider/plugin/server";
import { PREVIEW_UNKNOWN } from "../../provider/rules";

/**
 * The detailed diff the plugin answers for the filter resources (docs/provider-plugins.md rule 8):
 * the paths the engine shows (`rules.rules[1].value`), order-insensitive as the canonical form of
 * rule trees (provider/rules/canonical.ts), the kinds, and a replacement for a moved account; and the
 * Diff answer built from it keeps the protocol's invariants.
 */

const us = { field: "Country", op: "equals", value: "United States" };
const canada = { field: "Country", op: "equals", value: "Canada" };
const noTest = { field: "Tag", key: "deviceId", op: "not_contains", value: "test-" };
const state = (rules: object, more: object = {}) => ({
  filterId: "101",
  name: "North America",
  rules,
  category: "GEO",
  advanced: false,
  content: false,
  enabled: true,
  ...more,
});
const declared = (rules: object, more: object = {}) => ({ name: "North America", rules, category: "GEO", ...more });

/** The paths and kinds of a diff, replacements marked. */
const summary = (diff: DetailedDiff) => Object.fromEntries(Object.entries(diff).map(([path, change]) => [path, `${change.kind}${change.replace ? "-replace" : ""}`]));

describe("the detailed diff of a SavedFilter", () => {
  const tree = { op: "and", rules: [{ op: "or", rules: [us, canada] }, noTest] };

  it("is empty for the same tree reordered, regrouped or repeated, and for defaults left out", () => {
    expect(savedFilterDiff(state(tree), declared(tree))).toEqual({});
    const reordered = { op: "and", rules: [noTest, { op: "or", rules: [canada, us, canada] }] };
    expect(savedFilterDiff(state(tree), declared(reordered))).toEqual({});
    const regrouped = { op: "and", rules: [{ op: "and", rules: [noTest] }, { op: "or", rules: [{ op: "or", rules: [canada] }, us] }] };
    expect(savedFilterDiff(state(tree), declared(regrouped))).toEqual({});
  });

  it("names the changed value at its path, wherever the unchanged children stand", () => {
    const mexico = { ...canada, value: "Mexico" };
    expect(summary(savedFilterDiff(state(tree), declared({ op: "and", rules: [{ op: "or", rules: [us, mexico] }, noTest] })))).toEqual({ "rules.rules[0].rules[1].value": "update" });
    // The unchanged tag leaf moved to the front: the changed group is still compared with its counterpart.
    const flat = { op: "and", rules: [us, canada, noTest] };
    const moved = { op: "and", rules: [noTest, { ...canada, value: "Mexico" }, us] };
    expect(summary(savedFilterDiff(state(flat), declared(moved)))).toEqual({ "rules.rules[1].value": "update" });
    expect(summary(savedFilterDiff(state(flat), declared({ op: "and", rules: [us, { ...canada, op: "contains" }, noTest] })))).toEqual({ "rules.rules[1].op": "update" });
    expect(summary(savedFilterDiff(state(flat), declared({ op: "and", rules: [us, canada, { ...noTest, key: "deviceType" }] })))).toEqual({ "rules.rules[2].key": "update" });
  });

  it("adds and deletes children at their own positions, and changes a group's op", () => {
    const flat = { op: "and", rules: [us, canada] };
    expect(summary(savedFilterDiff(state(flat), declared({ op: "and", rules: [us, canada, noTest] })))).toEqual({ "rules.rules[2]": "add" });
    expect(summary(savedFilterDiff(state(flat), declared({ op: "and", rules: [canada] })))).toEqual({ "rules.rules[0]": "delete" });
    expect(summary(savedFilterDiff(state(flat), declared({ op: "or", rules: [canada, us] })))).toEqual({ "rules.op": "update" });
    // A leaf where a group was is a change of the whole child.
    expect(summary(savedFilterDiff(state(tree), declared({ op: "and", rules: [us, noTest] })))).toEqual({ "rules.rules[0]": "update" });
  });

  it("compares the other properties with the API's defaults, and ignores what it does not manage", () => {
    const flat = { op: "and", rules: [us] };
    expect(summary(savedFilterDiff(state(flat), declared(flat, { name: "NA", enabled: false, subcategory: "Region", adoptId: "9" })))).toEqual({
      name: "update",
      subcategory: "add",
      enabled: "update",
    });
    expect(summary(savedFilterDiff(state(flat, { advanced: true }), { name: "North America", rules: flat }))).toEqual({ category: "delete", advanced: "update" });
  });

  it("replaces the resource when its account changes or moves", () => {
    const flat = { op: "and", rules: [us] };
    expect(summary(savedFilterDiff(state(flat, { account: "staging" }), declared(flat, { account: "production" })))).toEqual({ account: "update-replace" });
    expect(summary(savedFilterDiff(state(flat), declared(flat, { account: "production" })))).toEqual({ account: "add-replace" });
    expect(summary(savedFilterDiff(state(flat, { account: "staging" }), declared(flat, { account: "staging" }), { accountReplaced: true }))).toEqual({ account: "update-replace" });
    // Another name of the same account (a renamed entry of insights:accounts): an update.
    expect(summary(savedFilterDiff(state(flat, { account: "staging" }), declared(flat, { account: "stage" }), { accountReplaced: false }))).toEqual({ account: "update" });
  });

  it("shows a tree not known yet in a preview as a change of the whole tree, and compares secrets by value", () => {
    expect(summary(savedFilterDiff(state(tree), declared({ op: "and", rules: [PREVIEW_UNKNOWN] })))).toEqual({ rules: "update" });
    expect(savedFilterDiff(state(tree), { ...declared(tree), name: secret("North America") })).toEqual({});
  });
});

describe("the detailed diff of a SavedFilterSet", () => {
  const member = (city: string) => ({ name: `City: ${city}`, category: "GEO", rules: { op: "and", rules: [{ field: "City", op: "equals", value: city }] } });
  const recorded = (city: string) => ({ ...member(city), filterId: city.length.toString(), advanced: false, content: false, enabled: true });

  it("names each member by key, and its changes below it", () => {
    const olds = { filters: { "san-jose": recorded("San Jose"), austin: recorded("Austin") }, ids: {} };
    const news = {
      filters: {
        "san-jose": { ...member("San Jose"), rules: { op: "and", rules: [{ field: "City", op: "equals", value: "San José" }] } },
        denver: member("Denver"),
      },
      adopt: { denver: "77" },
    };
    expect(summary(savedFilterSetDiff(olds, news))).toEqual({
      "filters.austin": "delete",
      'filters["san-jose"].rules.rules[0].value': "update",
      "filters.denver": "add",
      adopt: "add",
    });
  });

  it("takes a member's name to be its key when left out, and replaces the set when its account changes", () => {
    const olds = { filters: { Austin: { ...recorded("Austin"), name: "Austin" } }, account: "staging" };
    expect(savedFilterSetDiff(olds, { filters: { Austin: { ...member("Austin"), name: undefined } }, account: "staging" })).toEqual({});
    expect(summary(savedFilterSetDiff(olds, { filters: { Austin: member("Austin") }, account: "production" }))).toEqual({
      "filters.Austin.name": "update",
      account: "update-replace",
    });
  });
});

describe("the Diff answer of a detailed diff", () => {
  it("names each top-level property once in diffs, and the replaced ones in replaces", () => {
    const diff = savedFilterSetDiff(
      { filters: { "san-jose": { name: "a", rules: { op: "and", rules: [] } }, austin: {} }, account: "staging" },
      { filters: { "san-jose": { name: "b", rules: { op: "or", rules: [] } } }, account: "production" },
    );
    const response = diffResponse({ changes: "some", detailedDiff: diff });
    expect(response.getHasdetaileddiff()).toBe(true);
    expect(response.getDiffsList().sort()).toEqual(["account", "filters"]);
    expect(response.getReplacesList()).toEqual(["account"]);
    expect([...response.getDetaileddiffMap().keys()].sort()).toEqual(Object.keys(diff).sort());
  });

  it("answers what the core planned, placed by the detailed diff, leaving out what ignoreChanges names", () => {
    const update = { kind: "update", replace: false, inputDiff: false } as const;
    const detailed = { "rules.rules[1].value": update, name: update };
    expect(plannedAnswer({ changes: true, replaces: [] }, detailed, [])).toEqual({ changes: "some", replaces: [], detailedDiff: detailed });
    expect(plannedAnswer({ changes: true, replaces: [] }, detailed, ["rules"])).toEqual({ changes: "some", replaces: [], detailedDiff: { name: update } });
    expect(plannedAnswer({ changes: true, replaces: [] }, detailed, ["rules", "name"])).toEqual({ changes: "none", replaces: [], detailedDiff: {} });
    // The core decides: no change is no change, and a change the detailed diff cannot place goes without one.
    expect(plannedAnswer({ changes: false, replaces: [] }, detailed, [])).toEqual({ changes: "none", replaces: [], detailedDiff: {} });
    expect(plannedAnswer({ changes: true, replaces: ["account"] }, {}, [])).toEqual({ changes: "some", replaces: ["account"] });
  });

  it("names a check failure by the exact path its reason starts with, else by its property", () => {
    expect(pathFailure({ property: "rules", reason: "rules.rules[0].field: unknown field" })).toEqual({ property: "rules.rules[0].field", reason: "unknown field" });
    expect(pathFailure({ property: "filters", reason: 'filters["a: b"].name: required' })).toEqual({ property: 'filters["a: b"].name', reason: "required" });
    expect(pathFailure({ property: "viewerIds", reason: "give viewerIds or userIds: one kind" })).toEqual({ property: "viewerIds", reason: "give viewerIds or userIds: one kind" });
  });
});
