/**
 * The implementation specifier SavedFilterSet resources carry in `__provider`
 * (`pulumi-insights/dist/provider/resources/saved-filter/set-provider.js`, host/shim.ts): states of
 * every version name it, so it stays; the implementation is the dynamic host's adapter of the core
 * (host/saved-filter-set-adapter.ts).
 */
export { provider } from "../../host/saved-filter-set-adapter";
