import type { SessionRecord } from "../world/types";
import {
  isVideoPlaybackFailure, isVideoPlaybackFailureOf, isVideoStartFailure, isVideoStartFailureOf, type ClockContext,
  type ClockTest,
} from "./classify";

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

/** The error code of a session for one error-code dimension or filter, as the session stands at now. */
export type ErrorCodeReader = (session: SessionRecord, context: ClockContext) => string | undefined;

/** The session's error code while `failed` holds, else undefined. */
function codeWhen(failed: ClockTest): ErrorCodeReader {
  return (session, context) => (failed(session, context) ? session.errorCode : undefined);
}

/**
 * The error code behind each error-code dimension and filter (spec 4.7): the session's code when it
 * has failed in that way by now, else undefined. The failure tests are the metrics' own
 * (metrics/classify.ts: a playback failure counts only once the session has ended), so a filter, a
 * group-by and the failure metric agree on which sessions failed. Ad sessions answer the ad-
 * dimensions with the same codes.
 */
export const ERROR_CODE_READERS: Readonly<Record<string, ErrorCodeReader>> = {
  video_start_failure_error: codeWhen(isVideoStartFailure),
  video_start_failure_business_error: codeWhen(isVideoStartFailureOf("business")),
  video_start_failure_tech_error: codeWhen(isVideoStartFailureOf("tech")),
  video_playback_failure_error: codeWhen(isVideoPlaybackFailure),
  video_playback_failure_business_error: codeWhen(isVideoPlaybackFailureOf("business")),
  video_playback_failure_tech_error: codeWhen(isVideoPlaybackFailureOf("tech")),
  ad_video_start_failure_error: codeWhen((session, context) => session.kind === "ad" && isVideoStartFailure(session, context)),
  ad_video_playback_failure_error: codeWhen((session, context) => session.kind === "ad" && isVideoPlaybackFailure(session, context)),
};
