/**
 * The records of the Insights API (spec section 2) as plain TypeScript interfaces: what the client
 * answers and the data sources return. They are the public types of the package; the zod schemas
 * of the other modules of this folder parse the wire into them and stay an implementation detail,
 * so that a program type-checks without zod's declarations (any `module`/`moduleResolution`, with or
 * without `esModuleInterop` and `skipLibCheck`). test/records.test.ts keeps each interface equal to
 * its schema's inferred type. Objects the service may extend keep an index signature of unknown
 * fields.
 */

// common (the zod schemas: provider/schema/common.ts)
/** A timestamp of sessions and metrics (spec 2.2, 2.4): epoch milliseconds and ISO 8601 UTC. */
export interface Timestamp {
  [field: string]: unknown;
  epoch_ms: number;
  iso_date: string;
}

/** A timestamp of AI alerts (spec 2.8): epoch seconds and ISO 8601. */
export interface AlertTimestamp {
  [field: string]: unknown;
  epoch_sec: number;
  iso_date: string;
}

/** The `{status, values}` answer of every lookup endpoint (docs/api.md 10.2). */
export interface LookupValues {
  values: string[];
}

/**
* The JSON error body that the emulator answers and that the client reads. The real service's shape
* is not shown (spec 7); `message` is what docs/api.md 10.1 shows for 401, the rest is the emulator's choice.
*/
export interface ErrorBody {
  [field: string]: unknown;
  message: string;
  status?: number;
  error?: string;
  parameter?: string;
}

// filters (the zod schemas: provider/schema/filters.ts)
/**
* A rule leaf (spec 2.7): `field`, `op`, `value`, and `key` when the field is `Tag`.
* Wire-level only: field names are checked against the lookup where it matters (emulator, rules module).
*/
export interface RuleLeaf {
  field: string;
  op: "contains" | "not_contains" | "equals";
  value: string;
  key?: string;
}

/** A rule group (spec 2.7): `op` and `rules`; nested groups repeat this shape. */
export interface RuleGroup {
  op: "and" | "or";
  rules: RuleNode[];
}

/** A node of a rule tree: a group or a leaf. */
export type RuleNode = RuleGroup | RuleLeaf;

/** A saved filter as the service returns it (spec 2.7). Unknown fields are kept. */
export interface SavedFilter {
  [field: string]: unknown;
  id: string;
  name: string;
  rules: RuleGroup;
  created?: string;
  edited?: string;
  creator?: string;
  editor?: string;
  category?: string;
  subcategory?: string;
  advanced?: boolean;
  content?: boolean;
  enabled?: boolean;
}

/** The writable fields of a saved filter (spec 4.8, POST body item). */
export interface SavedFilterInput {
  /** The filter's name. */
  name: string;
  /** Its rule tree (spec 2.7). */
  rules: RuleGroup;
  /** Category (spec 2.7). */
  category?: string;
  /** Subcategory (spec 2.7). */
  subcategory?: string;
  /** Whether the filter is advanced. */
  advanced?: boolean;
  /** Whether the filter is a content filter. */
  content?: boolean;
  /** Whether the filter is enabled. */
  enabled?: boolean;
}

/**
* A PUT body item (spec 4.8): the id and the fields to merge into the existing filter. PUT merges,
* so an optional field can only be removed by naming it: `null` clears `category` and
* `subcategory` (the emulator's choice, emulator/README.md).
*/
export interface SavedFilterUpdate {
  /** The id of the filter, as a string or a number (spec 2.7). */
  id: string | number;
  /** A new name. */
  name?: string;
  /** A new rule tree (spec 2.7), checked by the service. */
  rules?: unknown;
  /** A new `advanced` flag. */
  advanced?: boolean;
  /** A new `content` flag. */
  content?: boolean;
  /** A new `enabled` flag. */
  enabled?: boolean;
  /** A new category, or `null` to clear it. */
  category?: string | null;
  /** A new subcategory, or `null` to clear it. */
  subcategory?: string | null;
}

/** `GET /bulk_filters/` without `fields` (spec 4.8). */
export interface SavedFilterList {
  filters: SavedFilter[];
}

/** `PUT /bulk_filters/` (spec 4.8): a URL listing the changed ids, and the status. */
export interface SavedFilterUpdateResponse {
  [field: string]: unknown;
  location?: string | undefined;
  status?: number | undefined;
}

/** `DELETE /bulk_filters/` (spec 4.8): the deleted ids and names. */
export interface SavedFilterDeleteResponse {
  [field: string]: unknown;
  deleted: {
    [field: string]: unknown;
    id: string;
    name?: string | undefined;
  }[];
  status?: number | undefined;
}

// alerts (the zod schemas: provider/schema/alerts.ts)
/** A severity point of a detail timeline (spec 2.8): every member other than `start`. */
export interface AlertTimelinePoint {
  [field: string]: unknown;
  metric_value: number;
  impacted_uniques: number;
  cumulative_impacted_uniques: number;
  cumulative_sessions: number;
  total_uniques: number;
  cumulative_total_uniques: number;
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
    name: string;
    description: string;
  };
  /** The entities that explain it. */
  root_causes: {
    [field: string]: unknown;
    entity: string;
    dimension: string;
  }[];
  /** Whether it is still going on. */
  status: "active" | "ended";
}

/** An alert as listed (spec 2.8): the timeline holds `start` and, for ended alerts, `end`. */
export interface AlertSummary extends AlertFields {
  timeline: {
    [field: string]: unknown;
    start: {
      [field: string]: unknown;
      timestamp: AlertTimestamp;
    };
    end?: {
      [field: string]: unknown;
      timestamp: AlertTimestamp;
    };
  };
}

/** An alert's detail (spec 2.8): a member per point reached. */
export interface AlertDetail extends AlertFields {
  timeline: {
    [field: string]: unknown;
    start: {
      [field: string]: unknown;
      timestamp: AlertTimestamp;
    };
    info?: AlertTimelinePoint;
    warning?: AlertTimelinePoint;
    critical?: AlertTimelinePoint;
    end?: AlertTimelinePoint;
  };
}

/** The alert list response (spec 4.9). */
export interface AlertList {
  [field: string]: unknown;
  alerts: AlertSummary[];
}

// metrics (the zod schemas: provider/schema/metrics.ts)
/**
* A metric member's value object (docs/api.md 2.4, 10.4). Every field is
* optional here because which ones appear depends on the metric; `count` is an integer on the wire.
*/
export interface MetricValue {
  [field: string]: unknown;
  count?: number;
  percentage?: number;
  value?: number;
  ratio?: number;
  bps?: number;
  fps?: number;
  per_unique_device?: number;
  per_ended_play?: number;
}

/** Metric members keyed by member name (snake_case, spec 2.4). */
export interface MetricMembers {
  [x: string]: MetricValue;
}

/** One interval of a plain time series: its start and one member per requested metric (spec 2.4). */
export interface TimeSeriesPoint {
  [x: string]: MetricValue;
  timestamp: Timestamp;
}

/** A group-by entity: the dimension value and its metrics (spec 2.4). */
export interface DimensionalDatum {
  [field: string]: unknown;
  dimension: {
    [field: string]: unknown;
    key: string;
    value: string;
    description?: string;
  };
  metrics: Record<string, MetricValue>;
}

/** One interval of a group-by time series (spec 2.4). */
export interface GroupByPoint {
  [field: string]: unknown;
  timestamp: Timestamp;
  dimensional_data: DimensionalDatum[];
}

/**
* `_meta` of a metric response. Integrations read `group_by_dimension.description` and
* `filter_info.id` (docs/api.md 10.4); the other members are the emulator's choice and kept leniently.
*/
export interface MetricMeta {
  [field: string]: unknown;
  group_by_dimension?: {
    [field: string]: unknown;
    key?: string | undefined;
    description?: string | undefined;
  } | undefined;
  filter_info?: {
    [field: string]: unknown;
    id?: string | undefined;
    name?: string | undefined;
  } | undefined;
  granularity?: string | undefined;
  start_epoch_ms?: number | undefined;
  end_epoch_ms?: number | undefined;
  query_string?: string | undefined;
}

/** A metric time-series response (spec 2.4): one metric or a custom selection. */
export interface MetricResponse {
  [field: string]: unknown;
  time_series: TimeSeriesPoint[];
  total?: Record<string, MetricValue> | undefined;
  _meta?: MetricMeta | undefined;
}

/**
* The whole-range totals of a group-by response: an object with the per-entity totals in
* `dimensional_data`, never an array (docs/api.md 10.4).
*/
export interface GroupByTotal {
  [member: string]: unknown;
  dimensional_data: DimensionalDatum[];
}

/** A group-by response (spec 2.4): `dimensional_data` per interval, totals per entity. */
export interface GroupByResponse {
  [field: string]: unknown;
  time_series: GroupByPoint[];
  total?: GroupByTotal | undefined;
  _meta?: MetricMeta | undefined;
}

/** `{base}/{metric}/group-by`: the group-by dimensions available (payload not shown; emulator's choice). */
export interface GroupByDimensionList {
  dimensions: {
    [field: string]: unknown;
    name: string;
    description?: string | undefined;
  }[];
}

/** `{base}/{metric}/group-by/dimension-tag`: the account's custom tags (payload not shown; emulator's choice). */
export interface DimensionTagList {
  dimension_tags: {
    [field: string]: unknown;
    name: string;
    description?: string | undefined;
  }[];
}

/** `/3.0/metrics/_meta/references/dimensions`: filtering and group-by dimensions (emulator's choice). */
export interface MetricDimensionReferenceList {
  dimensions: {
    [field: string]: unknown;
    name: string;
    description?: string | undefined;
    filter?: string;
    group_by?: string;
  }[];
}

/** `/3.0/metrics/_meta/references/filters`: basic data about saved filters (emulator's choice). */
export interface FilterReferenceList {
  filters: {
    [field: string]: unknown;
    id: string;
    name: string;
    enabled?: boolean;
  }[];
}

/** `/kpis` (spec 4.6); the wrapper member is the emulator's choice. */
export interface KpiList {
  kpis: {
    [field: string]: unknown;
    kpi_id: string;
    kpi_name: string;
  }[];
}

// pii (the zod schemas: provider/schema/pii.ts)
/** The POST body of `/pii-opt-out` (spec 4.10): at most 100 identifiers of one kind. */
export interface PiiOptOutSubmission {
  viewer_id: string[];
  "@notification_email"?: string[];
}

/**
* The POST answer (spec 2.9): the id, `created`, and the count of previously submitted identifiers,
* named `ignored` (docs/api.md 10.3: the real name is not public).
*/
export interface PiiOptOutSubmitResponse {
  id: string;
  created: number;
  ignored: number;
}

/** A PII opt-out request (spec 2.9). */
export interface PiiOptOutRequest {
  [field: string]: unknown;
  id: string;
  status: "ENQUEUED" | "STARTED" | "FINISHED";
  identifiers: {
    [field: string]: unknown;
    viewer_id: string[];
  };
  created_at?: string | undefined;
  "@notification_email"?: string[] | undefined;
  updated_at?: string | undefined;
  creator?: string | undefined;
}

/** `GET /pii-opt-out` (spec 4.10): the wrapper member is the emulator's choice. */
export interface PiiOptOutRequestList {
  requests: PiiOptOutRequest[];
}

// sessions (the zod schemas: provider/schema/sessions.ts)
/** A session object (spec 2.2): one viewing stream of content or of an ad. */
export interface Session {
  [field: string]: unknown;
  svc_session_id: string;
  client_id: string;
  session_id: string;
  timestamps: {
    [field: string]: unknown;
    start: Timestamp;
    end?: Timestamp;
  };
  status_info: {
    [field: string]: unknown;
    is_ended: boolean;
    is_exit_before_video_start: boolean;
    is_video_start_failure: boolean;
    is_video_start_failure_business: boolean;
    is_video_start_failure_tech: boolean;
    is_video_playback_failure: boolean;
    is_video_playback_failure_business: boolean;
    is_video_playback_failure_tech: boolean;
    errors: unknown[];
    ended_status?: string;
  };
  lifetime_metrics: {
    [field: string]: unknown;
    average_framerate_fps: number;
    average_peak_bitrate_bps: number;
    average_percentage_complete: number;
    bitrate_switches_count: number;
    connection_induced_rebuffering_ratio_percent: number;
    connection_induced_rebuffering_time_ms: number;
    last_play_head_time_ms: number;
    playing_time_ms: number;
    paused_ratio_percent: number;
    paused_time_ms: number;
    rebuffering_ratio_percent: number;
    rebuffering_time_ms: number;
    video_restart_time_ms: number;
    video_start_time_ms: number;
  };
  content_info: {
    [field: string]: unknown;
    asset: string;
    category: string;
    length_ms: number;
    stream_url: string;
  };
  device_info: {
    [field: string]: unknown;
    browser: {
      [field: string]: unknown;
      name: string;
      version: string;
    };
    name: string;
    os: string;
    os_family: string;
    os_version: string;
  };
  geo_info: {
    [field: string]: unknown;
    city: string;
    state: {
      [field: string]: unknown;
      name: string;
      code: string;
    };
    country: {
      [field: string]: unknown;
      name: string;
      code: string;
    };
    continent: string;
    postal_code: string;
    dma: string;
  };
  network_info: {
    [field: string]: unknown;
    asn: {
      [field: string]: unknown;
      value: string;
      description: string;
    };
    cdn: string[];
    ip: string;
    ipv6: string | null;
    isp: string;
    last_cdn_edge_server: string;
    last_cdn_group_id: string;
  };
  tags: {
    [field: string]: unknown;
    selected_dimensions: Record<string, string>;
    custom_tags: Record<string, string>;
  };
  viewer_id?: string;
}

/** The session list response (spec 2.1). */
export interface SessionList {
  [field: string]: unknown;
  sessions: Session[];
}

/** The viewer summary response (spec 2.3): totals over one viewer's sessions, no time series. */
export interface ViewerSummary {
  [field: string]: unknown;
  total: {
    [field: string]: unknown;
    bitrate: {
      [field: string]: unknown;
      bps: number;
    };
    connection_induced_rebuffering_ratio: {
      [field: string]: unknown;
      ratio: number;
    };
    ended_plays_duration: {
      [field: string]: unknown;
      mins: number;
      per_ended_play: number;
      per_unique_device: number;
    };
    exit_before_video_starts: {
      [field: string]: unknown;
      count: number;
      percentage: number;
    };
    good_streams: {
      [field: string]: unknown;
      count: number;
    };
    good_streams_average_play_time: {
      [field: string]: unknown;
      mins: number;
    };
    impacted_streams: {
      [field: string]: unknown;
      count: number;
    };
    impacted_streams_average_play_time: {
      [field: string]: unknown;
      mins: number;
    };
    plays: {
      [field: string]: unknown;
      count: number;
    };
    rebuffering_ratio: {
      [field: string]: unknown;
      ratio: number;
    };
    spi_streams: {
      [field: string]: unknown;
      count: number;
    };
    streaming_performance_index: {
      [field: string]: unknown;
      value: number;
    };
    unique_devices: {
      [field: string]: unknown;
      count: number;
    };
    video_playback_failures: {
      [field: string]: unknown;
      count: number;
      percentage: number;
    };
    video_playback_failures_business: {
      [field: string]: unknown;
      count: number;
      percentage: number;
    };
    video_playback_failures_tech: {
      [field: string]: unknown;
      count: number;
      percentage: number;
    };
    video_restart_time: {
      [field: string]: unknown;
      value: number;
    };
    video_start_failures: {
      [field: string]: unknown;
      count: number;
      percentage: number;
    };
    video_start_failures_business: {
      [field: string]: unknown;
      count: number;
      percentage: number;
    };
    video_start_failures_tech: {
      [field: string]: unknown;
      count: number;
      percentage: number;
    };
    video_start_time: {
      [field: string]: unknown;
      value: number;
    };
  };
  _meta: {
    [field: string]: unknown;
    queries: {
      [field: string]: unknown;
      start_epoch_ms: number;
      end_epoch_ms: number;
      viewer_id?: string;
      viewer_ip?: string;
    };
    query_string: string;
    ratio_info: {
      [field: string]: unknown;
      connection_induced_rebuffering_ratio: {
        [field: string]: unknown;
        max: number;
      };
      rebuffering_ratio: {
        [field: string]: unknown;
        max: number;
      };
    };
    annotations: {
      [field: string]: unknown;
      cause: string;
      value: string;
    }[];
  };
}

/** The sessions dimension lookup response (spec 2.5, 4.5). */
export interface SessionDimensionList {
  [field: string]: unknown;
  dimensions: {
    [field: string]: unknown;
    name: string;
    query_filter: string;
    is_custom: boolean;
  }[];
}

/**
* The discovery endpoint's answer (spec 4.5): the resource paths available to the account with a
* description and prerequisites. Its shape is not shown; this is the emulator's choice.
*/
export interface DiscoveryList {
  resources: {
    [field: string]: unknown;
    path: string;
    description: string;
    prerequisite: string;
    available: boolean;
  }[];
}
