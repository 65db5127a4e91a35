/**
 * Values written out from the spec, so that tests compare what the emulator and the client answer
 * with the contract rather than with the constants the code itself serves (provider/schema/names.ts).
 */

/** The filter field names of spec 2.7 (the values of the `fields` lookup, spec 4.8), in the spec's order. */
export const SPEC_FILTER_FIELDS = [
  "ASN", "Asset Name", "Browser Name", "Browser Version", "CDN", "City", "Client ID", "Continent", "Country",
  "Customer", "DMA", "Device Hardware Type", "Device Manufacturer", "Device Marketing Name", "Device Model",
  "Device Name", "Device Operating System", "Device Operating System Family", "Device Operating System Version",
  "ISP", "Content Category", "Player Framework Name", "Player Framework Version", "Player Name", "Postal Code",
  "Resource", "State", "Tag",
];

/** The names of a comma-separated list as the contract writes it. */
function contractList(text: string): string[] {
  return text.split(",").map((name) => name.trim()).filter((name) => name.length > 0);
}

/** The metric names of spec 4.6 (path form), in the contract's order. */
export const SPEC_METRIC_NAMES = contractList(`
  abandonment, abandonment-with-pre-roll, abandonment-without-pre-roll, ad-actual-duration,
  ad-attempts, ad-bitrate, ad-completed-creative-plays, ad-concurrent-plays,
  ad-connection-induced-rebuffering-ratio, ad-ended-plays, ad-framerate, ad-impressions,
  ad-minutes-played, ad-percentage-complete, ad-rebuffering-ratio, ad-slate-duration, ad-slate-plays,
  ad-unique-devices, ad-video-playback-failures, ad-video-restart-time, ad-video-start-failures,
  ad-video-start-time, ads-not-started, attempts, attempts-with-pre-roll, attempts-without-pre-roll,
  bad-session, bad-session-average-life-playing-time-mins, bad-unique-devices, bad-unique-viewers,
  bitrate, cir-related-exits, concurrent-plays, connection-induced-rebuffering-ratio, ended-plays,
  ended-plays-with-ads, ended-plays-without-ads, exits-before-ad-start, exits-before-video-start,
  exits-during-pre-roll, framerate, good-session, good-session-average-life-playing-time-mins,
  good-unique-devices, good-unique-viewers, high-rebuffering, high-rebuffering-with-ads,
  high-rebuffering-without-ads, high-startup-time, high-startup-time-with-pre-roll,
  high-startup-time-without-pre-roll, interval-minutes-played, low-bitrate, low-bitrate-with-ads,
  low-bitrate-without-ads, minutes-played, non-zero-cirr-ended-plays, pause-ratio, paused-time,
  percentage-complete, plays, rebuffering-ratio, spi-streams, spi-unique-devices, spi-unique-viewers,
  streaming-performance-index, unique-devices, unique-devices-with-attempts, video-playback-failures,
  video-playback-failures-business, video-playback-failures-tech,
  video-playback-failures-tech-with-ads, video-playback-failures-tech-without-ads, video-restart-time,
  video-start-failures, video-start-failures-business, video-start-failures-tech,
  video-start-failures-tech-with-pre-roll, video-start-failures-tech-without-pre-roll,
  video-start-time, zero-cirr-ended-plays
`);

/** The group-by dimension names of spec 4.7 (kebab-case), in the contract's order. */
export const SPEC_GROUP_BY_DIMENSIONS = contractList(`
  ad-break-id, ad-break-index, ad-campaign-name, ad-category, ad-creative-id, ad-creative-name,
  ad-creative-type, ad-day-part, ad-deal-id, ad-fallback-index, ad-first-ad-id, ad-first-ad-system,
  ad-first-creative-id, ad-id, ad-is-slate, ad-manager-name, ad-manager-version,
  ad-media-file-api-framework, ad-planned-duration, ad-position, ad-sequence, ad-session-start-event,
  ad-stitcher, ad-system, ad-technology, ad-type, ad-unit-name, ad-video-asset-name, advertiser,
  advertiser-category, advertiser-id, advertiser-name, app-version, asn, asset, asset-type,
  browser-name, browser-version, cdn, cdn-edge-group, cdn-edge-server, connection-type,
  content-category, content-meta-affiliate, content-meta-brand, content-meta-category-type,
  content-meta-channel, content-meta-content-type, content-meta-episode-number, content-meta-genre,
  content-meta-genre-list, content-meta-id, content-meta-name, content-meta-season-number,
  content-meta-series-name, content-meta-show-title, svc-core-sdk-version, customer, device-category,
  device-hardware-type, device-manufacturer, device-marketing-name, device-model, device-name,
  device-os, device-os-family, device-os-version, geo-city-name, geo-continent-name, geo-country-code,
  geo-dma, geo-postal-code, geo-state-name, is-ad-requested, isp, network-connection-type, platform,
  platform-version, player-name, player-framework-name, player-framework-version, precision-algo-id,
  precision-cdn, precision-rs, preroll-status, stream-host, user-agent, utm-tracking-code,
  video-asset-name
`);

/** The error-code group-by dimensions of spec 4.7 and the one metric each is valid with. */
export const SPEC_ERROR_CODE_DIMENSIONS: Readonly<Record<string, string>> = Object.fromEntries([
  ["video-playback-failure-error", "video-playback-failures"],
  ["video-playback-failure-business-error", "video-playback-failures-business"],
  ["video-playback-failure-tech-error", "video-playback-failures-tech"],
  ["video-start-failure-error", "video-start-failures"],
  ["video-start-failure-business-error", "video-start-failures-business"],
  ["video-start-failure-tech-error", "video-start-failures-tech"],
  ["ad-video-start-failure-error", "ad-video-start-failures"],
  ["ad-video-playback-failure-error", "ad-video-playback-failures"],
]);

/** The six error filters of spec 4.7 (metrics and sample sessions). */
export const SPEC_ERROR_FILTERS = contractList(`
  video_playback_failure_business_error, video_playback_failure_error,
  video_playback_failure_tech_error, video_start_failure_business_error, video_start_failure_error,
  video_start_failure_tech_error
`);

/**
 * The sample-session dimension filter names of spec 4.7. The contract lists them apart; they are its
 * group-by names without the ad and advertiser ones, in snake case, in the same order.
 */
export const SPEC_SAMPLE_SESSION_DIMENSION_FILTERS = SPEC_GROUP_BY_DIMENSIONS
  .filter((name) => !name.startsWith("ad-") && !name.startsWith("advertiser"))
  .map((name) => name.replace(/-/g, "_"));

/** The other sample-session filters of spec 4.7: the two identifiers and the booleans (`true` or `false`). */
export const SPEC_SAMPLE_SESSION_OTHER_FILTERS = {
  identifiers: ["client_id", "session_id"],
  booleans: [
    "is_exit_before_video_start", "is_exit_during_preroll", "is_video_playback_failure",
    "is_video_playback_failure_business", "is_video_playback_failure_tech", "is_video_start_failure",
    "is_video_start_failure_business", "is_video_start_failure_tech",
  ],
} as const;

/** A metric of the real service that the contract's list leaves out (docs/api.md 10.4). */
export const FACT_EXTRA_METRIC = "ad-plays";

/**
 * The value fields of the metrics docs/api.md 10.4 names, by response member (snake_case). Metrics
 * it does not name are not here: their fields are each side's own reading (a family's fields).
 */
export const FACT_VALUE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(
    ["attempts", "concurrent_plays", "unique_devices", "spi_streams", "spi_unique_devices", "spi_unique_viewers",
      "good_session", "interval_minutes_played", "ad_attempts", "ad_concurrent_plays", "ad_unique_devices"]
      .map((member) => [member, ["count"]]),
  ),
  ...Object.fromEntries(
    ["video_start_time", "video_restart_time", "streaming_performance_index", "ad_actual_duration",
      "ad_completed_creative_plays", "bad_session_average_life_playing_time_mins",
      "good_session_average_life_playing_time_mins"].map((member) => [member, ["value"]]),
  ),
  ...Object.fromEntries(
    ["plays", "ad_plays", "video_start_failures", "video_start_failures_business", "video_start_failures_tech",
      "video_playback_failures", "video_playback_failures_business", "video_playback_failures_tech",
      "exits_before_video_start", "abandonment", "bad_session", "high_rebuffering", "high_startup_time", "low_bitrate",
      "exits_before_ad_start", "attempts_with_pre_roll", "attempts_without_pre_roll", "bad_unique_devices",
      "bad_unique_viewers", "ended_plays_with_ads", "ended_plays_without_ads"].map((member) => [member, ["count", "percentage"]]),
  ),
  percentage_complete: ["percentage"],
  ad_percentage_complete: ["percentage"],
  rebuffering_ratio: ["ratio"],
  connection_induced_rebuffering_ratio: ["ratio"],
  bitrate: ["bps"],
  framerate: ["fps"],
  ended_plays: ["count", "per_unique_device"],
  minutes_played: ["count", "per_unique_device", "per_ended_play"],
};

/** The alert metrics of spec 4.9, the severities and statuses of spec 2.8, the PII statuses of spec 3.1. */
export const SPEC_ALERTS = {
  contentMetrics: ["VSF", "EBVS", "PCP", "VPF", "VST", "BUFFERINGRATIO"],
  adMetrics: ["BITRATE", "BUFFERINGRATIO", "VSF"],
  severities: ["info", "warning", "critical"],
  statuses: ["active", "ended"],
} as const;

/** The PII opt-out request statuses of spec 3.1, in order. */
export const SPEC_PII_STATUSES = ["ENQUEUED", "STARTED", "FINISHED"] as const;

/** The lookups of spec 4.8 under `/bulk_filters/{lookup}/` that take `pattern`. */
export const SPEC_FILTER_LOOKUPS = contractList("asn, categories, cities, continents, countries, dma, fields, isp, states, tags");

/** The limits of spec 8 both sides keep, and the result cap of docs/api.md 10.1. */
export const SPEC_LIMITS = { metricsPerSelection: 12, filtersPerCall: 100, identifiersPerRequest: 100, resultCap: 500 } as const;
