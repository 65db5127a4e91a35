import type { SavedFilter } from "../../provider/schema";

/**
 * Saved filters of one account (spec 2.7, 4.8).
 * STUB: replaced by the saved-filter store (emulator/filters owner).
 */
export class FilterStore {
  /** One filter by id. */
  get(_id: string): SavedFilter | undefined {
    return undefined;
  }

  /** Every filter, in id order. */
  list(): SavedFilter[] {
    return [];
  }

  /** The store's state for export. */
  export(): unknown {
    return {};
  }

  /** Replaces the store's state from an export. */
  import(_snapshot: unknown): void {}
}
