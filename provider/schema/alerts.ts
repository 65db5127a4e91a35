import { z } from "zod";
import type * as records from "./records";
import { AlertTimestamp } from "./common";
import { ALERT_SEVERITIES, ALERT_STATUSES } from "./names";

/** @internal A severity point of a detail timeline (spec 2.8): every member other than `start`. */
export const AlertTimelinePoint = z.looseObject({
  metric_value: z.number(),
  impacted_uniques: z.number(),
  cumulative_impacted_uniques: z.number(),
  cumulative_sessions: z.number(),
  total_uniques: z.number(),
  cumulative_total_uniques: z.number(),
  timestamp: AlertTimestamp,
});
/** An {@link AlertTimelinePoint} after parsing. */
export type AlertTimelinePoint = records.AlertTimelinePoint;

const AlertCommon = {
  id: z.string(),
  alert_type: z.string(),
  severity: z.enum(ALERT_SEVERITIES),
  alert_metric: z.looseObject({ name: z.string(), description: z.string() }),
  root_causes: z.array(z.looseObject({ entity: z.string(), dimension: z.string() })),
  status: z.enum(ALERT_STATUSES),
};

/** @internal An alert as listed (spec 2.8): the timeline holds `start` and, for ended alerts, `end`. */
export const AlertSummary = z.looseObject({
  ...AlertCommon,
  timeline: z.looseObject({
    start: z.looseObject({ timestamp: AlertTimestamp }),
    end: z.looseObject({ timestamp: AlertTimestamp }).optional(),
  }),
});
/** An {@link AlertSummary} after parsing. */
export type AlertSummary = records.AlertSummary;

/** @internal An alert's detail (spec 2.8): a member per point reached. */
export const AlertDetail = z.looseObject({
  ...AlertCommon,
  timeline: z.looseObject({
    start: z.looseObject({ timestamp: AlertTimestamp }),
    info: AlertTimelinePoint.optional(),
    warning: AlertTimelinePoint.optional(),
    critical: AlertTimelinePoint.optional(),
    end: AlertTimelinePoint.optional(),
  }),
});
/** An {@link AlertDetail} after parsing. */
export type AlertDetail = records.AlertDetail;

/** @internal The alert list response (spec 4.9). */
export const AlertList = z.looseObject({ alerts: z.array(AlertSummary) });
/** An {@link AlertList} after parsing. */
export type AlertList = records.AlertList;
