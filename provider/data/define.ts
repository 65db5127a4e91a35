import * as pulumi from "@pulumi/pulumi";
import type { CallOptions, InsightsClient } from "../client";
import { clientFor, type InsightsConnection } from "./connection";

/**
 * The one way data sources are made. Each reads the account through the typed client from the
 * program's process and comes in the two Pulumi forms: `getX(args, options?)` answers a Promise,
 * `getXOutput(args, options?)` takes `Input`s and answers an `Output`. All argument checks, limits
 * and splitting are the client's; this layer only finds the settings and wraps the answer.
 */

/** Each property may be an `Input` (a plain value, a Promise or an Output). */
export type Inputs<Args> = Args extends unknown ? { [Key in keyof Args]: pulumi.Input<Args[Key]> } : never;

/** The parameters of a data source that takes none (besides `connection`). */
export type NoArguments = Record<never, never>;

/** The arguments of a Promise form: the method's parameters and optional connection settings. */
export type DataSourceArgs<Params> = Params & {
  /** Settings of this call; each left out comes from the stack config, else the environment. */
  connection?: InsightsConnection;
};

/** The arguments of an Output form: each may be an `Input`. */
export type DataSourceOutputArgs<Params> = Inputs<Params> & {
  /**
   * Settings of this call; each left out comes from the stack config, else the environment. A
   * secret `clientSecret` stays out of the result: it authenticates the call, it is not in the answer.
   */
  connection?: pulumi.Input<Inputs<InsightsConnection>>;
};

/**
 * An answer as the Output forms type it: without the index signatures of the schemas' loose objects
 * (kept for fields a newer service may add). Pulumi lifts the properties of an Output's value
 * (`getSavedFilterByNameOutput(args).id`), and an index signature would hide every named property.
 */
export type KnownFields<Value> = Value extends readonly (infer Item)[]
  ? KnownFields<Item>[]
  : Value extends object
    ? { [Key in keyof Value as string extends Key ? never : number extends Key ? never : Key]: KnownFields<Value[Key]> }
    : Value;

/** Options of a Promise form: a per-request timeout and a cancel signal. */
export type DataSourceOptions = CallOptions;

/** Options of an Output form. */
export interface DataSourceOutputOptions {
  /** Per-request timeout in milliseconds (default: the client's, 30 s). */
  timeoutMs?: number;
  /**
   * Resources to wait for before reading, as `dependsOn` of Pulumi's invoke options: the read
   * happens once they exist, and during a preview that would create them the answer is unknown.
   */
  dependsOn?: pulumi.Input<pulumi.Input<pulumi.Resource>[]> | pulumi.Input<pulumi.Resource>;
}

/** Parameters of a form: optional when the data source has no required argument. */
type Call<Args, Options> = {} extends Args ? [args?: Args, options?: Options] : [args: Args, options?: Options];

/** The two forms of one data source. */
export interface DataSourceForms<Params, Result> {
  /** The Promise form (`getX`). */
  invoke(...call: Call<DataSourceArgs<Params>, DataSourceOptions>): Promise<Result>;
  /** The Output form (`getXOutput`). */
  output(...call: Call<DataSourceOutputArgs<Params>, DataSourceOutputOptions>): pulumi.Output<KnownFields<Result>>;
}

/** How a data source reads its answer; `params` are the caller's arguments without `connection`. */
export type Read<Params, Result> = (client: InsightsClient, params: Params, options: CallOptions) => Promise<Result>;

/** The exports of one data source, named by the Pulumi convention: `get<Name>` and `get<Name>Output`. */
export type DataSourcePair<Name extends string, Invoke, Output> = { [Key in `get${Name}`]: Invoke } & { [Key in `get${Name}Output`]: Output };

/**
 * A data source whose answer holds no personal data.
 *
 * @example
 * export const { getKpis, getKpisOutput } = dataSource("Kpis", (client, params: NoArguments, options) => client.metrics.kpis(params, options));
 */
export function dataSource<Name extends string, Params extends object, Result>(
  name: Name,
  read: Read<Params, Result>,
): DataSourcePair<Name, DataSourceForms<Params, Result>["invoke"], DataSourceForms<Params, Result>["output"]> {
  return namedPair(name, dataSourceForms(read, { personalData: false }));
}

/**
 * A data source whose answer holds personal data (viewer ids, IP addresses, viewer sessions, e-mail
 * addresses): the Output form answers a secret, so Pulumi hides it and encrypts it in the state.
 */
export function personalDataSource<Name extends string, Params extends object, Result>(
  name: Name,
  read: Read<Params, Result>,
): DataSourcePair<Name, DataSourceForms<Params, Result>["invoke"], DataSourceForms<Params, Result>["output"]> {
  return namedPair(name, dataSourceForms(read, { personalData: true }));
}

/** The two forms under their exported names. */
export function namedPair<Name extends string, Invoke, Output>(name: Name, forms: { invoke: Invoke; output: Output }): DataSourcePair<Name, Invoke, Output> {
  return { [`get${name}`]: forms.invoke, [`get${name}Output`]: forms.output } as DataSourcePair<Name, Invoke, Output>;
}

/** Makes the two forms of a data source from the way it reads its answer. */
export function dataSourceForms<Params extends object, Result>(read: Read<Params, Result>, { personalData }: { personalData: boolean }): DataSourceForms<Params, Result> {
  const invoke = async (args: DataSourceArgs<Params> | undefined, options: CallOptions): Promise<Result> => {
    const { connection, ...params } = args ?? ({} as DataSourceArgs<Params>);
    return read(clientFor(connection), params as unknown as Params, options);
  };
  return {
    invoke: (...[args, options]) => invoke(args, options ?? {}),
    output: (...[args, options]) => {
      const { connection, ...params } = args ?? ({} as DataSourceOutputArgs<Params>);
      const { dependsOn, ...callOptions } = options ?? {};
      // The credential must not make every answer secret, so it is taken out of the secret tracking;
      // this Output is local to the call and never exported.
      const settings = pulumi.unsecret(pulumi.output(connection ?? {}));
      const answer = pulumi
        .all([pulumi.output(withEpochTimes(params)), settings, waitFor(dependsOn)])
        .apply(([plainParams, plainSettings]) => invoke({ ...(plainParams as object), connection: plainSettings } as DataSourceArgs<Params>, callOptions));
      return (personalData ? pulumi.secret(answer) : answer) as pulumi.Output<KnownFields<Result>>;
    },
  };
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
