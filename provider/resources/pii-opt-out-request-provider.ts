/**
 * The implementation specifier that states written by version 0.1.0 carry in `__provider`
 * (`pulumi-insights/dist/provider/resources/pii-opt-out-request-provider.js`). Kept so that those stacks keep loading
 * after an upgrade (host/shim.ts); new resources name `resources/pii-opt-out-request/provider.js` directly.
 */
export { provider } from "./pii-opt-out-request/provider";
