import * as pulumi from "@pulumi/pulumi";
import type { PropertyFailure } from "../accounts/calls";
import { InsightsError } from "../client/core/errors";
import { PREVIEW_UNKNOWN } from "../rules";
import { inertLines } from "../text/inert";

/**
 * What a resource's constructor checks: the inputs known when the program runs, through its core's
 * own check less what needs the account (saved-filters/model/declared.ts `checkDeclaredFilterOffline`,
 * pii/inputs.ts `checkInputs`), so that a unit test under Pulumi's mocks, which never calls the
 * provider (docs/dynamic-providers.md rule 11), fails on what the preview would refuse, in its words.
 */

/**
 * The inputs a resource's constructor was given fail its check: each failure as the preview shows
 * it, the exact path and what would be valid (`rules.rules[0].field: field "Contry" is not valid;
 * did you mean "Country"?`), made inert line by line (text/inert.ts).
 */
export class InputsRefusedError extends InsightsError {
  /** The failures, by property, in the words of the preview's check. */
  readonly failures: readonly PropertyFailure[];

  constructor(type: string, name: string, failures: readonly PropertyFailure[]) {
    const lines = failures.map(failureLine);
    // Inert as the preview shows it (host/dynamic-provider.ts): names and values may come from the service or a command line.
    super(inertLines(lines.length === 1 ? `${type} "${name}": ${lines[0]}` : `${type} "${name}": ${lines.length} problems:\n${lines.map((line) => `  ${line}`).join("\n")}`));
    this.failures = failures;
  }
}

/** A failure as one line: its reason, which starts with its path, else the property before it. */
function failureLine({ property, reason }: PropertyFailure): string {
  return reason.startsWith(property) ? reason : `${property}: ${reason}`;
}

function isPromiseLike(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * `value` as a check sees what is known of it now: an `Output` or a promise anywhere in it is the
 * preview's unknown value ({@link PREVIEW_UNKNOWN}), which every check skips; members left
 * `undefined` are left out, as Pulumi sends them; plain objects and arrays are walked.
 */
export function knownValue(value: unknown): unknown {
  if (pulumi.Output.isInstance(value) || isPromiseLike(value)) return PREVIEW_UNKNOWN;
  if (Array.isArray(value)) return value.map(knownValue);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined).map(([key, member]) => [key, knownValue(member)]));
}

/** Throws {@link InputsRefusedError} when `failures` holds any. */
export function refuseFailures(type: string, name: string, failures: readonly PropertyFailure[]): void {
  if (failures.length > 0) throw new InputsRefusedError(type, name, failures);
}
