import * as grpc from "@grpc/grpc-js";
import { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineProto from "@pulumi/pulumi/proto/engine_pb";
import { inertLines } from "../text/inert";

/**
 * The plugin's lines as the engine shows them: through the engine's `Log` call, with a severity and
 * the URN of the resource a line is about (docs/provider-plugins.md rule 2). The plugin's stdout
 * and stderr reach a user only at debug level, so nothing meant for a user is printed there.
 */

/** Severities of the engine's `Log` call. */
export type LogSeverity = "debug" | "info" | "warning" | "error";

const SEVERITIES: Record<LogSeverity, engineProto.LogSeverity> = {
  debug: engineProto.LogSeverity.DEBUG,
  info: engineProto.LogSeverity.INFO,
  warning: engineProto.LogSeverity.WARNING,
  error: engineProto.LogSeverity.ERROR,
};

/** A connection to the engine's `Log` call; lines are sent one after the other, in the order logged. */
export class EngineLog {
  private readonly client: EngineClient;
  /** The line being sent and those queued behind it: each waits for the one before. */
  private queue: Promise<void> = Promise.resolve();

  constructor(engineAddress: string) {
    this.client = new EngineClient(engineAddress, grpc.credentials.createInsecure());
  }

  /**
   * Sends a line, made inert. Never throws: a line the engine cannot take (it is going away) goes
   * to stderr, which the engine keeps at debug level. Never pass credentials or personal data here.
   */
  log(severity: LogSeverity, line: string, urn = ""): void {
    // Made inert here once for every line (provider/text/inert.ts): text already inert comes out the same.
    const message = inertLines(line);
    const request = new engineProto.LogRequest();
    request.setSeverity(SEVERITIES[severity]);
    request.setMessage(message);
    request.setUrn(urn);
    this.queue = this.queue.then(
      () =>
        new Promise<void>((resolve) => {
          this.client.log(request, (error) => {
            // Shown at debug level, in a terminal.
            if (error) process.stderr.write(`${severity}: ${message}\n`);
            resolve();
          });
        }),
    );
  }

  /** Resolves once every line logged so far has been delivered (or written to stderr). */
  flush(): Promise<void> {
    return this.queue;
  }

  /** Closes the connection. */
  close(): void {
    this.client.close();
  }
}
