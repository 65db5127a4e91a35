import type * as pulumi from "@pulumi/pulumi";
import { getContentAlertsOutput, getMetricGroupByOutput, getViewerSummaryOutput } from "pulumi-insights";
import { optionalSecretSetting } from "./settings";

/** One ISP of {@link ReportOutputs.topIspsByRebuffering}. */
export interface IspRebuffering {
  isp: string;
  /** Percent of playing time spent rebuffering over the last day (spec 2.4, metric `rebuffering-ratio`). */
  rebufferingRatio: number | undefined;
}

/** One alert of {@link ReportOutputs.activeCriticalAlerts}. */
export interface ActiveAlert {
  id: string;
  /** The alert metric: VSF, EBVS, VPF, VST, PCP or BUFFERINGRATIO (spec 4.9). */
  metric: string;
  /** What degraded, as `dimension=entity` (`cdn=Akamai`): the dimension doubles as a metrics filter. */
  rootCauses: string[];
  /** When the alert started (ISO 8601). */
  since: string;
}

/** The stack outputs of {@link report}. */
export interface ReportOutputs {
  /** The 5 ISPs with the highest rebuffering ratio over the last day, worst first. */
  topIspsByRebuffering: pulumi.Output<IspRebuffering[]>;
  /** The content alerts of critical severity that are still active (spec 3.2, 4.9). */
  activeCriticalAlerts: pulumi.Output<ActiveAlert[]>;
  /** Last week's summary of the viewer `insights:reportViewerId` names, a secret (personal data). */
  viewerSummary?: pulumi.Output<{ plays: number; rebufferingRatio: number; videoStartFailuresPercent: number; uniqueDevices: number }>;
}

/**
 * What a pipeline reports after `pulumi up`, read with data sources and exported as stack outputs
 * (`pulumi stack output`). The Output forms run in the program's process on every preview and up.
 */
export function report(): ReportOutputs {
  const topIspsByRebuffering = getMetricGroupByOutput({
    metric: "rebuffering-ratio",
    dimension: "isp",
    limit: 5,
    order: "desc",
    range: { lastDays: 1 },
    granularity: "ALL",
  }).apply(({ entities }) => entities.map((isp) => ({ isp: isp.value, rebufferingRatio: isp.total?.["rebuffering-ratio"].ratio })));

  const activeCriticalAlerts = getContentAlertsOutput({ severity: ["critical"], status: ["active"] }).apply(({ alerts }) =>
    alerts.map((alert) => ({
      id: alert.id,
      metric: alert.alert_metric.name,
      rootCauses: alert.root_causes.map((cause) => `${cause.dimension}=${cause.entity}`),
      since: alert.timeline.start.timestamp.iso_date,
    })),
  );

  const outputs: ReportOutputs = { topIspsByRebuffering, activeCriticalAlerts };
  const viewerId = optionalSecretSetting("reportViewerId");
  if (viewerId !== undefined) {
    // A personal-data source: the answer is a secret, so the output is encrypted and shown as [secret].
    outputs.viewerSummary = getViewerSummaryOutput({ viewerId, range: { lastDays: 7 } }).apply(({ total }) => ({
      plays: total.plays.count,
      rebufferingRatio: total.rebuffering_ratio.ratio,
      videoStartFailuresPercent: total.video_start_failures.percentage,
      uniqueDevices: total.unique_devices.count,
    }));
  }
  return outputs;
}
