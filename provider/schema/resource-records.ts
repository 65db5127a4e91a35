import type { RuleGroup } from "./records";

// Written by scripts/generate-types.ts from the zod schemas (`npm run types`): edit the schemas, not this file.

/**
 * What the resources record in their state, as plain TypeScript interfaces: each written from the
 * resource's declaration beside its core (provider/accounts/account-properties.ts,
 * provider/saved-filters/filter-properties.ts, provider/pii/opt-out-properties.ts), which the
 * plugin's package schema is written from too.
 */

/** Where a resource lives: the account's base URL and client id (never the secret). */
export interface RecordedAccount {
  /** The API's base URL. */
  baseUrl: string;
  /** The API client id. */
  clientId: string;
}

/** The outputs that say where a resource lives. */
export interface AccountOutputs {
  /** The account name, as declared (`account`); absent for the provider's own settings. */
  account?: string;
  /**
   * The account the resource belongs to, as its state records it (base URL and client id, never the
   * secret).
   */
  recordedAccount: RecordedAccount;
}

/** A saved filter as the account holds it, as the resources record it. */
export interface FilterState {
  /** The filter's id in the account (also a SavedFilter's resource id). */
  filterId: string;
  /** The filter's name, unique in practice; required by the API (spec 4.8). */
  name: string;
  /**
   * The rule tree (spec 2.7): a group of `op` (`and`, `or`) and `rules`, each a group or a leaf
   * (`field`, `op`: `contains`, `not_contains` or `equals`, `value`, and `key` for a `Tag` field);
   * in TypeScript, plain JSON or the rule builder of `pulumi-insights` (`and`, `or`, `field`,
   * `tag`).
   */
  rules: RuleGroup;
  /** The category, such as `CONTENT` or `NETWORK`; removing it clears it. */
  category?: string;
  /** The subcategory, such as `Asset` or `Resource`; removing it clears it. */
  subcategory?: string;
  /** Whether the filter is offered in the metric-exploration and diagnostics dashboards. */
  advanced: boolean;
  /** The API's `content` flag. */
  content: boolean;
  /** Whether the filter is enabled. */
  enabled: boolean;
  /** When the filter was created (ISO 8601 with offset). */
  created?: string;
  /** When the filter was last edited (ISO 8601 with offset). */
  edited?: string;
  /** Who created the filter (the API account's user name). */
  creator?: string;
  /** Who edited the filter last. */
  editor?: string;
}

/**
 * What a SavedFilter records: the filter as the account holds it, the adopted id and its account.
 */
export interface SavedFilterOutputs extends FilterState, AccountOutputs {
  /**
   * The id of an existing filter to take over instead of creating one: `create` reads it and
   * updates it to the declared state.
   */
  adoptId?: string;
}

/** What a SavedFilterSet records: each member's id and state, the adoption map and its account. */
export interface SavedFilterSetOutputs extends AccountOutputs {
  /** The filter id of each member, by member key. */
  ids: Record<string, string>;
  /** Each member as the account holds it, by member key. */
  filters: Record<string, FilterState>;
  /**
   * Existing filters to take over instead of creating them, member key -> filter id: when the
   * member is added, the filter is read and updated to the declared state.
   */
  adopt?: Record<string, string>;
}

/** One opt-out request that processes some of a resource's identifiers (spec 2.9, 3.1). */
export interface TrackedRequest {
  /** The service's request id. */
  id: string;
  /** Its state when last read (spec 3.1). */
  status: "ENQUEUED" | "STARTED" | "FINISHED";
  /**
   * `submitted`: made by this resource's POST. `adopted`: made earlier (by another resource, the
   * console or a previous run) for identifiers the service reported as previously submitted.
   */
  origin: "submitted" | "adopted";
  /** How many of this resource's identifiers the request processes. */
  identifiers: number;
  /** The POST answer's `created` count (spec 2.9); submitted requests only. */
  created?: number;
  /** The POST answer's `ignored` count (docs/api.md 10.3); submitted requests only. */
  ignored?: number;
  /** When the service created it (spec 2.9 `created_at`), once read. */
  createdAt?: string;
  /** When it became FINISHED (spec 2.9 `updated_at`), once read. */
  finishedAt?: string;
}

/**
 * The least advanced status of the requests, or SUBMITTING while batches remain, or UNTRACKED when
 * no request can be followed.
 */
export type OverallStatus = "SUBMITTING" | "ENQUEUED" | "STARTED" | "FINISHED" | "UNTRACKED";

/** An identifier whose sessions are still returned, by position and digest (never the value). */
export interface StillPresentIdentifier {
  /** Zero-based position in the sorted, de-duplicated list of the resource's identifiers. */
  position: number;
  /**
   * The salted scrypt digest of that one identifier (provider/pii/digest.ts), with the resource's
   * salt.
   */
  digest: string;
}

/** The figures of one deletion check after FINISHED. */
export interface DeletionVerification {
  /** When the check found these figures (ISO 8601); a later check that finds the same keeps it. */
  checkedAt: string;
  /** Identifiers asked for. */
  checked: number;
  /** Identifiers with no session in the window. */
  clean: number;
  /** Identifiers whose sessions are still returned (the service may still be deleting). */
  stillPresent: number;
  /** Identifiers that cannot be checked (user ids) or whose check failed. */
  notVerifiable: number;
  /** Where the still-present identifiers stand, by position and digest. */
  stillPresentIdentifiers: StillPresentIdentifier[];
}

/** One request of a receipt. */
export interface ReceiptRequest {
  /** The service's request id (spec 2.9). */
  id: string;
  /** Its state when last read: ENQUEUED, STARTED or FINISHED (spec 3.1). */
  status: string;
  /** When the service created it, as the service wrote it (spec 2.9 `created_at`), when known. */
  createdAt?: string;
  /** When it reached FINISHED (its `updated_at` once FINISHED), when known. */
  finishedAt?: string;
  /** How many of the set's identifiers it processes. */
  identifiers: number;
  /**
   * `submitted` by this resource, or `adopted` (made earlier, for identifiers previously
   * submitted).
   */
  origin?: "submitted" | "adopted";
}

/** The audit receipt of an opt-out request: names no identifier. */
export interface PiiOptOutReceipt {
  /**
   * The receipt's shape and its version, `pulumi-insights/pii-opt-out-receipt@1`; a change that
   * removes or renames a member gets a new version.
   */
  format: "pulumi-insights/pii-opt-out-receipt@1";
  /** `pulumi-insights/<version>`: the package that made the receipt. */
  generatedBy: string;
  /**
   * The time of the last event the receipt reports (ISO 8601): the deletion check, else the last
   * request finished or made.
   */
  generatedAt: string;
  /** The least advanced state of the requests (FINISHED once every request is). */
  status: string;
  /** Every opt-out request made for the set (at most 100 identifiers each, spec 4.10). */
  requests: ReceiptRequest[];
  /** The identifier set, by count and digest only: a receipt names nobody. */
  identifiers: {
    /** `viewer` or `user`. */
    kind: string;
    /** Distinct identifiers in the set. */
    count: number;
    /** Identifiers the requests processed as new (the POST answers' `created`), when known. */
    created?: number;
    /** Identifiers the service already had from earlier requests. */
    previouslySubmitted: number;
    /**
     * The salted scrypt digest of the set (provider/pii/digest.ts): whoever holds the list can
     * check it.
     */
    digest: string;
    /** The hex salt of `digest`, for `identifierSetDigest`; not secret. */
    digestSalt: string;
  };
  /** The deletion check after FINISHED (provider/pii/verification.ts), when it ran. */
  verification?: DeletionVerification;
}

/**
 * What a PiiOptOutRequest records: its identifiers as secrets, their digest, the requests, the wait
 * settings, the deletion check, the receipt and its account.
 */
export interface PiiOptOutRequestOutputs extends AccountOutputs {
  /** The viewer ids, sorted and distinct; a secret in the state and wherever the output goes. */
  viewerIds?: string[];
  /** The user ids, sorted and distinct; a secret in the state and wherever the output goes. */
  userIds?: string[];
  /**
   * The notification addresses, sorted and distinct; a secret in the state and wherever the output
   * goes.
   */
  notificationEmails?: string[];
  /** `viewer` or `user`. */
  identifierKind: "viewer" | "user";
  /** How many distinct identifiers the resource declares. */
  identifierCount: number;
  /**
   * Salted scrypt digest of the identifier set (`identifierSetDigest` recomputes it from the list
   * and the salt).
   */
  identifierDigest: string;
  /**
   * The hex salt of `identifierDigest`, random and made once per resource; not secret: with it,
   * whoever holds the list recomputes the digest, and nobody else learns from it.
   */
  identifierDigestSalt: string;
  /** Every request that processes the identifiers: id, status, origin, counts. */
  requests: TrackedRequest[];
  /**
   * The least advanced status of the requests, or SUBMITTING while batches remain, or UNTRACKED
   * when no request can be followed.
   */
  status: OverallStatus;
  /** Batches of at most 100 identifiers the set is submitted in. */
  batchCount: number;
  /** Batches already handled. */
  batchesSubmitted: number;
  /** Identifiers the service already had from earlier requests. */
  previouslySubmitted: number;
  /** Previously submitted identifiers whose earlier request the list did not show. */
  untracked: number;
  /** Wait until every request is FINISHED before `up` completes. */
  waitForCompletion: boolean;
  /**
   * How long one `up` waits, in seconds; when it runs out, the requests stay in the state and the
   * next `up` waits again (the engine passes the dynamic resources no timeout of its own).
   */
  waitTimeoutSeconds: number;
  /** First pause between status reads, in seconds; pauses grow up to 8 times it. */
  pollIntervalSeconds: number;
  /**
   * Once every request is FINISHED, ask the viewer-sessions endpoint for each viewer id over the
   * 30-day retention window (spec 8) and report in `verification` which still return data; user ids
   * cannot be checked through the API and are counted as not verifiable.
   */
  verifyDeletion: boolean;
  /**
   * The resource's name, which progress lines and errors name (the TypeScript resource sets it: the
   * host is not told the URN).
   */
  resourceName?: string;
  /**
   * The deletion check after FINISHED (`verifyDeletion`): when it ran, how many identifiers were
   * checked, clean, still present (by position in the sorted list and salted digest, never the
   * value) and not verifiable; `pulumi refresh` checks again. Absent before every request is
   * FINISHED, or with `verifyDeletion` false.
   */
  verification?: DeletionVerification;
  /**
   * The audit receipt (format `pulumi-insights/pii-opt-out-receipt@1`, README "PiiOptOutRequest"):
   * names no identifier.
   */
  receipt: PiiOptOutReceipt;
}
