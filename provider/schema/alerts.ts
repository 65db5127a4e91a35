import { z } from "zod";
import type * as records from "./records";
import { AlertTimestamp } from "./common";
import { ALERT_SEVERITIES, ALERT_STATUSES } from "./names";

/** @internal A severity point of a detail timeline (spec 2.8): every member other than `start`. */
export const AlertTimelinePoint = z
  .looseObject({
    metric_value: z.number().describe("The value of the alert's metric at this point."),
    impacted_uniques: z.number().describe("Unique devices impacted at this point."),
    cumulative_impacted_uniques: z.number().describe("Unique devices impacted since the alert started."),
    cumulative_sessions: z.number().describe("Sessions since the alert started."),
    total_uniques: z.number().describe("Unique devices in all at this point."),
    cumulative_total_uniques: z.number().describe("Unique devices in all since the alert started."),
    timestamp: AlertTimestamp.describe("When the point was reached."),
  })
  .describe("A severity point of a detail timeline (spec 2.8): every member other than `start`.");
/** An {@link AlertTimelinePoint} after parsing. */
export type AlertTimelinePoint = records.AlertTimelinePoint;

/** When an alert started or, in a list, ended (spec 2.8). */
const AlertMoment = z.looseObject({ timestamp: AlertTimestamp.describe("When it happened.") });

/** @internal What a listed alert and an alert's detail share (spec 2.8): all but the timeline. */
export const AlertFields = z
  .looseObject({
    id: z.string().describe("The alert's id."),
    alert_type: z.string().describe("The kind of alert."),
    severity: z.enum(ALERT_SEVERITIES).describe("How severe it got."),
    alert_metric: z
      .looseObject({ name: z.string().describe("The metric's name."), description: z.string().describe("What the metric measures.") })
      .describe("The metric it was raised on."),
    root_causes: z
      .array(z.looseObject({ entity: z.string().describe("The entity, for example a CDN or an ISP."), dimension: z.string().describe("The dimension of the entity.") }))
      .describe("The entities that explain it."),
    status: z.enum(ALERT_STATUSES).describe("Whether it is still going on."),
  })
  .describe("What a listed alert and an alert's detail share (spec 2.8): all but the timeline.");
/** An {@link AlertFields} after parsing. */
export type AlertFields = records.AlertFields;

/** An alert whose timeline holds `start` and `points` (spec 2.8), as `description` says. */
function alertWithTimeline<Points extends Record<string, z.ZodType>>(points: Points, description: string) {
  return AlertFields.extend({
    timeline: z.looseObject({ start: AlertMoment.describe("When the alert started."), ...points }).describe(description),
  });
}

/** @internal An alert as listed (spec 2.8): the timeline holds `start` and, for ended alerts, `end`. */
export const AlertSummary = alertWithTimeline(
  { end: AlertMoment.optional().describe("When it ended, once it has.") },
  "When it started and, once ended, when it ended.",
).describe("An alert as listed (spec 2.8): the timeline holds `start` and, for ended alerts, `end`.");
/** An {@link AlertSummary} after parsing. */
export type AlertSummary = records.AlertSummary;

/** @internal An alert's detail (spec 2.8): a member per point reached. */
export const AlertDetail = alertWithTimeline(
  {
    info: AlertTimelinePoint.optional().describe("The point it reached the info severity, if it did."),
    warning: AlertTimelinePoint.optional().describe("The point it reached the warning severity, if it did."),
    critical: AlertTimelinePoint.optional().describe("The point it reached the critical severity, if it did."),
    end: AlertTimelinePoint.optional().describe("The point it ended, once it has."),
  },
  "The points reached: start, and info, warning, critical and end as reached.",
).describe("An alert's detail (spec 2.8): a member per point reached.");
/** An {@link AlertDetail} after parsing. */
export type AlertDetail = records.AlertDetail;

/** @internal The alert list response (spec 4.9). */
export const AlertList = z.looseObject({ alerts: z.array(AlertSummary).describe("The alerts whose status changed in the range.") }).describe("The alert list response (spec 4.9).");
/** An {@link AlertList} after parsing. */
export type AlertList = records.AlertList;
