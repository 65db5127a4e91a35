import { AsyncLocalStorage } from "node:async_hooks";
import * as grpc from "@grpc/grpc-js";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { ResourceProviderService, type IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { InsightsError } from "../client/core/errors";
import { packageVersion } from "../client/core/version";
import { reportThrough } from "../accounts/runtime";
import { engineFailures, engineMessage, engineProperties, engineReasons, leftOutNote } from "../text/bounded";
import { checkConfig, configure, diffConfig } from "./configuration";
import type { EngineLog } from "./engine-log";
import { invoke } from "./functions";
import { PACKAGE_SCHEMA_TEXT } from "./package-schema";
import type { DiffAnswer, Failure, ResourceCall } from "./core-adapter";
import { adapterOf, isPartialFailure, NotServedError } from "./resources";
import { readWithStructs } from "./struct-wire";
import { urnParts } from "./tokens";
import { propertiesOf, structOf } from "./wire";

/**
 * The ResourceProvider service of `pulumi-resource-insights` on the SDK's raw stubs
 * (docs/provider-plugins.md rule 3): the provider's settings, the schema, the functions, and the
 * resources by type token (./resources.ts). Methods it leaves out (Construct, Call, Parameterize,
 * Handshake, Attach, the mappings) answer UNIMPLEMENTED, as the engine expects of such a provider.
 */

/** The URN of the resource whose call is being served, for the lines it logs. */
const currentUrn = new AsyncLocalStorage<string>();

/** The parts of a request every resource call has. */
interface AddressedRequest {
  getUrn(): string;
  getName(): string;
  getType(): string;
}

function resourceCall(request: AddressedRequest): ResourceCall {
  // Engines before Pulumi 3.131 send the URN alone: its type and name are read from it then.
  const fromUrn = urnParts(request.getUrn());
  return { urn: request.getUrn(), name: request.getName() || fromUrn.name, type: request.getType() || fromUrn.type };
}

/**
 * The gRPC error of a failed call: UNIMPLEMENTED for what the plugin does not serve; UNKNOWN with the
 * error's message otherwise, as the engine shows it; with the `ErrorResourceInitFailed` detail for a
 * partial failure (docs/provider-plugins.md rule 9). All of it travels in trailers, so the message,
 * the reasons and the outputs are made inert and bounded (provider/text/bounded.ts): a value of the
 * service cannot drive the user's terminal, and a failure of any size reaches the engine without
 * blocking the connection (docs/provider-plugins.md "Every answer reaches the engine").
 */
function grpcError(error: unknown): grpc.ServerErrorResponse {
  const text = error instanceof Error ? error.message : String(error);
  if (error instanceof NotServedError) {
    const message = engineMessage(text);
    return Object.assign(new Error(message), { code: grpc.status.UNIMPLEMENTED, details: message });
  }
  const metadata = new grpc.Metadata();
  let message = engineMessage(text);
  if (isPartialFailure(error)) {
    const { properties, leftOut } = engineProperties(error.properties);
    if (leftOut.length > 0) message = engineMessage(text, leftOutNote(leftOut));
    const detail = new providerProto.ErrorResourceInitFailed();
    detail.setId(error.id);
    detail.setProperties(structOf(properties));
    detail.setReasonsList(engineReasons(error.reasons));
    const any = new Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return Object.assign(new Error(message), { code: grpc.status.UNKNOWN, details: message, metadata });
}

/** Check and Invoke failures as the protocol carries them, paths and reasons inert and bounded. */
function checkFailures(failures: Failure[]): providerProto.CheckFailure[] {
  return engineFailures(failures).map(({ property, reason }) => {
    const failure = new providerProto.CheckFailure();
    failure.setProperty(property);
    failure.setReason(reason);
    return failure;
  });
}

const CHANGES = {
  some: providerProto.DiffResponse.DiffChanges.DIFF_SOME,
  none: providerProto.DiffResponse.DiffChanges.DIFF_NONE,
  unknown: providerProto.DiffResponse.DiffChanges.DIFF_UNKNOWN,
} as const;

const { Kind } = providerProto.PropertyDiff;
const KINDS = {
  add: [Kind.ADD, Kind.ADD_REPLACE],
  delete: [Kind.DELETE, Kind.DELETE_REPLACE],
  update: [Kind.UPDATE, Kind.UPDATE_REPLACE],
} as const;

/**
 * The top-level property of a property path: `rules` of `rules.rules[1].value`, `filters` of
 * `filters["Austin"].name`, `a.b` of `["a.b"].c`.
 */
export function topLevelProperty(path: string): string {
  if (path.startsWith("[")) {
    const quoted = /^\[("(?:[^"\\]|\\.)*")\]/.exec(path);
    return quoted ? (JSON.parse(quoted[1]!) as string) : path;
  }
  return /^[^.[]*/.exec(path)![0];
}

/**
 * A Diff answer as the protocol carries it, keeping its invariants (docs/provider-plugins.md rule 8):
 * `diffs` names the top-level properties of the detailed paths, each once, and `replaces` every
 * top-level property with a replacing change.
 */
export function diffResponse(answer: DiffAnswer): providerProto.DiffResponse {
  const response = new providerProto.DiffResponse();
  response.setChanges(CHANGES[answer.changes]);
  const replaces = new Set(answer.replaces ?? []);
  const diffs = new Set<string>();
  if (answer.detailedDiff !== undefined) {
    response.setHasdetaileddiff(true);
    const detailed = response.getDetaileddiffMap();
    for (const [path, change] of Object.entries(answer.detailedDiff)) {
      const entry = new providerProto.PropertyDiff();
      entry.setKind(KINDS[change.kind][change.replace ? 1 : 0]);
      entry.setInputdiff(change.inputDiff ?? false);
      detailed.set(path, entry);
      diffs.add(topLevelProperty(path));
      if (change.replace) replaces.add(topLevelProperty(path));
    }
  }
  response.setDiffsList([...diffs]);
  response.setReplacesList([...replaces]);
  response.setDeletebeforereplace(answer.deleteBeforeReplace ?? false);
  return response;
}

/** The settings and services of one plugin process. */
export interface ProviderServiceOptions {
  /** The engine's `Log` call: where the plugin's lines go (docs/provider-plugins.md rule 2). */
  log: EngineLog;
}

/**
 * The service implementation. Each call runs with its resource's URN at hand, so that the lines the
 * shared code reports (accounts/runtime.ts `report`) reach the engine under that resource, and answers
 * only once its lines are delivered, so that a warning shows before its step ends.
 */
export function resourceProviderService({ log }: ProviderServiceOptions): Partial<IResourceProviderServer> {
  const cancellation = new AbortController();
  reportThrough((line) => log.log("info", line, currentUrn.getStore() ?? ""));

  /** A unary method: `serve` answers or throws; the answer waits for the lines logged during the call. */
  function unary<Request, Response>(
    serve: (request: Request) => Response | Promise<Response>,
    urnOf: (request: Request) => string = () => "",
  ): grpc.handleUnaryCall<Request, Response> {
    return (call, callback) => {
      void currentUrn.run(urnOf(call.request), async () => {
        let outcome: { response: Response } | { error: unknown };
        try {
          outcome = { response: await serve(call.request) };
        } catch (error) {
          outcome = { error };
        }
        await log.flush();
        if ("error" in outcome) callback(grpcError(outcome.error));
        else callback(null, outcome.response);
      });
    };
  }

  /** A resource method: the adapter of the request's type token (./resources.ts). */
  function resourceMethod<Request extends AddressedRequest, Response>(
    serve: (adapter: ReturnType<typeof adapterOf>, call: ResourceCall, request: Request) => Promise<Response>,
  ): grpc.handleUnaryCall<Request, Response> {
    return unary((request: Request) => {
      const call = resourceCall(request);
      return serve(adapterOf(call.type), call, request);
    }, (request) => request.getUrn());
  }

  return {
    getPluginInfo: unary(() => {
      const info = new PluginInfo();
      info.setVersion(packageVersion());
      return info;
    }),

    getSchema: unary((request: providerProto.GetSchemaRequest) => {
      if (request.getVersion() !== 0) throw new InsightsError(`unsupported schema version ${request.getVersion()}: this plugin serves version 0`);
      const response = new providerProto.GetSchemaResponse();
      response.setSchema(PACKAGE_SCHEMA_TEXT);
      return response;
    }),

    checkConfig: unary((request: providerProto.CheckRequest) => {
      const { inputs, failures } = checkConfig(propertiesOf(request.getNews()));
      const response = new providerProto.CheckResponse();
      response.setInputs(structOf(inputs));
      response.setFailuresList(checkFailures(failures));
      return response;
    }, (request) => request.getUrn()),

    diffConfig: unary(
      (request: providerProto.DiffRequest) => diffResponse(diffConfig(propertiesOf(request.getOldInputs() ?? request.getOlds()), propertiesOf(request.getNews()))),
      (request) => request.getUrn(),
    ),

    configure: unary((request: providerProto.ConfigureRequest) => {
      const variables = new Map<string, string>();
      request.getVariablesMap().forEach((value, key) => variables.set(key, value));
      configure(propertiesOf(request.getArgs()), variables);
      const response = new providerProto.ConfigureResponse();
      // Secrets stay typed both ways (rule 6). Resource references and output values are not
      // taken: the engine sends their plain values instead.
      response.setAcceptsecrets(true);
      response.setAcceptresources(false);
      response.setAcceptoutputs(false);
      // No adapter changes anything during a preview yet: Create and Update are not called then.
      response.setSupportspreview(false);
      return response;
    }),

    invoke: unary(async (request: providerProto.InvokeRequest) => {
      const { outputs, failures } = await invoke(request.getTok(), propertiesOf(request.getArgs()), cancellation.signal);
      const response = new providerProto.InvokeResponse();
      if (failures.length === 0) response.setReturn(structOf(outputs));
      response.setFailuresList(checkFailures(failures));
      return response;
    }),

    cancel: unary(() => {
      cancellation.abort(new InsightsError("the engine cancelled the operation"));
      return new Empty();
    }),

    check: resourceMethod(async (adapter, call, request: providerProto.CheckRequest) => {
      const { inputs, failures } = await adapter.check({ ...call, olds: propertiesOf(request.getOlds()), news: propertiesOf(request.getNews()) });
      const response = new providerProto.CheckResponse();
      response.setInputs(structOf(inputs));
      response.setFailuresList(checkFailures(failures));
      return response;
    }),

    diff: resourceMethod(async (adapter, call, request: providerProto.DiffRequest) =>
      diffResponse(
        await adapter.diff({
          ...call,
          id: request.getId(),
          olds: propertiesOf(request.getOlds()),
          news: propertiesOf(request.getNews()),
          oldInputs: propertiesOf(request.getOldInputs()),
          ignoreChanges: request.getIgnorechangesList(),
        }),
      ),
    ),

    create: resourceMethod(async (adapter, call, request: providerProto.CreateRequest) => {
      const { id, outputs } = await adapter.create({ ...call, properties: propertiesOf(request.getProperties()), preview: request.getPreview(), timeoutSeconds: request.getTimeout() });
      const response = new providerProto.CreateResponse();
      response.setId(id);
      response.setProperties(structOf(outputs));
      return response;
    }),

    read: resourceMethod(async (adapter, call, request: providerProto.ReadRequest) => {
      const answer = await adapter.read({ ...call, id: request.getId(), properties: propertiesOf(request.getProperties()), inputs: propertiesOf(request.getInputs()) });
      const response = new providerProto.ReadResponse();
      if (answer.id === undefined) return response;
      response.setId(answer.id);
      response.setProperties(structOf(answer.outputs));
      if (answer.inputs !== undefined) response.setInputs(structOf(answer.inputs));
      return response;
    }),

    update: resourceMethod(async (adapter, call, request: providerProto.UpdateRequest) => {
      const { outputs } = await adapter.update({
        ...call,
        id: request.getId(),
        olds: propertiesOf(request.getOlds()),
        news: propertiesOf(request.getNews()),
        oldInputs: propertiesOf(request.getOldInputs()),
        preview: request.getPreview(),
        timeoutSeconds: request.getTimeout(),
      });
      const response = new providerProto.UpdateResponse();
      response.setProperties(structOf(outputs));
      return response;
    }),

    delete: resourceMethod(async (adapter, call, request: providerProto.DeleteRequest) => {
      await adapter.delete({ ...call, id: request.getId(), properties: propertiesOf(request.getProperties()), oldInputs: propertiesOf(request.getOldInputs()) });
      return new Empty();
    }),
  };
}

/** A running plugin server. */
export interface PluginServer {
  /** The loopback port it listens on (the first line of stdout, docs/provider-plugins.md rule 1). */
  readonly port: number;
  /** Stops serving at once and closes the connection to the engine. */
  close(): void;
}

/** The SDK's own message limit (runtime/settings `maxRPCMessageSize`): a large set's properties fit. */
const MAX_MESSAGE_BYTES = 1024 * 1024 * 400;

/** The Struct fields of the requests that carry property bags: getter name to field number (provider.proto). */
const REQUEST_STRUCTS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  checkConfig: { getOlds: 2, getNews: 3 },
  check: { getOlds: 2, getNews: 3 },
  diffConfig: { getOlds: 3, getNews: 4, getOldInputs: 6 },
  diff: { getOlds: 3, getNews: 4, getOldInputs: 6 },
  create: { getProperties: 2 },
  read: { getProperties: 3, getInputs: 4 },
  update: { getOlds: 3, getNews: 4, getOldInputs: 8 },
  delete: { getProperties: 3, getOldInputs: 5 },
  invoke: { getArgs: 2 },
};

/**
 * The ResourceProvider service's definition, its requests' property bags read by ./struct-wire.ts
 * rather than google-protobuf, which takes seconds for a SavedFilterSet of thousands of members
 * (the answers' are written by it too, ./wire.ts `structOf`).
 */
const SERVICE = Object.fromEntries(
  Object.entries(ResourceProviderService).map(([name, method]) => {
    const structs = REQUEST_STRUCTS[name];
    if (structs === undefined) return [name, method];
    return [name, { ...method, requestDeserialize: (bytes: Buffer) => readWithStructs(bytes, method.requestDeserialize, structs) }];
  }),
) as unknown as typeof ResourceProviderService;

/** Serves the ResourceProvider service on a free loopback port. */
export async function servePlugin(options: ProviderServiceOptions): Promise<PluginServer> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": MAX_MESSAGE_BYTES, "grpc.max_send_message_length": MAX_MESSAGE_BYTES });
  server.addService(SERVICE, resourceProviderService(options) as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound)));
  });
  return {
    port,
    close: () => {
      server.forceShutdown();
      options.log.close();
    },
  };
}
