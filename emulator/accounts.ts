import { z } from "zod";
import { FilterStore } from "./filters/store";
import { PiiStore } from "./pii/store";
import { DIALECTS, type Dialect } from "./dialect";
import { hashSeed } from "./random";
import { DataWorld, WORLD_LOOKUPS, type SessionKind, type SessionRecord, type World, type WorldLookup, type WorldOptions } from "./world";

/**
 * Per-account features (spec 1, 4.2, 4.3): bulk filters are not enabled by default, ad sessions
 * need ad insights, viewer endpoints need the viewer module.
 *
 * @internal
 */
export const AccountFeatures = z.strictObject({
  bulkFilters: z.boolean().default(false),
  adInsights: z.boolean().default(false),
  viewerModule: z.boolean().default(false),
});
/** {@link AccountFeatures} after defaults. */
export interface AccountFeatures {
  /** The saved-filter API `/bulk_filters`; off, every call answers 403 `feature_not_enabled` (spec 1). */
  bulkFilters: boolean;
  /** Ad sessions, ad metrics and ad alerts; off, they answer 403 `feature_not_enabled` (spec 4.2). */
  adInsights: boolean;
  /** The viewer endpoints and `viewer_id` in session records; off, those endpoints answer 403 `feature_not_enabled` and records carry no viewer id (spec 4.3). */
  viewerModule: boolean;
}

/** @internal An account as configured: HTTP Basic credentials (docs/api.md 5, 10.1) and features. */
export const AccountConfig = z.strictObject({
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  /** The user name reported as `creator` and `editor`. */
  userName: z.string().default("api-client"),
  features: AccountFeatures.default({ bulkFilters: false, adInsights: false, viewerModule: false }),
  /**
   * How the account's answers fill the places the contract leaves open (emulator/README.md
   * "Dialects"); without it, the emulator's default dialect (`--dialect`, standard unless told).
   */
  dialect: z.enum(DIALECTS).optional(),
  /**
   * Values the account's lookups list besides those of its data world (emulator/README.md
   * "Accounts"), valid in rules like them: to see a lookup longer than the 500 one answer holds.
   */
  lookupValues: z.partialRecord(z.enum(WORLD_LOOKUPS), z.array(z.string().min(1))).optional(),
});
/** An account configuration as given (features optional). */
export interface AccountConfigInput {
  /** The account's client id, the user of HTTP Basic (docs/api.md 5); an account added with the id of another replaces it. */
  clientId: string;
  /** The account's client secret, the password of HTTP Basic (docs/api.md 5). */
  clientSecret: string;
  /** The user name the account's saved filters carry as `creator` and `editor`. Default `api-client`. */
  userName?: string;
  /** The features the account has (emulator/README.md "Accounts"); each one left out is off. */
  features?: {
    /** The saved-filter API `/bulk_filters` (spec 1). Default off. */
    bulkFilters?: boolean;
    /** Ad sessions, ad metrics and ad alerts (spec 4.2). Default off. */
    adInsights?: boolean;
    /** The viewer endpoints and `viewer_id` in session records (spec 4.3). Default off. */
    viewerModule?: boolean;
  };
  /** How the account's answers fill the places the contract leaves open (emulator/README.md "Dialects"). */
  dialect?: "standard" | "alternate";
  /** Values the account's lookups list besides those of its data world (emulator/README.md "Accounts"). */
  lookupValues?: Partial<Record<WorldLookup, string[]>>;
}
/** An account configuration after defaults. */
export interface AccountConfig {
  clientId: string;
  clientSecret: string;
  userName: string;
  features: AccountFeatures;
  /** How the account's answers fill the places the contract leaves open (emulator/README.md "Dialects"). */
  dialect?: "standard" | "alternate";
  /** Values the account's lookups list besides those of its data world. */
  lookupValues?: Partial<Record<WorldLookup, string[]>>;
}

/** The documented dev account: every feature enabled (emulator/README.md "Accounts"). */
export const DEV_ACCOUNT: AccountConfigInput = {
  clientId: "dev",
  clientSecret: "dev-secret",
  userName: "dev@example.com",
  features: { bulkFilters: true, adInsights: true, viewerModule: true },
};

/** A second documented account with the service's defaults: no bulk filters, ads or viewer module. */
export const BASIC_ACCOUNT: AccountConfigInput = {
  clientId: "basic",
  clientSecret: "basic-secret",
  userName: "basic@example.com",
};

/** Everything one account owns; accounts share nothing. */
export class AccountState {
  readonly config: AccountConfig;
  readonly world: World;
  readonly filters = new FilterStore();
  readonly pii = new PiiStore();
  /** The dialect the account's answers are given in: its own, else the emulator's default. */
  readonly dialect: Dialect;

  constructor(config: AccountConfigInput, seed: number, defaultDialect: Dialect = "standard", worldOptions: WorldOptions = {}) {
    this.config = AccountConfig.parse(config);
    this.dialect = this.config.dialect ?? defaultDialect;
    this.world = new DataWorld(hashSeed(seed, this.config.clientId), this.config.clientId, { ...worldOptions, lookupValues: this.config.lookupValues });
  }

  /**
   * Sessions of `kind` started in [fromMs, toMs) that exist at `nowMs`: not in the future, not of a
   * viewer whose PII opt-out request has FINISHED (spec 3.1: the data is deleted), and not started
   * after a viewer's opt-out request was made (spec 8: collection stops at once).
   */
  sessions(kind: SessionKind, fromMs: number, toMs: number, nowMs: number): SessionRecord[] {
    const end = Math.min(toMs, nowMs + 1);
    if (end <= fromMs) return [];
    const sessions = this.world.sessionsStartedBetween(kind, fromMs, end);
    if (!this.pii.hasOptOuts()) return sessions as SessionRecord[];
    return sessions.filter((session) => this.pii.keepsSession(session.viewerId, session.startMs, nowMs));
  }

  /**
   * The sessions {@link sessions} would answer that belong to one viewer, found through the world's
   * index by viewer (world/types.ts `sessionsOfViewerBetween`), in start order.
   */
  sessionsOfViewer(kind: SessionKind, viewerId: string, fromMs: number, toMs: number, nowMs: number): SessionRecord[] {
    const end = Math.min(toMs, nowMs + 1);
    if (end <= fromMs) return [];
    const sessions = this.world.sessionsOfViewerBetween(kind, viewerId, fromMs, end);
    if (!this.pii.hasOptOuts()) return sessions;
    return sessions.filter((session) => this.pii.keepsSession(session.viewerId, session.startMs, nowMs));
  }

  /** Gets the sessions of [fromMs, toMs) ready for a long read (world/types.ts `prepare`). */
  prepareSessions(fromMs: number, toMs: number, nowMs: number): Promise<void> {
    const end = Math.min(toMs, nowMs + 1);
    return end <= fromMs ? Promise.resolve() : this.world.prepare(fromMs, end);
  }

  /**
   * Hands each session {@link sessions} would answer to `visit`, in start order, without building a
   * list (world/types.ts `visitSessionsStartedBetween`: the record may be reused for the next one).
   */
  visitSessions(kind: SessionKind, fromMs: number, toMs: number, nowMs: number, visit: (session: SessionRecord) => void): void {
    const end = Math.min(toMs, nowMs + 1);
    if (end <= fromMs) return;
    if (!this.pii.hasOptOuts()) return this.world.visitSessionsStartedBetween(kind, fromMs, end, visit);
    this.world.visitSessionsStartedBetween(kind, fromMs, end, (session) => {
      if (this.pii.keepsSession(session.viewerId, session.startMs, nowMs)) visit(session);
    });
  }

  /** The account's mutable state, for `GET /_emulator/state`. */
  export(): AccountSnapshot {
    return { config: this.config, filters: this.filters.export(), pii: this.pii.export() };
  }

  /** Restores the mutable state from {@link export}. */
  import(snapshot: AccountSnapshot): void {
    this.filters.import(snapshot.filters);
    this.pii.import(snapshot.pii);
  }
}

/**
 * What a read of an account's data takes from a request: the router's request context
 * (router.ts `RequestContext`) is one, and the metrics and filters below the router ask for no more.
 */
export interface AccountRequest {
  /** The path without trailing slash. */
  path: string;
  query: URLSearchParams;
  /** The authenticated account's state. */
  account: AccountState;
  /** The emulator's current time in epoch milliseconds, read once per request. */
  nowMs: number;
}

/** One account in a state export. */
export interface AccountSnapshot {
  config: AccountConfig;
  filters: unknown;
  pii: unknown;
}
