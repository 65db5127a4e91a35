import type { MetricName } from "./metrics";

/**
 * Dimension and filter names as the emulator reads the contract (docs/api.md 4.7). The client keeps
 * its own copy; test/emulator-contract-lists.test.ts compares both with values written out from the
 * contract.
 */

/** The predefined group-by dimensions (kebab-case, in the path), in the contract's order. */
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

/** The error-code group-by dimensions, each with the one metric it is valid with (docs/api.md 4.7). */
export const ERROR_CODE_DIMENSIONS: Readonly<Record<string, MetricName>> = {
  "video-playback-failure-error": "video-playback-failures",
  "video-playback-failure-business-error": "video-playback-failures-business",
  "video-playback-failure-tech-error": "video-playback-failures-tech",
  "video-start-failure-error": "video-start-failures",
  "video-start-failure-business-error": "video-start-failures-business",
  "video-start-failure-tech-error": "video-start-failures-tech",
  "ad-video-start-failure-error": "ad-video-start-failures",
  "ad-video-playback-failure-error": "ad-video-playback-failures",
};

/** The six error filters of metrics and sample sessions (docs/api.md 4.7, snake_case). */
export const ERROR_FILTER_NAMES = [
  "video_playback_failure_business_error", "video_playback_failure_error", "video_playback_failure_tech_error",
  "video_start_failure_business_error", "video_start_failure_error", "video_start_failure_tech_error",
] as const;

/** The metric filter names: every group-by name in snake_case, and the error filters (docs/api.md 4.7). */
export const METRIC_FILTER_NAMES: readonly string[] = [
  ...GROUP_BY_DIMENSIONS.map((name) => name.split("-").join("_")),
  ...ERROR_FILTER_NAMES,
];

/**
 * The sample-session dimension filters (docs/api.md 4.7), in the contract's order, then client_id
 * and session_id. `is_ad_requested` is among them and a boolean too.
 */
export const SESSION_DIMENSION_FILTER_NAMES = [
  "app_version", "asn", "asset", "asset_type", "browser_name", "browser_version", "cdn", "cdn_edge_group",
  "cdn_edge_server", "connection_type", "content_category", "content_meta_affiliate", "content_meta_brand",
  "content_meta_category_type", "content_meta_channel", "content_meta_content_type", "content_meta_episode_number",
  "content_meta_genre", "content_meta_genre_list", "content_meta_id", "content_meta_name",
  "content_meta_season_number", "content_meta_series_name", "content_meta_show_title", "svc_core_sdk_version",
  "customer", "device_category", "device_hardware_type", "device_manufacturer", "device_marketing_name",
  "device_model", "device_name", "device_os", "device_os_family", "device_os_version", "geo_city_name",
  "geo_continent_name", "geo_country_code", "geo_dma", "geo_postal_code", "geo_state_name", "is_ad_requested", "isp",
  "network_connection_type", "platform", "platform_version", "player_name", "player_framework_name",
  "player_framework_version", "precision_algo_id", "precision_cdn", "precision_rs", "preroll_status", "stream_host",
  "user_agent", "utm_tracking_code", "video_asset_name", "client_id", "session_id",
] as const;

/** The boolean sample-session filters (docs/api.md 4.7): `true` or `false`. */
export const SESSION_BOOLEAN_FILTER_NAMES = [
  "is_ad_requested", "is_exit_before_video_start", "is_exit_during_preroll", "is_video_playback_failure",
  "is_video_playback_failure_business", "is_video_playback_failure_tech", "is_video_start_failure",
  "is_video_start_failure_business", "is_video_start_failure_tech",
] as const;

/** Every sample-session filter name, each once: dimensions, booleans, error filters. */
export const SESSION_FILTER_NAMES: readonly string[] = [
  ...new Set<string>([...SESSION_DIMENSION_FILTER_NAMES, ...SESSION_BOOLEAN_FILTER_NAMES, ...ERROR_FILTER_NAMES]),
];
