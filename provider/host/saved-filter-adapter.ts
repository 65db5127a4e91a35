import { savedFilterCore } from "../saved-filters/saved-filter";
import { dynamicProvider } from "./dynamic-provider";

/**
 * The SavedFilter resource in the dynamic-provider host (loaded by name, host/shim.ts): its core
 * (saved-filters/saved-filter.ts) as the host serves it; the host's lines about its calls name the
 * filter (`SavedFilter "x": ..., waiting 12 s`).
 */
export const provider = dynamicProvider("SavedFilter", (properties) => (properties as { name?: unknown } | undefined)?.name, savedFilterCore);
