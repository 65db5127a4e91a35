/**
 * PII opt-out requests of one account (spec 2.9, 3.1, 4.10).
 * STUB: replaced by the PII store (emulator/pii owner).
 */
export class PiiStore {
  /** Viewer ids whose requests are FINISHED at `nowMs`: their sessions are gone from every endpoint. */
  deletedViewerIds(_nowMs: number): ReadonlySet<string> {
    return new Set();
  }

  /** The store's state for export. */
  export(): unknown {
    return {};
  }

  /** Replaces the store's state from an export. */
  import(_snapshot: unknown): void {}
}
