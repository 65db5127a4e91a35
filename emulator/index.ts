/**
 * The Insights API emulator: a faithful, stateful, deterministic local implementation of the whole
 * API (spec section 4) with a control plane for the clock, faults and the request journal.
 * See emulator/README.md.
 *
 * @module pulumi-insights/emulator
 */
export { startEmulator, type RunningEmulator } from "./server";
export type { EmulatorOptions, StateSnapshot } from "./state";
export type { PiiTiming } from "./pii/store";
export { DEV_ACCOUNT, BASIC_ACCOUNT, type AccountConfigInput, type AccountFeatures } from "./accounts";
export type { FaultRuleInput } from "./faults";
export type { JournalEntry } from "./journal";
