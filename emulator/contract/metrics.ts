/**
 * The metric vocabulary as the emulator reads the contract (docs/api.md 2.4, 4.6, 10.4). The client
 * keeps its own copy;
 * test/contract-lists.test.ts compares both with values written out from the contract.
 */

/** Metric names of docs/api.md 4.6 (path form, kebab-case), in the contract's order. */
export const SPEC_METRIC_NAMES = [
  "abandonment", "abandonment-with-pre-roll", "abandonment-without-pre-roll", "ad-actual-duration", "ad-attempts",
  "ad-bitrate", "ad-completed-creative-plays", "ad-concurrent-plays", "ad-connection-induced-rebuffering-ratio",
  "ad-ended-plays", "ad-framerate", "ad-impressions", "ad-minutes-played", "ad-percentage-complete",
  "ad-rebuffering-ratio", "ad-slate-duration", "ad-slate-plays", "ad-unique-devices", "ad-video-playback-failures",
  "ad-video-restart-time", "ad-video-start-failures", "ad-video-start-time", "ads-not-started", "attempts",
  "attempts-with-pre-roll", "attempts-without-pre-roll", "bad-session", "bad-session-average-life-playing-time-mins",
  "bad-unique-devices", "bad-unique-viewers", "bitrate", "cir-related-exits", "concurrent-plays",
  "connection-induced-rebuffering-ratio", "ended-plays", "ended-plays-with-ads", "ended-plays-without-ads",
  "exits-before-ad-start", "exits-before-video-start", "exits-during-pre-roll", "framerate", "good-session",
  "good-session-average-life-playing-time-mins", "good-unique-devices", "good-unique-viewers", "high-rebuffering",
  "high-rebuffering-with-ads", "high-rebuffering-without-ads", "high-startup-time", "high-startup-time-with-pre-roll",
  "high-startup-time-without-pre-roll", "interval-minutes-played", "low-bitrate", "low-bitrate-with-ads",
  "low-bitrate-without-ads", "minutes-played", "non-zero-cirr-ended-plays", "pause-ratio", "paused-time",
  "percentage-complete", "plays", "rebuffering-ratio", "spi-streams", "spi-unique-devices", "spi-unique-viewers",
  "streaming-performance-index", "unique-devices", "unique-devices-with-attempts", "video-playback-failures",
  "video-playback-failures-business", "video-playback-failures-tech", "video-playback-failures-tech-with-ads",
  "video-playback-failures-tech-without-ads", "video-restart-time", "video-start-failures",
  "video-start-failures-business", "video-start-failures-tech", "video-start-failures-tech-with-pre-roll",
  "video-start-failures-tech-without-pre-roll", "video-start-time", "zero-cirr-ended-plays",
] as const;

/**
 * Metrics of the real service that the contract's list leaves out (docs/api.md 10.4): `ad-plays`,
 * which integrations request in custom selections.
 */
export const EXTRA_METRIC_NAMES = ["ad-plays"] as const;

/** Every metric the emulator computes. */
export const EMULATOR_METRIC_NAMES = [...SPEC_METRIC_NAMES, ...EXTRA_METRIC_NAMES] as const;

/** A metric the emulator computes. */
export type MetricName = (typeof EMULATOR_METRIC_NAMES)[number];

/**
 * Older path names still sent by public integrations, each with the metric it stands for and the
 * member it is answered under (docs/api.md 10.4: `exit-before-video-starts`).
 */
export const METRIC_ALIASES: Readonly<Record<string, { metric: MetricName; member: string }>> = {
  "exit-before-video-starts": { metric: "exits-before-video-start", member: "exit_before_video_starts" },
};

/** The metric group of real-time integrations (docs/api.md 10.4); its members are our choice. */
export const QUALITY_SUMMARY = "quality-summary";
/** The members answered for {@link QUALITY_SUMMARY}. */
export const QUALITY_SUMMARY_MEMBERS: readonly MetricName[] = [
  "attempts", "plays", "video-start-failures", "exits-before-video-start", "video-playback-failures",
  "rebuffering-ratio", "bitrate", "video-start-time", "concurrent-plays",
];

/** Every name the metric paths accept: the metrics, the aliases and the metric group. */
export const METRIC_PATH_NAMES: readonly string[] = [...EMULATOR_METRIC_NAMES, ...Object.keys(METRIC_ALIASES), QUALITY_SUMMARY];

/** A value field of a metric member (docs/api.md 10.4). */
export type ValueField = "count" | "percentage" | "value" | "ratio" | "bps" | "fps" | "per_unique_device" | "per_ended_play";

/**
 * The value fields of each metric's member, family by family as docs/api.md 10.4 lists them with
 * its corrections; a metric the table does not name follows its family (a "-with-ads" variant as its
 * base metric, an `ad-` metric as its content twin): our choice.
 */
const FIELDS_BY_FAMILY: ReadonlyArray<[readonly ValueField[], readonly MetricName[]]> = [
  [["count"], [
    "attempts", "concurrent-plays", "unique-devices", "spi-streams", "spi-unique-devices", "spi-unique-viewers",
    "good-session", "interval-minutes-played", "ad-attempts", "ad-concurrent-plays", "ad-unique-devices",
    // Not in the table; counts of the same kind (our choice).
    "ad-impressions", "good-unique-devices", "good-unique-viewers", "unique-devices-with-attempts",
  ]],
  [["value"], [
    "video-start-time", "video-restart-time", "streaming-performance-index", "ad-actual-duration",
    "bad-session-average-life-playing-time-mins", "good-session-average-life-playing-time-mins",
    "ad-completed-creative-plays",
    // Not in the table: times like their content twins (our choice).
    "ad-video-start-time", "ad-video-restart-time", "ad-slate-duration", "paused-time",
  ]],
  [["count", "percentage"], [
    "plays", "video-start-failures", "video-start-failures-business", "video-start-failures-tech",
    "video-playback-failures", "video-playback-failures-business", "video-playback-failures-tech",
    "exits-before-video-start", "abandonment", "bad-session", "high-rebuffering", "high-startup-time", "low-bitrate",
    "exits-before-ad-start", "attempts-with-pre-roll", "attempts-without-pre-roll", "bad-unique-devices",
    "bad-unique-viewers", "ended-plays-with-ads", "ended-plays-without-ads", "ad-plays",
    // "and similar rate metrics".
    "abandonment-with-pre-roll", "abandonment-without-pre-roll", "ad-slate-plays", "ad-video-playback-failures",
    "ad-video-start-failures", "ads-not-started", "cir-related-exits", "exits-during-pre-roll",
    "high-rebuffering-with-ads", "high-rebuffering-without-ads", "high-startup-time-with-pre-roll",
    "high-startup-time-without-pre-roll", "low-bitrate-with-ads", "low-bitrate-without-ads",
    "non-zero-cirr-ended-plays", "video-playback-failures-tech-with-ads", "video-playback-failures-tech-without-ads",
    "video-start-failures-tech-with-pre-roll", "video-start-failures-tech-without-pre-roll", "zero-cirr-ended-plays",
  ]],
  [["percentage"], ["percentage-complete", "ad-percentage-complete"]],
  [["ratio"], [
    "rebuffering-ratio", "connection-induced-rebuffering-ratio",
    "ad-rebuffering-ratio", "ad-connection-induced-rebuffering-ratio", "pause-ratio",
  ]],
  [["bps"], ["bitrate", "ad-bitrate"]],
  [["fps"], ["framerate", "ad-framerate"]],
  [["count", "per_unique_device"], ["ended-plays", "ad-ended-plays"]],
  [["count", "per_unique_device", "per_ended_play"], ["minutes-played", "ad-minutes-played"]],
];

/** The value fields of every metric the emulator computes. */
export const VALUE_FIELDS: Readonly<Record<MetricName, readonly ValueField[]>> = Object.fromEntries(
  FIELDS_BY_FAMILY.flatMap(([fields, metrics]) => metrics.map((metric) => [metric, fields])),
) as Record<MetricName, readonly ValueField[]>;

/** Whether a text is a metric the emulator computes. */
export function isMetricName(name: string): name is MetricName {
  return (EMULATOR_METRIC_NAMES as readonly string[]).includes(name);
}

/** The member name of a metric path name (docs/api.md 2.4: hyphens become underscores; aliases keep their own). */
export function memberName(name: string): string {
  return METRIC_ALIASES[name]?.member ?? name.replace(/-/g, "_");
}
