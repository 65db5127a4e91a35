import { AD_ALERT_METRICS, ALERT_SEVERITIES, CONTENT_ALERT_METRICS } from "../contract/alerts";
import { hashSeed } from "../random";
import { layerOf, type LayerName } from "./dimensions";
import { Sampler } from "./sampling";
import type { Anomaly, SessionKind } from "./types";
import { MINUTE_MS, HOUR_MS, DAY_MS } from "../time";

/**
 * Anomalies planted in the data (spec 2.8, 3.2: AI alerts are raised from them). Two kinds:
 *
 * - A chain per session kind: one anomaly per 12-hour block, starting up to 40 minutes before the
 *   block and ending 20 to 100 minutes after it, so that consecutive ones overlap and at every
 *   moment at least one content and one ad anomaly is active (alert lists are never empty in demos).
 * - Short extra ones: most days one content anomaly of 30 minutes to 5 hours, some days an ad one.
 *
 * Everything is derived from (seed, account, block or day), so any window can be computed alone.
 */

const BLOCK_MS = 12 * HOUR_MS;
/** The longest an anomaly lasts, to know how far back to look for ones overlapping a window. */
const LONGEST_MS = BLOCK_MS + 2 * HOUR_MS;

/** Root causes an anomaly can have: dimensions and entities with enough traffic to show it. */
const ROOT_CAUSES: Readonly<Record<SessionKind, ReadonlyArray<{ dimension: string; entities: readonly string[] }>>> = {
  content: [
    { dimension: "cdn", entities: ["Akamai", "Fastly", "Cloudfront", "Limelight"] },
    { dimension: "isp", entities: ["Comcast Cable", "Charter Spectrum", "AT&T Internet", "Verizon Fios", "T-Mobile USA"] },
    { dimension: "geo_country_code", entities: ["US", "GB", "CA", "DE", "AU"] },
    { dimension: "asset", entities: ["StreamCo Sports 1", "StreamCo News 24", "Iron Meridian"] },
  ],
  ad: [
    { dimension: "cdn", entities: ["Akamai", "Fastly", "Cloudfront"] },
    { dimension: "isp", entities: ["Comcast Cable", "Charter Spectrum"] },
    { dimension: "geo_country_code", entities: ["US"] },
  ],
};

const METRICS: Readonly<Record<SessionKind, readonly string[]>> = { content: CONTENT_ALERT_METRICS, ad: AD_ALERT_METRICS };

function draw(seed: number, accountId: string, id: string, kind: SessionKind, window: { startMs: number; endMs: number }): Anomaly {
  const sampler = new Sampler(hashSeed(seed, accountId, "anomaly", id));
  const cause = sampler.pick(ROOT_CAUSES[kind]);
  return {
    id,
    kind,
    alertMetric: sampler.pick(METRICS[kind]),
    dimension: cause.dimension,
    entity: sampler.pick(cause.entities),
    ...window,
    peakSeverity: sampler.weighted(ALERT_SEVERITIES, (severity) => ({ info: 3, warning: 4, critical: 3 })[severity]),
  };
}

function chainAnomaly(seed: number, accountId: string, kind: SessionKind, block: number): Anomaly {
  const sampler = new Sampler(hashSeed(seed, accountId, "anomaly-chain", kind, block));
  const blockStart = block * BLOCK_MS;
  const window = {
    startMs: blockStart - Math.round(sampler.between(0, 40)) * MINUTE_MS,
    endMs: blockStart + BLOCK_MS + Math.round(sampler.between(20, 100)) * MINUTE_MS,
  };
  return draw(seed, accountId, `${kind}-${block}-chain`, kind, window);
}

function extraAnomalies(seed: number, accountId: string, day: number): Anomaly[] {
  const sampler = new Sampler(hashSeed(seed, accountId, "anomaly-extra", day));
  const anomalies: Anomaly[] = [];
  for (const [kind, probability] of [["content", 0.85], ["ad", 0.35]] as const) {
    if (!sampler.chance(probability)) continue;
    const startMs = day * DAY_MS + Math.round(sampler.between(0, 24 * 60)) * MINUTE_MS;
    const endMs = startMs + Math.round(sampler.between(30, 300)) * MINUTE_MS;
    anomalies.push(draw(seed, accountId, `${kind}-${day}-extra`, kind, { startMs, endMs }));
  }
  return anomalies;
}

/** The anomalies of a world that overlap [fromMs, toMs), by start. */
export function plantedAnomalies(seed: number, accountId: string, fromMs: number, toMs: number): Anomaly[] {
  const found: Anomaly[] = [];
  const firstBlock = Math.floor((fromMs - LONGEST_MS) / BLOCK_MS);
  for (let block = firstBlock; block * BLOCK_MS < toMs + BLOCK_MS; block++) {
    for (const kind of ["content", "ad"] as const) found.push(chainAnomaly(seed, accountId, kind, block));
  }
  for (let day = Math.floor((fromMs - DAY_MS) / DAY_MS); day * DAY_MS < toMs; day++) {
    found.push(...extraAnomalies(seed, accountId, day));
  }
  return found
    .filter((anomaly) => anomaly.startMs < toMs && anomaly.endMs > fromMs)
    .sort((a, b) => a.startMs - b.startMs || a.id.localeCompare(b.id));
}

/**
 * How strongly an anomaly degrades the sessions it hits, from its peak severity: the metric moves
 * far enough from normal to be seen in metrics grouped or filtered by the root cause.
 */
function intensityOf(anomaly: Anomaly): number {
  return { info: 0.45, warning: 0.7, critical: 1 }[anomaly.peakSeverity];
}

/**
 * An anomaly as the generator of one hour tests it against each session: a session of its kind,
 * started in [startMs, endMs), whose dimension `dimension` (held by layer `layer`) is `entity`.
 */
export interface AnomalyTarget {
  alertMetric: string;
  layer: LayerName;
  dimension: string;
  entity: string;
  startMs: number;
  endMs: number;
  intensity: number;
}

/**
 * The anomalies of `kind` among `anomalies`, in their order, made ready to be tested against every
 * session of an hour: the layer of the root cause found once per hour, not once per session (the
 * profile of a cold year showed that lookup among the generator's hottest lines).
 */
export function anomalyTargets(anomalies: readonly Anomaly[], kind: SessionKind): AnomalyTarget[] {
  const targets: AnomalyTarget[] = [];
  for (const anomaly of anomalies) {
    const layer = layerOf(anomaly.dimension);
    // A root cause outside the dimensions of spec 4.7 matches no session.
    if (anomaly.kind !== kind || layer === undefined) continue;
    targets.push({
      alertMetric: anomaly.alertMetric, layer, dimension: anomaly.dimension, entity: anomaly.entity,
      startMs: anomaly.startMs, endMs: anomaly.endMs, intensity: intensityOf(anomaly),
    });
  }
  return targets;
}
