import type { FilterField, Session } from "../schema";
import { isRuleGroup, TAG_FIELD, type RuleGroup, type RuleNode } from "./tree";

/**
 * What a saved filter's rule tree (docs/api.md 2.7) selects among sessions (docs/api.md 2.2),
 * evaluated locally: the basis of the match-rate estimate shown in previews. Each filter field is
 * read from the session fields that carry it, in one table with where each reading comes from.
 */

/** Reads the values of one filter field from a session; a leaf matches when any value does. */
type SessionReader = (session: Session) => readonly string[];

/** How one filter field is read from a session, and on what authority. */
export interface FieldReading {
  /** The session fields read, in the dotted notation of docs/api.md 2.2; empty when none carries the field. */
  readonly sessionFields: readonly string[];
  /** Where the reading comes from: the contract's section, or "our choice" and why. */
  readonly source: string;
  /** Undefined when the field has no session counterpart: such a leaf cannot be evaluated. */
  readonly read?: SessionReader;
}

/** A string member of a nested object, "" when absent or not a string. */
function text(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}

/** The member at `path` (dotted) of a session, as received. */
function member(session: Session, path: string): unknown {
  let value: unknown = session;
  for (const key of path.split(".")) value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

function one(path: string, source: string): FieldReading {
  return { sessionFields: [path], source, read: (session) => [text(member(session, path))] };
}

const CONTRACT = "docs/api.md 2.2";
const SELECTED = (key: string): FieldReading => one(`tags.selected_dimensions.${key}`, `${CONTRACT} (tags.selected_dimensions)`);
const NONE = (why: string): FieldReading => ({ sessionFields: [], source: why });

/**
 * Every filter field of docs/api.md 2.7 but Tag (read apart, from `tags.custom_tags[key]`), with
 * the session fields it tests. A field missing from a session reads as "" (docs/api.md 11.2).
 */
export const FIELD_READINGS: Readonly<Record<Exclude<FilterField, "Tag">, FieldReading>> = {
  "ASN": {
    sessionFields: ["network_info.asn.value"],
    // The lookup spells an ASN "AS7922" (docs/api.md 4.8, the asn lookup); a session carries the number.
    source: `${CONTRACT}; our choice: a bare number is compared as "AS<number>", the lookup's spelling`,
    read: (session) => {
      const value = text(member(session, "network_info.asn.value"));
      return [/^\d+$/.test(value) ? `AS${value}` : value];
    },
  },
  "Asset Name": one("content_info.asset", CONTRACT),
  "Browser Name": one("device_info.browser.name", CONTRACT),
  "Browser Version": one("device_info.browser.version", CONTRACT),
  "CDN": {
    sessionFields: ["network_info.cdn"],
    source: `${CONTRACT}: cdn is an array; our choice: a leaf matches when any of its items does`,
    read: (session) => {
      const value = member(session, "network_info.cdn");
      return Array.isArray(value) ? value.map(text) : [text(value)];
    },
  },
  "City": one("geo_info.city", CONTRACT),
  "Client ID": one("client_id", CONTRACT),
  "Continent": one("geo_info.continent", CONTRACT),
  "Country": one("geo_info.country.name", `${CONTRACT}; the countries lookup lists names`),
  "Customer": NONE("no session field carries the customer (docs/api.md 2.2)"),
  "DMA": one("geo_info.dma", CONTRACT),
  "Device Hardware Type": SELECTED("device_hardware_type"),
  "Device Manufacturer": SELECTED("device_manufacturer"),
  "Device Marketing Name": SELECTED("device_marketing_name"),
  "Device Model": SELECTED("device_model"),
  "Device Name": one("device_info.name", CONTRACT),
  "Device Operating System": one("device_info.os", CONTRACT),
  "Device Operating System Family": one("device_info.os_family", CONTRACT),
  "Device Operating System Version": one("device_info.os_version", CONTRACT),
  "ISP": one("network_info.isp", CONTRACT),
  "Content Category": one("content_info.category", CONTRACT),
  "Player Framework Name": SELECTED("player_framework_name"),
  "Player Framework Version": SELECTED("player_framework_version"),
  "Player Name": SELECTED("player_name"),
  "Postal Code": one("geo_info.postal_code", CONTRACT),
  "Resource": NONE("no session field carries the CDN resource (docs/api.md 2.2)"),
  "State": one("geo_info.state.name", CONTRACT),
};

/** A Tag leaf reads the custom tag its `key` names (docs/api.md 2.2 `tags.custom_tags`, 10.2). */
function tagReading(key: string): FieldReading {
  return { sessionFields: [`tags.custom_tags.${key}`], source: CONTRACT, read: (session) => [text(customTags(session)[key])] };
}

function customTags(session: Session): Record<string, unknown> {
  const tags = member(session, "tags.custom_tags");
  return typeof tags === "object" && tags !== null ? (tags as Record<string, unknown>) : {};
}

/** The outcome of a rule tree on one session: matched, not matched, or not decidable from the session. */
export type MatchOutcome = boolean | undefined;

/** A rule tree ready to be evaluated on sessions. */
export interface RuleMatcher {
  /**
   * True or false when the session's fields decide it; undefined when the outcome depends on a leaf
   * whose field no session carries (three-valued: `and` is false as soon as one child is false, `or`
   * true as soon as one is true).
   */
  match(session: Session): MatchOutcome;
  /** The fields of the tree's leaves that no session carries, sorted; empty when every leaf can be evaluated. */
  readonly unevaluatedFields: readonly string[];
}

/**
 * Compiles `rules` into a {@link RuleMatcher}. Leaves compare case-sensitively, as the service
 * compares filter values (docs/api.md 10.5): `equals` exactly, `contains` and `not_contains` by
 * substring; a field with several values (CDN) matches when any value does, and `not_contains`
 * when none contains the value.
 */
export function ruleMatcher(rules: RuleGroup): RuleMatcher {
  const unevaluated = new Set<string>();
  const compile = (node: RuleNode): ((session: Session) => MatchOutcome) => {
    if (isRuleGroup(node)) {
      const children = node.rules.map(compile);
      const decisive = node.op === "and" ? false : true;
      return (session) => {
        let undecided = false;
        for (const child of children) {
          const outcome = child(session);
          if (outcome === decisive) return decisive;
          if (outcome === undefined) undecided = true;
        }
        return undecided ? undefined : !decisive;
      };
    }
    const reading: FieldReading | undefined =
      node.field === TAG_FIELD ? tagReading(node.key ?? "") : (FIELD_READINGS as Readonly<Record<string, FieldReading>>)[node.field];
    if (reading?.read === undefined) {
      unevaluated.add(node.field);
      return () => undefined;
    }
    const read = reading.read;
    const expected = node.value;
    switch (node.op) {
      case "equals":
        return (session) => read(session).some((value) => value === expected);
      case "not_contains":
        return (session) => !read(session).some((value) => value.includes(expected));
      default:
        return (session) => read(session).some((value) => value.includes(expected));
    }
  };
  const match = compile(rules);
  return { match, unevaluatedFields: [...unevaluated].sort() };
}
