/**
 * The implementation specifier PiiOptOutRequest resources carry in `__provider`
 * (`pulumi-insights/dist/provider/resources/pii-opt-out-request/provider.js`, host/shim.ts): states
 * of every version name it, so it stays; the implementation is the dynamic host's adapter of the
 * core (host/pii-opt-out-request-adapter.ts).
 */
export { provider } from "../../host/pii-opt-out-request-adapter";
