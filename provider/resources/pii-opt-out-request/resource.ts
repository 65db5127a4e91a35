import * as pulumi from "@pulumi/pulumi";
import { hostedProvider, outputsOnly, packageModule } from "../../host/shim";
import { PERSONAL_PROPERTIES } from "../../pii/inputs";
import { PII_OPT_OUT_REQUEST } from "../../pii/opt-out-properties";
import type { DeletionVerification, OverallStatus, PiiOptOutReceipt, RecordedAccount, TrackedRequest } from "../../schema/resource-records";
import type { PiiOptOutRequestArgs } from "../args";

export type { PiiOptOutRequestArgs } from "../args";

/**
 * Asks the service to delete the personal data of viewers or users (spec 4.10), and by default waits
 * until it has (spec 3.1: ENQUEUED, STARTED, FINISHED). More than 100 identifiers become several
 * requests; for identifiers submitted before, the earlier requests are followed rather than new
 * ones made, and a lost answer is reconciled through the list, never sent blindly again.
 * Identifiers and addresses are kept only as secrets (inputs and outputs, whatever the program
 * passes); the outputs carry a salted digest of the set for review without disclosure. Changing the
 * identifiers or addresses replaces the resource; deleting it cannot withdraw a deletion and only
 * removes it from the state.
 */
export class PiiOptOutRequest extends pulumi.dynamic.Resource {
  // Written by scripts/generate-types.ts from the resource's declaration (`npm run types`): edit the declaration, not these lines.
  /** The viewer ids, sorted and distinct; a secret in the state and wherever the output goes. */
  declare readonly viewerIds: pulumi.Output<string[] | undefined>;
  /** The user ids, sorted and distinct; a secret in the state and wherever the output goes. */
  declare readonly userIds: pulumi.Output<string[] | undefined>;
  /**
   * The notification addresses, sorted and distinct; a secret in the state and wherever the output
   * goes.
   */
  declare readonly notificationEmails: pulumi.Output<string[] | undefined>;
  /** `viewer` or `user`. */
  declare readonly identifierKind: pulumi.Output<"viewer" | "user">;
  /** How many distinct identifiers the resource declares. */
  declare readonly identifierCount: pulumi.Output<number>;
  /**
   * Salted scrypt digest of the identifier set (`identifierSetDigest` recomputes it from the list
   * and the salt).
   */
  declare readonly identifierDigest: pulumi.Output<string>;
  /**
   * The hex salt of `identifierDigest`, random and made once per resource; not secret: with it,
   * whoever holds the list recomputes the digest, and nobody else learns from it.
   */
  declare readonly identifierDigestSalt: pulumi.Output<string>;
  /** Every request that processes the identifiers: id, status, origin, counts. */
  declare readonly requests: pulumi.Output<TrackedRequest[]>;
  /**
   * The least advanced status of the requests, or SUBMITTING while batches remain, or UNTRACKED
   * when no request can be followed.
   */
  declare readonly status: pulumi.Output<OverallStatus>;
  /** Batches of at most 100 identifiers the set is submitted in. */
  declare readonly batchCount: pulumi.Output<number>;
  /** Batches already handled. */
  declare readonly batchesSubmitted: pulumi.Output<number>;
  /** Identifiers the service already had from earlier requests. */
  declare readonly previouslySubmitted: pulumi.Output<number>;
  /** Previously submitted identifiers whose earlier request the list did not show. */
  declare readonly untracked: pulumi.Output<number>;
  /** Wait until every request is FINISHED before `up` completes. */
  declare readonly waitForCompletion: pulumi.Output<boolean>;
  /**
   * How long one `up` waits, in seconds; when it runs out, the requests stay in the state and the
   * next `up` waits again (the engine passes the dynamic resources no timeout of its own).
   */
  declare readonly waitTimeoutSeconds: pulumi.Output<number>;
  /** First pause between status reads, in seconds; pauses grow up to 8 times it. */
  declare readonly pollIntervalSeconds: pulumi.Output<number>;
  /**
   * Once every request is FINISHED, ask the viewer-sessions endpoint for each viewer id over the
   * 30-day retention window (spec 8) and report in `verification` which still return data; user ids
   * cannot be checked through the API and are counted as not verifiable.
   */
  declare readonly verifyDeletion: pulumi.Output<boolean>;
  /**
   * The resource's name, which progress lines and errors name (the TypeScript resource sets it: the
   * host is not told the URN).
   */
  declare readonly resourceName: pulumi.Output<string | undefined>;
  /**
   * The deletion check after FINISHED (`verifyDeletion`): when it ran, how many identifiers were
   * checked, clean, still present (by position in the sorted list and salted digest, never the
   * value) and not verifiable; `pulumi refresh` checks again. Absent before every request is
   * FINISHED, or with `verifyDeletion` false.
   */
  declare readonly verification: pulumi.Output<DeletionVerification | undefined>;
  /**
   * The audit receipt (format `pulumi-insights/pii-opt-out-receipt@1`, README "PiiOptOutRequest"):
   * names no identifier.
   */
  declare readonly receipt: pulumi.Output<PiiOptOutReceipt>;
  /** The account name, as declared (`account`); absent for the provider's own settings. */
  declare readonly account: pulumi.Output<string | undefined>;
  /**
   * The account the resource belongs to, as its state records it (base URL and client id, never the
   * secret).
   */
  declare readonly recordedAccount: pulumi.Output<RecordedAccount>;
  // End of the written lines.

  /**
   * Declares an opt-out of the identifiers `args` gives; `pulumi up` submits it and, by default, waits for FINISHED.
   *
   * @param name - The resource's name in the stack, unique among its PiiOptOutRequests.
   * @param args - The identifiers (viewer or user ids), the addresses to notify, the wait and the account.
   * @param opts - Pulumi's options of a resource (`protect`, `dependsOn`, ...).
   */
  constructor(name: string, args: PiiOptOutRequestArgs, opts?: pulumi.CustomResourceOptions) {
    const personal = Object.fromEntries(
      PERSONAL_PROPERTIES.filter((property) => args[property] !== undefined).map((property) => [property, pulumi.secret(args[property])]),
    );
    super(
      piiOptOutRequestProvider,
      name,
      {
        // The outputs that are not inputs, unset until the engine answers; then the inputs.
        ...outputsOnly(PII_OPT_OUT_REQUEST),
        ...args,
        ...personal,
        // Names the resource in progress lines and errors (the host is not told the URN).
        resourceName: name,
      },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: [...PERSONAL_PROPERTIES] }),
      "insights",
      "PiiOptOutRequest",
    );
  }
}

const piiOptOutRequestProvider = hostedProvider(packageModule("resources/pii-opt-out-request/provider"));
