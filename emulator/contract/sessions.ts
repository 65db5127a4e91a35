import type { WireTimestamp } from "../text/wire";

/**
 * Session bodies as the emulator reads the contract (docs/api.md 2.1 to 2.5, 4.5).
 */

/** A session object (docs/api.md 2.2); ad sessions carry `ad_info` too (our choice). */
export interface SessionBody {
  svc_session_id: string;
  client_id: string;
  session_id: string;
  viewer_id?: string;
  timestamps: { start: WireTimestamp; end?: WireTimestamp };
  status_info: { is_ended: boolean; ended_status?: string; errors: string[] } & Record<string, boolean | string | string[] | undefined>;
  lifetime_metrics: Record<string, number>;
  content_info: { asset: string; category: string; length_ms: number; stream_url: string };
  device_info: { browser: { name: string; version: string }; name: string; os: string; os_family: string; os_version: string };
  geo_info: {
    city: string;
    state: { name: string; code: string };
    country: { name: string; code: string };
    continent: string;
    postal_code: string;
    dma: string;
  };
  network_info: {
    asn: { value: string; description: string };
    cdn: string[];
    ip: string;
    ipv6: string | null;
    isp: string;
    last_cdn_edge_server: string;
    last_cdn_group_id: string;
  };
  tags: { selected_dimensions: Record<string, string>; custom_tags: Record<string, string> };
  [extra: string]: unknown;
}

/** A session list (docs/api.md 2.1). */
export interface SessionListBody {
  sessions: SessionBody[];
}

/** The members of a viewer summary's `total`, each an object of numbers (docs/api.md 2.3). */
export type ViewerSummaryTotal = Record<string, Record<string, number>>;

/** A viewer summary (docs/api.md 2.3): `total` and `_meta`, no time series. */
export interface ViewerSummaryBody {
  total: ViewerSummaryTotal;
  _meta: {
    queries: { viewer_id?: string; viewer_ip?: string; start_epoch_ms: number; end_epoch_ms: number };
    query_string: string;
    ratio_info: { connection_induced_rebuffering_ratio: { max: number }; rebuffering_ratio: { max: number } };
    annotations: Array<{ cause: string; value: string }>;
  };
}

/** The dimension lookup of the sessions API (docs/api.md 2.5). */
export interface SessionDimensionListBody {
  dimensions: Array<{ name: string; query_filter: string; is_custom: boolean }>;
}

/** The discovery answer (docs/api.md 4.5: its path and payload are our choice). */
export interface DiscoveryBody {
  resources: Array<{ path: string; description: string; prerequisite: string; available: boolean }>;
}
