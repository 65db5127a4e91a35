// @ts-check
"use strict";
/**
 * `npm run plugin:package [-- --out DIR]`: the provider plugin as a standalone executable that needs
 * no Node.js, packed as Pulumi installs plugins (docs/releasing.md), for the platform this runs on:
 *
 * 1. esbuild bundles the built plugin (dist/provider/plugin/bin.js) and everything it loads into one
 *    CommonJS file, with package.json's version and repository written in (a single executable has
 *    no package.json beside it: provider/client/core/version.ts);
 * 2. Node's single executable application: `node --experimental-sea-config` makes the blob, which
 *    postject injects into a copy of this Node.js binary (`process.execPath`);
 * 3. `pulumi-resource-insights-v<version>-<os>-<arch>.tar.gz` with the executable at its root, a
 *    `.sha256` beside it (the `sha256sum` format), and the package schema the plugin serves
 *    (`pulumi-insights-v<version>-schema.json`, from which the release generates the SDKs).
 *
 * Another platform's archive is built on that platform (the release's runner matrix): the
 * executable is that platform's own Node.js binary.
 */
const { spawnSync } = require("node:child_process");
const { createHash } = require("node:crypto");
const { chmodSync, closeSync, copyFileSync, createReadStream, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } = require("node:fs");
const path = require("node:path");

const ROOT = path.join(__dirname, "..");
/** The plugin's entry point in the tsc build (package.json `bin`). */
const ENTRY = path.join(ROOT, "dist", "provider", "plugin", "bin.js");
/** The fuse Node's single executable applications look for (Node's documentation of them). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
/** Pulumi's names of the operating systems and architectures it has plugins for, by Node's names. */
const PULUMI_OS = /** @type {Record<string, string>} */ ({ linux: "linux", darwin: "darwin", win32: "windows" });
const PULUMI_ARCH = /** @type {Record<string, string>} */ ({ x64: "amd64", arm64: "arm64" });

/**
 * The SDK's root (`@pulumi/pulumi`) is what a Pulumi program runs, with the TypeScript compiler and
 * the Automation API: the plugin only reaches it through the data sources' TypeScript forms, which
 * it never calls (it imports the SDK's gRPC stubs by their own paths). Left out, the bundle is about
 * 5 MB instead of 19; a use would fail naming it rather than at random.
 */
const SDK_ROOT_STUB = `"use strict";
module.exports = new Proxy({}, {
  get(_, key) {
    if (key === "__esModule") return true;
    if (typeof key === "symbol" || key === "then") return undefined;
    throw new Error("pulumi-resource-insights: @pulumi/pulumi " + String(key) + " is not part of the standalone plugin (scripts/package-plugin.cjs)");
  },
});
`;

/** @param {string[]} argv */
function outFolder(argv) {
  const at = argv.indexOf("--out");
  if (at === -1) return path.join(ROOT, "dist", "release");
  const folder = argv[at + 1];
  if (folder === undefined || folder.startsWith("--")) throw new Error("--out needs a folder");
  return path.resolve(folder);
}

/**
 * Runs a command to its end; throws with its output when it fails.
 * @param {string} command @param {string[]} args @param {string} cwd
 */
function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.error?.message ?? `status ${result.status}`}): ${result.stderr}${result.stdout}`);
}

/** @param {string} file @returns {Promise<string>} the SHA-256 of the file, in hex */
function sha256(file) {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(file).on("data", (chunk) => hash.update(chunk)).on("end", () => resolve(hash.digest("hex"))).on("error", reject);
  });
}

async function main() {
  const out = outFolder(process.argv.slice(2));
  const os = PULUMI_OS[process.platform];
  const arch = PULUMI_ARCH[process.arch];
  if (os === undefined || arch === undefined) throw new Error(`Pulumi has no plugins for ${process.platform}/${process.arch}`);
  try {
    statSync(ENTRY);
  } catch {
    throw new Error(`${path.relative(ROOT, ENTRY)} is missing: run \`npm run build\` first (npm run plugin:package does)`);
  }
  // The served schema and the manifest from the build, as the Node-based plugin reads them.
  const { packageManifest } = require(path.join(ROOT, "dist", "provider", "client", "core", "version.js"));
  const { gitHubRepository, servedSchema } = require(path.join(ROOT, "dist", "provider", "plugin", "package-schema.js"));
  /** @type {{ version: string; repository?: string }} */
  const manifest = packageManifest();
  if (gitHubRepository(manifest.repository) === undefined) {
    throw new Error(`package.json repository.url (${JSON.stringify(manifest.repository)}) names no GitHub repository: Pulumi would not know where to download the plugin (docs/releasing.md)`);
  }

  mkdirSync(out, { recursive: true });
  const work = mkdtempSync(path.join(out, ".work-"));
  try {
    const bundle = path.join(work, "plugin.cjs");
    await require("esbuild").build({
      entryPoints: [ENTRY],
      outfile: bundle,
      bundle: true,
      platform: "node",
      format: "cjs",
      target: `node${process.versions.node.split(".")[0]}`,
      define: { PULUMI_INSIGHTS_MANIFEST: JSON.stringify({ version: manifest.version, repository: manifest.repository }) },
      logLevel: "error",
      plugins: [
        {
          name: "pulumi-sdk-root",
          setup(build) {
            build.onResolve({ filter: /^@pulumi\/pulumi$/ }, () => ({ path: "@pulumi/pulumi", namespace: "sdk-root-stub" }));
            build.onLoad({ filter: /.*/, namespace: "sdk-root-stub" }, () => ({ contents: SDK_ROOT_STUB, loader: "js" }));
          },
        },
      ],
    });

    const blob = path.join(work, "plugin.blob");
    const seaConfig = path.join(work, "sea-config.json");
    writeFileSync(seaConfig, JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true }));
    run(process.execPath, ["--experimental-sea-config", seaConfig], work);

    const executableName = `pulumi-resource-insights${os === "windows" ? ".exe" : ""}`;
    const executable = path.join(work, executableName);
    copyFileSync(process.execPath, executable);
    chmodSync(executable, 0o755);
    // macOS runs only signed binaries on arm64: the injection breaks Node's signature, so it is removed first and an ad-hoc one made after.
    if (os === "darwin") run("codesign", ["--remove-signature", executable], work);
    await require("postject").inject(executable, "NODE_SEA_BLOB", readFileSync(blob), {
      sentinelFuse: SEA_FUSE,
      ...(os === "darwin" ? { machoSegmentName: "NODE_SEA" } : {}),
    });
    if (os === "darwin") run("codesign", ["--sign", "-", executable], work);

    const archiveName = `pulumi-resource-insights-v${manifest.version}-${os}-${arch}.tar.gz`;
    const archive = path.join(out, archiveName);
    // Written to standard output: Git for Windows' tar reads a drive letter in a path as a remote host.
    const output = openSync(archive, "w");
    try {
      const packed = spawnSync("tar", ["-czf", "-", executableName], { cwd: work, stdio: ["ignore", output, "pipe"], encoding: "utf8" });
      if (packed.status !== 0) throw new Error(`tar failed (${packed.error?.message ?? `status ${packed.status}`}): ${packed.stderr}`);
    } finally {
      closeSync(output);
    }
    writeFileSync(`${archive}.sha256`, `${await sha256(archive)}  ${archiveName}\n`);
    const schemaFile = path.join(out, `pulumi-insights-v${manifest.version}-schema.json`);
    writeFileSync(schemaFile, `${JSON.stringify(servedSchema(), null, 2)}\n`);

    const megabytes = (/** @type {string} */ file) => `${(statSync(file).size / 1e6).toFixed(1)} MB`;
    process.stdout.write(
      `bundle ${megabytes(bundle)}, executable ${megabytes(executable)} (Node.js ${process.version})\n` +
        `wrote ${path.relative(process.cwd(), archive)} (${megabytes(archive)}), its .sha256 and ${path.relative(process.cwd(), schemaFile)}\n`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((/** @type {unknown} */ error) => {
  process.stderr.write(`plugin:package: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
