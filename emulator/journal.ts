/** One API request as the journal lists it: what was asked, what was answered, and by which rule. */
export interface JournalEntry {
  /** Increasing sequence number, for `?since=`. */
  seq: number;
  /** Emulator time at arrival, ISO 8601. */
  at: string;
  /** The HTTP method, upper case (`GET`, `POST`, ...). */
  method: string;
  /** The request's path without the query string, as sent (`/bulk_filters`, `/pii-opt-out/...`). */
  path: string;
  /** The raw query string without `?`. */
  query: string;
  /** The status sent, or 0 when the connection was reset before an answer. */
  status: number;
  /** The client id that authenticated, if any. */
  account?: string;
  /** The fault rule that acted on the request, if any. */
  fault?: string;
  /** True when the connection was reset (before or after the write). */
  reset?: boolean;
}

/**
 * The request journal served by `GET /_emulator/requests`: every API request the emulator answered
 * (control-plane calls excluded), so tests and benchmarks count real HTTP calls. Bounded so that a
 * long benchmark cannot exhaust memory.
 */
export class Journal {
  private entries: JournalEntry[] = [];
  private nextSeq = 1;
  /** The checks of {@link waitFor} still waiting, run after every record. */
  private readonly waiting = new Set<() => void>();

  constructor(private readonly capacity = 200_000) {}

  /** Records one request and returns its entry. */
  record(entry: Omit<JournalEntry, "seq">): JournalEntry {
    const full = { seq: this.nextSeq++, ...entry };
    this.entries.push(full);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    for (const check of [...this.waiting]) check();
    return full;
  }

  /**
   * The entries after `since` once `condition` holds for them: at once if it holds now, else as soon
   * as a request recorded later makes it hold. For a test in the emulator's process that waits for
   * requests still in flight (a call that failed early while its other requests are answered) on
   * what the journal records, instead of polling it on a timer. It waits as long as it takes: the
   * caller's own limit (a test's timeout) bounds it.
   */
  waitFor(since: number, condition: (entries: JournalEntry[]) => boolean): Promise<JournalEntry[]> {
    return new Promise((resolve) => {
      const check = () => {
        const entries = this.list(since);
        if (!condition(entries)) return;
        this.waiting.delete(check);
        resolve(entries);
      };
      this.waiting.add(check);
      check();
    });
  }

  /** Entries with a sequence number above `since`. */
  list(since = 0): JournalEntry[] {
    return this.entries.filter((entry) => entry.seq > since);
  }

  /** The last sequence number handed out (0 when empty). */
  lastSeq(): number {
    return this.nextSeq - 1;
  }

  /** Forgets every entry; sequence numbers keep increasing. */
  clear(): void {
    this.entries = [];
  }
}
