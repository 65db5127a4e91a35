import type { SessionRecord } from "./types";

/**
 * The boolean status flags of a session, named as spec 2.2 `status_info` and the boolean
 * sample-session filters of spec 4.7 name them, so the wire object and the filters agree.
 * An exit during pre-roll is an exit before video start while a pre-roll ad was playing.
 */
export const SESSION_FLAGS = {
  is_ad_requested: (session) => session.dimensions["is_ad_requested"] === "true",
  is_exit_before_video_start: (session) => session.exitBeforeVideoStart,
  is_exit_during_preroll: (session) => session.exitBeforeVideoStart && session.hasPreRoll,
  is_video_start_failure: (session) => session.videoStartFailure !== undefined,
  is_video_start_failure_business: (session) => session.videoStartFailure === "business",
  is_video_start_failure_tech: (session) => session.videoStartFailure === "tech",
  is_video_playback_failure: (session) => session.videoPlaybackFailure !== undefined,
  is_video_playback_failure_business: (session) => session.videoPlaybackFailure === "business",
  is_video_playback_failure_tech: (session) => session.videoPlaybackFailure === "tech",
} as const satisfies Record<string, (session: SessionRecord) => boolean>;

/** A flag name of {@link SESSION_FLAGS}. */
export type SessionFlag = keyof typeof SESSION_FLAGS;

/**
 * The error code behind each error-code dimension and filter (spec 4.7): the session's code when it
 * failed in that way, else undefined. Ad sessions answer the ad- dimensions with the same codes.
 */
export const ERROR_CODE_READERS: Readonly<Record<string, (session: SessionRecord) => string | undefined>> = {
  video_start_failure_error: (session) => (session.videoStartFailure ? session.errorCode : undefined),
  video_start_failure_business_error: (session) => (session.videoStartFailure === "business" ? session.errorCode : undefined),
  video_start_failure_tech_error: (session) => (session.videoStartFailure === "tech" ? session.errorCode : undefined),
  video_playback_failure_error: (session) => (session.videoPlaybackFailure ? session.errorCode : undefined),
  video_playback_failure_business_error: (session) => (session.videoPlaybackFailure === "business" ? session.errorCode : undefined),
  video_playback_failure_tech_error: (session) => (session.videoPlaybackFailure === "tech" ? session.errorCode : undefined),
  ad_video_start_failure_error: (session) => (session.kind === "ad" && session.videoStartFailure ? session.errorCode : undefined),
  ad_video_playback_failure_error: (session) => (session.kind === "ad" && session.videoPlaybackFailure ? session.errorCode : undefined),
};
