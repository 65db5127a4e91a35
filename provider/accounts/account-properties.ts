import { z } from "zod";

/**
 * The properties every resource has for its account (docs/configuration.md "Accounts"), declared once: the
 * `account` input, and the outputs that say where the resource lives. The resources' declarations
 * (saved-filters/filter-properties.ts, pii/opt-out-properties.ts) take them from here; this module
 * loads nothing but zod, so a program that declares resources loads no client.
 */

/** @internal The account a resource belongs to, as its state records it: never the secret. */
export const RecordedAccount = z
  .object({
    baseUrl: z.string().describe("The API's base URL."),
    clientId: z.string().describe("The API client id."),
  })
  .describe("Where a resource lives: the account's base URL and client id (never the secret).");

/** @internal The `account` input of a resource; `where` says what lives in the account (`it lives in`). */
export function accountInput(where: string) {
  return z
    .string()
    .optional()
    .describe(
      `The account ${where}: a name of the provider's \`accounts\` (the stack config \`insights:accounts\`); left out, the provider's own settings (\`insights:baseUrl\`, \`insights:clientId\`, \`insights:clientSecret\`). Changing it to another account replaces the resource.`,
    );
}

/** @internal The outputs that say where a resource lives: the declared account name and its record. */
export const AccountOutputs = z
  .object({
    account: z.string().optional().describe("The account name, as declared (`account`); absent for the provider's own settings."),
    recordedAccount: RecordedAccount.describe("The account the resource belongs to, as its state records it (base URL and client id, never the secret)."),
  })
  .describe("The outputs that say where a resource lives.");
