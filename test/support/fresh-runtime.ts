import * as pulumi from "@pulumi/pulumi";

/**
 * Run before every test file (vitest.config.mts `setupFiles`): the workers keep their modules from
 * one file to the next, and with them the Pulumi SDK's global store, so the mocks a file set
 * (`pulumi.runtime.setMocks`) would still answer the next file's data sources. Each file starts
 * from a runtime with no monitor, as a fresh process does.
 */
(pulumi.runtime as unknown as { _reset(): void })._reset();
