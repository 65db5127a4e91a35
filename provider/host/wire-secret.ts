import { runtime } from "@pulumi/pulumi";

/**
 * Secrets as a dynamic provider can hand them to the engine. The dynamic-provider host accepts no
 * secrets (it receives plain values), but the engine reads what a provider returns from check,
 * create, read and update with secrets kept: a value in Pulumi's secret-marker form
 * (docs/dynamic-providers.md "Testing without the CLI") is stored encrypted, whatever the program did.
 */

/** A value in Pulumi's secret-marker form. */
export interface WireSecret<T> {
  [runtime.specialSigKey]: typeof runtime.specialSecretSig;
  value: T;
}

/** `value` as a secret marker. */
export function wireSecret<T>(value: T): WireSecret<T> {
  return { [runtime.specialSigKey]: runtime.specialSecretSig, value } as WireSecret<T>;
}

/** The plain value of a property that may arrive as a secret marker or already revealed. */
export function revealed(value: unknown): unknown {
  const marked = typeof value === "object" && value !== null
    && (value as Record<string, unknown>)[runtime.specialSigKey] === runtime.specialSecretSig;
  return marked ? (value as { value: unknown }).value : value;
}
