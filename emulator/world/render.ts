import type { SessionBody as Session } from "../contract/sessions";
import { wireTimestamp as timestampOf } from "../text/wire";
import { asnDescription, countryName, STATES } from "./catalog";
import type { SessionRecord } from "./types";

/**
 * The wire object of a session (spec 2.2) from its record, as it stands at `nowMs`. Choices where
 * the spec says "not shown":
 * - `ended_status` is "ended", "failed" (a start or playback failure) or "exit_before_video_start",
 *   present only once the session has ended; `errors` holds the error codes as strings.
 * - An ongoing session has no end timestamp, lifetime values so far (its share of the whole), and
 *   no failure or exit yet: those happen at its end.
 * - `svc_session_id` is client_id and session_id joined with nothing between them.
 * - Ad sessions have the shared categories plus `ad_info` (the ad's creative, advertiser and
 *   placement); their `content_info` keeps the content asset (as the `asset` filter does) with the
 *   ad's planned length and the creative's URL.
 */

/** What the account may see. */
export interface RenderOptions {
  /** Viewer-module access: `viewer_id` is present only then (spec 2.2). */
  viewerModule: boolean;
}

/** The keys of `tags.selected_dimensions` (spec 2.2). */
export const SELECTED_DIMENSION_KEYS = [
  "ad_creative_id", "ad_id", "ad_media_file_api_framework", "ad_planned_duration", "ad_position", "ad_sequence",
  "ad_system", "ad_technology", "app_version", "browser_name", "browser_version", "content_category",
  "content_meta_channel", "content_meta_show_title", "content_session_id", "device_hardware_type",
  "device_manufacturer", "device_marketing_name", "device_model", "device_name", "device_os", "device_os_family",
  "device_os_version", "platform_version", "player_framework_name", "player_framework_version", "player_name",
  "video_asset_name",
] as const;

const STATE_CODES = new Map(STATES.map((state) => [`${state.countryCode}:${state.name}`, state.code]));

function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0;
}

/** The ended status of an ended session. */
function endedStatus(record: SessionRecord): string {
  if (record.exitBeforeVideoStart) return "exit_before_video_start";
  if (record.videoStartFailure || record.videoPlaybackFailure) return "failed";
  return "ended";
}

/** Renders a session record as the spec 2.2 object at `nowMs`. */
export function renderSession(record: SessionRecord, nowMs: number, options: RenderOptions): Session {
  const dimensions = record.dimensions;
  const value = (key: string) => dimensions[key] ?? "";
  const ended = record.endMs <= nowMs;
  const share = ended ? 1 : Math.min(1, Math.max(0, (nowMs - record.startMs) / Math.max(1, record.endMs - record.startMs)));
  const started = record.videoStartTimeMs >= 0 && nowMs - record.startMs >= record.videoStartTimeMs;
  const playing = Math.round(record.playingTimeMs * share);
  const rebuffering = Math.round(record.rebufferingTimeMs * share);
  const connectionInduced = Math.round(record.connectionInducedRebufferingTimeMs * share);
  const paused = Math.round(record.pausedTimeMs * share);
  const failure = ended ? record : undefined;
  const countryCode = value("geo_country_code");
  const asn = value("asn");
  const selected = Object.fromEntries(
    SELECTED_DIMENSION_KEYS.map((key) => [
      key,
      key === "content_session_id" ? record.contentSessionId ?? record.sessionId : value(key),
    ]),
  );
  const session: Session = {
    svc_session_id: record.clientId + record.sessionId,
    client_id: record.clientId,
    session_id: record.sessionId,
    ...(options.viewerModule ? { viewer_id: record.viewerId } : {}),
    timestamps: { start: timestampOf(record.startMs), ...(ended ? { end: timestampOf(record.endMs) } : {}) },
    status_info: {
      is_ended: ended,
      ...(ended ? { ended_status: endedStatus(record) } : {}),
      is_exit_before_video_start: Boolean(failure?.exitBeforeVideoStart),
      is_video_start_failure: failure?.videoStartFailure !== undefined,
      is_video_start_failure_business: failure?.videoStartFailure === "business",
      is_video_start_failure_tech: failure?.videoStartFailure === "tech",
      is_video_playback_failure: failure?.videoPlaybackFailure !== undefined,
      is_video_playback_failure_business: failure?.videoPlaybackFailure === "business",
      is_video_playback_failure_tech: failure?.videoPlaybackFailure === "tech",
      errors: failure?.errorCode === undefined ? [] : [failure.errorCode],
    },
    lifetime_metrics: {
      average_framerate_fps: started ? record.averageFramerateFps : 0,
      average_peak_bitrate_bps: started ? Math.round(record.averageBitrateBps * 1.18) : 0,
      average_percentage_complete: Math.round(record.percentageComplete * share * 100) / 100,
      bitrate_switches_count: Math.floor(record.bitrateSwitches * share),
      connection_induced_rebuffering_ratio_percent: percent(connectionInduced, playing + rebuffering),
      connection_induced_rebuffering_time_ms: connectionInduced,
      last_play_head_time_ms: started ? playing : -1,
      playing_time_ms: playing,
      paused_ratio_percent: percent(paused, playing + paused),
      paused_time_ms: paused,
      rebuffering_ratio_percent: percent(rebuffering, playing + rebuffering),
      rebuffering_time_ms: rebuffering,
      video_restart_time_ms: record.videoRestartTimeMs,
      video_start_time_ms: started ? record.videoStartTimeMs : -1,
    },
    content_info: {
      asset: value("asset"),
      category: value("content_category"),
      length_ms: record.contentLengthMs,
      stream_url: record.kind === "ad"
        ? `https://ads.streamco.example/creatives/${value("ad_creative_id")}/${value("ad_video_asset_name")}`
        : `https://${value("stream_host")}/${value("content_meta_id")}/master.m3u8`,
    },
    device_info: {
      browser: { name: value("browser_name"), version: value("browser_version") },
      name: value("device_name"),
      os: value("device_os"),
      os_family: value("device_os_family"),
      os_version: value("device_os_version"),
    },
    geo_info: {
      city: value("geo_city_name"),
      state: { name: value("geo_state_name"), code: STATE_CODES.get(`${countryCode}:${value("geo_state_name")}`) ?? "" },
      country: { name: countryName(countryCode) ?? countryCode, code: countryCode },
      continent: value("geo_continent_name"),
      postal_code: value("geo_postal_code"),
      dma: value("geo_dma"),
    },
    network_info: {
      asn: { value: asn, description: asnDescription(asn) ?? "" },
      cdn: [value("cdn")],
      ip: record.ip,
      ipv6: record.ipv6,
      isp: value("isp"),
      last_cdn_edge_server: value("cdn_edge_server"),
      last_cdn_group_id: value("cdn_edge_group"),
    },
    tags: { selected_dimensions: selected, custom_tags: { ...record.customTags } },
  };
  if (record.kind === "ad") session["ad_info"] = adInfo(value, record);
  return session;
}

function adInfo(value: (key: string) => string, record: SessionRecord): Record<string, unknown> {
  return {
    ad_id: value("ad_id"),
    creative_id: value("ad_creative_id"),
    creative_name: value("ad_creative_name"),
    advertiser: value("advertiser"),
    campaign: value("ad_campaign_name"),
    position: value("ad_position"),
    break_id: value("ad_break_id"),
    sequence: Number(value("ad_sequence")),
    system: value("ad_system"),
    technology: value("ad_technology"),
    is_slate: value("ad_is_slate") === "true",
    planned_duration_ms: record.contentLengthMs,
    content_session_id: record.contentSessionId ?? "",
  };
}
