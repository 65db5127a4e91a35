/**
 * The implementation specifier that states written by version 0.1.0 carry in `__provider`
 * (`pulumi-insights/dist/provider/resources/saved-filter-set-provider.js`). Kept so that those stacks keep loading
 * after an upgrade (host/shim.ts); new resources name `resources/saved-filter/set-provider.js` directly.
 */
export { provider } from "./saved-filter/set-provider";
