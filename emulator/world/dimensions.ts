import { GROUP_BY_DIMENSIONS } from "../contract/dimensions";

/**
 * A session's dimension values (world/types.ts `SessionRecord.dimensions`), assembled from shared
 * layers. Each session has a value for every predefined group-by dimension of spec 4.7 (about 90),
 * but almost all of them belong to something shared: the viewer's device and home (geography,
 * network, player), the asset, the CDN edge, the ad creative. Keeping one 90-key object per session
 * would cost over 100 MB for 30 days, so a session holds references to its layers and a read-only
 * view answers `dimensions[key]`, `Object.keys` and `JSON.stringify` as if it were a plain object.
 */

/** A layer: some of the dimension keys with their values. */
export type DimensionLayer = Readonly<Record<string, string>>;

/** The value of a dimension that does not apply, such as an ad dimension of a content session. */
export const NOT_APPLICABLE = "N/A";

/** The layers of a session and the snake_case keys each one holds (disjoint, together all of spec 4.7). */
export const LAYER_KEYS = {
  /** The viewer's device, player, home geography and network. */
  device: [
    "app_version", "asn", "browser_name", "browser_version", "connection_type", "svc_core_sdk_version", "customer",
    "device_category", "device_hardware_type", "device_manufacturer", "device_marketing_name", "device_model",
    "device_name", "device_os", "device_os_family", "device_os_version", "geo_city_name", "geo_continent_name",
    "geo_country_code", "geo_dma", "geo_postal_code", "geo_state_name", "isp", "network_connection_type", "platform",
    "platform_version", "player_name", "player_framework_name", "player_framework_version", "user_agent",
    "utm_tracking_code",
  ],
  /** The asset played. */
  content: [
    "asset", "asset_type", "content_category", "content_meta_affiliate", "content_meta_brand",
    "content_meta_category_type", "content_meta_channel", "content_meta_content_type", "content_meta_episode_number",
    "content_meta_genre", "content_meta_genre_list", "content_meta_id", "content_meta_name",
    "content_meta_season_number", "content_meta_series_name", "content_meta_show_title", "video_asset_name",
  ],
  /** The CDN edge that served it. */
  delivery: ["cdn", "cdn_edge_group", "cdn_edge_server", "precision_algo_id", "precision_cdn", "precision_rs", "stream_host"],
  /** The ad creative and how it was served (ad sessions; N/A for content sessions). */
  ad: [
    "ad_campaign_name", "ad_category", "ad_creative_id", "ad_creative_name", "ad_creative_type", "ad_day_part",
    "ad_deal_id", "ad_fallback_index", "ad_first_ad_id", "ad_first_ad_system", "ad_first_creative_id", "ad_id",
    "ad_is_slate", "ad_manager_name", "ad_manager_version", "ad_media_file_api_framework", "ad_planned_duration",
    "ad_position", "ad_sequence", "ad_session_start_event", "ad_stitcher", "ad_system", "ad_technology", "ad_type",
    "ad_unit_name", "ad_video_asset_name", "advertiser", "advertiser_category", "advertiser_id", "advertiser_name",
  ],
  /** The ad break of the asset (ad sessions; N/A for content sessions). */
  adBreak: ["ad_break_id", "ad_break_index"],
  /** Whether ads were requested and a pre-roll played. */
  ads: ["is_ad_requested", "preroll_status"],
} as const;

/** A layer name. */
export type LayerName = keyof typeof LAYER_KEYS;

/** The layers of one session. */
export type SessionLayers = Readonly<Record<LayerName, DimensionLayer>>;

/** Every dimension key, in the order of spec 4.7. */
export const DIMENSION_KEYS: readonly string[] = GROUP_BY_DIMENSIONS.map((name) => name.replace(/-/g, "_"));

/** The layer of each key; a prototype-less object because the view looks keys up on every read. */
const LAYER_OF: Record<string, LayerName | undefined> = Object.create(null);
for (const [layer, keys] of Object.entries(LAYER_KEYS) as Array<[LayerName, readonly string[]]>) {
  for (const key of keys) LAYER_OF[key] = layer;
}
const missing = DIMENSION_KEYS.filter((key) => LAYER_OF[key] === undefined);
if (missing.length > 0 || Object.keys(LAYER_OF).length !== DIMENSION_KEYS.length) {
  // A programming error in this module: every spec dimension needs exactly one layer.
  throw new Error(`world dimension layers do not match spec 4.7: missing ${missing.join(", ")}`);
}

/** A layer in which every key of `layer` is {@link NOT_APPLICABLE}. */
export function notApplicableLayer(layer: LayerName): DimensionLayer {
  return Object.freeze(Object.fromEntries(LAYER_KEYS[layer].map((key) => [key, NOT_APPLICABLE])));
}

const refuse = () => false;

const VIEW: ProxyHandler<SessionLayers> = {
  get: (layers, key) => {
    const layer = typeof key === "string" ? LAYER_OF[key] : undefined;
    return layer === undefined ? undefined : layers[layer][key as string];
  },
  has: (_layers, key) => typeof key === "string" && LAYER_OF[key] !== undefined,
  ownKeys: () => [...DIMENSION_KEYS],
  getOwnPropertyDescriptor: (layers, key) => {
    const layer = typeof key === "string" ? LAYER_OF[key] : undefined;
    if (layer === undefined) return undefined;
    return { value: layers[layer][key as string], enumerable: true, configurable: true, writable: false };
  },
  set: refuse,
  defineProperty: refuse,
  deleteProperty: refuse,
};

/**
 * The layers of one session as an object with its keys in one order, so every session's layers
 * share one hidden class (the view reads them for every dimension value).
 */
export function dimensionLayers(
  device: DimensionLayer, content: DimensionLayer, delivery: DimensionLayer, ad: DimensionLayer, adBreak: DimensionLayer,
  ads: DimensionLayer,
): Record<LayerName, DimensionLayer> {
  return { device, content, delivery, ad, adBreak, ads };
}

/** The layer that holds a snake_case dimension, if it is one. */
export function layerOf(key: string): LayerName | undefined {
  return LAYER_OF[key];
}

/** The read-only dimension record of a session made of these layers. */
export function layeredDimensions(layers: SessionLayers): Readonly<Record<string, string>> {
  return new Proxy(layers, VIEW) as unknown as Readonly<Record<string, string>>;
}
