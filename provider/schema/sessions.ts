import { z } from "zod";
import type * as records from "./records";
import { listingOf } from "./assumptions";
import { Timestamp } from "./common";

/** @internal Session status (spec 2.2, `status_info`). */
export const SessionStatusInfo = z.looseObject({
  is_ended: z.boolean(),
  ended_status: z.string().optional(),
  is_exit_before_video_start: z.boolean(),
  is_video_start_failure: z.boolean(),
  is_video_start_failure_business: z.boolean(),
  is_video_start_failure_tech: z.boolean(),
  is_video_playback_failure: z.boolean(),
  is_video_playback_failure_business: z.boolean(),
  is_video_playback_failure_tech: z.boolean(),
  /** Error codes of the session; their item shape is not shown (spec 2.2), the emulator sends strings. */
  errors: z.array(z.unknown()),
});

/** @internal Lifetime metrics of a session (spec 2.2); numbers, negative values can occur. */
export const SessionLifetimeMetrics = z.looseObject({
  average_framerate_fps: z.number(),
  average_peak_bitrate_bps: z.number(),
  average_percentage_complete: z.number(),
  bitrate_switches_count: z.number(),
  connection_induced_rebuffering_ratio_percent: z.number(),
  connection_induced_rebuffering_time_ms: z.number(),
  last_play_head_time_ms: z.number(),
  playing_time_ms: z.number(),
  paused_ratio_percent: z.number(),
  paused_time_ms: z.number(),
  rebuffering_ratio_percent: z.number(),
  rebuffering_time_ms: z.number(),
  video_restart_time_ms: z.number(),
  video_start_time_ms: z.number(),
});

const NameCode = z.looseObject({ name: z.string(), code: z.string() });

/** @internal A session object (spec 2.2): one viewing stream of content or of an ad. */
export const Session = z.looseObject({
  svc_session_id: z.string(),
  client_id: z.string(),
  session_id: z.string(),
  /** Present only with viewer-module access; may be a redaction marker. */
  viewer_id: z.string().optional(),
  timestamps: z.looseObject({ start: Timestamp, end: Timestamp.optional() }),
  status_info: SessionStatusInfo,
  lifetime_metrics: SessionLifetimeMetrics,
  content_info: z.looseObject({
    asset: z.string(),
    category: z.string(),
    length_ms: z.number(),
    stream_url: z.string(),
  }),
  device_info: z.looseObject({
    browser: z.looseObject({ name: z.string(), version: z.string() }),
    name: z.string(),
    os: z.string(),
    os_family: z.string(),
    os_version: z.string(),
  }),
  geo_info: z.looseObject({
    city: z.string(),
    state: NameCode,
    country: NameCode,
    continent: z.string(),
    postal_code: z.string(),
    dma: z.string(),
  }),
  network_info: z.looseObject({
    asn: z.looseObject({ value: z.string(), description: z.string() }),
    cdn: z.array(z.string()),
    ip: z.string(),
    ipv6: z.string().nullable(),
    isp: z.string(),
    last_cdn_edge_server: z.string(),
    last_cdn_group_id: z.string(),
  }),
  tags: z.looseObject({
    selected_dimensions: z.record(z.string(), z.string()),
    custom_tags: z.record(z.string(), z.string()),
  }),
});
/** A {@link Session} after parsing. */
export type Session = records.Session;

/** @internal The session list response (spec 2.1). */
export const SessionList = z.looseObject({ sessions: z.array(Session) });
/** A {@link SessionList} after parsing. */
export type SessionList = records.SessionList;

const Count = z.looseObject({ count: z.number().int() });
const CountPercentage = z.looseObject({ count: z.number().int(), percentage: z.number() });
const Value = z.looseObject({ value: z.number() });
const Ratio = z.looseObject({ ratio: z.number() });
const Minutes = z.looseObject({ mins: z.number() });

/** @internal The viewer summary response (spec 2.3): totals over one viewer's sessions, no time series. */
export const ViewerSummary = z.looseObject({
  total: z.looseObject({
    bitrate: z.looseObject({ bps: z.number() }),
    connection_induced_rebuffering_ratio: Ratio,
    ended_plays_duration: z.looseObject({ mins: z.number(), per_ended_play: z.number(), per_unique_device: z.number() }),
    exit_before_video_starts: CountPercentage,
    good_streams: Count,
    good_streams_average_play_time: Minutes,
    impacted_streams: Count,
    impacted_streams_average_play_time: Minutes,
    plays: Count,
    rebuffering_ratio: Ratio,
    spi_streams: Count,
    streaming_performance_index: Value,
    unique_devices: Count,
    video_playback_failures: CountPercentage,
    video_playback_failures_business: CountPercentage,
    video_playback_failures_tech: CountPercentage,
    video_restart_time: Value,
    video_start_failures: CountPercentage,
    video_start_failures_business: CountPercentage,
    video_start_failures_tech: CountPercentage,
    video_start_time: Value,
  }),
  _meta: z.looseObject({
    queries: z.looseObject({
      viewer_id: z.string().optional(),
      viewer_ip: z.string().optional(),
      start_epoch_ms: z.number().int(),
      end_epoch_ms: z.number().int(),
    }),
    query_string: z.string(),
    ratio_info: z.looseObject({
      connection_induced_rebuffering_ratio: z.looseObject({ max: z.number() }),
      rebuffering_ratio: z.looseObject({ max: z.number() }),
    }),
    annotations: z.array(z.looseObject({ cause: z.string(), value: z.string() })),
  }),
});
/** A {@link ViewerSummary} after parsing. */
export type ViewerSummary = records.ViewerSummary;

/** @internal One entry of the sessions dimension lookup (spec 2.5). */
export const SessionDimension = z.looseObject({
  name: z.string(),
  query_filter: z.string(),
  is_custom: z.boolean(),
});
/** @internal The sessions dimension lookup response (spec 2.5, 4.5). */
export const SessionDimensionList = z.looseObject({ dimensions: z.array(SessionDimension) });
/** A {@link SessionDimensionList} after parsing. */
export type SessionDimensionList = records.SessionDimensionList;

/**
 * The discovery endpoint's answer (spec 4.5): the resource paths available to the account with a
 * description and prerequisites. Its shape is not shown; this is the emulator's choice.
 * @internal
 */
export const DiscoveryList = listingOf(
  z.looseObject({ path: z.string(), description: z.string(), prerequisite: z.string(), available: z.boolean() }),
  "resources",
);
/** A {@link DiscoveryList} after parsing. */
export type DiscoveryList = records.DiscoveryList;
