// @ts-check
"use strict";
/**
 * The offline path of `npm start` (no Pulumi CLI, or `--offline`): the examples program (examples/)
 * runs in this process under Pulumi's SDK, and every resource goes through the SDK's real
 * dynamic-provider host over gRPC against the emulator, driven by the engine driver (engine/,
 * from its build dist/engine), which is not the Pulumi engine. The round a user would make:
 * preview, update (with the outputs), a preview with no changes, a change made in the console shown
 * by a refresh and put back by the next update, then destroy.
 */
const path = require("node:path");

/** The filter the demo changes "in the console" (examples/filters.ts, `north-america`). */
const EDITED_FILTER = "North America, no test devices";

/**
 * Runs the round. `stop.requested` is set by Ctrl-C: the round stops between commands.
 * @param {{
 *   root: string,
 *   emulatorUrl: string,
 *   account: { clientId: string, clientSecret: string },
 *   config: Record<string, string>,
 *   secretKeys: string[],
 *   write: (line: string) => void,
 *   onHost: (close: () => Promise<void>) => void,
 * }} options
 */
async function runOffline(options) {
  const { root, write } = options;
  const engine = require(path.join(root, "dist", "engine"));
  const { InsightsClient } = require(path.join(root, "dist", "provider", "client"));

  // The repository is the Pulumi project (Pulumi.yaml, project `insights`), as for `pulumi up` at its root.
  const host = await engine.startProviderHost({ projectDir: root, project: "insights" });
  options.onHost(() => host.close());
  engine.echoHostOutput(host, write);
  const providerConfig = Object.fromEntries(Object.entries(options.config).filter(([key]) => ["insights:baseUrl", "insights:clientId"].includes(key)));
  await host.configure({ ...providerConfig, "insights:clientSecret": engine.secret(options.account.clientSecret) });

  const stack = new engine.Deployment({
    host,
    program: { module: "dist/examples/program.js", exportName: "runExamples" },
    project: "insights",
    stack: "demo",
    config: options.config,
    secretConfigKeys: options.secretKeys,
    write,
  });
  /** @param {string} title */
  const heading = (title) => write(`\n\u2500\u2500 ${title}\n`);
  /** @param {{ failed: boolean }} result @param {string} command */
  const mustSucceed = (result, command) => {
    if (result.failed) throw new Error(`${command} failed (see the errors above)`);
  };

  heading("pulumi preview");
  mustSucceed(await stack.preview(), "preview");
  heading("pulumi up --yes");
  mustSucceed(await stack.update(), "update");
  heading("pulumi preview (nothing changed: no changes expected)");
  mustSucceed(await stack.preview(), "preview");

  const adoptFilterId = options.config["insights:adoptFilterId"];
  heading(`pulumi config set insights:adoptFilterId ${adoptFilterId}x && pulumi preview (a typo: the preview refuses it)`);
  stack.setConfig("insights:adoptFilterId", `${adoptFilterId}x`);
  const refused = await stack.preview();
  if (!refused.failed) throw new Error("the preview accepted an adoptId that is not a number");
  stack.setConfig("insights:adoptFilterId", adoptFilterId);
  write(`pulumi config set insights:adoptFilterId ${adoptFilterId}   # put back`);

  heading(`A change made in the console: "${EDITED_FILTER}" edited through the API`);
  const client = new InsightsClient({ baseUrl: options.emulatorUrl, clientId: options.account.clientId, clientSecret: options.account.clientSecret });
  try {
    const [filter] = await client.filters.findByName({ name: EDITED_FILTER });
    if (filter === undefined) throw new Error(`the filter "${EDITED_FILTER}" is not in the account`);
    const rules = { op: "and", rules: [{ op: "or", rules: [{ field: "Country", op: "equals", value: "United States" }, { field: "Country", op: "equals", value: "Mexico" }] }] };
    await client.filters.update({ changes: [{ id: filter.id, name: `${EDITED_FILTER} (edited)`, rules }] });
    write(`filter ${filter.id}: renamed "${EDITED_FILTER} (edited)", rules: Country United States or Mexico, the device tag rule removed`);
  } finally {
    await client.close();
  }
  heading("pulumi refresh --yes");
  await stack.refresh();
  heading("pulumi up --yes (puts the declaration back)");
  mustSucceed(await stack.update(), "update");

  heading("pulumi destroy --yes");
  await stack.destroy();
}

module.exports = { runOffline };
