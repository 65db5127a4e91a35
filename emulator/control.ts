import { z } from "zod";
import { AccountConfig } from "./accounts";
import { parseIsoDuration } from "./clock";
import { badRequest, type RouteResult } from "./http";
import { sentEmails } from "./pii/emails";
import type { EmulatorState, StateSnapshot } from "./state";
import { toEpochMs } from "./state";

/**
 * The control plane under `/_emulator/` (emulator/README.md): health, reset, state export and
 * import, the clock, fault rules, the request journal, accounts and latency. No credentials: it
 * listens on loopback by default and is a tool of tests and demos.
 */
export function handleControl(
  emulator: EmulatorState,
  method: string,
  path: string,
  query: URLSearchParams,
  body: unknown,
): RouteResult | undefined {
  const route = `${method} ${path.replace(/^\/_emulator/, "").replace(/\/+$/, "")}`;
  switch (route) {
    case "GET /health":
      return { body: { status: "ok", now: new Date(emulator.clock.now()).toISOString(), seed: emulator.seed } };
    case "POST /reset":
      emulator.reset();
      return { body: { status: "reset" } };
    case "GET /state":
      return { body: emulator.exportState() };
    case "POST /state":
      emulator.importState(parse(StateSnapshotInput, body) as StateSnapshot);
      return { body: { status: "imported" } };
    case "GET /clock":
      return { body: clockBody(emulator) };
    case "POST /clock":
      applyClock(emulator, parse(ClockInput, body ?? {}));
      return { body: clockBody(emulator) };
    case "GET /faults":
      return { body: { rules: emulator.faults.list() } };
    case "POST /faults": {
      const input = parse(z.union([z.object({ rules: z.array(z.unknown()) }), z.record(z.string(), z.unknown())]), body);
      const rules = Array.isArray((input as { rules?: unknown }).rules) ? (input as { rules: unknown[] }).rules : [input];
      try {
        return { status: 201, body: { rules: emulator.faults.add(rules) } };
      } catch (error) {
        throw badRequest(`invalid fault rule: ${error instanceof z.ZodError ? z.prettifyError(error) : String(error)}`, "rules");
      }
    }
    case "DELETE /faults":
      emulator.faults.clear(query.get("id") ?? undefined);
      return { body: { rules: emulator.faults.list() } };
    case "GET /requests":
      return { body: { last_seq: emulator.journal.lastSeq(), requests: emulator.journal.list(Number(query.get("since") ?? 0)) } };
    case "DELETE /requests":
      emulator.journal.clear();
      return { body: { last_seq: emulator.journal.lastSeq(), requests: [] } };
    case "GET /accounts":
      return { body: { accounts: emulator.listAccounts().map((account) => ({ clientId: account.config.clientId, features: account.config.features })) } };
    case "POST /accounts": {
      const account = emulator.addAccount(parse(AccountConfig, body));
      return { status: 201, body: { clientId: account.config.clientId, features: account.config.features } };
    }
    case "GET /emails":
      // PII opt-out notification e-mails "sent" so far (spec 3.1, 6).
      return { body: { emails: sentEmails(emulator) } };
    case "POST /latency":
      emulator.latencyMs = parse(z.object({ ms: z.number().int().nonnegative() }), body).ms;
      return { body: { latencyMs: emulator.latencyMs } };
    default:
      return undefined;
  }
}

const ClockInput = z.object({
  /** ISO 8601 time or epoch milliseconds. */
  set: z.union([z.string(), z.number()]).optional(),
  /** Milliseconds, or an ISO 8601 duration such as `PT5M`. */
  advance: z.union([z.number(), z.string()]).optional(),
  frozen: z.boolean().optional(),
});

const StateSnapshotInput = z.object({
  version: z.literal(1),
  seed: z.number(),
  clock: z.object({ nowMs: z.number(), frozen: z.boolean() }),
  accounts: z.array(z.object({ config: AccountConfig, filters: z.unknown(), pii: z.unknown() })),
});

function applyClock(emulator: EmulatorState, input: z.infer<typeof ClockInput>): void {
  if (input.set !== undefined) {
    try {
      emulator.clock.set(toEpochMs(input.set));
    } catch {
      throw badRequest(`"set" must be an ISO 8601 time or epoch milliseconds, got ${JSON.stringify(input.set)}`, "set");
    }
  }
  if (input.advance !== undefined) {
    const ms = typeof input.advance === "number" ? input.advance : parseIsoDuration(input.advance);
    if (ms === undefined) throw badRequest(`"advance" must be milliseconds or an ISO 8601 duration such as PT5M`, "advance");
    emulator.clock.advance(ms);
  }
  if (input.frozen === true) emulator.clock.freeze();
  if (input.frozen === false) emulator.clock.unfreeze();
}

function clockBody(emulator: EmulatorState) {
  const { nowMs, frozen } = emulator.clock.snapshot();
  return { now: new Date(nowMs).toISOString(), nowMs, frozen };
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) throw badRequest(`invalid control-plane body: ${z.prettifyError(result.error)}`, "body");
  return result.data;
}
