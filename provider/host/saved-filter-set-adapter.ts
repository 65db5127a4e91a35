import { savedFilterSetCore } from "../saved-filters/saved-filter-set";
import { dynamicProvider } from "./dynamic-provider";

/**
 * The SavedFilterSet resource in the dynamic-provider host (loaded by name, host/shim.ts): its core
 * (saved-filters/saved-filter-set.ts) as the host serves it.
 */
export const provider = dynamicProvider("SavedFilterSet", () => undefined, savedFilterSetCore);
