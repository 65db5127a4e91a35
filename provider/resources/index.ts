/**
 * The Pulumi resources of the package (dynamic resources; see host/shim.ts for how they load), their
 * arguments and the types of the outputs a program reads.
 */
export { SavedFilter, type SavedFilterArgs } from "./saved-filter/resource";
export { SavedFilterSet, type SavedFilterSetArgs, type SavedFilterSetMember, type SavedFilterSetMemberArgs, type SavedFilterSpec } from "./saved-filter/set-resource";
export { PiiOptOutRequest, type PiiOptOutRequestArgs } from "./pii-opt-out-request/resource";
export type { DeletionVerification, OverallStatus, PiiOptOutReceipt, ReceiptRequest, RecordedAccount, StillPresentIdentifier, TrackedRequest } from "../schema/resource-records";
