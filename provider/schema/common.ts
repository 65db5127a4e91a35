import { z } from "zod";
import type * as records from "./records";

import { Identifier as LenientIdentifier, listingOf } from "./assumptions";

/**
 * @internal
 * An identifier that the service sends as a number in some responses and as a string in others
 * (docs/api.md 2.7, 10.2): accepted as either, always a string after parsing
 * (provider/schema/assumptions.ts).
 */
export const Identifier = LenientIdentifier;

/** @internal A calendar-date query value (spec 4.8 `created`, 4.10 `start`/`end`: YYYY-MM-DD). */
export const CalendarDate = z.iso.date({ message: "expected a calendar date as YYYY-MM-DD, for example 2026-11-20" });

/** @internal A timestamp of sessions and metrics (spec 2.2, 2.4): epoch milliseconds and ISO 8601 UTC. */
export const Timestamp = z
  .looseObject({
    epoch_ms: z.number().int().describe("Milliseconds since 1970-01-01T00:00:00Z."),
    iso_date: z.string().describe("The same instant in ISO 8601, UTC."),
  })
  .describe("A timestamp of sessions and metrics (spec 2.2, 2.4): epoch milliseconds and ISO 8601 UTC.");
/** A {@link Timestamp} after parsing. */
export type Timestamp = records.Timestamp;

/** @internal A timestamp of AI alerts (spec 2.8): epoch seconds and ISO 8601. */
export const AlertTimestamp = z
  .looseObject({
    epoch_sec: z.number().int().describe("Seconds since 1970-01-01T00:00:00Z."),
    iso_date: z.string().describe("The same instant in ISO 8601."),
  })
  .describe("A timestamp of AI alerts (spec 2.8): epoch seconds and ISO 8601.");
/** An {@link AlertTimestamp} after parsing. */
export type AlertTimestamp = records.AlertTimestamp;

/**
 * The `{status, values}` answer of every lookup endpoint (docs/api.md 4.8, 10.2), read leniently as
 * `{values}` (provider/schema/assumptions.ts `listingOf`: a bare array is accepted too).
 * @internal
 */
export const LookupValues = listingOf(z.string(), "values", "The values of the lookup.").describe(
  "The `{status, values}` answer of every lookup endpoint (docs/api.md 10.2).",
);
/** A {@link LookupValues} after parsing. */
export type LookupValues = records.LookupValues;

/**
 * The JSON error body of the emulator's standard dialect (docs/api.md 11.1). The client does not
 * parse errors with it: it reads any body with `readErrorBody` of provider/schema/assumptions.ts.
 * @internal
 */
export const ErrorBody = z
  .looseObject({
    status: z.number().int().optional().describe("The HTTP status of the answer."),
    error: z.string().optional().describe("A machine-readable code (docs/api.md 11.1), shown to people, never decided on."),
    message: z.string().describe("What went wrong, in a sentence."),
    parameter: z.string().optional().describe("The query parameter or body path at fault, when one is."),
  })
  .describe(
    "The JSON error body that the emulator answers and that the client reads. The real service's shape is not shown (spec 7); `message` is what docs/api.md 10.1 shows for 401, the rest is the emulator's choice.",
  );
/** An {@link ErrorBody} after parsing. */
export type ErrorBody = records.ErrorBody;

/**
 * True for a JSON object (a map), not null and not an array: what checks of bodies and inputs given
 * as plain JSON expect where an object belongs (rule nodes, filter specs, request bodies).
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Formats epoch milliseconds as the ISO 8601 UTC string with milliseconds used on the wire. */
export function isoDate(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/** Builds a {@link Timestamp} from epoch milliseconds. */
export function timestampOf(epochMs: number): Timestamp {
  return { epoch_ms: Math.trunc(epochMs), iso_date: isoDate(epochMs) };
}

/** Builds an {@link AlertTimestamp} from epoch milliseconds. */
export function alertTimestampOf(epochMs: number): AlertTimestamp {
  const epochSec = Math.floor(epochMs / 1000);
  return { epoch_sec: epochSec, iso_date: isoDate(epochSec * 1000) };
}
