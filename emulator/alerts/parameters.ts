import { describeChoices } from "../../provider/schema/suggest";
import type { QueryReader } from "../filters/query-params";
import { badRequest } from "../http";

/**
 * A comma-separated query parameter whose items come from a closed vocabulary (spec 4.9 severity,
 * status, alert_metric; spec 4.10 status): undefined when absent, else the set of items. An item
 * outside the vocabulary is a 400 naming it, with a "did you mean" for a near miss (case counts:
 * `CRITICAL` is answered with `did you mean "critical"?`).
 */
export function vocabularyList<Item extends string>(
  reader: QueryReader,
  name: string,
  vocabulary: readonly Item[],
  /** The plural that names the items in the error, for example "severities". */
  noun: string,
): Set<Item> | undefined {
  const items = reader.list(name);
  if (items === undefined) return undefined;
  for (const item of items) {
    if (!(vocabulary as readonly string[]).includes(item)) {
      throw badRequest(`"${name}" has an unknown item "${item}"; ${describeChoices(item, vocabulary, noun)}`, name);
    }
  }
  return new Set(items as Item[]);
}
