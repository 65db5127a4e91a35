/**
 * `pulumi-insights import`: reads the account's saved filters through the client and writes a
 * TypeScript module that declares them (./generate-module.ts), so an account made in the console
 * comes under code with one command and one `pulumi up` that changes nothing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { InsightsClient } from "../client";
import { InsightsError, SettingsError } from "../client/core/errors";
import { IncompleteListingError } from "../client/core/listing";
import { generateModule, type GeneratedModule } from "./generate-module";
import { listFilters, type FilterSelection } from "./list-filters";

/** Where the command reads and writes: the process's own streams, or a test's. */
export interface CommandIo {
  env: Readonly<Record<string, string | undefined>>;
  /** Reads all of standard input (for `--client-secret-stdin`). */
  readStdin(): Promise<string>;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The usage text of `pulumi-insights import`. */
export const IMPORT_USAGE = `usage: pulumi-insights import [options]

Writes a TypeScript module declaring the account's saved filters, each adopted by id, so that the
first \`pulumi up\` takes them over without a change.

selection (all given criteria hold; every filter of the account by default):
  --name <text>             filters whose name contains the text
  --category <category>     filters of this category (GEO, CONTENT, ...)
  --id <ids>                these filter ids, comma-separated (repeatable)

output:
  --out <file>              write the module here (default: standard output)
  --set <name>              one SavedFilterSet with this resource name, members adopted by \`adopt\`,
                            instead of one SavedFilter per filter
  --account <name>          declare them in this account of the stack config insights:accounts
                            (\`account: "<name>"\`); the settings below still say where to read them

account (default: INSIGHTS_BASE_URL, INSIGHTS_CLIENT_ID, INSIGHTS_CLIENT_SECRET):
  --base-url <url>
  --client-id <id>
  --client-secret-file <file>   read the secret from a file (never pass it as an argument: \`ps\` shows those)
  --client-secret-stdin         read the secret from standard input
`;

/** A mistake in the command line: exit status 2 with the usage hint. */
class UsageError extends Error {}

interface ImportOptions {
  selection: FilterSelection;
  out?: string;
  set?: string;
  /** The account name the declarations carry (`account`). */
  account?: string;
  baseUrl?: string;
  clientId?: string;
  secretFrom?: { file: string } | "stdin";
}

function parseImportArgs(argv: readonly string[]): ImportOptions | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        name: { type: "string" },
        category: { type: "string" },
        id: { type: "string", multiple: true },
        out: { type: "string" },
        set: { type: "string" },
        account: { type: "string" },
        "base-url": { type: "string" },
        "client-id": { type: "string" },
        "client-secret-file": { type: "string" },
        "client-secret-stdin": { type: "boolean", default: false },
        "client-secret": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values } = parsed;
  if (values.help) return "help";
  if (values["client-secret"] !== undefined) {
    // Refused without echoing it: the value is already in the process list and the shell history.
    throw new UsageError("--client-secret is not accepted: a secret on the command line shows in `ps` and in the shell history; use --client-secret-file, --client-secret-stdin or INSIGHTS_CLIENT_SECRET");
  }
  if (values["client-secret-file"] !== undefined && values["client-secret-stdin"]) {
    throw new UsageError("--client-secret-file and --client-secret-stdin exclude each other");
  }
  const nonEmpty = (flag: string, value: string | undefined): string | undefined => {
    if (value !== undefined && value.trim() === "") throw new UsageError(`--${flag} must not be empty`);
    return value;
  };
  const ids = values.id?.flatMap((list) => list.split(",")).map((id) => id.trim()).filter((id) => id !== "");
  if (values.id !== undefined && (ids === undefined || ids.length === 0)) throw new UsageError("--id needs at least one filter id");
  const badId = ids?.find((id) => !/^\d+$/.test(id));
  if (badId !== undefined) throw new UsageError(`--id ${JSON.stringify(badId)} is not a filter id (ids are numbers, such as 1001)`);
  const name = nonEmpty("name", values.name);
  const category = nonEmpty("category", values.category);
  const set = nonEmpty("set", values.set);
  const account = nonEmpty("account", values.account);
  const out = nonEmpty("out", values.out);
  const baseUrl = values["base-url"];
  const clientId = values["client-id"];
  const secretFile = values["client-secret-file"];
  return {
    selection: {
      ...(name === undefined ? {} : { name }),
      ...(category === undefined ? {} : { category }),
      ...(ids === undefined ? {} : { ids: [...new Set(ids)] }),
    },
    ...(out === undefined ? {} : { out }),
    ...(set === undefined ? {} : { set }),
    ...(account === undefined ? {} : { account }),
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(clientId === undefined ? {} : { clientId }),
    ...(secretFile !== undefined ? { secretFrom: { file: secretFile } } : values["client-secret-stdin"] ? { secretFrom: "stdin" as const } : {}),
  };
}

async function readSecret(from: ImportOptions["secretFrom"], io: CommandIo): Promise<string | undefined> {
  if (from === undefined) return undefined;
  let text: string;
  try {
    text = from === "stdin" ? await io.readStdin() : readFileSync(from.file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`the client secret could not be read from ${from === "stdin" ? "standard input" : from.file}${code ? ` (${code})` : ""}`);
  }
  // One trailing newline is the file's or the terminal's, not the secret's.
  const secret = text.replace(/\r?\n$/, "");
  if (secret.trim() === "") throw new UsageError(`the client secret read from ${from === "stdin" ? "standard input" : from.file} is empty`);
  return secret;
}

/** The summary on standard error: counts, JSON forms and skipped filters with their reasons. */
function summary(module: GeneratedModule, out: string | undefined): string {
  const count = module.declared.length;
  const lines = [`pulumi-insights import: ${count} saved filter${count === 1 ? "" : "s"} written to ${out ?? "standard output"}`];
  if (module.jsonForms.length > 0) {
    lines.push(`  ${module.jsonForms.length} rule part${module.jsonForms.length === 1 ? "" : "s"} written in the API's JSON form (the builder cannot express them):`);
    for (const note of module.jsonForms) lines.push(`    filter ${note.filterId} ${note.path}: ${note.reason}`);
  }
  if (module.skipped.length > 0) {
    lines.push(`  ${module.skipped.length} filter${module.skipped.length === 1 ? "" : "s"} skipped:`);
    for (const skipped of module.skipped) lines.push(`    filter ${skipped.filterId}: ${skipped.reason}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Runs `pulumi-insights import` with `argv` (the arguments after `import`) and answers the exit
 * status: 0 done, 1 the account could not be read (a listing that stays at the service's cap is
 * such a failure: no module is written, the message says how to import in slices), 2 a mistake in
 * the command line.
 */
export async function runImport(argv: readonly string[], io: CommandIo): Promise<number> {
  let client: InsightsClient | undefined;
  try {
    const options = parseImportArgs(argv);
    if (options === "help") {
      io.stdout(IMPORT_USAGE);
      return 0;
    }
    const clientSecret = await readSecret(options.secretFrom, io);
    client = new InsightsClient({
      env: io.env,
      ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
      ...(options.clientId === undefined ? {} : { clientId: options.clientId }),
      ...(clientSecret === undefined ? {} : { clientSecret }),
    });
    const filters = await listFilters(client, options.selection);
    const module = generateModule(filters, {
      ...(options.set === undefined ? {} : { set: options.set }),
      ...(options.account === undefined ? {} : { account: options.account }),
    });
    if (options.out === undefined) io.stdout(module.source);
    else writeFileSync(options.out, module.source);
    io.stderr(summary(module, options.out));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`pulumi-insights import: ${error.message}\n(pulumi-insights import --help lists the options)\n`);
      return 2;
    }
    // Client errors never carry credentials (provider/client/core/errors.ts).
    const message = error instanceof InsightsError || error instanceof Error ? error.message : String(error);
    const hint = error instanceof SettingsError ? "\n(on the command line: --base-url, --client-id, and --client-secret-file or --client-secret-stdin)"
      : error instanceof IncompleteListingError ? "\n(import the account in slices that stay below the cap: --name, --category or --id)"
      : "";
    io.stderr(`pulumi-insights import: ${message}${hint}\n`);
    return 1;
  } finally {
    await client?.close();
  }
}
