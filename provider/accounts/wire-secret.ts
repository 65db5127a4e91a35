/**
 * Secrets as they travel between the engine and a provider, in either host: Pulumi's secret marker
 * `{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "value": ...}`
 * (docs/dynamic-providers.md "Testing without the CLI", docs/provider-plugins.md rule 6). The
 * engine stores a value a provider answers in this form encrypted, whatever the program did, which
 * is how the PiiOptOutRequest keeps its identifiers secret even through the dynamic-provider host,
 * which accepts no secrets. Spelt out rather than read from `@pulumi/pulumi`'s runtime so that the
 * cores need none of the SDK's values (test/engine.test.ts holds it equal to the SDK's).
 */

/** The marker's key and the value of that key that says "secret". */
export const SECRET_MARKER = { key: "4dabf18193072939515e22adb298388d", value: "1b47061264138c4ac30d75fd1eb44270" } as const;

/** A value in Pulumi's secret-marker form. */
export interface WireSecret<T> {
  /** The marker: {@link SECRET_MARKER}'s key with its value. */
  [SECRET_MARKER.key]: typeof SECRET_MARKER.value;
  /** The secret value. */
  value: T;
}

/** `value` as a secret marker. */
export function wireSecret<T>(value: T): WireSecret<T> {
  return { [SECRET_MARKER.key]: SECRET_MARKER.value, value };
}

/** True when `value` is a secret marker (itself, not only something inside it). */
export function isWireSecret(value: unknown): value is WireSecret<unknown> {
  return typeof value === "object" && value !== null && (value as Record<string, unknown>)[SECRET_MARKER.key] === SECRET_MARKER.value;
}

/** The plain value of a property that may arrive as a secret marker or already revealed (the top level only). */
export function revealed(value: unknown): unknown {
  return isWireSecret(value) ? value.value : value;
}

/**
 * `value` with every secret marker in it replaced by its plain value: a setting read as the stack
 * config holds it, or a value a provider plugin received with secrets (docs/provider-plugins.md rule 6).
 */
export function withoutSecretMarkers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecretMarkers);
  if (value === null || typeof value !== "object") return value;
  if (isWireSecret(value)) return withoutSecretMarkers(value.value);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutSecretMarkers(item)]));
}
