import { z } from "zod";
import type * as records from "./records";
import { listingOf } from "./assumptions";
import { Timestamp } from "./common";
import { membersOf } from "./meta";

/** @internal Session status (spec 2.2, `status_info`). */
export const SessionStatusInfo = z.looseObject({
  ...membersOf(z.boolean(), {
    is_ended: "Whether the session has ended.",
    is_exit_before_video_start: "Whether the viewer left before the video started.",
    is_video_start_failure: "Whether the video failed to start.",
    is_video_start_failure_business: "Whether it failed to start for a business reason.",
    is_video_start_failure_tech: "Whether it failed to start for a technical reason.",
    is_video_playback_failure: "Whether playback failed after the start.",
    is_video_playback_failure_business: "Whether playback failed for a business reason.",
    is_video_playback_failure_tech: "Whether playback failed for a technical reason.",
  }),
  ended_status: z.string().optional().describe("How it ended (values not shown, spec 2.2)."),
  errors: z.array(z.unknown()).describe("Error codes of the session; their item shape is not shown (spec 2.2), the emulator sends strings."),
});

/** @internal Lifetime metrics of a session (spec 2.2); numbers, negative values can occur. */
export const SessionLifetimeMetrics = z.looseObject(
  membersOf(z.number(), {
    average_framerate_fps: "Average frame rate, frames per second.",
    average_peak_bitrate_bps: "Average peak bitrate, bits per second.",
    average_percentage_complete: "How much of the content was played, percent.",
    bitrate_switches_count: "How many times the bitrate changed.",
    connection_induced_rebuffering_ratio_percent: "Rebuffering caused by the connection, percent of the time.",
    connection_induced_rebuffering_time_ms: "Rebuffering caused by the connection, milliseconds.",
    last_play_head_time_ms: "The last position of the play head, milliseconds.",
    playing_time_ms: "Time spent playing, milliseconds.",
    paused_ratio_percent: "Time paused, percent.",
    paused_time_ms: "Time paused, milliseconds.",
    rebuffering_ratio_percent: "Time rebuffering, percent.",
    rebuffering_time_ms: "Time rebuffering, milliseconds.",
    video_restart_time_ms: "Time to restart after seeking or rebuffering, milliseconds.",
    video_start_time_ms: "Time to start the video, milliseconds.",
  }),
);

/** A name and its code (a state, a country). */
const NameCode = z.looseObject(membersOf(z.string(), { name: "Its name.", code: "Its code." }));

/** @internal A session object (spec 2.2): one viewing stream of content or of an ad. */
export const Session = z
  .looseObject({
    svc_session_id: z.string().describe("The client id and the session id joined: unique across the account."),
    client_id: z.string().describe("The id of the viewer's client (player instance)."),
    session_id: z.string().describe("The session's id within its client."),
    viewer_id: z
      .string()
      .optional()
      .meta({ description: "The viewer's id: present only with viewer-module access; may be a redaction marker.", secret: true }),
    timestamps: z
      .looseObject({ start: Timestamp.describe("When the session started."), end: Timestamp.optional().describe("When it ended, once it has.") })
      .describe("When the session started and ended."),
    status_info: SessionStatusInfo.describe("How the session went: ended, exits and failures."),
    lifetime_metrics: SessionLifetimeMetrics.describe("Numbers over the whole session; values may be negative."),
    content_info: z
      .looseObject({
        ...membersOf(z.string(), { asset: "The asset (content) name.", category: "The content category.", stream_url: "The URL of the stream." }),
        length_ms: z.number().describe("The content's length, milliseconds."),
      })
      .describe("What was watched."),
    device_info: z
      .looseObject({
        browser: z.looseObject(membersOf(z.string(), { name: "The browser's name.", version: "Its version." })).describe("The browser."),
        ...membersOf(z.string(), {
          name: "The device's name.",
          os: "The operating system.",
          os_family: "The operating system's family.",
          os_version: "The operating system's version.",
        }),
      })
      .describe("The device it was watched on."),
    geo_info: z
      .looseObject({
        ...membersOf(z.string(), { city: "The city.", continent: "The continent.", postal_code: "The postal code.", dma: "The designated market area." }),
        state: NameCode.describe("The state or region."),
        country: NameCode.describe("The country."),
      })
      .describe("Where it was watched from."),
    network_info: z
      .looseObject({
        asn: z.looseObject(membersOf(z.string(), { value: "The ASN.", description: "Its owner." })).describe("The autonomous system."),
        cdn: z.array(z.string()).describe("The CDNs that served the session."),
        ip: z.string().meta({ description: "The viewer's IP address.", secret: true }),
        ipv6: z.string().nullable().meta({ description: "The viewer's IPv6 address, or null.", secret: true }),
        ...membersOf(z.string(), { isp: "The internet service provider.", last_cdn_edge_server: "The last CDN edge server.", last_cdn_group_id: "The last CDN group's id." }),
      })
      .describe("The network it came over."),
    tags: z
      .looseObject({
        selected_dimensions: z.record(z.string(), z.string()).describe("A fixed set of predefined dimensions, all strings."),
        custom_tags: z.record(z.string(), z.string()).describe("The account's own tags."),
      })
      .describe("The session's dimensions and custom tags."),
  })
  .describe("A session object (spec 2.2): one viewing stream of content or of an ad.");
/** A {@link Session} after parsing. */
export type Session = records.Session;

/** @internal The session list response (spec 2.1). */
export const SessionList = z.looseObject({ sessions: z.array(Session).describe("The sessions.") }).describe("The session list response (spec 2.1).");
/** A {@link SessionList} after parsing. */
export type SessionList = records.SessionList;

const Count = z.looseObject({ count: z.number().int().describe("How many.") });
const CountPercentage = z.looseObject({ count: z.number().int().describe("How many."), percentage: z.number().describe("Their share, percent.") });
const Value = z.looseObject({ value: z.number().describe("The value.") });
const Ratio = z.looseObject({ ratio: z.number().describe("The ratio.") });
const Minutes = z.looseObject({ mins: z.number().describe("Minutes.") });

/** @internal The viewer summary response (spec 2.3): totals over one viewer's sessions, no time series. */
export const ViewerSummary = z
  .looseObject({
    total: z
      .looseObject({
        bitrate: z.looseObject({ bps: z.number().describe("Bits per second.") }).describe("The average bitrate."),
        connection_induced_rebuffering_ratio: Ratio.describe("Rebuffering caused by the connection."),
        ended_plays_duration: z
          .looseObject({
            mins: z.number().describe("Minutes in all."),
            per_ended_play: z.number().describe("Minutes per ended play."),
            per_unique_device: z.number().describe("Minutes per unique device."),
          })
          .describe("The time of ended plays."),
        exit_before_video_starts: CountPercentage.describe("Exits before the video started."),
        good_streams: Count.describe("Streams without a problem."),
        good_streams_average_play_time: Minutes.describe("The average play time of good streams."),
        impacted_streams: Count.describe("Streams with a problem."),
        impacted_streams_average_play_time: Minutes.describe("The average play time of impacted streams."),
        plays: Count.describe("Plays."),
        rebuffering_ratio: Ratio.describe("Time rebuffering."),
        spi_streams: Count.describe("Streams counted by the streaming performance index."),
        streaming_performance_index: Value.describe("The streaming performance index."),
        unique_devices: Count.describe("Unique devices."),
        video_playback_failures: CountPercentage.describe("Playback failures."),
        video_playback_failures_business: CountPercentage.describe("Playback failures for a business reason."),
        video_playback_failures_tech: CountPercentage.describe("Playback failures for a technical reason."),
        video_restart_time: Value.describe("The video restart time."),
        video_start_failures: CountPercentage.describe("Start failures."),
        video_start_failures_business: CountPercentage.describe("Start failures for a business reason."),
        video_start_failures_tech: CountPercentage.describe("Start failures for a technical reason."),
        video_start_time: Value.describe("The video start time."),
      })
      .describe("One object per member, over the viewer's sessions."),
    _meta: z
      .looseObject({
        queries: z
          .looseObject({
            viewer_id: z.string().optional().meta({ description: "The viewer id asked for.", secret: true }),
            viewer_ip: z.string().optional().meta({ description: "The viewer IP address asked for.", secret: true }),
            start_epoch_ms: z.number().int().describe("The start of the range, epoch milliseconds."),
            end_epoch_ms: z.number().int().describe("The end of the range, epoch milliseconds."),
          })
          .describe("What was asked for: the viewer and the range."),
        query_string: z.string().describe("The query the answer is for."),
        ratio_info: z
          .looseObject({
            connection_induced_rebuffering_ratio: z.looseObject({ max: z.number().describe("The maximum.") }).describe("The maximum of the connection-induced rebuffering ratio."),
            rebuffering_ratio: z.looseObject({ max: z.number().describe("The maximum.") }).describe("The maximum of the rebuffering ratio."),
          })
          .describe("The maximum of each rebuffering ratio."),
        annotations: z.array(z.looseObject({ cause: z.string().describe("The cause."), value: z.string().describe("The note.") })).describe("Notes on the answer."),
      })
      .describe("What the answer is for."),
  })
  .describe("The viewer summary response (spec 2.3): totals over one viewer's sessions, no time series.");
/** A {@link ViewerSummary} after parsing. */
export type ViewerSummary = records.ViewerSummary;

/** @internal One entry of the sessions dimension lookup (spec 2.5). */
export const SessionDimension = z.looseObject({
  name: z.string().describe("The dimension's name."),
  query_filter: z.string().describe("Its name as a sample-session filter (custom tags as `tag_<name>`)."),
  is_custom: z.boolean().describe("Whether it is one of the account's custom tags."),
});
/** @internal The sessions dimension lookup response (spec 2.5, 4.5). */
export const SessionDimensionList = z
  .looseObject({ dimensions: z.array(SessionDimension).describe("The dimensions the account can filter sample sessions by.") })
  .describe("The sessions dimension lookup response (spec 2.5, 4.5).");
/** A {@link SessionDimensionList} after parsing. */
export type SessionDimensionList = records.SessionDimensionList;

/**
 * The discovery endpoint's answer (spec 4.5): the resource paths available to the account with a
 * description and prerequisites. Its shape is not shown; this is the emulator's choice.
 * @internal
 */
export const DiscoveryList = listingOf(
  z.looseObject({
    path: z.string().describe("The resource path."),
    description: z.string().describe("What it answers."),
    prerequisite: z.string().describe("What the account needs for it."),
    available: z.boolean().describe("Whether the account has it."),
  }),
  "resources",
  "The resource paths.",
).describe(
  "The discovery endpoint's answer (spec 4.5): the resource paths available to the account with a description and prerequisites. Its shape is not shown; this is the emulator's choice.",
);
/** A {@link DiscoveryList} after parsing. */
export type DiscoveryList = records.DiscoveryList;
