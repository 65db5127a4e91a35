import { isRefusalStatus } from "../../schema/assumptions";
import { ApiError, ArgumentError, InsightsError } from "../../client/core/errors";
import { sendHalves, type BatchSender, type Entry } from "./coalescer";

/**
 * Refusal isolation: a bulk call refused because of one of its items fails only the caller of that
 * item. The emulator's bulk calls are all-or-nothing (nothing of a refused call is applied), and the
 * service's 400 names the item when it can (`parameter` `[3].rules.rules[0].field`, docs/api.md 7);
 * when it names none, the call is split in halves until the bad item stands alone.
 */

/**
 * One item of a refused bulk call, with the path inside that item the refusal named (for example
 * `rules.rules[0].field`, from the call's `[3].rules.rules[0].field`) and its reason.
 */
export class FilterItemError extends InsightsError {
  constructor(
    /** Where in the item the problem is ("" when the refusal named no place inside it). */
    readonly path: string,
    /** What is wrong there. */
    readonly reason: string,
    cause: Error,
  ) {
    super(path === "" ? reason : `${path}: ${reason}`, { cause });
  }
}

/**
 * True for a refusal of the whole call because of what it carried (nothing was applied): the
 * client's own validation, or a 4xx the service answered (provider/schema/assumptions.ts
 * `isRefusalStatus`: the statuses of refusals are mostly not shown, docs/api.md 7).
 */
export function isRefusal(error: unknown): error is ApiError | ArgumentError {
  return error instanceof ArgumentError || (error instanceof ApiError && isRefusalStatus(error));
}

/**
 * The item a refusal names and the error for that item alone: the service's 400 names it in
 * `parameter` (`[3].rules.rules[0].field`), the client's own validation in `path`
 * (`inputs[3].rules...`); undefined when it names no item.
 */
function refusedItem(error: ApiError | ArgumentError): { index: number; error: FilterItemError } | undefined {
  const where = error instanceof ArgumentError ? error.path : (error.parameter ?? "");
  const match = /^[A-Za-z]*\[(\d+)\]\.?/.exec(where);
  if (!match) return undefined;
  const detail = error instanceof ArgumentError ? error.reason : (error.detail ?? error.message);
  const reason = detail.startsWith(`${where}: `) ? detail.slice(where.length + 2) : detail;
  return { index: Number(match[1]), error: new FilterItemError(where.slice(match[0].length), reason, error) };
}

/**
 * Attributes a refusal to the item that caused it: the item the refusal names fails with its own
 * path and the others are sent again; without an index the call is split in halves until the bad
 * item stands alone.
 */
export async function isolateRefusal<Item, Result>(
  entries: Array<Entry<Item, Result>>,
  error: ApiError | ArgumentError,
  send: BatchSender<Item, Result>,
): Promise<void> {
  const refused = refusedItem(error);
  if (refused !== undefined && refused.index < entries.length) {
    entries[refused.index]!.reject(refused.error);
    const others = entries.filter((_, position) => position !== refused.index);
    if (others.length > 0) await send(others);
    return;
  }
  if (entries.length > 1) return sendHalves(entries, send);
  entries[0]!.reject(soleItemError(error));
}

/**
 * The refusal of a call that carried one item, as that item's error: the service's explanation
 * without the request line, and the place inside the item when the explanation starts with it
 * (`[0].subcategory: ...`; a body that names no parameter, docs/api.md 7, often says it there).
 */
function soleItemError(error: ApiError | ArgumentError): FilterItemError | ApiError | ArgumentError {
  if (error instanceof ArgumentError || error.detail === undefined) return error;
  const match = /^\[0\]\.?([^:\s]*): (.*)$/s.exec(error.detail);
  return match ? new FilterItemError(match[1]!, match[2]!, error) : new FilterItemError("", error.detail, error);
}
