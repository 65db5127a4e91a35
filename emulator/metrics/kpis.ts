import type { QueryReader } from "../query";
import { badRequest } from "../http";

/**
 * KPI sets (spec 2.6, 4.6): the thresholds that KPI-based metrics judge a session by (high startup
 * time, high rebuffering, low bitrate, and through them good/bad sessions and the streaming
 * performance index). Set 1 is the default set (spec 2.6); the others and every threshold value are
 * the emulator's choice (the spec does not show them), listed in emulator/README.md.
 */
export interface KpiSet {
  kpi_id: number;
  kpi_name: string;
  /** A play whose video start time is above this is a high-startup-time play. */
  startupTimeMs: number;
  /** A play whose rebuffering ratio (percent) is above this is a high-rebuffering play. */
  rebufferingRatioPercent: number;
  /** A play whose average bitrate is below this is a low-bitrate play. */
  bitrateBps: number;
}

/** Every KPI set, in id order; `GET /kpis` lists their id and name. */
export const KPI_SETS: readonly KpiSet[] = [
  { kpi_id: 1, kpi_name: "Default", startupTimeMs: 5_000, rebufferingRatioPercent: 2, bitrateBps: 1_500_000 },
  { kpi_id: 2, kpi_name: "Premium experience", startupTimeMs: 3_000, rebufferingRatioPercent: 1, bitrateBps: 3_000_000 },
  { kpi_id: 3, kpi_name: "Mobile networks", startupTimeMs: 8_000, rebufferingRatioPercent: 3, bitrateBps: 800_000 },
];

/** The default KPI set (spec 2.6: set 1), also what endpoints without `kpi_id` judge sessions by. */
export const DEFAULT_KPI_SET: KpiSet = KPI_SETS[0]!;

/** The `kpi_id` parameter (spec 4.6): default 1; an id that is not a KPI set is 400. */
export function parseKpiId(reader: QueryReader): KpiSet {
  const text = reader.string("kpi_id");
  if (text === undefined) return DEFAULT_KPI_SET;
  const found = /^\d+$/.test(text) ? KPI_SETS.find((set) => set.kpi_id === Number(text)) : undefined;
  if (!found) {
    const known = KPI_SETS.map((set) => set.kpi_id).join(", ");
    throw badRequest(`"kpi_id" must be the id of a KPI set (GET /kpis lists them: ${known}), got "${text}"`, "kpi_id");
  }
  return found;
}
