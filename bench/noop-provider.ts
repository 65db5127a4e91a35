import * as pulumi from "@pulumi/pulumi";

/**
 * A dynamic resource whose provider sends no request and keeps its inputs as outputs: driven with
 * the same calls as SavedFilter and SavedFilterSet, it shows what the SDK's dynamic-provider host
 * costs by itself (memory, gRPC time), the baseline of the provider benchmark.
 */
export class NoopResource extends pulumi.dynamic.Resource {
  constructor(name: string, args: Record<string, unknown>) {
    super(noopProvider, name, args, undefined, "bench", "NoopResource");
  }
}

const noopProvider: pulumi.dynamic.ResourceProvider = {
  check: async (_olds, news) => ({ inputs: news }),
  // A resource changes with its name, a set with its members (the benchmark changes only those).
  diff: async (_id, olds, news) => ({ changes: olds.name !== news.name || JSON.stringify(olds.filters) !== JSON.stringify(news.filters) }),
  create: async (inputs) => ({ id: Math.random().toString(36).slice(2), outs: inputs }),
  read: async (id, props) => ({ id, props }),
  update: async (_id, _olds, news) => ({ outs: news }),
  delete: async () => undefined,
};
