/** The Pulumi resources of the package (dynamic resources; see host/shim.ts for how they load). */
export { SavedFilter, type SavedFilterArgs } from "./saved-filter/resource";
export { SavedFilterSet, type SavedFilterSetArgs, type SavedFilterSetMember, type SavedFilterSpec } from "./saved-filter/set-resource";
export { PiiOptOutRequest, type PiiOptOutRequestArgs } from "./pii-opt-out-request/resource";
export type { RecordedAccount } from "../host/accounts";
