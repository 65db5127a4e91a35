import { hashSeed } from "../random";
import { plantedAnomalies, hits, intensityOf } from "./anomalies";
import { planAd, type AdLayerCaches, type AdPlacement } from "./ads";
import { ASSETS, EPISODES_BY_SHOW, type Asset } from "./assets";
import { CDN_POPS, CDNS, CUSTOMERS, DIURNAL_CURVE, ERROR_CODES, resourceName, type Cdn } from "./catalog";
import { CompactSessionsBuilder, type CompactHour, type CompactTables, type SessionOutcome } from "./compact";
import { dimensionLayers, interned, notApplicableLayer, type DimensionLayer, type SessionLayers } from "./dimensions";
import { appBuildOf, createPopulation, HEAVY_VIEWER_SESSIONS_PER_HOUR, type Viewer, type ViewerDevice } from "./population";
import { Sampler, WeightedTable } from "./sampling";
import type { Anomaly, SessionKind, SessionRecord } from "./types";
import { MINUTE_MS, HOUR_MS, DAY_MS } from "../time";

/**
 * Generation of one clock hour of sessions (content and ad) of one account. An hour depends only on
 * (seed, account, hour index), the fixed population and the anomalies planted around it, so any hour
 * can be generated alone, in any order, with the same result.
 *
 * Rates at normal times (content): about 2% exits before video start (more with a pre-roll or on
 * cellular), 1.2% video start failures (30% business), 0.8% playback failures (25% business), a
 * median start time near 1.8 s, rebuffering in a third of the plays for an overall ratio near 0.6%.
 * Volume follows a daily curve in each viewer's local time: roughly 60 to 260 content sessions an
 * hour, and 30 to 60 ad sessions (pre-rolls of ad-supported viewers and a few mid-rolls).
 */

const CURVE_TOTAL = DIURNAL_CURVE.reduce((sum, share) => sum + share, 0);

/** Where one hour's sessions are written as they are made. */
interface HourOutput {
  content: CompactSessionsBuilder;
  ad: CompactSessionsBuilder;
  tables: CompactTables;
}

/** Viewers who share a UTC offset: their volume follows the same local clock. */
interface TimeZone {
  utcOffsetHours: number;
  dailySessions: number;
  viewers: WeightedTable<Viewer>;
}

/** Everything generation needs that does not change from hour to hour. */
export interface WorldSetup {
  seed: number;
  accountId: string;
  population: readonly Viewer[];
  zones: readonly TimeZone[];
  heavyViewers: readonly Viewer[];
  caches: AdLayerCaches;
}

const ALL_ASSETS = new WeightedTable(ASSETS, (asset) => asset.weight);
const SHOW_EPISODES = EPISODES_BY_SHOW.map((episodes) => new WeightedTable(episodes, (asset) => asset.weight));
const CDN_TABLE = new WeightedTable(CDNS, (cdn) => cdn.weight);
const NO_AD = notApplicableLayer("ad");
const NO_AD_BREAK = notApplicableLayer("adBreak");
const AD_REQUEST_LAYERS = {
  none: Object.freeze({ is_ad_requested: "false", preroll_status: "No Preroll" }),
  noPreRoll: Object.freeze({ is_ad_requested: "true", preroll_status: "No Preroll" }),
  preRoll: Object.freeze({ is_ad_requested: "true", preroll_status: "Preroll Played" }),
};
const PRECISION_ALGORITHMS: Readonly<Record<string, string>> = {
  "control": "pa-1", "new-abr-ladder": "pa-2", "low-latency": "pa-3",
};

/** Builds the fixed part of an account's world. */
export function createSetup(seed: number, accountId: string): WorldSetup {
  const population = createPopulation(hashSeed(seed, accountId));
  const byOffset = new Map<number, Viewer[]>();
  for (const viewer of population) {
    if (viewer.heavy) continue;
    const group = byOffset.get(viewer.utcOffsetHours) ?? [];
    group.push(viewer);
    byOffset.set(viewer.utcOffsetHours, group);
  }
  const zones = [...byOffset.entries()]
    .sort(([a], [b]) => a - b)
    .map(([utcOffsetHours, viewers]) => ({
      utcOffsetHours,
      dailySessions: viewers.reduce((sum, viewer) => sum + viewer.dailySessions, 0),
      viewers: new WeightedTable(viewers, (viewer) => viewer.dailySessions),
    }));
  return {
    seed, accountId, population, zones,
    heavyViewers: population.filter((viewer) => viewer.heavy),
    caches: { ad: new Map(), adBreak: new Map() },
  };
}

/** The local hour of day (0-23) at a UTC hour index for a UTC offset. */
function localHour(hourIndex: number, utcOffsetHours: number): number {
  return (((Math.floor(hourIndex + utcOffsetHours) % 24) + 24) % 24);
}

/** Weekends draw about 15% more viewing, and each day varies a little. */
function dayFactor(setup: WorldSetup, hourIndex: number): number {
  const day = Math.floor((hourIndex * HOUR_MS) / DAY_MS);
  const weekday = new Date(day * DAY_MS).getUTCDay();
  const noise = new Sampler(hashSeed(setup.seed, setup.accountId, "day", day)).between(0.92, 1.08);
  return (weekday === 0 || weekday === 6 ? 1.15 : 1) * noise;
}

/**
 * Generates the sessions of the hour starting at `hourIndex * 1h`, in the compact form of
 * world/compact.ts (`tables` are the world's).
 */
export function generateHour(setup: WorldSetup, hourIndex: number, tables: CompactTables): CompactHour {
  const sampler = new Sampler(hashSeed(setup.seed, setup.accountId, "hour", hourIndex));
  const hourStart = hourIndex * HOUR_MS;
  const anomalies = plantedAnomalies(setup.seed, setup.accountId, hourStart, hourStart + HOUR_MS);
  const output: HourOutput = { content: new CompactSessionsBuilder("content", tables), ad: new CompactSessionsBuilder("ad", tables), tables };
  const factor = dayFactor(setup, hourIndex);
  for (const zone of setup.zones) {
    const share = DIURNAL_CURVE[localHour(hourIndex, zone.utcOffsetHours)]! / CURVE_TOTAL;
    const expected = zone.dailySessions * share * factor * sampler.between(0.92, 1.08);
    const count = Math.floor(expected + sampler.unit());
    for (let index = 0; index < count; index++) {
      generateSession(setup, sampler, zone.viewers.draw(sampler), hourIndex, anomalies, output);
    }
  }
  for (const viewer of setup.heavyViewers) {
    const count = Math.floor(HEAVY_VIEWER_SESSIONS_PER_HOUR + sampler.unit());
    for (let index = 0; index < count; index++) generateSession(setup, sampler, viewer, hourIndex, anomalies, output);
  }
  return { content: output.content.build(), ad: output.ad.build() };
}

/** How the anomalies hitting a session move its odds and values (0 and 1 when none hit it). */
interface Degradation {
  startFailure: number;
  exitBeforeStart: number;
  playbackFailure: number;
  startTimeFactor: number;
  rebufferingRatio: number;
  bitrateFactor: number;
  /** Chance that the session does not happen at all (a drop in concurrent plays, PCP). */
  drop: number;
}

function degradationOf(anomalies: readonly Anomaly[], kind: SessionKind, startMs: number, layers: SessionLayers): Degradation {
  const degradation: Degradation = {
    startFailure: 0, exitBeforeStart: 0, playbackFailure: 0, startTimeFactor: 1, rebufferingRatio: 0, bitrateFactor: 1, drop: 0,
  };
  for (const anomaly of anomalies) {
    if (!hits(anomaly, kind, startMs, layers)) continue;
    const intensity = intensityOf(anomaly);
    switch (anomaly.alertMetric) {
      case "VSF": degradation.startFailure += 0.3 * intensity; break;
      case "EBVS": degradation.exitBeforeStart += 0.25 * intensity; break;
      case "VPF": degradation.playbackFailure += 0.2 * intensity; break;
      case "VST": degradation.startTimeFactor *= 1 + 4 * intensity; break;
      case "BUFFERINGRATIO": degradation.rebufferingRatio += 0.06 * intensity; break;
      case "BITRATE": degradation.bitrateFactor *= 1 - 0.6 * intensity; break;
      case "PCP": degradation.drop = Math.max(degradation.drop, 0.6 * intensity); break;
    }
  }
  return degradation;
}

/**
 * One of the viewer's devices, by weight: the draw of Sampler.weighted, written out for devices
 * (the profile of a year's generation showed the shared version, calling a function per weight,
 * among the hottest lines).
 */
function pickDevice(sampler: Sampler, devices: readonly ViewerDevice[]): ViewerDevice {
  let total = 0;
  for (const device of devices) total += device.weight;
  let target = sampler.unit() * total;
  for (const device of devices) {
    target -= device.weight;
    if (target < 0) return device;
  }
  return devices[devices.length - 1]!;
}

function pickAsset(sampler: Sampler, viewer: Viewer): Asset {
  const followsShow = viewer.favoriteShow !== undefined && sampler.chance(viewer.customer === CUSTOMERS[0] ? 0.4 : 0.8);
  return followsShow ? SHOW_EPISODES[viewer.favoriteShow!]!.draw(sampler) : ALL_ASSETS.draw(sampler);
}

const SERVERS_PER_POP = 16;
const POPS: readonly string[] = Object.values(CDN_POPS).flat();
const ALGORITHMS: readonly string[] = Object.values(PRECISION_ALGORITHMS);

/** Positions in the lists above, looked up once: the key below is made for every session. */
const CDN_INDEX = new Map<Cdn, number>(CDNS.map((cdn, index) => [cdn, index]));
const POP_INDEX = new Map<string, number>(POPS.map((pop, index) => [pop, index]));
const ALGORITHM_INDEX = new Map<string, number>(ALGORITHMS.map((algorithm, index) => [algorithm, index]));

/**
 * The number of a delivery layer in `tables.deliveries` (made there on first use): a number made of
 * the CDN, edge location, server, live flag and algorithm, an index into a dense array rather than
 * a key of a map, since this runs for every session.
 */
function deliveryCode(tables: CompactTables, viewer: Viewer, cdn: Cdn, server: number, live: boolean): number {
  const algorithm = PRECISION_ALGORITHMS[viewer.experimentGroup] ?? ALGORITHMS[0]!;
  const code = (((CDN_INDEX.get(cdn)! * POPS.length + POP_INDEX.get(viewer.pop)!) * (SERVERS_PER_POP + 1) + server) * 2 + Number(live)) *
    ALGORITHMS.length + ALGORITHM_INDEX.get(algorithm)!;
  if (tables.deliveries[code] === undefined) {
    const cdnSlug = cdn.name.toLowerCase();
    tables.addDelivery(code, {
      cdn: cdn.name,
      cdn_edge_group: `${cdnSlug}-${viewer.pop}`,
      cdn_edge_server: `${viewer.pop}-edge-${String(server).padStart(2, "0")}.${cdn.edgeDomain}`,
      precision_algo_id: algorithm,
      precision_cdn: cdn.name,
      precision_rs: resourceName(cdn.name, live),
      stream_host: `${live ? "live" : "vod"}-${cdnSlug}.streamco.example`,
    });
  }
  return code;
}

/**
 * The event ids, made once each: the same string object every time, so the table of special
 * content ids (world/compact.ts) finds it without building and hashing a new string for every
 * sports session.
 */
const EVENT_IDS: string[] = [];

/** Sports channels carry a new event (specialContentId) every 3 hours. */
function specialContentIdOf(asset: Asset, hourIndex: number): string | undefined {
  if (!asset.sports) return asset.specialContentId;
  const event = Math.floor(hourIndex / 3) % 9000;
  return (EVENT_IDS[event] ??= `SC-EVENT-${1000 + event}`);
}

/** The outcome of a session that never showed video: an exit before video start or a start failure. */
function notStarted(
  startMs: number, endMs: number, hasPreRoll: boolean, contentLengthMs: number,
  failure: { exit: boolean; startFailure?: SessionRecord["videoStartFailure"]; errorCode?: string },
): SessionOutcome {
  return {
    startMs, endMs, exitBeforeVideoStart: failure.exit, videoStartFailure: failure.startFailure,
    videoPlaybackFailure: undefined, errorCode: failure.errorCode, hasPreRoll, videoStartTimeMs: -1, videoRestartTimeMs: 0,
    playingTimeMs: 0, rebufferingTimeMs: 0, connectionInducedRebufferingTimeMs: 0, pausedTimeMs: 0, averageBitrateBps: 0,
    averageFramerateFps: 0, bitrateSwitches: 0, percentageComplete: 0, contentLengthMs,
  };
}

function generateSession(
  setup: WorldSetup, sampler: Sampler, viewer: Viewer, hourIndex: number, anomalies: readonly Anomaly[], output: HourOutput,
): void {
  const startMs = hourIndex * HOUR_MS + Math.floor(sampler.unit() * HOUR_MS);
  const device = pickDevice(sampler, viewer.devices);
  const asset = pickAsset(sampler, viewer);
  const cdn = sampler.chance(0.75) ? device.primaryCdn : CDN_TABLE.draw(sampler);
  const delivery = deliveryCode(output.tables, viewer, cdn, sampler.integer(1, SERVERS_PER_POP), asset.live);
  const adRequested = viewer.tier !== "premium" || asset.live;
  const hasPreRoll = adRequested && sampler.chance(asset.live ? 0.15 : 0.42);
  const layers = dimensionLayers(
    device.dimensions, asset.dimensions, output.tables.deliveries[delivery]!, NO_AD, NO_AD_BREAK,
    hasPreRoll ? AD_REQUEST_LAYERS.preRoll : adRequested ? AD_REQUEST_LAYERS.noPreRoll : AD_REQUEST_LAYERS.none,
  );
  const degradation = degradationOf(anomalies, "content", startMs, layers);
  // Draw every value even for a dropped session, so a drop does not shift the rest of the hour.
  const dropped = sampler.chance(degradation.drop);
  const cellular = device.dimensions["connection_type"] === "Cellular";
  const outcome = playContent(sampler, {
    startMs, asset, profileBitrate: device.profile.typicalBitrateBps, cellular, hasPreRoll, degradation,
  });
  const sessionId = sampler.bigId();
  const specialContentId = specialContentIdOf(asset, hourIndex);
  const local = localHour(hourIndex, viewer.utcOffsetHours);
  const adPlacements: Array<{ placement: AdPlacement; startMs: number; exited: boolean }> = [];
  if (hasPreRoll) {
    adPlacements.push({ placement: { position: "Preroll", breakIndex: 0, sequence: 1 }, startMs: startMs + 150, exited: outcome.exitBeforeVideoStart });
  }
  const midRollAt = startMs + Math.max(0, outcome.videoStartTimeMs) + outcome.playingTimeMs * sampler.between(0.3, 0.6);
  if (adRequested && !asset.live && outcome.playingTimeMs > 10 * MINUTE_MS && sampler.chance(0.12) && midRollAt < (hourIndex + 1) * HOUR_MS) {
    adPlacements.push({ placement: { position: "Midroll", breakIndex: 1, sequence: 1 }, startMs: Math.floor(midRollAt), exited: false });
  }
  const ads = adPlacements.map(({ placement, startMs: adStartMs, exited }) => {
    const plan = planAd(sampler, setup.caches, asset, device, placement, local);
    const adLayers = dimensionLayers(layers.device, layers.content, layers.delivery, plan.ad, plan.adBreak, layers.ads);
    const adDegradation = degradationOf(anomalies, "ad", adStartMs, adLayers);
    const adSessionId = sampler.bigId();
    return {
      viewer, device, layers: adLayers, deliveryCode: delivery, specialContentId, sessionId: adSessionId, contentSessionId: sessionId,
      outcome: playAd(sampler, { startMs: adStartMs, durationMs: plan.durationMs, exited, degradation: adDegradation }),
    };
  });
  if (dropped) return;
  output.content.add({ viewer, device, layers, deliveryCode: delivery, specialContentId, sessionId, contentSessionId: undefined, outcome });
  for (const ad of ads) output.ad.add(ad);
}

const FRAME_RATES = [23.976, 25, 29.97, 29.97, 29.97, 30, 59.94] as const;

function round(value: number, digits = 0): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function playContent(
  sampler: Sampler,
  input: { startMs: number; asset: Asset; profileBitrate: number; cellular: boolean; hasPreRoll: boolean; degradation: Degradation },
): SessionOutcome {
  const { startMs, asset, degradation, hasPreRoll } = input;
  const exitChance = 0.02 + (input.cellular ? 0.01 : 0) + (hasPreRoll ? 0.025 : 0) + degradation.exitBeforeStart;
  const contentLengthMs = asset.lengthMs;
  if (sampler.chance(exitChance)) {
    const waitedMs = Math.round(hasPreRoll ? sampler.between(4_000, 25_000) : sampler.logNormal(3_500, 0.7));
    return notStarted(startMs, startMs + waitedMs, hasPreRoll, contentLengthMs, { exit: true });
  }
  if (sampler.chance(0.012 + degradation.startFailure)) {
    const business = sampler.chance(degradation.startFailure > 0 ? 0.05 : 0.3);
    const errorCode = sampler.pick(business ? ERROR_CODES.startBusiness : ERROR_CODES.startTech);
    const failedAfterMs = Math.round(sampler.between(1_500, 15_000));
    return notStarted(startMs, startMs + failedAfterMs, hasPreRoll, contentLengthMs, {
      exit: false, startFailure: business ? "business" : "tech", errorCode,
    });
  }
  const videoStartTimeMs = Math.round(sampler.logNormal(input.cellular ? 2_400 : 1_600, 0.45) * degradation.startTimeFactor);
  let playingTimeMs = asset.live
    ? Math.min(4 * HOUR_MS, sampler.exponential(40 * MINUTE_MS) + 2 * MINUTE_MS)
    : contentLengthMs * (sampler.chance(0.38) ? sampler.between(0.97, 1) : sampler.between(0.04, 0.95));
  let videoPlaybackFailure: SessionRecord["videoPlaybackFailure"];
  let errorCode: string | undefined;
  if (sampler.chance(0.008 + degradation.playbackFailure)) {
    videoPlaybackFailure = sampler.chance(degradation.playbackFailure > 0 ? 0.05 : 0.25) ? "business" : "tech";
    errorCode = sampler.pick(videoPlaybackFailure === "business" ? ERROR_CODES.playbackBusiness : ERROR_CODES.playbackTech);
    playingTimeMs *= sampler.between(0.05, 0.9);
  }
  playingTimeMs = Math.round(playingTimeMs);
  const baseRatio = sampler.chance(input.cellular ? 0.5 : 0.3) ? sampler.exponential(input.cellular ? 0.02 : 0.01) : 0;
  const ratio = Math.min(0.6, baseRatio + (degradation.rebufferingRatio > 0 ? degradation.rebufferingRatio * sampler.between(0.6, 1.4) : 0));
  const rebufferingTimeMs = Math.round((playingTimeMs * ratio) / (1 - ratio));
  const pausedTimeMs = sampler.chance(0.3) ? Math.round(playingTimeMs * sampler.between(0, 0.12)) : 0;
  const videoRestartTimeMs = sampler.chance(0.4) ? Math.round(sampler.between(300, 1_500)) : 0;
  return {
    startMs,
    endMs: startMs + videoStartTimeMs + playingTimeMs + rebufferingTimeMs + pausedTimeMs + videoRestartTimeMs,
    exitBeforeVideoStart: false, videoStartFailure: undefined, videoPlaybackFailure, errorCode, hasPreRoll,
    videoStartTimeMs, videoRestartTimeMs, playingTimeMs, rebufferingTimeMs,
    connectionInducedRebufferingTimeMs: Math.round(rebufferingTimeMs * sampler.between(0.6, 0.95)),
    pausedTimeMs,
    averageBitrateBps: Math.round(
      input.profileBitrate * sampler.between(0.72, 1.08) * (input.cellular ? 0.75 : 1) * (1 - Math.min(0.5, ratio * 3)),
    ),
    averageFramerateFps: asset.sports ? 59.94 : sampler.pick(FRAME_RATES),
    bitrateSwitches: Math.round(sampler.exponential(playingTimeMs / (6 * MINUTE_MS) + 0.5)),
    percentageComplete: round(Math.min(100, (playingTimeMs / (asset.live ? HOUR_MS : contentLengthMs)) * 100), 2),
    contentLengthMs,
  };
}

function playAd(
  sampler: Sampler, input: { startMs: number; durationMs: number; exited: boolean; degradation: Degradation },
): SessionOutcome {
  const { startMs, durationMs, degradation } = input;
  if (!input.exited && sampler.chance(0.03 + degradation.exitBeforeStart)) {
    return notStarted(startMs, startMs + Math.round(sampler.between(500, 4_000)), false, durationMs, { exit: true });
  }
  if (sampler.chance(0.025 + degradation.startFailure)) {
    return notStarted(startMs, startMs + Math.round(sampler.between(1_000, 8_000)), false, durationMs, {
      exit: false, startFailure: "tech", errorCode: sampler.pick(ERROR_CODES.startTech),
    });
  }
  const videoStartTimeMs = Math.round(sampler.logNormal(700, 0.4) * degradation.startTimeFactor);
  let playingTimeMs = input.exited
    ? durationMs * sampler.between(0.1, 0.8)
    : sampler.chance(0.92) ? durationMs : durationMs * sampler.between(0.25, 0.9);
  let videoPlaybackFailure: SessionRecord["videoPlaybackFailure"];
  let errorCode: string | undefined;
  if (!input.exited && sampler.chance(0.008 + degradation.playbackFailure)) {
    videoPlaybackFailure = "tech";
    errorCode = sampler.pick(ERROR_CODES.playbackTech);
    playingTimeMs *= sampler.between(0.1, 0.9);
  }
  playingTimeMs = Math.round(playingTimeMs);
  const ratio = Math.min(0.5, (sampler.chance(0.1) ? sampler.exponential(0.006) : 0) + degradation.rebufferingRatio);
  const rebufferingTimeMs = Math.round((playingTimeMs * ratio) / (1 - ratio));
  return {
    startMs,
    endMs: startMs + videoStartTimeMs + playingTimeMs + rebufferingTimeMs,
    exitBeforeVideoStart: false, videoStartFailure: undefined, videoPlaybackFailure, errorCode, hasPreRoll: false,
    videoStartTimeMs, videoRestartTimeMs: 0, playingTimeMs, rebufferingTimeMs,
    connectionInducedRebufferingTimeMs: Math.round(rebufferingTimeMs * 0.8), pausedTimeMs: 0,
    averageBitrateBps: Math.round(sampler.logNormal(2_200_000, 0.25) * degradation.bitrateFactor),
    averageFramerateFps: 29.97, bitrateSwitches: sampler.integer(0, 2),
    percentageComplete: round(Math.min(100, (playingTimeMs / durationMs) * 100), 2),
    contentLengthMs: durationMs,
  };
}
