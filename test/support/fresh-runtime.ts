import * as pulumi from "@pulumi/pulumi";
import { afterAll } from "vitest";
import { closeCaptureProcesses } from "../../engine/capture";

/**
 * Run before every test file (vitest.config.mts `setupFiles`): the workers keep their modules from
 * one file to the next, and with them the Pulumi SDK's state, so the mocks a file set
 * (`pulumi.runtime.setMocks`) would still answer the next file's data sources, and the stack config
 * and options the SDK read from the environment once would hide what the next file puts there. Each
 * file starts as a fresh process does: no monitor (the SDK's test reset), and no store, which the
 * SDK makes again from the environment when first asked (@pulumi/pulumi runtime/state.js keeps it
 * in `global.globalStore`).
 */
(pulumi.runtime as unknown as { _reset(): void })._reset();
delete (globalThis as { globalStore?: unknown }).globalStore;

// The capture processes of this file (engine/capture.ts) end with it: none serves the next file.
afterAll(closeCaptureProcesses);
