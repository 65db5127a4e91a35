import type * as pulumi from "@pulumi/pulumi";
import { and, field, or, SavedFilter, tag } from "pulumi-insights";
import { optionalSetting } from "./settings";

/** The stack outputs of {@link filtersAsCode}. */
export interface FilterOutputs {
  /** The id of each saved filter of this example, by a stable name. */
  filterIds: Record<string, pulumi.Output<string>>;
}

/**
 * Saved filters written with the rule builder (spec 2.7): a typo in a field name fails to compile,
 * and values of pre-set fields (Country, City, ISP, ...) are checked against the account's lookups
 * during `pulumi preview`, with the valid spelling suggested.
 */
export function filtersAsCode(): FilterOutputs {
  const northAmerica = new SavedFilter("north-america", {
    name: "North America, no test devices",
    category: "GEO",
    subcategory: "Region",
    rules: and(
      or(field("Country").equals("United States"), field("Country").equals("Canada")),
      tag("deviceId").notContains("test-"),
    ),
  });

  const premiumLiveSports = new SavedFilter("premium-live-sports", {
    name: "Premium viewers, live sports events",
    category: "CONTENT",
    subcategory: "Category",
    // Shown in the metric-exploration and diagnostics dashboards.
    advanced: true,
    rules: and(tag("subscriptionTier").equals("premium"), tag("specialContentId").contains("SC-EVENT-")),
  });

  const filterIds: FilterOutputs["filterIds"] = {
    northAmerica: northAmerica.filterId,
    premiumLiveSports: premiumLiveSports.filterId,
  };

  // Adoption: a filter made in the console, taken over by id (`pulumi import` does not work with
  // dynamic resources). The first `up` reads it and brings it to this declaration; from then on it
  // is managed like any other, and `pulumi destroy` deletes it.
  const adoptId = optionalSetting("adoptFilterId");
  if (adoptId !== undefined) {
    const roku = new SavedFilter("roku-devices", {
      name: "Roku devices",
      category: "DEVICE",
      subcategory: "Platform",
      rules: and(field("Device Manufacturer").equals("Roku")),
      adoptId,
    });
    filterIds.rokuDevices = roku.filterId;
  }

  return { filterIds };
}
