// Written by scripts/generate-types.ts from the zod schemas (`npm run types`): edit the schemas, not this file.

/**
 * The records of the Insights API (spec section 2) as plain TypeScript interfaces: what the client
 * answers and the data sources return. They are the public types of the package; the zod schemas of
 * the other modules of this folder, which they are written from, parse the wire into them and stay
 * an implementation detail, so that a program type-checks without zod's declarations. Objects the
 * service may extend keep an index signature of unknown fields.
 */

/** A timestamp of sessions and metrics (spec 2.2, 2.4): epoch milliseconds and ISO 8601 UTC. */
export interface Timestamp {
  [field: string]: unknown;
  /** Milliseconds since 1970-01-01T00:00:00Z. */
  epoch_ms: number;
  /** The same instant in ISO 8601, UTC. */
  iso_date: string;
}

/** A timestamp of AI alerts (spec 2.8): epoch seconds and ISO 8601. */
export interface AlertTimestamp {
  [field: string]: unknown;
  /** Seconds since 1970-01-01T00:00:00Z. */
  epoch_sec: number;
  /** The same instant in ISO 8601. */
  iso_date: string;
}

/** The `{status, values}` answer of every lookup endpoint (docs/api.md 10.2). */
export interface LookupValues {
  /** The values of the lookup. */
  values: string[];
}

/**
 * The JSON error body that the emulator answers and that the client reads. The real service's shape
 * is not shown (spec 7); `message` is what docs/api.md 10.1 shows for 401, the rest is the
 * emulator's choice.
 */
export interface ErrorBody {
  [field: string]: unknown;
  /** The HTTP status of the answer. */
  status?: number;
  /** A machine-readable code (docs/api.md 11.1), shown to people, never decided on. */
  error?: string;
  /** What went wrong, in a sentence. */
  message: string;
  /** The query parameter or body path at fault, when one is. */
  parameter?: string;
}

/**
 * A rule leaf (spec 2.7): `field`, `op`, `value`, and `key` when the field is `Tag`. Wire-level
 * only: field names are checked against the lookup where it matters (emulator, rules module).
 */
export interface RuleLeaf {
  /** The field compared, a name of the `fields` lookup (spec 2.7), for example `Country`. */
  field: string;
  /** How the field is compared with `value`. */
  op: "contains" | "not_contains" | "equals";
  /** The value compared with (case-sensitive). */
  value: string;
  /** The tag name, when the field is `Tag`. */
  key?: string;
}

/** A rule group (spec 2.7): `op` and `rules`; nested groups repeat this shape. */
export interface RuleGroup {
  /** How the rules are joined: all of them (`and`) or any (`or`). */
  op: "and" | "or";
  /** The rules of the group: leaves and nested groups. */
  rules: RuleNode[];
}

/** A node of a rule tree: a group or a leaf. */
export type RuleNode = RuleGroup | RuleLeaf;

/** A saved filter as the service returns it (spec 2.7). Unknown fields are kept. */
export interface SavedFilter {
  [field: string]: unknown;
  /** The filter's id (a number in some answers, always a string here). */
  id: string;
  /** The filter's name. */
  name: string;
  /** Its rule tree (spec 2.7). */
  rules: RuleGroup;
  /** Its category (spec 2.7). */
  category?: string | undefined;
  /** Its subcategory (spec 2.7). */
  subcategory?: string | undefined;
  /** Whether the filter is advanced. */
  advanced?: boolean | undefined;
  /** Whether the filter is a content filter. */
  content?: boolean | undefined;
  /** Whether the filter is enabled. */
  enabled?: boolean | undefined;
  /** When it was created: ISO 8601 with an offset. */
  created?: string | undefined;
  /** When it was last changed: ISO 8601 with an offset. */
  edited?: string | undefined;
  /** The user who created it. */
  creator?: string | undefined;
  /** The user who last changed it. */
  editor?: string | undefined;
}

/** The writable fields of a saved filter (spec 4.8, POST body item). */
export interface SavedFilterInput {
  /** The filter's name. */
  name: string;
  /** Its rule tree (spec 2.7). */
  rules: RuleGroup;
  /** Its category (spec 2.7). */
  category?: string;
  /** Its subcategory (spec 2.7). */
  subcategory?: string;
  /**
   * Whether the filter is advanced: offered in the exploration and diagnostics dashboards
   * (spec 2.7).
   */
  advanced?: boolean;
  /** Whether the filter is a content filter. */
  content?: boolean;
  /** Whether the filter is enabled. */
  enabled?: boolean;
}

/**
 * A PUT body item (spec 4.8): the id and the fields to merge into the existing filter. PUT merges,
 * so an optional field can only be removed by naming it: `null` clears `category` and `subcategory`
 * (the emulator's choice, emulator/README.md).
 */
export interface SavedFilterUpdate {
  /** The filter's name. */
  name?: string;
  /** Its rule tree (spec 2.7). */
  rules?: RuleGroup;
  /** A new category, or `null` to clear it. */
  category?: string | null;
  /** A new subcategory, or `null` to clear it. */
  subcategory?: string | null;
  /**
   * Whether the filter is advanced: offered in the exploration and diagnostics dashboards
   * (spec 2.7).
   */
  advanced?: boolean | undefined;
  /** Whether the filter is a content filter. */
  content?: boolean | undefined;
  /** Whether the filter is enabled. */
  enabled?: boolean | undefined;
  /** The id of the filter, as a string or a number (spec 2.7). */
  id: string | number;
}

/** `GET /bulk_filters/` without `fields` (spec 4.8). */
export interface SavedFilterList {
  /** The saved filters listed. */
  filters: SavedFilter[];
}

/** `PUT /bulk_filters/` (spec 4.8): a URL listing the changed ids, and the status. */
export interface SavedFilterUpdateResponse {
  [field: string]: unknown;
  /** A URL listing the changed ids. */
  location?: string | undefined;
  /** The status the body repeats, when it does. */
  status?: number | undefined;
}

/** An entry of the DELETE answer: the id and name of a deleted filter (spec 4.8). */
export interface DeletedFilter {
  [field: string]: unknown;
  /** The id of the deleted filter. */
  id: string;
  /** Its name, when the answer gives it. */
  name?: string | undefined;
}

/** `DELETE /bulk_filters/` (spec 4.8): the deleted ids and names. */
export interface SavedFilterDeleteResponse {
  [field: string]: unknown;
  /** The filters deleted (none when the answer lists none). */
  deleted: DeletedFilter[];
  /** The status the body repeats, when it does. */
  status?: number | undefined;
}

/** A severity point of a detail timeline (spec 2.8): every member other than `start`. */
export interface AlertTimelinePoint {
  [field: string]: unknown;
  /** The value of the alert's metric at this point. */
  metric_value: number;
  /** Unique devices impacted at this point. */
  impacted_uniques: number;
  /** Unique devices impacted since the alert started. */
  cumulative_impacted_uniques: number;
  /** Sessions since the alert started. */
  cumulative_sessions: number;
  /** Unique devices in all at this point. */
  total_uniques: number;
  /** Unique devices in all since the alert started. */
  cumulative_total_uniques: number;
  /** When the point was reached. */
  timestamp: AlertTimestamp;
}

/** What a listed alert and an alert's detail share (spec 2.8): all but the timeline. */
export interface AlertFields {
  [field: string]: unknown;
  /** The alert's id. */
  id: string;
  /** The kind of alert. */
  alert_type: string;
  /** How severe it got. */
  severity: "info" | "warning" | "critical";
  /** The metric it was raised on. */
  alert_metric: {
    [field: string]: unknown;
    /** The metric's name. */
    name: string;
    /** What the metric measures. */
    description: string;
  };
  /** The entities that explain it. */
  root_causes: {
    [field: string]: unknown;
    /** The entity, for example a CDN or an ISP. */
    entity: string;
    /** The dimension of the entity. */
    dimension: string;
  }[];
  /** Whether it is still going on. */
  status: "active" | "ended";
}

/** An alert as listed (spec 2.8): the timeline holds `start` and, for ended alerts, `end`. */
export interface AlertSummary extends AlertFields {
  /** When it started and, once ended, when it ended. */
  timeline: {
    [field: string]: unknown;
    /** When the alert started. */
    start: {
      [field: string]: unknown;
      /** When it happened. */
      timestamp: AlertTimestamp;
    };
    /** When it ended, once it has. */
    end?: {
      [field: string]: unknown;
      /** When it happened. */
      timestamp: AlertTimestamp;
    };
  };
}

/** An alert's detail (spec 2.8): a member per point reached. */
export interface AlertDetail extends AlertFields {
  /** The points reached: start, and info, warning, critical and end as reached. */
  timeline: {
    [field: string]: unknown;
    /** When the alert started. */
    start: {
      [field: string]: unknown;
      /** When it happened. */
      timestamp: AlertTimestamp;
    };
    /** The point it reached the info severity, if it did. */
    info?: AlertTimelinePoint;
    /** The point it reached the warning severity, if it did. */
    warning?: AlertTimelinePoint;
    /** The point it reached the critical severity, if it did. */
    critical?: AlertTimelinePoint;
    /** The point it ended, once it has. */
    end?: AlertTimelinePoint;
  };
}

/** The alert list response (spec 4.9). */
export interface AlertList {
  [field: string]: unknown;
  /** The alerts whose status changed in the range. */
  alerts: AlertSummary[];
}

/**
 * A metric member's value object (docs/api.md 2.4, 10.4). Every field is optional here because
 * which ones appear depends on the metric; `count` is an integer on the wire. A field may be `null`
 * where its denominator is empty (no attempts, no plays): read as no value
 * (provider/schema/assumptions.ts METRIC_ANSWER_RULE).
 */
export interface MetricValue {
  [field: string]: unknown;
  /** A count: attempts, plays, failures, devices, minutes... */
  count?: number | undefined;
  /** A percentage, 0 to 100: of a rate's base, or complete. */
  percentage?: number | undefined;
  /** A time, an index or an average. */
  value?: number | undefined;
  /** A rebuffering ratio. */
  ratio?: number | undefined;
  /** A bitrate in bits per second. */
  bps?: number | undefined;
  /** A frame rate in frames per second. */
  fps?: number | undefined;
  /** The count per unique device (ended plays, minutes played). */
  per_unique_device?: number | undefined;
  /** The count per ended play (minutes played). */
  per_ended_play?: number | undefined;
}

/** Metric members keyed by member name (snake_case, spec 2.4). */
export type MetricMembers = Record<string, MetricValue>;

/**
 * One interval of a plain time series: its start and one member per requested metric (spec 2.4).
 */
export interface TimeSeriesPoint {
  [field: string]: MetricValue;
  /** The interval's start. */
  timestamp: Timestamp;
}

/** A group-by entity: the dimension value and its metrics (spec 2.4). */
export interface DimensionalDatum {
  [field: string]: unknown;
  /** The entity the metrics are of. */
  dimension: {
    [field: string]: unknown;
    /** The dimension, for example `cdn`. */
    key: string;
    /** The entity: the dimension's value, for example `Akamai`. */
    value: string;
    /** A readable name of the entity, when the service gives one. */
    description?: string | undefined;
  };
  /** Its metrics, keyed by member name. */
  metrics: MetricMembers;
}

/** One interval of a group-by time series (spec 2.4). */
export interface GroupByPoint {
  [field: string]: unknown;
  /** The interval's start. */
  timestamp: Timestamp;
  /** The entities of the interval, ranked. */
  dimensional_data: DimensionalDatum[];
}

/**
 * `_meta` of a metric response. Integrations read `group_by_dimension.description` and
 * `filter_info.id` (docs/api.md 10.4); the other members are the emulator's choice and kept
 * leniently.
 */
export interface MetricMeta {
  [field: string]: unknown;
  /** The dimension grouped by, in a group-by answer. */
  group_by_dimension?: {
    [field: string]: unknown;
    /** The dimension's name. */
    key?: string | undefined;
    /** A readable name of the dimension. */
    description?: string | undefined;
  } | undefined;
  /** The saved filter applied, when one was. */
  filter_info?: {
    [field: string]: unknown;
    /** The saved filter's id (a string). */
    id?: string | undefined;
    /** The saved filter's name. */
    name?: string | undefined;
  } | undefined;
  /** The granularity of the intervals (an ISO 8601 duration, or ALL). */
  granularity?: string | undefined;
  /** The start of the range answered, epoch milliseconds. */
  start_epoch_ms?: number | undefined;
  /** The end of the range answered, epoch milliseconds. */
  end_epoch_ms?: number | undefined;
  /** The query the answer is for. */
  query_string?: string | undefined;
}

/** A metric time-series response (spec 2.4): one metric or a custom selection. */
export interface MetricResponse {
  [field: string]: unknown;
  /** One point per interval, oldest first. */
  time_series: TimeSeriesPoint[];
  /** The same members over the whole range, when the answer has them. */
  total?: MetricMembers | undefined;
  /** What the answer is for. */
  _meta?: MetricMeta | undefined;
}

/**
 * The whole-range totals of a group-by response: an object with the per-entity totals in
 * `dimensional_data`, never an array (docs/api.md 10.4).
 */
export interface GroupByTotal {
  [field: string]: unknown;
  /** The totals of each entity over the whole range. */
  dimensional_data: DimensionalDatum[];
}

/** A group-by response (spec 2.4): `dimensional_data` per interval, totals per entity. */
export interface GroupByResponse {
  [field: string]: unknown;
  /** One point per interval, oldest first. */
  time_series: GroupByPoint[];
  /** The totals of each entity over the whole range, when the answer has them. */
  total?: GroupByTotal | undefined;
  /** What the answer is for. */
  _meta?: MetricMeta | undefined;
}

/**
 * `{base}/{metric}/group-by`: the group-by dimensions available (payload not shown; emulator's
 * choice).
 */
export interface GroupByDimensionList {
  /** The dimensions the metric can be grouped by. */
  dimensions: {
    [field: string]: unknown;
    /** Its name. */
    name: string;
    /** What it is, when the service says. */
    description?: string | undefined;
  }[];
}

/**
 * `{base}/{metric}/group-by/dimension-tag`: the account's custom tags (payload not shown;
 * emulator's choice).
 */
export interface DimensionTagList {
  /** The account's custom tags the metric can be grouped by. */
  dimension_tags: {
    [field: string]: unknown;
    /** Its name. */
    name: string;
    /** What it is, when the service says. */
    description?: string | undefined;
  }[];
}

/**
 * `/3.0/metrics/_meta/references/dimensions`: filtering and group-by dimensions (emulator's
 * choice).
 */
export interface MetricDimensionReferenceList {
  /** The dimensions that metrics can be filtered and grouped by. */
  dimensions: {
    [field: string]: unknown;
    /** The dimension's name. */
    name: string;
    /** Its name as a metric filter (snake_case). */
    filter?: string | undefined;
    /** Its name as a group-by dimension (kebab-case). */
    group_by?: string | undefined;
    /** What it is. */
    description?: string | undefined;
  }[];
}

/** `/3.0/metrics/_meta/references/filters`: basic data about saved filters (emulator's choice). */
export interface FilterReferenceList {
  /** The account's saved filters. */
  filters: {
    [field: string]: unknown;
    /** The saved filter's id. */
    id: string;
    /** Its name. */
    name: string;
    /** Whether it is enabled. */
    enabled?: boolean | undefined;
  }[];
}

/** `/kpis` (spec 4.6); the wrapper member is the emulator's choice. */
export interface KpiList {
  /** The KPI sets of the account. */
  kpis: {
    [field: string]: unknown;
    /** The KPI set's id (1 is the default set). */
    kpi_id: string;
    /** Its name. */
    kpi_name: string;
  }[];
}

/** The POST body of `/pii-opt-out` (spec 4.10): at most 100 identifiers of one kind. */
export interface PiiOptOutSubmission {
  /** The viewer ids or user ids to delete the data of, all of one kind. */
  viewer_id: string[];
  /** Addresses to notify when the request is FINISHED. */
  "@notification_email"?: string[];
}

/**
 * The POST answer (spec 2.9): the id, `created`, and the count of previously submitted identifiers,
 * named `ignored` (docs/api.md 10.3: the real name is not public).
 */
export interface PiiOptOutSubmitResponse {
  /** The id of the request made. */
  id: string;
  /** How many identifiers the request holds. */
  created: number;
  /** How many identifiers were ignored as submitted before. */
  ignored: number;
}

/** A PII opt-out request (spec 2.9). */
export interface PiiOptOutRequest {
  [field: string]: unknown;
  /** The request's id (alphanumeric). */
  id: string;
  /** Where the deletion is: ENQUEUED, STARTED or FINISHED (spec 3.1). */
  status: "ENQUEUED" | "STARTED" | "FINISHED";
  /** The identifiers whose data is deleted. */
  identifiers: {
    [field: string]: unknown;
    /** The viewer ids or user ids of the request. */
    viewer_id: string[];
  };
  /** The addresses notified when the request is FINISHED. */
  "@notification_email"?: string[] | undefined;
  /** When the request was made, ISO 8601 (the zone may be local). */
  created_at?: string | undefined;
  /** When its status last changed, ISO 8601. */
  updated_at?: string | undefined;
  /** The API client or user that made it. */
  creator?: string | undefined;
}

/** `GET /pii-opt-out` (spec 4.10): the wrapper member is the emulator's choice. */
export interface PiiOptOutRequestList {
  /** The requests listed. */
  requests: PiiOptOutRequest[];
}

/** A session object (spec 2.2): one viewing stream of content or of an ad. */
export interface Session {
  [field: string]: unknown;
  /** The client id and the session id joined: unique across the account. */
  svc_session_id: string;
  /** The id of the viewer's client (player instance). */
  client_id: string;
  /** The session's id within its client. */
  session_id: string;
  /** The viewer's id: present only with viewer-module access; may be a redaction marker. */
  viewer_id?: string;
  /** When the session started and ended. */
  timestamps: {
    [field: string]: unknown;
    /** When the session started. */
    start: Timestamp;
    /** When it ended, once it has. */
    end?: Timestamp;
  };
  /** How the session went: ended, exits and failures. */
  status_info: {
    [field: string]: unknown;
    /** Whether the session has ended. */
    is_ended: boolean;
    /** Whether the viewer left before the video started. */
    is_exit_before_video_start: boolean;
    /** Whether the video failed to start. */
    is_video_start_failure: boolean;
    /** Whether it failed to start for a business reason. */
    is_video_start_failure_business: boolean;
    /** Whether it failed to start for a technical reason. */
    is_video_start_failure_tech: boolean;
    /** Whether playback failed after the start. */
    is_video_playback_failure: boolean;
    /** Whether playback failed for a business reason. */
    is_video_playback_failure_business: boolean;
    /** Whether playback failed for a technical reason. */
    is_video_playback_failure_tech: boolean;
    /** How it ended (values not shown, spec 2.2). */
    ended_status?: string;
    /**
     * Error codes of the session; their item shape is not shown (spec 2.2), the emulator sends
     * strings.
     */
    errors: unknown[];
  };
  /** Numbers over the whole session; values may be negative. */
  lifetime_metrics: {
    [field: string]: unknown;
    /** Average frame rate, frames per second. */
    average_framerate_fps: number;
    /** Average peak bitrate, bits per second. */
    average_peak_bitrate_bps: number;
    /** How much of the content was played, percent. */
    average_percentage_complete: number;
    /** How many times the bitrate changed. */
    bitrate_switches_count: number;
    /** Rebuffering caused by the connection, percent of the time. */
    connection_induced_rebuffering_ratio_percent: number;
    /** Rebuffering caused by the connection, milliseconds. */
    connection_induced_rebuffering_time_ms: number;
    /** The last position of the play head, milliseconds. */
    last_play_head_time_ms: number;
    /** Time spent playing, milliseconds. */
    playing_time_ms: number;
    /** Time paused, percent. */
    paused_ratio_percent: number;
    /** Time paused, milliseconds. */
    paused_time_ms: number;
    /** Time rebuffering, percent. */
    rebuffering_ratio_percent: number;
    /** Time rebuffering, milliseconds. */
    rebuffering_time_ms: number;
    /** Time to restart after seeking or rebuffering, milliseconds. */
    video_restart_time_ms: number;
    /** Time to start the video, milliseconds. */
    video_start_time_ms: number;
  };
  /** What was watched. */
  content_info: {
    [field: string]: unknown;
    /** The asset (content) name. */
    asset: string;
    /** The content category. */
    category: string;
    /** The URL of the stream. */
    stream_url: string;
    /** The content's length, milliseconds. */
    length_ms: number;
  };
  /** The device it was watched on. */
  device_info: {
    [field: string]: unknown;
    /** The browser. */
    browser: {
      [field: string]: unknown;
      /** The browser's name. */
      name: string;
      /** Its version. */
      version: string;
    };
    /** The device's name. */
    name: string;
    /** The operating system. */
    os: string;
    /** The operating system's family. */
    os_family: string;
    /** The operating system's version. */
    os_version: string;
  };
  /** Where it was watched from. */
  geo_info: {
    [field: string]: unknown;
    /** The city. */
    city: string;
    /** The continent. */
    continent: string;
    /** The postal code. */
    postal_code: string;
    /** The designated market area. */
    dma: string;
    /** The state or region. */
    state: {
      [field: string]: unknown;
      /** Its name. */
      name: string;
      /** Its code. */
      code: string;
    };
    /** The country. */
    country: {
      [field: string]: unknown;
      /** Its name. */
      name: string;
      /** Its code. */
      code: string;
    };
  };
  /** The network it came over. */
  network_info: {
    [field: string]: unknown;
    /** The autonomous system. */
    asn: {
      [field: string]: unknown;
      /** The ASN. */
      value: string;
      /** Its owner. */
      description: string;
    };
    /** The CDNs that served the session. */
    cdn: string[];
    /** The viewer's IP address. */
    ip: string;
    /** The viewer's IPv6 address, or null. */
    ipv6: string | null;
    /** The internet service provider. */
    isp: string;
    /** The last CDN edge server. */
    last_cdn_edge_server: string;
    /** The last CDN group's id. */
    last_cdn_group_id: string;
  };
  /** The session's dimensions and custom tags. */
  tags: {
    [field: string]: unknown;
    /** A fixed set of predefined dimensions, all strings. */
    selected_dimensions: Record<string, string>;
    /** The account's own tags. */
    custom_tags: Record<string, string>;
  };
}

/** The session list response (spec 2.1). */
export interface SessionList {
  [field: string]: unknown;
  /** The sessions. */
  sessions: Session[];
}

/** The viewer summary response (spec 2.3): totals over one viewer's sessions, no time series. */
export interface ViewerSummary {
  [field: string]: unknown;
  /** One object per member, over the viewer's sessions. */
  total: {
    [field: string]: unknown;
    /** The average bitrate. */
    bitrate: {
      [field: string]: unknown;
      /** Bits per second. */
      bps: number;
    };
    /** Rebuffering caused by the connection. */
    connection_induced_rebuffering_ratio: {
      [field: string]: unknown;
      /** The ratio. */
      ratio: number;
    };
    /** The time of ended plays. */
    ended_plays_duration: {
      [field: string]: unknown;
      /** Minutes in all. */
      mins: number;
      /** Minutes per ended play. */
      per_ended_play: number;
      /** Minutes per unique device. */
      per_unique_device: number;
    };
    /** Exits before the video started. */
    exit_before_video_starts: {
      [field: string]: unknown;
      /** How many. */
      count: number;
      /** Their share, percent. */
      percentage: number;
    };
    /** Streams without a problem. */
    good_streams: {
      [field: string]: unknown;
      /** How many. */
      count: number;
    };
    /** The average play time of good streams. */
    good_streams_average_play_time: {
      [field: string]: unknown;
      /** Minutes. */
      mins: number;
    };
    /** Streams with a problem. */
    impacted_streams: {
      [field: string]: unknown;
      /** How many. */
      count: number;
    };
    /** The average play time of impacted streams. */
    impacted_streams_average_play_time: {
      [field: string]: unknown;
      /** Minutes. */
      mins: number;
    };
    /** Plays. */
    plays: {
      [field: string]: unknown;
      /** How many. */
      count: number;
    };
    /** Time rebuffering. */
    rebuffering_ratio: {
      [field: string]: unknown;
      /** The ratio. */
      ratio: number;
    };
    /** Streams counted by the streaming performance index. */
    spi_streams: {
      [field: string]: unknown;
      /** How many. */
      count: number;
    };
    /** The streaming performance index. */
    streaming_performance_index: {
      [field: string]: unknown;
      /** The value. */
      value: number;
    };
    /** Unique devices. */
    unique_devices: {
      [field: string]: unknown;
      /** How many. */
      count: number;
    };
    /** Playback failures. */
    video_playback_failures: {
      [field: string]: unknown;
      /** How many. */
      count: number;
      /** Their share, percent. */
      percentage: number;
    };
    /** Playback failures for a business reason. */
    video_playback_failures_business: {
      [field: string]: unknown;
      /** How many. */
      count: number;
      /** Their share, percent. */
      percentage: number;
    };
    /** Playback failures for a technical reason. */
    video_playback_failures_tech: {
      [field: string]: unknown;
      /** How many. */
      count: number;
      /** Their share, percent. */
      percentage: number;
    };
    /** The video restart time. */
    video_restart_time: {
      [field: string]: unknown;
      /** The value. */
      value: number;
    };
    /** Start failures. */
    video_start_failures: {
      [field: string]: unknown;
      /** How many. */
      count: number;
      /** Their share, percent. */
      percentage: number;
    };
    /** Start failures for a business reason. */
    video_start_failures_business: {
      [field: string]: unknown;
      /** How many. */
      count: number;
      /** Their share, percent. */
      percentage: number;
    };
    /** Start failures for a technical reason. */
    video_start_failures_tech: {
      [field: string]: unknown;
      /** How many. */
      count: number;
      /** Their share, percent. */
      percentage: number;
    };
    /** The video start time. */
    video_start_time: {
      [field: string]: unknown;
      /** The value. */
      value: number;
    };
  };
  /** What the answer is for. */
  _meta: {
    [field: string]: unknown;
    /** What was asked for: the viewer and the range. */
    queries: {
      [field: string]: unknown;
      /** The viewer id asked for. */
      viewer_id?: string;
      /** The viewer IP address asked for. */
      viewer_ip?: string;
      /** The start of the range, epoch milliseconds. */
      start_epoch_ms: number;
      /** The end of the range, epoch milliseconds. */
      end_epoch_ms: number;
    };
    /** The query the answer is for. */
    query_string: string;
    /** The maximum of each rebuffering ratio. */
    ratio_info: {
      [field: string]: unknown;
      /** The maximum of the connection-induced rebuffering ratio. */
      connection_induced_rebuffering_ratio: {
        [field: string]: unknown;
        /** The maximum. */
        max: number;
      };
      /** The maximum of the rebuffering ratio. */
      rebuffering_ratio: {
        [field: string]: unknown;
        /** The maximum. */
        max: number;
      };
    };
    /** Notes on the answer. */
    annotations: {
      [field: string]: unknown;
      /** The cause. */
      cause: string;
      /** The note. */
      value: string;
    }[];
  };
}

/** The sessions dimension lookup response (spec 2.5, 4.5). */
export interface SessionDimensionList {
  [field: string]: unknown;
  /** The dimensions the account can filter sample sessions by. */
  dimensions: {
    [field: string]: unknown;
    /** The dimension's name. */
    name: string;
    /** Its name as a sample-session filter (custom tags as `tag_<name>`). */
    query_filter: string;
    /** Whether it is one of the account's custom tags. */
    is_custom: boolean;
  }[];
}

/**
 * The discovery endpoint's answer (spec 4.5): the resource paths available to the account with a
 * description and prerequisites. Its shape is not shown; this is the emulator's choice.
 */
export interface DiscoveryList {
  /** The resource paths. */
  resources: {
    [field: string]: unknown;
    /** The resource path. */
    path: string;
    /** What it answers. */
    description: string;
    /** What the account needs for it. */
    prerequisite: string;
    /** Whether the account has it. */
    available: boolean;
  }[];
}
