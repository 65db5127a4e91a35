import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { writtenStruct, type StructLike } from "./struct-wire";
import { wireSecret, withoutSecretMarkers } from "../accounts/wire-secret";

/**
 * Property bags on the plugin's wire: `google.protobuf.Struct` in both directions, with Pulumi's
 * secret marker inside once the plugin accepts secrets (docs/provider-plugins.md rule 6).
 */

/** A property bag as plain JSON, secret markers included. */
export type PropertyMap = Record<string, unknown>;

/** A request's Struct as plain JSON, secret markers kept (an absent Struct is an empty bag). */
export function propertiesOf(struct: StructLike | undefined): PropertyMap {
  return struct === undefined ? {} : (struct.toJavaScript() as PropertyMap);
}

/**
 * `properties` as a Struct, written by ./struct-wire.ts. It goes through JSON first: members that
 * are `undefined` are left out (the engine treats them as absent) and dates become ISO 8601 text.
 */
export function structOf(properties: object): Struct {
  return writtenStruct(JSON.parse(JSON.stringify(properties)) as Record<string, unknown>);
}

/** `value` with every secret marker replaced by its plain value. */
export function revealed<T>(value: T): T {
  return withoutSecretMarkers(value) as T;
}

/** True when a secret marker is anywhere in `value`. */
export function containsSecret(value: unknown): boolean {
  return JSON.stringify(value ?? null) !== JSON.stringify(revealed(value) ?? null);
}

/** `properties` with each top-level value as a secret: the engine stores them encrypted and shows `[secret]`. */
export function secretProperties(properties: PropertyMap): PropertyMap {
  return Object.fromEntries(Object.entries(properties).filter(([, value]) => value !== undefined).map(([key, value]) => [key, wireSecret(value)]));
}
