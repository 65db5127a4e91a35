import * as pulumi from "@pulumi/pulumi";
import type { CallOptions, InsightsClient } from "../client";
import { withConnectionWords } from "../connection-check/words";
import { clientFor, connectionSettingsFor, type InsightsConnection } from "./connection";

/**
 * The one way data sources are made. Each reads the account through the typed client from the
 * program's process and comes in the two forms of a Pulumi function, named as Pulumi's own packages
 * name them (pulumi-command, the generated SDKs):
 *
 *     getX(args: GetXArgs, opts?: DataSourceOptions): Promise<GetXResult>
 *     getXOutput(args: GetXOutputArgs, opts?: DataSourceOutputOptions): pulumi.Output<GetXResult>
 *
 * `GetXArgs` is `DataSourceArgs<the client's parameters>` (`args` optional when nothing in it is
 * required), `GetXOutputArgs` is `DataSourceOutputArgs<the same>` (each member an `Input`) and
 * `GetXResult` the answer, free of the index signatures of the wire's loose records
 * ({@link KnownFields}); `opts` are Pulumi's invoke options with this package's per-call timeout.
 * Each module of this folder declares those three types and the two functions of each of its data
 * sources, over the two forms {@link dataSource} or {@link personalDataSource} makes; the test of the
 * package's surface (test/public-surface.test.ts) holds every data source to the names.
 *
 * Under `pulumi.runtime.setMocks` both forms are answered by the mocks' `call` with the token
 * {@link dataSourceToken}, as every Pulumi function is. All argument checks, limits and splitting are
 * the client's; this layer only finds the settings and wraps the answer.
 */

/** Each property may be an `Input` (a plain value, a Promise or an Output). */
export type Inputs<Args> = Args extends unknown ? { [Key in keyof Args]: pulumi.Input<Args[Key]> } : never;

/** The parameters of a data source that takes none (besides `account` and `connection`). */
export type NoArguments = Record<never, never>;

/** The arguments of a Promise form (`GetXArgs`): the client's parameters, and optionally the account or connection settings. */
export type DataSourceArgs<Params> = Params & {
  /**
   * The account to read: a name of the stack config `insights:accounts` (docs/configuration.md "Accounts"); left
   * out, the stack's settings.
   */
  account?: string;
  /**
   * Settings of this call; each left out comes from the named `account`, else the stack config,
   * else the environment.
   */
  connection?: InsightsConnection;
};

/** The arguments of an Output form (`GetXOutputArgs`): those of the Promise form, each an `Input`. */
export type DataSourceOutputArgs<Params> = Inputs<Params> & {
  /**
   * The account to read: a name of the stack config `insights:accounts` (docs/configuration.md "Accounts"); left
   * out, the stack's settings.
   */
  account?: pulumi.Input<string>;
  /**
   * Settings of this call; each left out comes from the named `account`, else the stack config,
   * else the environment. A
   * secret `clientSecret` stays out of the result: it authenticates the call, it is not in the answer.
   */
  connection?: pulumi.Input<Inputs<InsightsConnection>>;
};

/**
 * An answer as the data sources type it (`GetXResult`): without the `unknown` index signatures of the
 * schemas' loose objects (kept for fields a newer service may add); a real map (`Record<string, X>`)
 * stays. Pulumi lifts the properties of an Output's value (`getSavedFilterByNameOutput(args).id`),
 * and an index signature would hide every named property.
 */
export type KnownFields<Value> = Value extends readonly (infer Item)[]
  ? Value extends unknown[] ? KnownFields<Item>[] : readonly KnownFields<Item>[]
  : Value extends object
    ? { [Key in keyof Value as string extends Key ? LooseKey<Value, Key> : number extends Key ? LooseKey<Value, Key> : Key]: KnownFields<Value[Key]> }
    : Value;

/** An index signature's key, or none when it holds `unknown` (a loose object's room for more fields). */
type LooseKey<Value, Key extends keyof Value> = unknown extends Value[Key] ? never : Key;

/**
 * Options of a Promise form: Pulumi's invoke options (`parent`, `provider`, ...: accepted as every
 * Pulumi function accepts them; the read happens in the program's process, so only a mock engine
 * sees them) and the per-call settings of this package.
 */
export interface DataSourceOptions extends pulumi.InvokeOptions {
  /** Per-request timeout in milliseconds (default: the client's, `insights:timeoutMs` or 30 s). */
  timeoutMs?: number;
  /** Cancels the read when aborted. */
  signal?: AbortSignal;
}

/**
 * Options of an Output form: Pulumi's invoke-output options, `dependsOn` included (the read happens
 * once those resources exist, and during a preview that would create them the answer is unknown),
 * and the per-call timeout of this package.
 */
export interface DataSourceOutputOptions extends pulumi.InvokeOutputOptions {
  /** Per-request timeout in milliseconds (default: the client's, `insights:timeoutMs` or 30 s). */
  timeoutMs?: number;
}

/** The two forms of one data source, which its exported `getX` and `getXOutput` call. */
export interface DataSourceForms<Params, Result> {
  /** The Promise form (`getX`). */
  invoke(args: DataSourceArgs<Params> | undefined, opts: DataSourceOptions | undefined): Promise<Result>;
  /** The Output form (`getXOutput`). */
  output(args: DataSourceOutputArgs<Params> | undefined, opts: DataSourceOutputOptions | undefined): pulumi.Output<KnownFields<Result>>;
}

/** How a data source reads its answer; `params` are the caller's arguments without `connection` and `account`. */
export type Read<Params, Result> = (client: InsightsClient, params: Params, options: CallOptions) => Promise<Result>;

/**
 * The token of a data source, as a mock engine's `call` sees it (`pulumi.runtime.setMocks`): the
 * Pulumi convention for a function of a package's index module, `insights:index:getSavedFilter`.
 */
export function dataSourceToken(functionName: string): string {
  return `insights:index:${functionName}`;
}

/**
 * The two forms of a data source whose answer holds no personal data; `functionName` is the
 * Promise form's name (`getKpis`), which makes the token.
 *
 * @example
 * const kpis = dataSource("getKpis", (client, params: NoArguments, options) => client.metrics.kpis(params, options));
 * export function getKpis(args?: GetKpisArgs, opts?: DataSourceOptions): Promise<GetKpisResult> {
 *   return kpis.invoke(args, opts);
 * }
 */
export function dataSource<Params extends object, Result>(functionName: string, read: Read<Params, Result>): DataSourceForms<Params, Result> {
  return dataSourceForms(functionName, read, { personalData: false });
}

/**
 * The two forms of a data source whose answer holds personal data (viewer ids, IP addresses, viewer
 * sessions, e-mail addresses): the Output form answers a secret, so Pulumi hides it and encrypts it
 * in the state.
 */
export function personalDataSource<Params extends object, Result>(functionName: string, read: Read<Params, Result>): DataSourceForms<Params, Result> {
  return dataSourceForms(functionName, read, { personalData: true });
}

/**
 * The mark of {@link withAccountReads}: a registered symbol, so that it is seen whichever copy of
 * this package made it.
 */
const READ_THE_ACCOUNT_UNDER_MOCKS = Symbol.for("pulumi-insights.readTheAccountUnderMocks");

/**
 * Marks mocks (of `pulumi.runtime.setMocks`) under which this package's data sources read the
 * account for real, from the stack config's settings, instead of asking the mocks' `call`: for a
 * test of a program against a local emulator. Without the mark, a data source under mocks is
 * answered by `call`, as every Pulumi function is.
 *
 * @example
 * await pulumi.runtime.setMocks(withAccountReads({ newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs }));
 */
export function withAccountReads<Mocks extends pulumi.runtime.Mocks>(mocks: Mocks): Mocks {
  return Object.assign(mocks, { [READ_THE_ACCOUNT_UNDER_MOCKS]: true });
}

/**
 * Whether a mock engine answers the data sources: the program runs under `pulumi.runtime.setMocks`
 * (the SDK's mock monitor holds the mocks, in the SDK's global store whichever copy of
 * `@pulumi/pulumi` set them) and they are not marked by {@link withAccountReads}.
 */
function answeredByMocks(): boolean {
  const monitor = pulumi.runtime.getMonitor() as { mocks?: { call?: unknown; [READ_THE_ACCOUNT_UNDER_MOCKS]?: unknown } } | undefined;
  const mocks = monitor?.mocks;
  return typeof mocks?.call === "function" && mocks[READ_THE_ACCOUNT_UNDER_MOCKS] !== true;
}

/** Pulumi's invoke options without this package's own per-call settings. */
function pulumiOptions<Options extends pulumi.InvokeOptions>(options: Options & { timeoutMs?: number; signal?: AbortSignal }): pulumi.InvokeOptions {
  const { timeoutMs: _timeoutMs, signal: _signal, ...invokeOptions } = options;
  return invokeOptions;
}

/**
 * A data source as a host that serves Pulumi functions calls it (the provider plugin's Invoke,
 * docs/provider-plugins.md rule 11): its token, how it reads the account through a client the host
 * gives it, and whether its answer is personal data (answered as secrets).
 */
export interface DataSourceDefinition {
  /** `insights:index:getX` ({@link dataSourceToken}). */
  readonly token: string;
  /** Reads the answer; `params` are the arguments without `connection` and `account`. */
  readonly read: Read<never, unknown>;
  /** The answer holds personal data. */
  readonly personalData: boolean;
}

/**
 * Every data source made so far, by token: each module of this folder adds its own when loaded; a
 * name kept only for programs written against an older release is not among them.
 */
const definitions = new Map<string, DataSourceDefinition>();

/** The data sources made so far (load `data/index.ts` for all of them), by token. */
export function dataSourceDefinitions(): ReadonlyMap<string, DataSourceDefinition> {
  return definitions;
}

/**
 * Makes the two forms of a data source from the way it reads its answer. In a program, each form
 * reads the account through the client; under mocks, each asks the engine through
 * `pulumi.runtime.invoke` with the token {@link dataSourceToken} and the arguments without
 * `connection` (its secret is for the client only); the `account` name is passed on. `deprecated`
 * forms (an old name kept for one release) answer as the others but are left out of
 * {@link dataSourceDefinitions}, so a host that serves the functions anew serves only current names.
 */
export function dataSourceForms<Params extends object, Result>(
  functionName: string,
  read: Read<Params, Result>,
  { personalData, deprecated = false }: { personalData: boolean; deprecated?: boolean },
): DataSourceForms<Params, Result> {
  const token = dataSourceToken(functionName);
  if (!deprecated) definitions.set(token, { token, read: read as Read<never, unknown>, personalData });
  const readTheAccount = async (args: DataSourceArgs<Params> | undefined, options: CallOptions): Promise<Result> => {
    const { connection, account, ...params } = args ?? ({} as DataSourceArgs<Params>);
    // A setting found nowhere throws here, naming the places it is read from.
    const settings = connectionSettingsFor(connection, account);
    try {
      return await read(clientFor(connection, account), params as unknown as Params, options);
    } catch (error) {
      // A failure of the connection in the words the preview's check uses (connection-check/words.ts).
      const given = Object.entries(connection ?? {}).filter(([, value]) => typeof value === "string" && value.trim() !== "").map(([name]) => name as keyof InsightsConnection);
      throw withConnectionWords(error, { baseUrl: settings.baseUrl, clientId: settings.clientId, ...(account === undefined ? {} : { name: account }), given }, functionName);
    }
  };
  const invoke = async (args: DataSourceArgs<Params> | undefined, opts: DataSourceOptions = {}): Promise<Result> => {
    if (answeredByMocks()) {
      const { connection: _connection, ...params } = args ?? ({} as DataSourceArgs<Params>);
      return (await pulumi.runtime.invoke(token, withEpochTimes(params) as pulumi.Inputs, pulumiOptions(opts))) as Result;
    }
    const { timeoutMs, signal } = opts;
    return readTheAccount(args, { timeoutMs, signal });
  };
  const output = (args: DataSourceOutputArgs<Params> | undefined, opts: DataSourceOutputOptions = {}): pulumi.Output<KnownFields<Result>> => {
    const { connection, ...params } = args ?? ({} as DataSourceOutputArgs<Params>);
    const { dependsOn, timeoutMs } = opts;
    let answer: pulumi.Output<unknown>;
    if (answeredByMocks()) {
      answer = pulumi.runtime.invokeOutput(token, withEpochTimes(params) as pulumi.Inputs, { ...pulumiOptions(opts), dependsOn });
    } else {
      // The credential must not make every answer secret, so it is taken out of the secret tracking;
      // this Output is local to the call and never exported.
      const settings = pulumi.unsecret(pulumi.output(connection ?? {}));
      answer = pulumi
        .all([pulumi.output(withEpochTimes(params)), settings, waitFor(dependsOn)])
        .apply(([plainParams, plainSettings]) => readTheAccount({ ...(plainParams as object), connection: plainSettings } as DataSourceArgs<Params>, { timeoutMs }));
    }
    return (personalData ? pulumi.secret(answer) : answer) as pulumi.Output<KnownFields<Result>>;
  };
  return { invoke, output };
}

/**
 * `pulumi.output` copies plain objects property by property, which turns a `Date` into `{}`; dates
 * given to an Output form are therefore passed on as epoch milliseconds, which the client takes too.
 */
function withEpochTimes(value: unknown): unknown {
  if (value instanceof Date) return value.getTime();
  if (Array.isArray(value)) return value.map(withEpochTimes);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withEpochTimes(item)]));
  }
  return value;
}

/** An Output known once every resource of `dependsOn` exists (its id for custom resources, else its URN). */
function waitFor(dependsOn: DataSourceOutputOptions["dependsOn"]): pulumi.Output<unknown> {
  if (dependsOn === undefined) return pulumi.output(undefined);
  return pulumi.unsecret(
    pulumi.output(dependsOn).apply((resources) => {
      const list = (Array.isArray(resources) ? resources : [resources]) as pulumi.Resource[];
      return pulumi.all(list.map((resource) => (pulumi.CustomResource.isInstance(resource) ? resource.id : resource.urn))).apply(() => undefined);
    }),
  );
}
