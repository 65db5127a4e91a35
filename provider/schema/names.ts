/**
 * The closed vocabularies of the Insights API: metric names, dimension names, filter names and
 * saved-filter field names. Both the client (to validate before sending) and the emulator (to
 * answer 4xx like the service) read these lists, so they are written once, here. The per-call caps
 * of spec 8 at the end are the client's and the provider's: the emulator checks its own copies, as
 * an independent oracle.
 */

/**
 * Metric names in path form (kebab-case), spec section 4.6, and `ad-plays`, a metric of the real
 * service that the spec's list omits (docs/api.md 10.4).
 */
export const METRIC_NAMES = [
  "abandonment", "abandonment-with-pre-roll", "abandonment-without-pre-roll", "ad-actual-duration",
  "ad-attempts", "ad-bitrate", "ad-completed-creative-plays", "ad-concurrent-plays",
  "ad-connection-induced-rebuffering-ratio", "ad-ended-plays", "ad-framerate", "ad-impressions",
  "ad-minutes-played", "ad-percentage-complete", "ad-plays", "ad-rebuffering-ratio", "ad-slate-duration",
  "ad-slate-plays", "ad-unique-devices", "ad-video-playback-failures", "ad-video-restart-time",
  "ad-video-start-failures", "ad-video-start-time", "ads-not-started", "attempts",
  "attempts-with-pre-roll", "attempts-without-pre-roll", "bad-session",
  "bad-session-average-life-playing-time-mins", "bad-unique-devices", "bad-unique-viewers", "bitrate",
  "cir-related-exits", "concurrent-plays", "connection-induced-rebuffering-ratio", "ended-plays",
  "ended-plays-with-ads", "ended-plays-without-ads", "exits-before-ad-start", "exits-before-video-start",
  "exits-during-pre-roll", "framerate", "good-session", "good-session-average-life-playing-time-mins",
  "good-unique-devices", "good-unique-viewers", "high-rebuffering", "high-rebuffering-with-ads",
  "high-rebuffering-without-ads", "high-startup-time", "high-startup-time-with-pre-roll",
  "high-startup-time-without-pre-roll", "interval-minutes-played", "low-bitrate", "low-bitrate-with-ads",
  "low-bitrate-without-ads", "minutes-played", "non-zero-cirr-ended-plays", "pause-ratio", "paused-time",
  "percentage-complete", "plays", "rebuffering-ratio", "spi-streams", "spi-unique-devices",
  "spi-unique-viewers", "streaming-performance-index", "unique-devices", "unique-devices-with-attempts",
  "video-playback-failures", "video-playback-failures-business", "video-playback-failures-tech",
  "video-playback-failures-tech-with-ads", "video-playback-failures-tech-without-ads", "video-restart-time",
  "video-start-failures", "video-start-failures-business", "video-start-failures-tech",
  "video-start-failures-tech-with-pre-roll", "video-start-failures-tech-without-pre-roll",
  "video-start-time", "zero-cirr-ended-plays",
] as const;

/** A metric name of spec section 4.6. */
export type MetricName = (typeof METRIC_NAMES)[number];

/**
 * Older metric names that public integrations still send (docs/api.md 10.4),
 * mapped to the member name the service answers under.
 */
export const METRIC_ALIASES = { "exit-before-video-starts": "exit_before_video_starts" } as const;

/**
 * The metric group used by real-time integrations (docs/api.md 10.4): one request, several members.
 * The spec shows it only in an example; its members here are the emulator's choice.
 */
export const QUALITY_SUMMARY = "quality-summary";
/** Members answered for {@link QUALITY_SUMMARY}. */
export const QUALITY_SUMMARY_MEMBERS = [
  "attempts", "plays", "video-start-failures", "exits-before-video-start", "video-playback-failures",
  "rebuffering-ratio", "bitrate", "video-start-time", "concurrent-plays",
] as const satisfies readonly MetricName[];

/** The metrics answered for a requested one: the members of {@link QUALITY_SUMMARY}, else the metric itself. */
export function answeredMetrics(metric: string): readonly string[] {
  return metric === QUALITY_SUMMARY ? QUALITY_SUMMARY_MEMBERS : [metric];
}

/** Every name accepted in a metric path: the spec's list, the alias and the metric group. */
export const ACCEPTED_METRIC_PATH_NAMES: readonly string[] = [
  ...METRIC_NAMES, ...Object.keys(METRIC_ALIASES), QUALITY_SUMMARY,
];

/** The member name of a metric in a response: hyphens become underscores (spec 2.4). */
export function metricMemberName(metric: string): string {
  return (METRIC_ALIASES as Record<string, string>)[metric] ?? metric.replace(/-/g, "_");
}

/** The value fields of a metric's member object (docs/api.md 10.4). */
export type ValueField =
  | "count" | "percentage" | "value" | "ratio" | "bps" | "fps" | "per_unique_device" | "per_ended_play";

const COUNT = ["count"] as const;
const COUNT_PERCENTAGE = ["count", "percentage"] as const;
const VALUE = ["value"] as const;
const RATIO = ["ratio"] as const;
const PERCENTAGE = ["percentage"] as const;
const ENDED = ["count", "per_unique_device"] as const;
const MINUTES = ["count", "per_unique_device", "per_ended_play"] as const;

/**
 * Value fields per metric. docs/api.md 10.4 names most metrics; the rest follow the family they belong to
 * (a "-with-ads" variant has the fields of its base metric, an ad- metric those of its content twin).
 */
const VALUE_FIELDS_BY_METRIC = {
  "abandonment": COUNT_PERCENTAGE, "abandonment-with-pre-roll": COUNT_PERCENTAGE,
  "abandonment-without-pre-roll": COUNT_PERCENTAGE, "ad-actual-duration": VALUE, "ad-attempts": COUNT,
  "ad-bitrate": ["bps"], "ad-completed-creative-plays": VALUE, "ad-concurrent-plays": COUNT,
  "ad-connection-induced-rebuffering-ratio": RATIO, "ad-ended-plays": ENDED, "ad-framerate": ["fps"],
  "ad-impressions": COUNT, "ad-minutes-played": MINUTES, "ad-percentage-complete": PERCENTAGE, "ad-plays": COUNT_PERCENTAGE,
  "ad-rebuffering-ratio": RATIO, "ad-slate-duration": VALUE, "ad-slate-plays": COUNT_PERCENTAGE,
  "ad-unique-devices": COUNT, "ad-video-playback-failures": COUNT_PERCENTAGE, "ad-video-restart-time": VALUE,
  "ad-video-start-failures": COUNT_PERCENTAGE, "ad-video-start-time": VALUE, "ads-not-started": COUNT_PERCENTAGE,
  "attempts": COUNT, "attempts-with-pre-roll": COUNT_PERCENTAGE, "attempts-without-pre-roll": COUNT_PERCENTAGE,
  "bad-session": COUNT_PERCENTAGE, "bad-session-average-life-playing-time-mins": VALUE,
  "bad-unique-devices": COUNT_PERCENTAGE, "bad-unique-viewers": COUNT_PERCENTAGE, "bitrate": ["bps"],
  "cir-related-exits": COUNT_PERCENTAGE, "concurrent-plays": COUNT, "connection-induced-rebuffering-ratio": RATIO,
  "ended-plays": ENDED, "ended-plays-with-ads": COUNT_PERCENTAGE, "ended-plays-without-ads": COUNT_PERCENTAGE,
  "exits-before-ad-start": COUNT_PERCENTAGE, "exits-before-video-start": COUNT_PERCENTAGE,
  "exits-during-pre-roll": COUNT_PERCENTAGE, "framerate": ["fps"], "good-session": COUNT,
  "good-session-average-life-playing-time-mins": VALUE, "good-unique-devices": COUNT,
  "good-unique-viewers": COUNT, "high-rebuffering": COUNT_PERCENTAGE, "high-rebuffering-with-ads": COUNT_PERCENTAGE,
  "high-rebuffering-without-ads": COUNT_PERCENTAGE, "high-startup-time": COUNT_PERCENTAGE,
  "high-startup-time-with-pre-roll": COUNT_PERCENTAGE, "high-startup-time-without-pre-roll": COUNT_PERCENTAGE,
  "interval-minutes-played": COUNT, "low-bitrate": COUNT_PERCENTAGE, "low-bitrate-with-ads": COUNT_PERCENTAGE,
  "low-bitrate-without-ads": COUNT_PERCENTAGE, "minutes-played": MINUTES,
  "non-zero-cirr-ended-plays": COUNT_PERCENTAGE, "pause-ratio": RATIO, "paused-time": VALUE,
  "percentage-complete": PERCENTAGE, "plays": COUNT_PERCENTAGE, "rebuffering-ratio": RATIO, "spi-streams": COUNT,
  "spi-unique-devices": COUNT, "spi-unique-viewers": COUNT, "streaming-performance-index": VALUE,
  "unique-devices": COUNT, "unique-devices-with-attempts": COUNT, "video-playback-failures": COUNT_PERCENTAGE,
  "video-playback-failures-business": COUNT_PERCENTAGE, "video-playback-failures-tech": COUNT_PERCENTAGE,
  "video-playback-failures-tech-with-ads": COUNT_PERCENTAGE,
  "video-playback-failures-tech-without-ads": COUNT_PERCENTAGE, "video-restart-time": VALUE,
  "video-start-failures": COUNT_PERCENTAGE, "video-start-failures-business": COUNT_PERCENTAGE,
  "video-start-failures-tech": COUNT_PERCENTAGE, "video-start-failures-tech-with-pre-roll": COUNT_PERCENTAGE,
  "video-start-failures-tech-without-pre-roll": COUNT_PERCENTAGE, "video-start-time": VALUE,
  "zero-cirr-ended-plays": COUNT_PERCENTAGE,
} as const satisfies Record<MetricName, readonly ValueField[]>;

/** The value fields of each metric as types: `MetricValueFields["plays"]` is `readonly ["count", "percentage"]`. */
export type MetricValueFields = typeof VALUE_FIELDS_BY_METRIC;

/** Value fields per metric (see {@link MetricValueFields} for the per-metric types). */
export const METRIC_VALUE_FIELDS: Record<MetricName, readonly ValueField[]> = VALUE_FIELDS_BY_METRIC;

/** Predefined group-by dimensions in path form (kebab-case), spec section 4.7. */
export const GROUP_BY_DIMENSIONS = [
  "ad-break-id", "ad-break-index", "ad-campaign-name", "ad-category", "ad-creative-id", "ad-creative-name",
  "ad-creative-type", "ad-day-part", "ad-deal-id", "ad-fallback-index", "ad-first-ad-id", "ad-first-ad-system",
  "ad-first-creative-id", "ad-id", "ad-is-slate", "ad-manager-name", "ad-manager-version",
  "ad-media-file-api-framework", "ad-planned-duration", "ad-position", "ad-sequence", "ad-session-start-event",
  "ad-stitcher", "ad-system", "ad-technology", "ad-type", "ad-unit-name", "ad-video-asset-name", "advertiser",
  "advertiser-category", "advertiser-id", "advertiser-name", "app-version", "asn", "asset", "asset-type",
  "browser-name", "browser-version", "cdn", "cdn-edge-group", "cdn-edge-server", "connection-type",
  "content-category", "content-meta-affiliate", "content-meta-brand", "content-meta-category-type",
  "content-meta-channel", "content-meta-content-type", "content-meta-episode-number", "content-meta-genre",
  "content-meta-genre-list", "content-meta-id", "content-meta-name", "content-meta-season-number",
  "content-meta-series-name", "content-meta-show-title", "svc-core-sdk-version", "customer", "device-category",
  "device-hardware-type", "device-manufacturer", "device-marketing-name", "device-model", "device-name",
  "device-os", "device-os-family", "device-os-version", "geo-city-name", "geo-continent-name",
  "geo-country-code", "geo-dma", "geo-postal-code", "geo-state-name", "is-ad-requested", "isp",
  "network-connection-type", "platform", "platform-version", "player-name", "player-framework-name",
  "player-framework-version", "precision-algo-id", "precision-cdn", "precision-rs", "preroll-status",
  "stream-host", "user-agent", "utm-tracking-code", "video-asset-name",
] as const;

/** A predefined group-by dimension (kebab-case). */
export type GroupByDimension = (typeof GROUP_BY_DIMENSIONS)[number];

/** Error-code group-by dimensions and the one metric each is valid with (spec 4.7). */
export const ERROR_CODE_DIMENSIONS = {
  "video-playback-failure-error": "video-playback-failures",
  "video-playback-failure-business-error": "video-playback-failures-business",
  "video-playback-failure-tech-error": "video-playback-failures-tech",
  "video-start-failure-error": "video-start-failures",
  "video-start-failure-business-error": "video-start-failures-business",
  "video-start-failure-tech-error": "video-start-failures-tech",
  "ad-video-start-failure-error": "ad-video-start-failures",
  "ad-video-playback-failure-error": "ad-video-playback-failures",
} as const satisfies Record<string, MetricName>;

/** An error-code group-by dimension. */
export type ErrorCodeDimension = keyof typeof ERROR_CODE_DIMENSIONS;

/** The six error-code filters of metrics and sample sessions (spec 4.7). */
export const ERROR_FILTER_NAMES = [
  "video_playback_failure_business_error", "video_playback_failure_error", "video_playback_failure_tech_error",
  "video_start_failure_business_error", "video_start_failure_error", "video_start_failure_tech_error",
] as const;

/** Metric filter names (snake_case query keys), spec 4.7: every group-by name in snake case plus the error filters. */
export const METRIC_FILTER_NAMES: readonly string[] = [
  ...GROUP_BY_DIMENSIONS.map((name) => name.replace(/-/g, "_")),
  ...ERROR_FILTER_NAMES,
];

/** Sample-session dimension filter names (spec 4.7). */
export const SESSION_DIMENSION_FILTER_NAMES = [
  "app_version", "asn", "asset", "asset_type", "browser_name", "browser_version", "cdn", "cdn_edge_group",
  "cdn_edge_server", "connection_type", "content_category", "content_meta_affiliate", "content_meta_brand",
  "content_meta_category_type", "content_meta_channel", "content_meta_content_type",
  "content_meta_episode_number", "content_meta_genre", "content_meta_genre_list", "content_meta_id",
  "content_meta_name", "content_meta_season_number", "content_meta_series_name", "content_meta_show_title",
  "svc_core_sdk_version", "customer", "device_category", "device_hardware_type", "device_manufacturer",
  "device_marketing_name", "device_model", "device_name", "device_os", "device_os_family", "device_os_version",
  "geo_city_name", "geo_continent_name", "geo_country_code", "geo_dma", "geo_postal_code", "geo_state_name",
  "is_ad_requested", "isp", "network_connection_type", "platform", "platform_version", "player_name",
  "player_framework_name", "player_framework_version", "precision_algo_id", "precision_cdn", "precision_rs",
  "preroll_status", "stream_host", "user_agent", "utm_tracking_code", "video_asset_name",
  "client_id", "session_id",
] as const;

/** Boolean sample-session filters (spec 4.7): values `true` or `false`. */
export const SESSION_BOOLEAN_FILTER_NAMES = [
  "is_ad_requested", "is_exit_before_video_start", "is_exit_during_preroll", "is_video_playback_failure",
  "is_video_playback_failure_business", "is_video_playback_failure_tech", "is_video_start_failure",
  "is_video_start_failure_business", "is_video_start_failure_tech",
] as const;

/** Every sample-session filter name (dimensions, booleans and error filters). */
export const SESSION_FILTER_NAMES: readonly string[] = [
  ...new Set<string>([...SESSION_DIMENSION_FILTER_NAMES, ...SESSION_BOOLEAN_FILTER_NAMES, ...ERROR_FILTER_NAMES]),
];

/** Saved-filter rule field names (spec 2.7), the values of `GET /bulk_filters/fields`. */
export const FILTER_FIELDS = [
  "ASN", "Asset Name", "Browser Name", "Browser Version", "CDN", "City", "Client ID", "Continent", "Country",
  "Customer", "DMA", "Device Hardware Type", "Device Manufacturer", "Device Marketing Name", "Device Model",
  "Device Name", "Device Operating System", "Device Operating System Family", "Device Operating System Version",
  "ISP", "Content Category", "Player Framework Name", "Player Framework Version", "Player Name", "Postal Code",
  "Resource", "State", "Tag",
] as const;

/** A saved-filter rule field name. */
export type FilterField = (typeof FILTER_FIELDS)[number];

/**
 * Fields that accept only pre-set values (spec 2.7 names ASN and country; the others are the fields
 * that have a lookup endpoint in spec 4.8), mapped to that lookup's path segment. Tag checks its `key`
 * against the `tags` lookup instead.
 */
export const PRESET_VALUE_FIELDS = {
  ASN: "asn", City: "cities", Continent: "continents", Country: "countries", DMA: "dma", ISP: "isp",
  State: "states",
} as const satisfies Partial<Record<FilterField, string>>;

/** Lookup endpoints of `/bulk_filters/{lookup}/` that take `pattern` (spec 4.8). */
export const FILTER_LOOKUPS = [
  "asn", "categories", "cities", "continents", "countries", "dma", "fields", "isp", "states", "tags",
] as const;

/** A saved-filter lookup name. */
export type FilterLookup = (typeof FILTER_LOOKUPS)[number] | "subcategories";

/** Rule group operators (spec 2.7). */
export const RULE_GROUP_OPS = ["and", "or"] as const;
/** Rule leaf operators: the spec's two plus `equals`, seen in real use (docs/api.md 10.2). */
export const RULE_LEAF_OPS = ["contains", "not_contains", "equals"] as const;

/** AI-alert metrics of content alerts (spec 4.9). */
export const CONTENT_ALERT_METRICS = ["BUFFERINGRATIO", "EBVS", "PCP", "VPF", "VSF", "VST"] as const;
/** AI-alert metrics of ad alerts (spec 4.9). */
export const AD_ALERT_METRICS = ["BITRATE", "BUFFERINGRATIO", "VSF"] as const;
/** Alert severities (spec 2.8), in rising order. */
export const ALERT_SEVERITIES = ["info", "warning", "critical"] as const;
/** Alert statuses (spec 2.8). */
export const ALERT_STATUSES = ["active", "ended"] as const;

/** PII opt-out request statuses (spec 3.1), in order. */
export const PII_STATUSES = ["ENQUEUED", "STARTED", "FINISHED"] as const;

/** Spec 4.8, 8: at most 100 saved filters per bulk-filter call. */
export const FILTERS_PER_CALL = 100;
/** Spec 4.10, 8: at most 100 identifiers per PII opt-out request. */
export const PII_IDENTIFIERS_PER_REQUEST = 100;
