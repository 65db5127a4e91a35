/**
 * Values on the provider-host wire: plain JSON inside `google.protobuf.Struct`, with Pulumi's secret
 * marker (docs/dynamic-providers.md "Testing without the CLI": `{"4dabf18193072939515e22adb298388d":
 * "1b47061264138c4ac30d75fd1eb44270", "value": ...}`). A secret in the driver is that very object,
 * so what a test writes is what travels and what comes back can be compared as it is.
 */
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { writtenStruct, type StructLike } from "../provider/plugin/struct-wire";
import { PREVIEW_UNKNOWN } from "../provider/rules";

/** The key that marks a special Pulumi value in a Struct (the SDK's `runtime.specialSigKey`). */
export const SPECIAL_SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";
/** The signature of a secret (the SDK's `runtime.specialSecretSig`). */
export const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";
/** The value the engine sends for a value not known yet during a preview (`runtime.unknownValue`). */
export const UNKNOWN_VALUE = PREVIEW_UNKNOWN;

/** A JSON object as the wire carries it. */
export type PropertyMap = Record<string, unknown>;

/** A secret value in its wire form. */
export interface SecretValue<T = unknown> {
  [SPECIAL_SIGNATURE_KEY]: typeof SECRET_SIGNATURE;
  value: T;
}

/** Wraps `value` as a secret, in the wire form the engine uses. */
export function secret<T>(value: T): SecretValue<T> {
  return { [SPECIAL_SIGNATURE_KEY]: SECRET_SIGNATURE, value };
}

/** True when `value` is a secret marker. */
export function isSecret(value: unknown): value is SecretValue {
  return typeof value === "object" && value !== null
    && (value as Record<string, unknown>)[SPECIAL_SIGNATURE_KEY] === SECRET_SIGNATURE;
}

/**
 * `value` with every secret replaced by its plain value, as the engine sends properties to a
 * provider that did not accept secrets in `configure` (the dynamic-provider host never does).
 */
export function revealSecrets<T>(value: T): T {
  if (isSecret(value)) return revealSecrets(value.value) as T;
  if (Array.isArray(value)) return value.map(revealSecrets) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, revealSecrets(member)])) as T;
  }
  return value;
}

/**
 * The JSON form of a value, as Struct needs it: object members that are `undefined` are dropped
 * (the SDK treats them as absent), `undefined` array items become null, and anything that is not
 * JSON (a function, a Date, a class instance) is refused with its path instead of being mangled.
 */
function toJson(value: unknown, path: string): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`${path}: ${value} cannot travel in a Struct`);
    return value;
  }
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map((item, index) => toJson(item, `${path}[${index}]`));
  if (typeof value === "object") {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype === Object.prototype || prototype === null) {
      const entries = Object.entries(value).filter(([, member]) => member !== undefined);
      return Object.fromEntries(entries.map(([key, member]) => [key, toJson(member, `${path}.${key}`)]));
    }
    throw new TypeError(`${path}: a ${value.constructor.name} cannot travel in a Struct`);
  }
  throw new TypeError(`${path}: a ${typeof value} cannot travel in a Struct`);
}

/**
 * A property map as a Struct, written by the plugin's own encoder (provider/plugin/struct-wire.ts):
 * google-protobuf's takes seconds for the thousands of members of a large SavedFilterSet, time this
 * process (and an emulator in it) would spend blocked.
 */
export function toStruct(properties: PropertyMap): Struct {
  return writtenStruct(toJson(properties, "properties") as Record<string, unknown>);
}

/** A Struct as a property map (an absent Struct is an empty map). */
export function fromStruct(struct: StructLike | undefined): PropertyMap {
  return struct === undefined ? {} : (struct.toJavaScript() as PropertyMap);
}
