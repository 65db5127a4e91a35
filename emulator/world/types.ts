/** Whether a session is a content stream or an ad stream (spec 1, sessions API). */
export type SessionKind = "content" | "ad";

/**
 * One session in the compact form the endpoints compute on. The wire object of spec 2.2 is
 * rendered from it (`renderSession`), and metrics aggregate over it, so both always agree.
 */
export interface SessionRecord {
  kind: SessionKind;
  /** The viewer-module identifier (doubles as the user id for PII opt-out). */
  viewerId: string;
  /** The player SDK's client id; `svc_session_id` is client_id + session_id (spec 2.2). */
  clientId: string;
  sessionId: string;
  startMs: number;
  /** When the session ends. A session whose end is after the emulator's now is ongoing. */
  endMs: number;
  /**
   * Dimension values keyed by the snake_case metric filter name of spec 4.7 (`geo_country_code`,
   * `isp`, `asn`, `cdn`, `device_os`, ...). Every predefined group-by dimension has a value; one that
   * does not apply (an ad dimension of a content session, the season of a film) is "N/A". A
   * read-only view over shared layers (world/dimensions.ts): read it, never write it.
   */
  dimensions: Readonly<Record<string, string>>;
  /** Account custom tags (spec 2.2 `tags.custom_tags`). */
  customTags: Readonly<Record<string, string>>;
  ip: string;
  ipv6: string | null;
  exitBeforeVideoStart: boolean;
  videoStartFailure: "business" | "tech" | undefined;
  videoPlaybackFailure: "business" | "tech" | undefined;
  /** The error code of a failed session (spec 4.7 error-code dimensions), else undefined. */
  errorCode: string | undefined;
  hasPreRoll: boolean;
  /**
   * Ad sessions: the session id of the content session the ad played in (spec 2.2
   * `selected_dimensions.content_session_id`). Undefined for content sessions.
   */
  contentSessionId?: string | undefined;
  /**
   * Lifetime values over the whole session (spec 2.2 `lifetime_metrics`), at its end. The video
   * start time is -1 when the video never started (an exit before video start or a start failure).
   */
  videoStartTimeMs: number;
  videoRestartTimeMs: number;
  playingTimeMs: number;
  rebufferingTimeMs: number;
  connectionInducedRebufferingTimeMs: number;
  pausedTimeMs: number;
  averageBitrateBps: number;
  averageFramerateFps: number;
  bitrateSwitches: number;
  /** Percent of the content played (of the planned hour for live content). */
  percentageComplete: number;
  /** The asset's length; -1 for live content (spec 2.2: negative values can occur). */
  contentLengthMs: number;
}

/**
 * An anomaly planted in the data (a CDN, ISP or asset degrades for a while); AI alerts are raised
 * from these (spec 2.8, 3.2).
 */
export interface Anomaly {
  id: string;
  kind: SessionKind;
  /** The alert metric of spec 4.9 (`VSF`, `BUFFERINGRATIO`, ...). */
  alertMetric: string;
  /** Root cause: the snake_case dimension and the entity (value) that degrades. */
  dimension: string;
  entity: string;
  startMs: number;
  /** When the condition returns to normal; after the emulator's now the alert is active. */
  endMs: number;
  /** The highest severity the anomaly reaches. */
  peakSeverity: "info" | "warning" | "critical";
}

/** The lookup vocabularies of spec 4.8 that the world draws from. */
export const WORLD_LOOKUPS = ["asn", "cities", "continents", "countries", "dma", "isp", "states", "tags"] as const;
/** One of {@link WORLD_LOOKUPS}. */
export type WorldLookup = (typeof WORLD_LOOKUPS)[number];

/**
 * The data world's contract: what the sessions, metrics and alerts endpoints read. One world per
 * account, generated deterministically from (seed, account), hour by hour, so the last 30 days
 * exist at start and data keeps arriving as the emulator's clock runs.
 */
export interface World {
  /** Sessions of `kind` that start in [fromMs, toMs), sorted by start. Not cut at "now". */
  sessionsStartedBetween(kind: SessionKind, fromMs: number, toMs: number): readonly SessionRecord[];
  /**
   * Hands each session of `kind` that starts in [fromMs, toMs) to `visit`, by start, without
   * building a list: for a pass that reads each session once (the metrics). The record handed over
   * may be reused for the next session (world/compact.ts `CompactCursor`): read it, keep nothing of it.
   */
  visitSessionsStartedBetween(kind: SessionKind, fromMs: number, toMs: number, visit: (session: SessionRecord) => void): void;
  /**
   * The sessions of `kind` of one viewer that start in [fromMs, toMs), sorted by start: those of
   * {@link sessionsStartedBetween} with this viewer id, found through an index of each hour by
   * viewer (built on the first such read of the hour) rather than a scan of every session.
   */
  sessionsOfViewerBetween(kind: SessionKind, viewerId: string, fromMs: number, toMs: number): SessionRecord[];
  /** The ids of the viewers with this IPv4 or IPv6 address (lowercase), as sessions carry it. */
  viewerIdsWithAddress(address: string): string[];
  /**
   * Generates the hours of [fromMs, toMs) not generated yet, on the main thread and the process's
   * generation worker together, when there are many (a long metric read); a read of them then finds
   * them ready. Optional: without it every hour is generated when first read, with the same result.
   */
  prepare(fromMs: number, toMs: number): Promise<void>;
  /** Anomalies that overlap [fromMs, toMs). */
  anomaliesBetween(fromMs: number, toMs: number): readonly Anomaly[];
  /** The pre-set values of a lookup (spec 4.8), as saved-filter rules must spell them. */
  lookupValues(lookup: WorldLookup): readonly string[];
  /** The account's custom tag names. */
  customTagNames(): readonly string[];
}
