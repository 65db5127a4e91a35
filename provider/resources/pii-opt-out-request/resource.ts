import * as pulumi from "@pulumi/pulumi";
import { hostedProvider, packageModule } from "../../host/shim";
import type { RecordedAccount } from "../../accounts/binding";
import type { OverallStatus, TrackedRequest } from "../../pii/progress";
import type { DeletionVerification, PiiOptOutReceipt } from "../../pii";
import { PERSONAL_PROPERTIES } from "../../pii/inputs";

/** Inputs of a {@link PiiOptOutRequest} (spec 4.10). Give `viewerIds` or `userIds`, not both. */
export interface PiiOptOutRequestArgs {
  /** Viewer ids whose personal data is to be deleted; sent in `viewer_id` (spec 4.10). Stored as a secret. */
  viewerIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** User ids whose personal data is to be deleted; also sent in `viewer_id` (spec 4.10). Stored as a secret. */
  userIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** Addresses the service e-mails when a request is FINISHED (spec 3.1, 6). Stored as a secret. */
  notificationEmails?: pulumi.Input<pulumi.Input<string>[]>;
  /** Wait until every request is FINISHED before `up` completes. Default true. */
  waitForCompletion?: pulumi.Input<boolean>;
  /**
   * How long one `up` waits, in seconds (default 1800). The engine passes no timeout to dynamic
   * providers; when this one runs out, the requests stay in the state and the next `up` waits again.
   */
  waitTimeoutSeconds?: pulumi.Input<number>;
  /** First pause between status reads, in seconds (default 10); pauses grow up to 8 times it. */
  pollIntervalSeconds?: pulumi.Input<number>;
  /**
   * Once every request is FINISHED, ask the viewer-sessions endpoint for each viewer id over the
   * 30-day retention window (spec 8) and report in `verification` which still return data. Default
   * true; user ids cannot be checked through the API and are counted as not verifiable.
   */
  verifyDeletion?: pulumi.Input<boolean>;
  /**
   * The account its requests are made in: a name of the stack config `insights:accounts` (docs/configuration.md "Accounts"); left
   * out, the stack's settings (`insights:baseUrl`, `insights:clientId`, `insights:clientSecret`).
   * Changing it to another account replaces the resource.
   */
  account?: pulumi.Input<string>;
}

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
  /** The viewer ids, as declared; a secret in the state and wherever the output goes. */
  declare readonly viewerIds: pulumi.Output<string[] | undefined>;
  /** The user ids, as declared; a secret in the state and wherever the output goes. */
  declare readonly userIds: pulumi.Output<string[] | undefined>;
  /** The notification addresses, as declared; a secret in the state and wherever the output goes. */
  declare readonly notificationEmails: pulumi.Output<string[] | undefined>;
  /** `viewer` or `user`. */
  declare readonly identifierKind: pulumi.Output<"viewer" | "user">;
  /** How many distinct identifiers the resource declares. */
  declare readonly identifierCount: pulumi.Output<number>;
  /** Salted scrypt digest of the identifier set and its salt (`identifierSetDigest` checks it). */
  declare readonly identifierDigest: pulumi.Output<string>;
  /**
   * The hex salt of `identifierDigest`, random and made once per resource; not secret: with it,
   * whoever holds the list recomputes the digest (`identifierSetDigest`), and nobody else learns from it.
   */
  declare readonly identifierDigestSalt: pulumi.Output<string>;
  /** Every request that processes the identifiers: id, status, origin, counts. */
  declare readonly requests: pulumi.Output<TrackedRequest[]>;
  /** The least advanced status of the requests, or SUBMITTING / UNTRACKED. */
  declare readonly status: pulumi.Output<OverallStatus>;
  /** Identifiers the service already had from earlier requests. */
  declare readonly previouslySubmitted: pulumi.Output<number>;
  /**
   * The deletion check after FINISHED (`verifyDeletion`): when it ran, how many identifiers were
   * checked, clean, still present (by position in the sorted list and salted digest, never the value)
   * and not verifiable. `pulumi refresh` checks again. Undefined until every request is FINISHED.
   */
  declare readonly verification: pulumi.Output<DeletionVerification | undefined>;
  /** The audit receipt (format `pulumi-insights/pii-opt-out-receipt@1`, docs/resources.md "PiiOptOutRequest"): names no identifier. */
  declare readonly receipt: pulumi.Output<PiiOptOutReceipt>;
  /** The account name, as declared (`account`); undefined for the stack's settings. */
  declare readonly account: pulumi.Output<string | undefined>;
  /** The account the resource belongs to, as its state records it (base URL and client id, never the secret). */
  declare readonly recordedAccount: pulumi.Output<RecordedAccount>;

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
        ...args,
        ...personal,
        // Names the resource in progress lines and errors (the host is not told the URN).
        resourceName: name,
        identifierKind: undefined,
        identifierCount: undefined,
        identifierDigest: undefined,
        identifierDigestSalt: undefined,
        requests: undefined,
        status: undefined,
        previouslySubmitted: undefined,
        verification: undefined,
        receipt: undefined,
        recordedAccount: undefined,
      },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: [...PERSONAL_PROPERTIES] }),
      "insights",
      "PiiOptOutRequest",
    );
  }
}

const piiOptOutRequestProvider = hostedProvider(packageModule("resources/pii-opt-out-request/provider"));
