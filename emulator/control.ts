import { z } from "zod";
import { AccountConfig } from "./accounts";
import { parseIsoDuration } from "./clock";
import { FaultRuleInput } from "./faults";
import { badRequest, isJsonObject, type RouteResult } from "./http";
import { sentEmails } from "./pii/emails";
import { PiiDeletionFault } from "./pii/store";
import { RateBudgetInput, rateBudgetsFrom } from "./rate-budgets";
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
  const endpoint = path.replace(/^\/_emulator/, "").replace(/\/+$/, "");
  const route = `${method} ${endpoint}`;
  const label = `${method} /_emulator${endpoint}`;
  const allowed = CONTROL_QUERY_PARAMETERS[route] ?? [];
  for (const name of CONTROL_ROUTES.has(route) ? query.keys() : []) {
    if (!allowed.includes(name)) {
      throw badRequest(
        `${label}: unknown query parameter "${name}"; ${allowed.length ? `the valid ones are ${allowed.map((key) => `"${key}"`).join(", ")}` : "it takes none"}`,
        name,
        "unknown_parameter",
      );
    }
  }
  switch (route) {
    case "GET /health":
      return { body: { status: "ok", now: new Date(emulator.clock.now()).toISOString(), seed: emulator.seed } };
    case "POST /reset":
      emulator.reset();
      return { body: { status: "reset" } };
    case "GET /state":
      return { body: emulator.exportState() };
    case "POST /state":
      emulator.importState(parse(StateSnapshotInput, body, label) as StateSnapshot);
      return { body: { status: "imported" } };
    case "GET /clock":
      return { body: clockBody(emulator) };
    case "POST /clock":
      applyClock(emulator, parse(ClockInput, body ?? {}, label));
      return { body: clockBody(emulator) };
    case "GET /faults":
      return { body: { rules: emulator.faults.list() } };
    case "POST /faults": {
      // One rule, or {rules: [...]}; every rule is checked before any is added.
      const isList = isJsonObject(body) && "rules" in body;
      const rules = isList ? parse(FaultRuleList, body, label).rules : [parse(FaultRuleInput, body, label)];
      return { status: 201, body: { rules: emulator.faults.add(rules) } };
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
      return { body: { accounts: emulator.listAccounts().map((account) => ({ clientId: account.config.clientId, features: account.config.features, dialect: account.dialect })) } };
    case "POST /accounts": {
      const account = emulator.addAccount(parse(AccountConfig, body, label));
      return { status: 201, body: { clientId: account.config.clientId, features: account.config.features, dialect: account.dialect } };
    }
    case "GET /pii-deletion-faults":
      return { body: { faults: accountNamed(emulator, query.get("account") ?? "dev").pii.listDeletionFaults() } };
    case "POST /pii-deletion-faults": {
      // emulator/README.md "Fault rules": PII deletion that lags or keeps viewers' data.
      const { account, ...fault } = parse(PiiDeletionFaultInput, body, label);
      return { status: 201, body: { faults: accountNamed(emulator, account).pii.addDeletionFault(fault) } };
    }
    case "GET /emails":
      // PII opt-out notification e-mails "sent" so far (spec 3.1, 6).
      return { body: { emails: sentEmails(emulator.listAccounts(), emulator.clock.now()) } };
    case "GET /rate-budgets":
      return { body: { rateBudgets: emulator.rateBudgets.settings } };
    case "POST /rate-budgets":
      emulator.rateBudgets.configure(rateBudgetsFrom(parse(RateBudgetInput, body, label), emulator.rateBudgets.settings));
      return { body: { rateBudgets: emulator.rateBudgets.settings } };
    case "POST /latency":
      emulator.latencyMs = parse(LatencyInput, body, label).ms;
      return { body: { latencyMs: emulator.latencyMs } };
    default:
      return undefined;
  }
}

/** Every control endpoint (an unknown one is a 404, whatever its query). */
const CONTROL_ROUTES: ReadonlySet<string> = new Set([
  "GET /health", "POST /reset", "GET /state", "POST /state", "GET /clock", "POST /clock", "GET /faults", "POST /faults",
  "DELETE /faults", "GET /requests", "DELETE /requests", "GET /accounts", "POST /accounts", "GET /emails", "POST /latency",
  "GET /rate-budgets", "POST /rate-budgets", "GET /pii-deletion-faults", "POST /pii-deletion-faults",
]);

/** The query parameters each control endpoint takes; the others take none. */
const CONTROL_QUERY_PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  "DELETE /faults": ["id"],
  "GET /requests": ["since"],
  "GET /pii-deletion-faults": ["account"],
};

const PiiDeletionFaultInput = PiiDeletionFault.extend({ account: z.string().default("dev") });

/** The account with this client id; 400 naming the known ones otherwise. */
function accountNamed(emulator: EmulatorState, clientId: string) {
  const accounts = emulator.listAccounts();
  const account = accounts.find((candidate) => candidate.config.clientId === clientId);
  if (account === undefined) throw badRequest(`no account "${clientId}"; the accounts are ${accounts.map((candidate) => candidate.config.clientId).join(", ")}`, "account");
  return account;
}

const ClockInput = z.strictObject({
  /** ISO 8601 time or epoch milliseconds. */
  set: z.union([z.string(), z.number()]).optional(),
  /** Milliseconds, or an ISO 8601 duration such as `PT5M`. */
  advance: z.union([z.number(), z.string()]).optional(),
  frozen: z.boolean().optional(),
});

const StateSnapshotInput = z.strictObject({
  version: z.literal(1),
  seed: z.number(),
  clock: z.strictObject({ nowMs: z.number(), frozen: z.boolean() }),
  accounts: z.array(z.strictObject({ config: AccountConfig, filters: z.unknown(), pii: z.unknown() })),
});

const LatencyInput = z.strictObject({ ms: z.number().int().nonnegative() });

const FaultRuleList = z.strictObject({ rules: z.array(FaultRuleInput).min(1) });

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

/**
 * Parses a control-plane body as strictly as the API parses its own (emulator/README.md "Control
 * plane"): a key the endpoint does not know is a 400 that names it and lists the valid keys at that
 * place (`POST /_emulator/clock {"advanceMs": 1000}` would otherwise do nothing and answer 200).
 */
function parse<T>(schema: z.ZodType<T>, body: unknown, route: string): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const unknown = result.error.issues.find((issue) => issue.code === "unrecognized_keys");
  if (unknown) {
    const place = unknown.path.length === 0 ? "the body" : `"${unknown.path.join(".")}"`;
    const valid = keysAt(schema, unknown.path);
    throw badRequest(
      `${route}: unknown key${unknown.keys.length > 1 ? "s" : ""} ${unknown.keys.map((key) => `"${key}"`).join(", ")} in ${place}; ` +
        `the valid keys are ${valid.map((key) => `"${key}"`).join(", ")}`,
      [...unknown.path, unknown.keys[0]].join("."),
      "unknown_key",
    );
  }
  throw badRequest(`invalid body of ${route}: ${z.prettifyError(result.error)}`, "body");
}

/** The keys of the object schema found at `path` inside `schema` (through arrays, defaults and optionals). */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current: z.ZodType | undefined = schema;
  const remaining = [...path];
  while (current) {
    const def = (current as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
    if (def["type"] === "object") {
      const shape = def["shape"] as Record<string, z.ZodType>;
      if (remaining.length === 0) return Object.keys(shape);
      current = shape[String(remaining.shift())];
    } else if (def["type"] === "array") {
      remaining.shift();
      current = def["element"] as z.ZodType;
    } else {
      current = def["innerType"] as z.ZodType | undefined;
    }
  }
  return [];
}
