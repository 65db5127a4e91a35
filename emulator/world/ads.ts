import {
  AD_API_FRAMEWORKS, AD_CREATIVE_TYPES, AD_DAY_PARTS, AD_DURATIONS_SECONDS, AD_SYSTEMS, AD_TYPES, AD_UNITS, ADVERTISERS,
} from "./catalog";
import { NOT_APPLICABLE, type DimensionLayer } from "./dimensions";
import type { Asset } from "./assets";
import type { Sampler } from "./sampling";
import type { ViewerDevice } from "./population";

/**
 * Ad creatives and the ad dimensions of ad sessions (spec 4.7 ad_*, advertiser*). The creative,
 * its position in the break and how it was served make one interned layer.
 */

/** A creative of a campaign. */
interface Creative {
  id: string;
  name: string;
  videoName: string;
  durationSeconds: number;
  advertiser: (typeof ADVERTISERS)[number] | undefined;
  campaign: string;
  dealId: string;
}

const CREATIVES: readonly Creative[] = ADVERTISERS.flatMap((advertiser, advertiserIndex) =>
  advertiser.campaigns.flatMap((campaign, campaignIndex) =>
    [15, 30].map((durationSeconds, creativeIndex): Creative => {
      const number = 10_000 + advertiserIndex * 100 + campaignIndex * 10 + creativeIndex;
      const name = `${advertiser.name} - ${campaign} ${durationSeconds}s`;
      return {
        id: `cr-${number}`,
        name,
        videoName: `${name.replace(/[^A-Za-z0-9]+/g, "_")}.mp4`,
        durationSeconds,
        advertiser,
        campaign,
        dealId: campaignIndex === 0 ? `deal-${advertiser.id}-${campaignIndex + 1}` : NOT_APPLICABLE,
      };
    }),
  ),
);

/** The filler shown when no creative is available (`ad_is_slate` true). */
const SLATE: Creative = {
  id: "cr-slate", name: "StreamCo Slate", videoName: "StreamCo_Slate.mp4", durationSeconds: 30, advertiser: undefined,
  campaign: NOT_APPLICABLE, dealId: NOT_APPLICABLE,
};

/** Share of ads that are slates. */
const SLATE_SHARE = 0.04;

/** Hardware types served by server-side insertion (FreeWheel) when not live. */
const LIVING_ROOM = new Set(["Smart TV", "Set-top Box", "Game Console"]);
/** The weight of each client-side API framework. */
const FRAMEWORK_WEIGHTS: Readonly<Record<string, number>> = { None: 3, VPAID: 1, OMID: 6 };
const frameworkWeight = (name: string): number => FRAMEWORK_WEIGHTS[name]!;

/**
 * The interning key of an ad layer as one number (a joined string would be built and hashed for
 * every ad: the profile of a year's generation showed that lookup among the hottest lines). Each
 * factor is the index of the value in its closed list; durations and sequences are small integers.
 */
function adLayerKey(creative: number, durationSeconds: number, position: number, sequence: number, system: number, framework: number, unit: number, part: number): number {
  return ((((((creative * 1000 + durationSeconds) * 2 + position) * 100 + sequence) * 8 + system) * 8 + framework) * 8 + unit) * 8 + part;
}

/** Where an ad plays in the content: before it, or in the break at `breakIndex`. */
export interface AdPlacement {
  position: "Preroll" | "Midroll";
  breakIndex: number;
  /** 1 for the first ad of the break. */
  sequence: number;
}

/** One ad to play: its planned duration and dimension layers. */
export interface AdPlan {
  durationMs: number;
  slate: boolean;
  ad: DimensionLayer;
  adBreak: DimensionLayer;
}

/** Interned layers, per world (they are shared by many sessions). */
export interface AdLayerCaches {
  ad: Map<number, DimensionLayer>;
  /** By asset, then break index. */
  adBreak: Map<Asset, DimensionLayer[]>;
}

function dayPart(localHour: number): string {
  if (localHour < 6) return AD_DAY_PARTS[0];
  if (localHour < 10) return AD_DAY_PARTS[1];
  if (localHour < 16) return AD_DAY_PARTS[2];
  if (localHour < 19) return AD_DAY_PARTS[3];
  if (localHour < 23) return AD_DAY_PARTS[4];
  return AD_DAY_PARTS[5];
}

/**
 * Plans one ad of a content session: server-side insertion for live content (MediaTailor) and
 * living-room devices (FreeWheel), client-side (Google IMA) on phones and browsers.
 */
export function planAd(
  sampler: Sampler, caches: AdLayerCaches, asset: Asset, device: ViewerDevice, placement: AdPlacement, localHour: number,
): AdPlan {
  const slate = sampler.chance(SLATE_SHARE);
  const creative = slate ? SLATE : sampler.pick(CREATIVES);
  const durationSeconds = slate ? sampler.pick(AD_DURATIONS_SECONDS) : creative.durationSeconds;
  const livingRoom = LIVING_ROOM.has(device.profile.hardwareType);
  const system = asset.live ? AD_SYSTEMS[2] : livingRoom ? AD_SYSTEMS[1] : AD_SYSTEMS[0];
  const clientSide = system.technology === "Client Side";
  const framework = clientSide ? sampler.weighted(AD_API_FRAMEWORKS, frameworkWeight) : "None";
  const unit = asset.kids ? AD_UNITS[2] : asset.live ? AD_UNITS[1] : AD_UNITS[0];
  const part = dayPart(localHour);
  const key = adLayerKey(
    slate ? CREATIVES.length : CREATIVES.indexOf(creative), durationSeconds, placement.position === "Preroll" ? 0 : 1, placement.sequence,
    AD_SYSTEMS.indexOf(system), (AD_API_FRAMEWORKS as readonly string[]).indexOf(framework), (AD_UNITS as readonly string[]).indexOf(unit),
    (AD_DAY_PARTS as readonly string[]).indexOf(part),
  );
  // Looked up, then made if missing: a function handed to a cache would be a closure made for
  // every ad (the profile of a cold year showed them among the generator's allocations).
  let ad = caches.ad.get(key);
  if (ad === undefined) {
    ad = Object.freeze({
      ad_campaign_name: creative.campaign,
      ad_category: creative.advertiser?.category ?? NOT_APPLICABLE,
      ad_creative_id: creative.id,
      ad_creative_name: creative.name,
      ad_creative_type: clientSide ? AD_CREATIVE_TYPES[0] : AD_CREATIVE_TYPES[1],
      ad_day_part: part,
      ad_deal_id: creative.dealId,
      ad_fallback_index: "0",
      ad_first_ad_id: creative.id.replace("cr-", "ad-"),
      ad_first_ad_system: system.system,
      ad_first_creative_id: creative.id,
      ad_id: creative.id.replace("cr-", "ad-"),
      ad_is_slate: String(slate),
      ad_manager_name: system.manager,
      ad_manager_version: system.managerVersion,
      ad_media_file_api_framework: framework,
      ad_planned_duration: String(durationSeconds),
      ad_position: placement.position,
      ad_sequence: String(placement.sequence),
      ad_session_start_event: "Impression",
      ad_stitcher: system.stitcher,
      ad_system: system.system,
      ad_technology: system.technology,
      ad_type: slate ? AD_TYPES[1] : AD_TYPES[0],
      ad_unit_name: unit,
      ad_video_asset_name: creative.videoName,
      advertiser: creative.advertiser?.name ?? NOT_APPLICABLE,
      advertiser_category: creative.advertiser?.category ?? NOT_APPLICABLE,
      advertiser_id: creative.advertiser?.id ?? NOT_APPLICABLE,
      advertiser_name: creative.advertiser?.name ?? NOT_APPLICABLE,
    });
    caches.ad.set(key, ad);
  }
  const contentId = asset.dimensions["content_meta_id"] ?? asset.name;
  let breaks = caches.adBreak.get(asset);
  if (breaks === undefined) caches.adBreak.set(asset, (breaks = []));
  const adBreak = breaks[placement.breakIndex] ??= Object.freeze({ ad_break_id: `${contentId}-break-${placement.breakIndex}`, ad_break_index: String(placement.breakIndex) });
  return { durationMs: durationSeconds * 1000, slate, ad, adBreak };
}
