import { hashSeed } from "../random";
import { anomalyTargets, plantedAnomalies, type AnomalyTarget } from "./anomalies";
import { planAd, type AdLayerCaches, type AdPlacement } from "./ads";
import { ASSETS, EPISODES_BY_SHOW, type Asset } from "./assets";
import { CDN_POPS, CDNS, CUSTOMERS, DIURNAL_CURVE, ERROR_CODES, resourceName, type Cdn } from "./catalog";
import { buildHour, CompactSessionsBuilder, SessionDraft, type CompactHour, type CompactTables } from "./compact";
import { notApplicableLayer, type DimensionLayer, type LayerName } from "./dimensions";
import { createPopulation, HEAVY_VIEWER_SESSIONS_PER_HOUR, type Viewer, type ViewerDevice } from "./population";
import { Sampler, WeightedTable } from "./sampling";
import type { SessionRecord } from "./types";
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

/**
 * A viewer with what the generator works out from it for every session, worked out once (the sum of
 * the device weights, the part of the delivery number that is the viewer's, the chance of watching
 * the followed show), and the viewer's fields it reads for every session copied beside them: one
 * object read per session instead of two, the viewers being drawn at random from thousands.
 */
interface PreparedViewer {
  viewer: Viewer;
  devices: readonly ViewerDevice[];
  /** The sum of the devices' weights. */
  deviceWeight: number;
  /** The episodes of the followed show, by weight; undefined when the viewer follows none. */
  showEpisodes: WeightedTable<Asset> | undefined;
  /** The chance that a session plays the followed show. */
  showChance: number;
  /** Premium viewers are shown ads on live content only. */
  adsOnLiveOnly: boolean;
  /** The viewer's edge location and precision algorithm, as their part of {@link deliveryCode}. */
  deliveryPart: number;
  algorithm: string;
  utcOffsetHours: number;
}

/**
 * Where the hours of a world are written as they are made: the builders of the two kinds and the
 * objects written again for each session, made once per world and thread and used hour after hour
 * (world/compact.ts `CompactSessionsBuilder`), with the anomalies of the hour being made.
 */
interface HourWorkspace {
  tables: CompactTables;
  content: CompactSessionsBuilder;
  ad: CompactSessionsBuilder;
  contentDraft: SessionDraft;
  adDraft: SessionDraft;
  degradation: Degradation;
  /** The anomalies of each kind of the hour being made. */
  contentAnomalies: readonly AnomalyTarget[];
  adAnomalies: readonly AnomalyTarget[];
}

/** Viewers who share a UTC offset: their volume follows the same local clock. */
interface TimeZone {
  utcOffsetHours: number;
  dailySessions: number;
  viewers: WeightedTable<PreparedViewer>;
}

/** Everything generation needs that does not change from hour to hour. */
export interface WorldSetup {
  seed: number;
  accountId: string;
  population: readonly Viewer[];
  zones: readonly TimeZone[];
  heavyViewers: readonly PreparedViewer[];
  caches: AdLayerCaches;
  /** Made on the first hour generated, for the tables it was given. */
  workspace: HourWorkspace | undefined;
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
      viewers: new WeightedTable(viewers.map(prepared), (viewer) => viewer.viewer.dailySessions),
    }));
  return {
    seed, accountId, population, zones,
    heavyViewers: population.filter((viewer) => viewer.heavy).map(prepared),
    caches: { ad: new Map(), adBreak: new Map() },
    workspace: undefined,
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
  if (setup.workspace?.tables !== tables) {
    setup.workspace = {
      tables, content: new CompactSessionsBuilder("content", tables), ad: new CompactSessionsBuilder("ad", tables),
      contentDraft: new SessionDraft(), adDraft: new SessionDraft(), degradation: new Degradation(), contentAnomalies: [], adAnomalies: [],
    };
  }
  const output = setup.workspace;
  output.content.clear();
  output.ad.clear();
  output.contentAnomalies = anomalyTargets(anomalies, "content");
  output.adAnomalies = anomalyTargets(anomalies, "ad");
  const factor = dayFactor(setup, hourIndex);
  for (const zone of setup.zones) {
    const share = DIURNAL_CURVE[localHour(hourIndex, zone.utcOffsetHours)]! / CURVE_TOTAL;
    const expected = zone.dailySessions * share * factor * sampler.between(0.92, 1.08);
    const count = Math.floor(expected + sampler.unit());
    for (let index = 0; index < count; index++) {
      generateSession(setup, sampler, zone.viewers.draw(sampler), hourIndex, output);
    }
  }
  for (const viewer of setup.heavyViewers) {
    const count = Math.floor(HEAVY_VIEWER_SESSIONS_PER_HOUR + sampler.unit());
    for (let index = 0; index < count; index++) generateSession(setup, sampler, viewer, hourIndex, output);
  }
  return buildHour(output.content, output.ad);
}

/**
 * How the anomalies hitting a session move its odds and values (0 and 1 when none hit it). One is
 * kept per hour and written again for each session ({@link degrade}).
 */
class Degradation {
  startFailure = 0;
  exitBeforeStart = 0;
  playbackFailure = 0;
  startTimeFactor = 1;
  rebufferingRatio = 0;
  bitrateFactor = 1;
  /** Chance that the session does not happen at all (a drop in concurrent plays, PCP). */
  drop = 0;
}

/** The draft's layer of that name. */
function layerIn(draft: SessionDraft, layer: LayerName): DimensionLayer {
  switch (layer) {
    case "device": return draft.device;
    case "content": return draft.content;
    case "delivery": return draft.delivery;
    case "ad": return draft.ad;
    case "adBreak": return draft.adBreak;
    case "ads": return draft.ads;
  }
}

/**
 * Writes into `degradation` what the anomalies of the draft's kind do to the session starting at
 * `startMs` with the draft's layers: those whose window holds the start and whose root cause is one
 * of the session's dimension values.
 */
function degrade(degradation: Degradation, anomalies: readonly AnomalyTarget[], startMs: number, draft: SessionDraft): Degradation {
  degradation.startFailure = 0;
  degradation.exitBeforeStart = 0;
  degradation.playbackFailure = 0;
  degradation.startTimeFactor = 1;
  degradation.rebufferingRatio = 0;
  degradation.bitrateFactor = 1;
  degradation.drop = 0;
  for (const anomaly of anomalies) {
    if (!(anomaly.startMs <= startMs && startMs < anomaly.endMs && layerIn(draft, anomaly.layer)[anomaly.dimension] === anomaly.entity)) continue;
    const intensity = anomaly.intensity;
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

const SERVERS_PER_POP = 16;
const POPS: readonly string[] = Object.values(CDN_POPS).flat();
const ALGORITHMS: readonly string[] = Object.values(PRECISION_ALGORITHMS);
/** The factor of each part of a delivery number ({@link deliveryCode}). */
const DELIVERY_LIVE = ALGORITHMS.length;
const DELIVERY_SERVER = 2 * DELIVERY_LIVE;
const DELIVERY_POP = (SERVERS_PER_POP + 1) * DELIVERY_SERVER;
const DELIVERY_CDN = POPS.length * DELIVERY_POP;

/** A viewer made ready for generation (the fields of {@link PreparedViewer}). */
function prepared(viewer: Viewer): PreparedViewer {
  const algorithm = PRECISION_ALGORITHMS[viewer.experimentGroup] ?? ALGORITHMS[0]!;
  return {
    viewer,
    devices: viewer.devices,
    deviceWeight: viewer.devices.reduce((sum, device) => sum + device.weight, 0),
    showEpisodes: viewer.favoriteShow === undefined ? undefined : SHOW_EPISODES[viewer.favoriteShow]!,
    showChance: viewer.customer === CUSTOMERS[0] ? 0.4 : 0.8,
    adsOnLiveOnly: viewer.tier === "premium",
    deliveryPart: POPS.indexOf(viewer.pop) * DELIVERY_POP + ALGORITHMS.indexOf(algorithm),
    algorithm,
    utcOffsetHours: viewer.utcOffsetHours,
  };
}

/**
 * One of the viewer's devices, by weight: the draw of Sampler.weighted, written out for devices
 * (the profile of a year's generation showed the shared version, calling a function per weight,
 * among the hottest lines). The weights are whole numbers, so their sum is the same worked out once.
 */
function pickDevice(sampler: Sampler, viewer: PreparedViewer): ViewerDevice {
  const devices = viewer.devices;
  let target = sampler.unit() * viewer.deviceWeight;
  for (const device of devices) {
    target -= device.weight;
    if (target < 0) return device;
  }
  return devices[devices.length - 1]!;
}

function pickAsset(sampler: Sampler, viewer: PreparedViewer): Asset {
  const episodes = viewer.showEpisodes;
  return episodes !== undefined && sampler.chance(viewer.showChance) ? episodes.draw(sampler) : ALL_ASSETS.draw(sampler);
}

/**
 * The number of a delivery layer in `tables.deliveries` (made there on first use): a number made of
 * the CDN, edge location, server, live flag and algorithm, an index into a dense array rather than
 * a key of a map, since this runs for every session.
 */
function deliveryCode(tables: CompactTables, viewer: PreparedViewer, cdn: Cdn, server: number, live: boolean): number {
  const code = CDNS.indexOf(cdn) * DELIVERY_CDN + viewer.deliveryPart + server * DELIVERY_SERVER + (live ? DELIVERY_LIVE : 0);
  if (tables.deliveries[code] === undefined) {
    const cdnSlug = cdn.name.toLowerCase();
    const pop = viewer.viewer.pop;
    tables.addDelivery(code, {
      cdn: cdn.name,
      cdn_edge_group: `${cdnSlug}-${pop}`,
      cdn_edge_server: `${pop}-edge-${String(server).padStart(2, "0")}.${cdn.edgeDomain}`,
      precision_algo_id: viewer.algorithm,
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

/** Writes the outcome of a session that never showed video: an exit before video start or a start failure. */
function notStarted(
  draft: SessionDraft, startMs: number, endMs: number, hasPreRoll: boolean, contentLengthMs: number, exit: boolean,
  startFailure: SessionRecord["videoStartFailure"], errorCode: string | undefined,
): void {
  draft.startMs = startMs;
  draft.endMs = endMs;
  draft.exitBeforeVideoStart = exit;
  draft.videoStartFailure = startFailure;
  draft.videoPlaybackFailure = undefined;
  draft.errorCode = errorCode;
  draft.hasPreRoll = hasPreRoll;
  draft.videoStartTimeMs = -1;
  draft.videoRestartTimeMs = 0;
  draft.playingTimeMs = 0;
  draft.rebufferingTimeMs = 0;
  draft.connectionInducedRebufferingTimeMs = 0;
  draft.pausedTimeMs = 0;
  draft.averageBitrateBps = 0;
  draft.averageFramerateFps = 0;
  draft.bitrateSwitches = 0;
  draft.percentageComplete = 0;
  draft.contentLengthMs = contentLengthMs;
}

/** Where an ad plays in the content. */
const PRE_ROLL: AdPlacement = Object.freeze({ position: "Preroll", breakIndex: 0, sequence: 1 });
const MID_ROLL: AdPlacement = Object.freeze({ position: "Midroll", breakIndex: 1, sequence: 1 });

/**
 * Generates one content session of `viewer` in the hour and the ads played in it. The draws follow
 * one fixed order (every value is drawn even for a session an anomaly drops, so a drop does not
 * shift the rest of the hour): the world of a seed is the same on every machine and in every thread.
 */
function generateSession(setup: WorldSetup, sampler: Sampler, viewer: PreparedViewer, hourIndex: number, output: HourWorkspace): void {
  const startMs = hourIndex * HOUR_MS + Math.floor(sampler.unit() * HOUR_MS);
  const device = pickDevice(sampler, viewer);
  const asset = pickAsset(sampler, viewer);
  const cdn = sampler.chance(0.75) ? device.primaryCdn : CDN_TABLE.draw(sampler);
  const delivery = deliveryCode(output.tables, viewer, cdn, sampler.integer(1, SERVERS_PER_POP), asset.live);
  const adRequested = !viewer.adsOnLiveOnly || asset.live;
  const hasPreRoll = adRequested && sampler.chance(asset.live ? 0.15 : 0.42);
  const content = output.contentDraft;
  content.viewerIndex = viewer.viewer.number - 1;
  content.deviceIndex = device.index;
  content.device = device.dimensions;
  content.content = asset.dimensions;
  content.delivery = output.tables.deliveries[delivery]!;
  content.ad = NO_AD;
  content.adBreak = NO_AD_BREAK;
  content.ads = hasPreRoll ? AD_REQUEST_LAYERS.preRoll : adRequested ? AD_REQUEST_LAYERS.noPreRoll : AD_REQUEST_LAYERS.none;
  content.deliveryCode = delivery;
  const degradation = degrade(output.degradation, output.contentAnomalies, startMs, content);
  const dropped = sampler.chance(degradation.drop);
  const cellular = device.dimensions["connection_type"] === "Cellular";
  playContent(sampler, content, startMs, asset, device.profile.typicalBitrateBps, cellular, hasPreRoll, degradation);
  const sessionId = sampler.bigId();
  content.sessionId = sessionId;
  content.contentSessionId = Number.NaN;
  content.specialContentId = specialContentIdOf(asset, hourIndex);
  const exitedBeforeContent = content.exitBeforeVideoStart;
  const midRollAt = startMs + Math.max(0, content.videoStartTimeMs) + content.playingTimeMs * sampler.between(0.3, 0.6);
  const midRoll = adRequested && !asset.live && content.playingTimeMs > 10 * MINUTE_MS && sampler.chance(0.12) && midRollAt < (hourIndex + 1) * HOUR_MS;
  // Added before its ads are drawn: those write other drafts, and the builders sort by start.
  if (!dropped) output.content.add(content);
  if (!hasPreRoll && !midRoll) return;
  const local = localHour(hourIndex, viewer.utcOffsetHours);
  if (hasPreRoll) generateAd(setup, sampler, output, content, asset, device, PRE_ROLL, startMs + 150, exitedBeforeContent, local, dropped);
  if (midRoll) generateAd(setup, sampler, output, content, asset, device, MID_ROLL, Math.floor(midRollAt), false, local, dropped);
}

/** Generates one ad played in the content session of `content` (added unless that session was dropped). */
function generateAd(
  setup: WorldSetup, sampler: Sampler, output: HourWorkspace, content: SessionDraft, asset: Asset, device: ViewerDevice,
  placement: AdPlacement, startMs: number, exited: boolean, local: number, dropped: boolean,
): void {
  const plan = planAd(sampler, setup.caches, asset, device, placement, local);
  const ad = output.adDraft;
  ad.viewerIndex = content.viewerIndex;
  ad.deviceIndex = content.deviceIndex;
  ad.device = content.device;
  ad.content = content.content;
  ad.delivery = content.delivery;
  ad.ad = plan.ad;
  ad.adBreak = plan.adBreak;
  ad.ads = content.ads;
  ad.deliveryCode = content.deliveryCode;
  ad.specialContentId = content.specialContentId;
  const degradation = degrade(output.degradation, output.adAnomalies, startMs, ad);
  ad.sessionId = sampler.bigId();
  ad.contentSessionId = content.sessionId;
  playAd(sampler, ad, startMs, plan.durationMs, exited, degradation);
  if (!dropped) output.ad.add(ad);
}

const FRAME_RATES = [23.976, 25, 29.97, 29.97, 29.97, 30, 59.94] as const;

function round(value: number, digits = 0): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** Writes how a content session went into `draft`. */
function playContent(
  sampler: Sampler, draft: SessionDraft, startMs: number, asset: Asset, profileBitrate: number, cellular: boolean, hasPreRoll: boolean,
  degradation: Degradation,
): void {
  const exitChance = 0.02 + (cellular ? 0.01 : 0) + (hasPreRoll ? 0.025 : 0) + degradation.exitBeforeStart;
  const contentLengthMs = asset.lengthMs;
  if (sampler.chance(exitChance)) {
    const waitedMs = Math.round(hasPreRoll ? sampler.between(4_000, 25_000) : sampler.logNormal(3_500, 0.7));
    notStarted(draft, startMs, startMs + waitedMs, hasPreRoll, contentLengthMs, true, undefined, undefined);
    return;
  }
  if (sampler.chance(0.012 + degradation.startFailure)) {
    const business = sampler.chance(degradation.startFailure > 0 ? 0.05 : 0.3);
    const errorCode = sampler.pick(business ? ERROR_CODES.startBusiness : ERROR_CODES.startTech);
    const failedAfterMs = Math.round(sampler.between(1_500, 15_000));
    notStarted(draft, startMs, startMs + failedAfterMs, hasPreRoll, contentLengthMs, false, business ? "business" : "tech", errorCode);
    return;
  }
  const videoStartTimeMs = Math.round(sampler.logNormal(cellular ? 2_400 : 1_600, 0.45) * degradation.startTimeFactor);
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
  const baseRatio = sampler.chance(cellular ? 0.5 : 0.3) ? sampler.exponential(cellular ? 0.02 : 0.01) : 0;
  const ratio = Math.min(0.6, baseRatio + (degradation.rebufferingRatio > 0 ? degradation.rebufferingRatio * sampler.between(0.6, 1.4) : 0));
  const rebufferingTimeMs = Math.round((playingTimeMs * ratio) / (1 - ratio));
  const pausedTimeMs = sampler.chance(0.3) ? Math.round(playingTimeMs * sampler.between(0, 0.12)) : 0;
  const videoRestartTimeMs = sampler.chance(0.4) ? Math.round(sampler.between(300, 1_500)) : 0;
  draft.startMs = startMs;
  draft.endMs = startMs + videoStartTimeMs + playingTimeMs + rebufferingTimeMs + pausedTimeMs + videoRestartTimeMs;
  draft.exitBeforeVideoStart = false;
  draft.videoStartFailure = undefined;
  draft.videoPlaybackFailure = videoPlaybackFailure;
  draft.errorCode = errorCode;
  draft.hasPreRoll = hasPreRoll;
  draft.videoStartTimeMs = videoStartTimeMs;
  draft.videoRestartTimeMs = videoRestartTimeMs;
  draft.playingTimeMs = playingTimeMs;
  draft.rebufferingTimeMs = rebufferingTimeMs;
  // The draws below keep the order they always had.
  draft.connectionInducedRebufferingTimeMs = Math.round(rebufferingTimeMs * sampler.between(0.6, 0.95));
  draft.pausedTimeMs = pausedTimeMs;
  draft.averageBitrateBps = Math.round(profileBitrate * sampler.between(0.72, 1.08) * (cellular ? 0.75 : 1) * (1 - Math.min(0.5, ratio * 3)));
  draft.averageFramerateFps = asset.sports ? 59.94 : sampler.pick(FRAME_RATES);
  draft.bitrateSwitches = Math.round(sampler.exponential(playingTimeMs / (6 * MINUTE_MS) + 0.5));
  draft.percentageComplete = round(Math.min(100, (playingTimeMs / (asset.live ? HOUR_MS : contentLengthMs)) * 100), 2);
  draft.contentLengthMs = contentLengthMs;
}

/** Writes how an ad session went into `draft`. */
function playAd(sampler: Sampler, draft: SessionDraft, startMs: number, durationMs: number, exited: boolean, degradation: Degradation): void {
  if (!exited && sampler.chance(0.03 + degradation.exitBeforeStart)) {
    notStarted(draft, startMs, startMs + Math.round(sampler.between(500, 4_000)), false, durationMs, true, undefined, undefined);
    return;
  }
  if (sampler.chance(0.025 + degradation.startFailure)) {
    const endMs = startMs + Math.round(sampler.between(1_000, 8_000));
    notStarted(draft, startMs, endMs, false, durationMs, false, "tech", sampler.pick(ERROR_CODES.startTech));
    return;
  }
  const videoStartTimeMs = Math.round(sampler.logNormal(700, 0.4) * degradation.startTimeFactor);
  let playingTimeMs = exited
    ? durationMs * sampler.between(0.1, 0.8)
    : sampler.chance(0.92) ? durationMs : durationMs * sampler.between(0.25, 0.9);
  let videoPlaybackFailure: SessionRecord["videoPlaybackFailure"];
  let errorCode: string | undefined;
  if (!exited && sampler.chance(0.008 + degradation.playbackFailure)) {
    videoPlaybackFailure = "tech";
    errorCode = sampler.pick(ERROR_CODES.playbackTech);
    playingTimeMs *= sampler.between(0.1, 0.9);
  }
  playingTimeMs = Math.round(playingTimeMs);
  const ratio = Math.min(0.5, (sampler.chance(0.1) ? sampler.exponential(0.006) : 0) + degradation.rebufferingRatio);
  const rebufferingTimeMs = Math.round((playingTimeMs * ratio) / (1 - ratio));
  draft.startMs = startMs;
  draft.endMs = startMs + videoStartTimeMs + playingTimeMs + rebufferingTimeMs;
  draft.exitBeforeVideoStart = false;
  draft.videoStartFailure = undefined;
  draft.videoPlaybackFailure = videoPlaybackFailure;
  draft.errorCode = errorCode;
  draft.hasPreRoll = false;
  draft.videoStartTimeMs = videoStartTimeMs;
  draft.videoRestartTimeMs = 0;
  draft.playingTimeMs = playingTimeMs;
  draft.rebufferingTimeMs = rebufferingTimeMs;
  draft.connectionInducedRebufferingTimeMs = Math.round(rebufferingTimeMs * 0.8);
  draft.pausedTimeMs = 0;
  // The draws below keep the order they always had.
  draft.averageBitrateBps = Math.round(sampler.logNormal(2_200_000, 0.25) * degradation.bitrateFactor);
  draft.averageFramerateFps = 29.97;
  draft.bitrateSwitches = sampler.integer(0, 2);
  draft.percentageComplete = round(Math.min(100, (playingTimeMs / durationMs) * 100), 2);
  draft.contentLengthMs = durationMs;
}
