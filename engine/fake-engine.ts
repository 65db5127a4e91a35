/**
 * A minimal fake of the Pulumi engine's Engine gRPC service, enough for a provider host: it records
 * `Log` calls so that tests can assert what the engine would show, and answers the rest trivially.
 */
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { EngineService, type IEngineServer } from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineProto from "@pulumi/pulumi/proto/engine_pb";

/** Severities of engine diagnostics. */
export type Severity = "debug" | "info" | "warning" | "error";

const SEVERITY_NAMES: Record<engineProto.LogSeverity, Severity> = {
  [engineProto.LogSeverity.DEBUG]: "debug",
  [engineProto.LogSeverity.INFO]: "info",
  [engineProto.LogSeverity.WARNING]: "warning",
  [engineProto.LogSeverity.ERROR]: "error",
};

/** One `Log` call received by the fake engine. */
export interface EngineLogEntry {
  severity: Severity;
  message: string;
  /** The resource the message is about ("" when none). */
  urn: string;
  ephemeral: boolean;
}

/** A running fake engine. */
export interface FakeEngine {
  /** `127.0.0.1:<port>`, the argument the engine gives a provider host. */
  readonly address: string;
  /** Every `Log` call so far, in arrival order. */
  readonly logs: readonly EngineLogEntry[];
  /** Called for each log entry as it arrives (used to interleave with the host's output). */
  onLog?: (entry: EngineLogEntry) => void;
  /** Stops the server at once. */
  close(): void;
}

/** Starts a fake engine on a free loopback port. */
export async function startFakeEngine(): Promise<FakeEngine> {
  const logs: EngineLogEntry[] = [];
  const server = new grpc.Server();
  const implementation: IEngineServer = {
    log(call, callback) {
      const entry: EngineLogEntry = {
        severity: SEVERITY_NAMES[call.request.getSeverity()] ?? "info",
        message: call.request.getMessage(),
        urn: call.request.getUrn(),
        ephemeral: call.request.getEphemeral(),
      };
      logs.push(entry);
      engine.onLog?.(entry);
      callback(null, new Empty());
    },
    getRootResource(_call, callback) {
      callback(null, new engineProto.GetRootResourceResponse());
    },
    setRootResource(_call, callback) {
      callback(null, new engineProto.SetRootResourceResponse());
    },
    startDebugging(_call, callback) {
      callback(null, new Empty());
    },
    requirePulumiVersion(_call, callback) {
      callback(null, new engineProto.RequirePulumiVersionResponse());
    },
  };
  server.addService(EngineService, implementation);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound));
  });
  const engine: FakeEngine = {
    address: `127.0.0.1:${port}`,
    logs,
    close: () => server.forceShutdown(),
  };
  return engine;
}
