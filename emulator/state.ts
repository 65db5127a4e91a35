import { readFileSync, writeFileSync, existsSync, renameSync, rmSync } from "node:fs";
import { AccountState, BASIC_ACCOUNT, DEV_ACCOUNT, type AccountConfigInput, type AccountSnapshot } from "./accounts";
import { Clock } from "./clock";
import type { Dialect } from "./dialect";
import { Faults } from "./faults";
import { Journal } from "./journal";
import type { PiiTiming } from "./pii/store";
import { RateBudgets, rateBudgetsFrom, SERVICE_RATE_BUDGETS, type RateBudgetSettings } from "./rate-budgets";
import type { WorldOptions } from "./world";

/**
 * The PII processing times of the options: 1 and 5 minutes by default; a FINISHED time alone keeps
 * that proportion, STARTED after a fifth of it, so that one setting shortens the whole lifecycle.
 */
function piiTimingOf(timing: Partial<PiiTiming> = {}): PiiTiming {
  const finishAfterMs = timing.finishAfterMs ?? 300_000;
  return { startAfterMs: timing.startAfterMs ?? finishAfterMs / 5, finishAfterMs };
}

/** Options of an emulator instance (the bin's flags map onto these). */
export interface EmulatorOptions {
  /** TCP port; 0 picks a free one. Default 0 in process, 8080 for the bin. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Seed of the data world, fault probabilities and ids. Default 1. */
  seed?: number;
  /** Latency added to every API request, for realistic benchmarks. Default 0. */
  latencyMs?: number;
  /**
   * Start time of the clock (ISO 8601 or epoch ms; default: now), whether it stands still, and how
   * many emulator milliseconds pass per wall-clock millisecond while it runs (default 1).
   */
  clock?: {
    /** The clock's first reading, ISO 8601 or epoch milliseconds. Default: the wall clock's now. */
    start?: string | number;
    /** True: the clock stands still until moved through the control plane (emulator/README.md "Control plane"). Default false. */
    frozen?: boolean;
    /** Emulator milliseconds per wall-clock millisecond while the clock runs. Default 1. */
    speed?: number;
  };
  /**
   * The rate budgets enforced (emulator/README.md "Rate budgets"): default the service's
   * (docs/api.md 8, 10.1); `false` lifts them all; an object changes the budgets it names.
   */
  rateBudgets?: Partial<RateBudgetSettings> | boolean;
  /** Accounts; default the dev account and the basic account. */
  accounts?: AccountConfigInput[];
  /** A file to keep the mutable state in across restarts. */
  stateFile?: string;
  /**
   * PII processing times. Default: STARTED after 1 minute, FINISHED after 5 minutes; with only
   * `finishAfterMs`, STARTED after a fifth of it (`--pii-finish-after`, emulator/README.md "PII opt-out").
   */
  piiTiming?: Partial<PiiTiming>;
  /**
   * The dialect of every account that names none (emulator/README.md "Dialects"). Default
   * `standard`.
   */
  dialect?: Dialect;
  /** How each account's data world keeps the hours it generated (world/index.ts). */
  world?: WorldOptions;
}

/** The whole mutable emulator: clock, accounts, faults, journal. */
export class EmulatorState {
  readonly seed: number;
  readonly clock: Clock;
  readonly faults: Faults;
  readonly journal = new Journal();
  readonly piiTiming: PiiTiming;
  /** The rate budgets, counted on {@link clock}. */
  readonly rateBudgets: RateBudgets;
  latencyMs: number;
  private accounts = new Map<string, AccountState>();

  constructor(readonly options: EmulatorOptions = {}) {
    this.seed = options.seed ?? 1;
    const start = options.clock?.start;
    this.clock = new Clock(start === undefined ? undefined : toEpochMs(start), options.clock?.frozen ?? false, Date.now, options.clock?.speed ?? 1);
    this.rateBudgets = new RateBudgets(configuredRateBudgets(options));
    this.faults = new Faults(this.seed);
    this.latencyMs = options.latencyMs ?? 0;
    this.piiTiming = piiTimingOf(options.piiTiming);
    this.resetAccounts();
    if (options.stateFile && existsSync(options.stateFile)) {
      this.importState(JSON.parse(readFileSync(options.stateFile, "utf8")) as StateSnapshot);
    }
  }

  /** The account whose credentials these are, if any (spec 5: HTTP Basic of id and secret). */
  authenticate(clientId: string, clientSecret: string): AccountState | undefined {
    const account = this.accounts.get(clientId);
    return account && account.config.clientSecret === clientSecret ? account : undefined;
  }

  /** Adds an account (or replaces one with the same client id, with fresh state). */
  addAccount(config: AccountConfigInput): AccountState {
    const account = new AccountState(config, this.seed, this.options.dialect, this.options.world);
    this.accounts.set(account.config.clientId, account);
    return account;
  }

  /** Every account. */
  listAccounts(): AccountState[] {
    return [...this.accounts.values()];
  }

  /** Forgets all state: accounts back to their configuration, the clock back to its start, faults and journal cleared. */
  reset(): void {
    const start = this.options.clock?.start;
    this.clock.restart(start === undefined ? undefined : toEpochMs(start), this.options.clock?.frozen ?? false);
    this.resetAccounts();
    this.faults.clear();
    this.journal.clear();
    this.rateBudgets.configure(configuredRateBudgets(this.options));
    this.rateBudgets.reset();
  }

  /** The mutable state as JSON (`GET /_emulator/state`). */
  exportState(): StateSnapshot {
    return {
      version: 1,
      seed: this.seed,
      clock: this.clock.snapshot(),
      accounts: this.listAccounts().map((account) => account.export()),
    };
  }

  /** Replaces the mutable state with an export (`POST /_emulator/state`). */
  importState(snapshot: StateSnapshot): void {
    this.accounts.clear();
    for (const accountSnapshot of snapshot.accounts) {
      this.addAccount(accountSnapshot.config).import(accountSnapshot);
    }
    this.clock.set(snapshot.clock.nowMs);
    if (snapshot.clock.frozen) this.clock.freeze();
    else this.clock.unfreeze();
  }

  /** Writes the state file, if one is configured; atomic so a crash never leaves half a file. */
  persist(): void {
    if (!this.options.stateFile) return;
    const temporary = `${this.options.stateFile}.tmp`;
    // It holds every account's secret and the identifiers submitted: readable by its owner only,
    // a new file each time (a mode applies when a file is made), renamed over the old one.
    rmSync(temporary, { force: true });
    writeFileSync(temporary, JSON.stringify(this.exportState()), { mode: 0o600, flag: "wx" });
    renameSync(temporary, this.options.stateFile);
  }

  private resetAccounts(): void {
    this.accounts.clear();
    for (const config of this.options.accounts ?? [DEV_ACCOUNT, BASIC_ACCOUNT]) this.addAccount(config);
  }
}

/** The rate budgets an emulator starts with: the service's unless its options say otherwise. */
function configuredRateBudgets(options: EmulatorOptions): RateBudgetSettings | false {
  const asked = options.rateBudgets ?? true;
  return typeof asked === "boolean" ? (asked ? SERVICE_RATE_BUDGETS : false) : rateBudgetsFrom(asked, SERVICE_RATE_BUDGETS);
}

/** The state export format. */
export interface StateSnapshot {
  /** The format's version; 1 is the only one. */
  version: 1;
  /** The seed of the emulator that exported it (its data worlds, faults and ids follow from it). */
  seed: number;
  /** The emulator's clock when exported; an import sets the clock to it. */
  clock: {
    /** The clock's reading, epoch milliseconds. */
    nowMs: number;
    /** True while the clock stands still. */
    frozen: boolean;
  };
  /** Every account: its configuration, saved filters and PII requests; an import replaces all accounts with these. */
  accounts: AccountSnapshot[];
}

/** Epoch milliseconds from an ISO 8601 string or a number. */
export function toEpochMs(value: string | number): number {
  if (typeof value === "number") return value;
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed)) throw new Error(`not an ISO 8601 time: ${value}`);
  return parsed;
}
