import { DAY_MS, HOUR_MS, MINUTE_MS, WEEK_MS } from "./time";

/** The clock as the control plane shows it: the emulator's time and whether it stands still. */
export interface ClockSnapshot {
  nowMs: number;
  frozen: boolean;
}

/**
 * The emulator's controllable clock. It runs with wall time from a chosen start (so data keeps
 * arriving "in real time") or stands frozen, and the control plane can set or advance it. Every
 * time-dependent behaviour (the data world's "now", PII processing, alert timelines) reads it.
 */
export class Clock {
  /** Emulator time at `anchorWallMs`; while running, time moves `speed` times as fast as wall time from there. */
  private anchorMs = 0;
  private anchorWallMs = 0;
  private frozenAtMs: number | undefined;

  constructor(
    startMs?: number,
    frozen = false,
    private readonly wallNow: () => number = Date.now,
    /**
     * How many emulator milliseconds pass per wall-clock millisecond while the clock runs. Default 1;
     * a benchmark runs it faster to pass the minutes of a rate budget in seconds.
     */
    private readonly speed = 1,
  ) {
    this.restart(startMs, frozen);
  }

  /** Puts the clock at `startMs` (default: wall time), frozen or running. */
  restart(startMs: number | undefined, frozen: boolean): void {
    const wall = this.wallNow();
    // Frozen at exactly the start: reading wall time twice would drift by a millisecond.
    this.frozenAtMs = frozen ? (startMs ?? wall) : undefined;
    this.anchorMs = startMs ?? wall;
    this.anchorWallMs = wall;
  }

  /** The emulator's current time in epoch milliseconds. */
  now(): number {
    return this.frozenAtMs ?? this.anchorMs + (this.wallNow() - this.anchorWallMs) * this.speed;
  }

  /** Moves the clock to `epochMs`, keeping it frozen or running as it was. */
  set(epochMs: number): void {
    if (this.frozenAtMs !== undefined) this.frozenAtMs = epochMs;
    else {
      this.anchorMs = epochMs;
      this.anchorWallMs = this.wallNow();
    }
  }

  /** Moves the clock forward (or back, with a negative amount). */
  advance(ms: number): void {
    this.set(this.now() + ms);
  }

  /** Stops the clock at its current time. */
  freeze(): void {
    this.frozenAtMs = this.now();
  }

  /** Lets the clock run from its current time. */
  unfreeze(): void {
    if (this.frozenAtMs === undefined) return;
    const at = this.frozenAtMs;
    this.frozenAtMs = undefined;
    this.set(at);
  }

  /** The clock's state, for the control plane and state export. */
  snapshot(): ClockSnapshot {
    return { nowMs: this.now(), frozen: this.frozenAtMs !== undefined };
  }
}

/**
 * Parses an ISO 8601 duration such as `PT1H`, `P1D`, `P10W` or `PT90S` into milliseconds; years and
 * months are not fixed lengths and are refused. Returns undefined for text that is not a duration.
 */
export function parseIsoDuration(text: string): number | undefined {
  const match = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(text);
  if (!match || text === "P" || text.endsWith("T")) return undefined;
  const [, weeks, days, hours, minutes, seconds] = match;
  const value = (part: string | undefined) => (part === undefined ? 0 : Number(part));
  return (
    value(weeks) * WEEK_MS +
    value(days) * DAY_MS +
    value(hours) * HOUR_MS +
    value(minutes) * MINUTE_MS +
    value(seconds) * 1000
  );
}
