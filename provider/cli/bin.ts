#!/usr/bin/env node
/**
 * `pulumi-insights`: the package's command line. One subcommand so far, `import`
 * (./import-command.ts); the dispatch leaves room for more.
 */
import { packageVersion } from "../client/core/version";
import { closestMatch } from "../schema/suggest";
import { IMPORT_USAGE, runImport, terminalLines, type CommandIo } from "./import-command";

/** The usage text of `pulumi-insights` itself. */
export const USAGE = `usage: pulumi-insights <command> [options]
       pulumi-insights help [<command>]

commands:
  import    write a TypeScript module declaring the account's saved filters, each adopted by id,
            so that the first \`pulumi up\` takes them over without a change, or the file that
            \`pulumi import --file\` takes (pulumi-insights import --help lists its options)

options:
  -h, --help    show this text (pulumi-insights <command> --help: the command's options)
  --version     print the package's version

environment (when the command line does not say):
  INSIGHTS_BASE_URL, INSIGHTS_CLIENT_ID, INSIGHTS_CLIENT_SECRET   the account to read
  INSIGHTS_LOG=info                                                the client's retries and waits on standard error

exit status:
  0  done (or this text shown)
  1  the command failed: the account could not be read (the command's message says why)
  2  a mistake on the command line or in the INSIGHTS_* settings (no command, an unknown one,
     an unknown option or value)
`;

/** The commands: how each runs (with the arguments after its name) and its usage text. */
export const COMMANDS: Readonly<Record<string, { run(argv: readonly string[], io: CommandIo): Promise<number>; usage: string }>> = {
  import: { run: runImport, usage: IMPORT_USAGE },
};

/** The options of `pulumi-insights` itself, before a command: each shows {@link USAGE}, as `help` does. */
export const HELP_OPTIONS = ["--help", "-h"] as const;

/** The option that prints the package's version (package.json, the only place it is written). */
export const VERSION_OPTION = "--version";

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk: string) => (text += chunk));
    process.stdin.on("end", () => resolve(text));
    process.stdin.on("error", reject);
  });
}

/** The command named `name`, if there is one. */
function commandNamed(name: string | undefined): (typeof COMMANDS)[string] | undefined {
  return name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}

/** Runs the command line `argv` (without node and the script) and answers the exit status. */
export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === VERSION_OPTION && rest.length === 0) {
    io.stdout(`${packageVersion()}\n`);
    return 0;
  }
  const command = commandNamed(first);
  if (command !== undefined) return command.run(rest, io);
  const asksHelp = first === "help" || (HELP_OPTIONS as readonly string[]).includes(first ?? "");
  // `help` alone or an option: this text; `help <command>`: the command's.
  const topic = first === "help" ? rest[0] : undefined;
  if (asksHelp && (topic === undefined || commandNamed(topic) !== undefined)) {
    io.stdout(topic === undefined ? USAGE : commandNamed(topic)!.usage);
    return 0;
  }
  // No command, an unknown one, or help on an unknown one: a mistake, said on standard error.
  const unknown = first === "help" ? topic : first;
  io.stderr(`${unknown === undefined ? "" : terminalLines([`pulumi-insights: unknown command ${JSON.stringify(unknown)}${didYouMean(unknown, first === "help")}`])}${USAGE}`);
  return 2;
}

/** `; did you mean "import"?` for a near miss of a command (after `help`: of a command only), else nothing; `-v` is no near miss of `-h`. */
function didYouMean(unknown: string, afterHelp: boolean): string {
  const nearest = unknown.length <= 2 ? undefined : closestMatch(unknown, afterHelp ? Object.keys(COMMANDS) : [...Object.keys(COMMANDS), "help", ...HELP_OPTIONS, VERSION_OPTION]);
  return nearest === undefined ? "" : `; did you mean ${JSON.stringify(nearest)}?`;
}

if (require.main === module) {
  const io: CommandIo = {
    env: process.env,
    readStdin,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  };
  main(process.argv.slice(2), io).then(
    (status) => (process.exitCode = status),
    (error: unknown) => {
      process.stderr.write(terminalLines([`pulumi-insights: ${error instanceof Error ? error.message : String(error)}`]));
      process.exitCode = 1;
    },
  );
}
