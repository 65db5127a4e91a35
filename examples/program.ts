import { filtersAsCode, type FilterOutputs } from "./filters";
import { generatedFilters, type GeneratedFilterOutputs } from "./generated-filters";
import { piiOptOut, type PiiOptOutOutputs } from "./pii-opt-out";
import { report, type ReportOutputs } from "./report";

/** Every stack output of the examples program. */
export type ExampleOutputs = FilterOutputs & GeneratedFilterOutputs & PiiOptOutOutputs & ReportOutputs;

/**
 * The examples as one Pulumi program, the program of the repository's own stack (Pulumi.yaml, `main:
 * examples/index.ts`). A function rather than top-level code so that tests can run it under mocks.
 * Its settings: `insights:baseUrl`, `insights:clientId` and `insights:clientSecret` (where the API
 * is), and the optional settings of examples/settings.ts. What it returns becomes the stack outputs.
 */
export async function runExamples(): Promise<ExampleOutputs> {
  return {
    ...filtersAsCode(),
    ...(await generatedFilters()),
    ...piiOptOut(),
    ...report(),
  };
}
