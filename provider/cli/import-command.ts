/**
 * `pulumi-insights import`: reads the account's saved filters through the client and writes a
 * TypeScript module that declares them (./generate-module.ts), so an account made in the console
 * comes under code with one command and one `pulumi up` that changes nothing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { InsightsClient } from "../client";
import { InsightsError, RequestError, SettingsError } from "../client/core/errors";
import { IncompleteListingError } from "../client/core/listing";
import { connectionFailureWords, describeAccount, type AccountInMessages, type SettingPlaces } from "../connection-check/words";
import { CalendarDate } from "../schema/common";
import { closestMatch } from "../schema/suggest";
import { inertText } from "../text/inert";
import { generateModule, type GeneratedModule } from "./generate-module";
import { listFilters, type FilterSelection } from "./list-filters";
import { pulumiImportFile } from "./pulumi-import-file";

/** Where the command reads and writes: the process's own streams, or a test's. */
export interface CommandIo {
  env: Readonly<Record<string, string | undefined>>;
  /** Reads all of standard input (for `--client-secret-stdin`). */
  readStdin(): Promise<string>;
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * The options `pulumi-insights import` accepts, as node:util `parseArgs` reads them. {@link IMPORT_USAGE}
 * describes each (test/cli.test.ts holds the two together).
 */
export const IMPORT_OPTIONS = {
  name: { type: "string" },
  category: { type: "string" },
  creator: { type: "string" },
  created: { type: "string" },
  id: { type: "string", multiple: true },
  out: { type: "string" },
  "pulumi-import-file": { type: "string" },
  set: { type: "string" },
  account: { type: "string" },
  "base-url": { type: "string" },
  "client-id": { type: "string" },
  "client-secret-file": { type: "string" },
  "client-secret-stdin": { type: "boolean", default: false },
  // Accepted only to be refused with a reason (a secret as an argument shows in `ps`).
  "client-secret": { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

/** The usage text of `pulumi-insights import`. */
export const IMPORT_USAGE = `usage: pulumi-insights import [options]

Writes a TypeScript module declaring the account's saved filters, each adopted by id, so that the
first \`pulumi up\` takes them over without a change; or, for a program in any language, the file
that \`pulumi import --file\` takes (--pulumi-import-file).

selection (all given criteria hold; every filter of the account by default):
  --name <text>             filters whose name contains the text
  --category <category>     filters of this category (GEO, CONTENT, ...)
  --creator <user>          filters made by this user, as the service records it (\`creator\`)
  --created <YYYY-MM-DD>    filters made on this day
  --id <ids>                these filter ids, comma-separated (repeatable)

output:
  --out <file>              write the module here (default: standard output); the summary and
                            errors go to standard error
  --pulumi-import-file <file>
                            write the file \`pulumi import --file <file>\` takes: one
                            insights:index:SavedFilter per filter, by id, named as the module
                            names it, for a program in any language that uses the provider plugin
                            (README "Use it from Python, Go, C# or YAML"); without --out, instead
                            of the module
  --set <name>              one SavedFilterSet with this resource name, members adopted by \`adopt\`,
                            instead of one SavedFilter per filter
  --account <name>          declare them in this account of the stack config insights:accounts
                            (\`account: "<name>"\`); the settings below still say where to read them

account (default: INSIGHTS_BASE_URL, INSIGHTS_CLIENT_ID, INSIGHTS_CLIENT_SECRET):
  --base-url <url>          the API's base URL (HTTPS; plain HTTP only on a loopback host)
  --client-id <id>          the API client id
  --client-secret-file <file>   read the secret from a file
  --client-secret-stdin         read the secret from standard input
  --client-secret <secret>  refused: a secret given as an argument shows in \`ps\` and the shell history

  -h, --help                show this text
  INSIGHTS_LOG=info         (environment) show the client's retries and waits on standard error

exit status:
  0  the module (and the file of --pulumi-import-file) was written (or this text shown)
  1  the account could not be read: the service refused or failed, or a part of the selection
     stays at the service's cap of 500 filters however the import narrows it (no module is
     written; import in slices with the selection options above)
  2  a mistake on the command line or in the INSIGHTS_* settings
`;

/** Why `--pulumi-import-file` excludes an option: what the option declares, `pulumi import` by id cannot. */
const NOT_WITH_IMPORT_FILE = {
  set: "--set cannot be combined with --pulumi-import-file: `pulumi import` takes one SavedFilter per filter id (a SavedFilterSet has no id of the account to import by)",
  account:
    "--account cannot be combined with --pulumi-import-file: `pulumi import` reads each filter with the provider's own settings; for a named account, import with an explicit provider of that account's settings (`pulumi import --file` with `provider` and `nameTable`)",
} as const;

/** A mistake in the command line or the settings: exit status 2 with the usage hint. */
class UsageError extends InsightsError {}

interface ImportOptions {
  selection: FilterSelection;
  out?: string;
  /** Where the file of `pulumi import --file` goes. */
  pulumiImportFile?: string;
  set?: string;
  /** The account name the declarations carry (`account`). */
  account?: string;
  baseUrl?: string;
  clientId?: string;
  secretFrom?: { file: string } | "stdin";
}

/** The long options of `pulumi-insights import`, as typed: `--category`. */
const LONG_OPTIONS = Object.keys(IMPORT_OPTIONS).map((name) => `--${name}`);

/**
 * The command line's mistake in words: an unknown long option with the nearest one
 * (`unknown option "--categroy"; did you mean "--category"?`), any other as node:util says it.
 */
function parseFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = (error as { code?: unknown }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" ? /'(--[^'=]+)/.exec(message)?.[1] : undefined;
  if (unknown === undefined) return message;
  const nearest = closestMatch(unknown, LONG_OPTIONS);
  return `unknown option ${JSON.stringify(unknown)}${nearest === undefined ? "" : `; did you mean ${JSON.stringify(nearest)}?`}`;
}

function parseImportArgs(argv: readonly string[]): ImportOptions | "help" {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: IMPORT_OPTIONS });
  } catch (error) {
    throw new UsageError(parseFailure(error));
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
  const created = nonEmpty("created", values.created);
  if (created !== undefined && !CalendarDate.safeParse(created).success) throw new UsageError(`--created ${JSON.stringify(created)} is not a day written YYYY-MM-DD, such as 2026-11-20`);
  const name = nonEmpty("name", values.name);
  const category = nonEmpty("category", values.category);
  const creator = nonEmpty("creator", values.creator);
  const set = nonEmpty("set", values.set);
  const account = nonEmpty("account", values.account);
  const out = nonEmpty("out", values.out);
  const importFile = nonEmpty("pulumi-import-file", values["pulumi-import-file"]);
  if (importFile !== undefined) {
    if (set !== undefined) throw new UsageError(NOT_WITH_IMPORT_FILE.set);
    if (account !== undefined) throw new UsageError(NOT_WITH_IMPORT_FILE.account);
    if (out !== undefined && path.resolve(out) === path.resolve(importFile)) throw new UsageError("--out and --pulumi-import-file name the same file");
  }
  const baseUrl = values["base-url"];
  const clientId = values["client-id"];
  const secretFile = values["client-secret-file"];
  return {
    selection: {
      ...(name === undefined ? {} : { name }),
      ...(category === undefined ? {} : { category }),
      ...(creator === undefined ? {} : { creator }),
      ...(created === undefined ? {} : { created }),
      ...(ids === undefined ? {} : { ids: [...new Set(ids)] }),
    },
    ...(out === undefined ? {} : { out }),
    ...(importFile === undefined ? {} : { pulumiImportFile: importFile }),
    ...(set === undefined ? {} : { set }),
    ...(account === undefined ? {} : { account }),
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(clientId === undefined ? {} : { clientId }),
    ...(secretFile !== undefined ? { secretFrom: { file: secretFile } } : values["client-secret-stdin"] ? { secretFrom: "stdin" as const } : {}),
  };
}

/**
 * How the command line gives each connection setting (its flags, its environment variable), how a
 * message says to set it (`setWith`, `<value>` standing for the value), and what it says when none does.
 */
const SETTING_SOURCES = {
  baseUrl: { flags: "--base-url", variable: "INSIGHTS_BASE_URL", setWith: "--base-url <value> or INSIGHTS_BASE_URL", missing: "no base URL: pass --base-url <url>, or set INSIGHTS_BASE_URL" },
  clientId: { flags: "--client-id", variable: "INSIGHTS_CLIENT_ID", setWith: "--client-id <value> or INSIGHTS_CLIENT_ID", missing: "no client id: pass --client-id <id>, or set INSIGHTS_CLIENT_ID" },
  clientSecret: {
    flags: "--client-secret-file or --client-secret-stdin",
    variable: "INSIGHTS_CLIENT_SECRET",
    setWith: "--client-secret-file <file>, --client-secret-stdin or INSIGHTS_CLIENT_SECRET",
    missing: "no client secret: pass --client-secret-file <file> or --client-secret-stdin, or set INSIGHTS_CLIENT_SECRET",
  },
} as const;

type SettingName = keyof typeof SETTING_SOURCES;

/** Which settings the command line's flags gave (the others came from the INSIGHTS_* variables). */
function givenByFlags(options: ImportOptions): Record<SettingName, boolean> {
  return { baseUrl: options.baseUrl !== undefined, clientId: options.clientId !== undefined, clientSecret: options.secretFrom !== undefined };
}

/** Each setting named as the command line set it: its flag when given, else its variable. */
function settingName(options: ImportOptions, name: SettingName): string {
  return givenByFlags(options)[name] ? SETTING_SOURCES[name].flags : SETTING_SOURCES[name].variable;
}

/**
 * The account the command reads, for the words of a failed connection (connection-check/words.ts),
 * which then name its flags and variables instead of the stack config a program's settings come from.
 */
function accountInMessages(options: ImportOptions, settings: Record<SettingName, string>): AccountInMessages {
  const places: SettingPlaces = {
    key: (setting) => settingName(options, setting),
    howToSet: (setting, value) => (value === undefined ? SETTING_SOURCES[setting].setWith : SETTING_SOURCES[setting].setWith.replace("<value>", value)),
  };
  return { baseUrl: settings.baseUrl, clientId: settings.clientId, places };
}

/**
 * The connection settings as the client takes them, after the command line's own check that each is
 * given: a missing one is named with the flags and variable that give it (never the client's
 * option names, which this command does not have).
 */
function connectionSettings(options: ImportOptions, clientSecret: string | undefined, env: CommandIo["env"]): Record<SettingName, string> {
  const given: Record<SettingName, string | undefined> = { baseUrl: options.baseUrl, clientId: options.clientId, clientSecret };
  const settings = {} as Record<SettingName, string>;
  for (const name of Object.keys(SETTING_SOURCES) as SettingName[]) {
    const source = SETTING_SOURCES[name];
    const value = given[name] ?? env[source.variable];
    if (value === undefined || value.trim() === "") throw new UsageError(source.missing);
    settings[name] = value;
  }
  return settings;
}

/**
 * A settings error of the client in this command's words: its option names (`baseUrl`, ...)
 * become the flag or variable the value came from.
 */
function settingsMessage(error: SettingsError, options: ImportOptions): string {
  let message = error.message.replace(/ \(or INSIGHTS_[A-Z_]+\)/g, "");
  for (const name of Object.keys(SETTING_SOURCES) as SettingName[]) {
    message = message.replace(new RegExp(`\\b${name}\\b`, "g"), settingName(options, name));
  }
  return message;
}

/** Each line made inert (provider/text/inert.ts) and ended: how the command writes to a terminal. */
export function terminalLines(lines: readonly string[]): string {
  return lines.map((line) => `${inertText(line)}\n`).join("");
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

/**
 * The summary on standard error: where the filters were written (the module, the file of
 * `pulumi import --file`, or both), the module's JSON forms, and skipped filters with their reasons.
 */
function summary(module: GeneratedModule, where: Pick<ImportOptions, "out" | "pulumiImportFile">): string[] {
  const count = module.declared.length;
  const filters = `${count} saved filter${count === 1 ? "" : "s"}`;
  const lines: string[] = [];
  const writesModule = where.out !== undefined || where.pulumiImportFile === undefined;
  if (writesModule) lines.push(`pulumi-insights import: ${filters} written to ${where.out ?? "standard output"}`);
  if (writesModule && module.jsonForms.length > 0) {
    lines.push(`  ${module.jsonForms.length} rule part${module.jsonForms.length === 1 ? "" : "s"} written in the API's JSON form (the builder cannot express them):`);
    for (const note of module.jsonForms) lines.push(`    filter ${note.filterId} ${note.path}: ${note.reason}`);
  }
  if (where.pulumiImportFile !== undefined) {
    lines.push(`pulumi-insights import: ${filters} written to ${where.pulumiImportFile} for \`pulumi import --file ${where.pulumiImportFile}\``);
  }
  if (module.skipped.length > 0) {
    lines.push(`  ${module.skipped.length} filter${module.skipped.length === 1 ? "" : "s"} skipped:`);
    for (const skipped of module.skipped) lines.push(`    filter ${skipped.filterId}: ${skipped.reason}`);
  }
  return lines;
}

/** What the command says when a part of the selection stays at the cap: the part, and the slices it offers. */
function incompleteListingLines(error: IncompleteListingError): string[] {
  return [
    `pulumi-insights import: the listing of ${error.listing} may be incomplete: ${error.narrowest} still answers ${error.cap} filters, the service's cap on one answer, also split by the enabled and advanced flags; no module was written`,
    "(import the account in slices that stay below the cap: --name, --category, --creator, --created or --id)",
  ];
}

/**
 * Runs `pulumi-insights import` with `argv` (the arguments after `import`) and answers the exit
 * status: 0 done, 1 the account could not be read (a listing that stays at the service's cap is
 * such a failure: no module is written, the message says how to import in slices), 2 a mistake in
 * the command line or the settings. Everything it writes to standard error goes through
 * {@link terminalLines}: names, ids and messages of the service reach the terminal inert.
 */
export async function runImport(argv: readonly string[], io: CommandIo): Promise<number> {
  let client: InsightsClient | undefined;
  let options: ImportOptions | "help" | undefined;
  let account: AccountInMessages | undefined;
  try {
    options = parseImportArgs(argv);
    if (options === "help") {
      io.stdout(IMPORT_USAGE);
      return 0;
    }
    const clientSecret = await readSecret(options.secretFrom, io);
    const settings = connectionSettings(options, clientSecret, io.env);
    account = accountInMessages(options, settings);
    client = new InsightsClient({ env: io.env, ...settings });
    const filters = await listFilters(client, options.selection);
    const module = generateModule(filters, {
      ...(options.set === undefined ? {} : { set: options.set }),
      ...(options.account === undefined ? {} : { account: options.account }),
    });
    // The module is code whose every value is a literal that escapes whatever could hide (./generate-module.ts).
    if (options.out !== undefined) writeFileSync(options.out, module.source);
    else if (options.pulumiImportFile === undefined) io.stdout(module.source);
    // The same filters under the same names, for `pulumi import --file` (./pulumi-import-file.ts).
    if (options.pulumiImportFile !== undefined) writeFileSync(options.pulumiImportFile, pulumiImportFile(module.declared));
    io.stderr(terminalLines(summary(module, options)));
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof SettingsError) {
      const message = error instanceof SettingsError && typeof options === "object" ? settingsMessage(error, options) : error.message;
      io.stderr(terminalLines([`pulumi-insights import: ${message}`, "(pulumi-insights import --help lists the options)"]));
      return 2;
    }
    if (error instanceof IncompleteListingError) {
      io.stderr(terminalLines(incompleteListingLines(error)));
      return 1;
    }
    // Client errors never carry credentials (provider/client/core/errors.ts). A failed request in the
    // words a program's preview and data sources use: the account, what it answered, what to do.
    const message = error instanceof Error ? error.message : String(error);
    const words = account === undefined ? undefined : connectionFailureWords(error, account) ?? (error instanceof RequestError ? `the account ${describeAccount(account)} could not be read: ${message}` : undefined);
    io.stderr(terminalLines([`pulumi-insights import: ${words ?? message}`]));
    return 1;
  } finally {
    await client?.close();
  }
}
