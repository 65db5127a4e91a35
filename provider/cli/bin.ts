#!/usr/bin/env node
/**
 * `pulumi-insights`: the package's command line. One subcommand so far, `import`
 * (./import-command.ts); the dispatch leaves room for more.
 */
import { runImport, type CommandIo } from "./import-command";

const USAGE = `usage: pulumi-insights <command> [options]

commands:
  import    write a TypeScript module declaring the account's saved filters (--help for its options)
`;

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk: string) => (text += chunk));
    process.stdin.on("end", () => resolve(text));
    process.stdin.on("error", reject);
  });
}

/** Runs the command line `argv` (without node and the script) and answers the exit status. */
export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "import") return runImport(rest, io);
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    io.stdout(USAGE);
    return command === undefined ? 2 : 0;
  }
  io.stderr(`pulumi-insights: unknown command ${JSON.stringify(command)}\n${USAGE}`);
  return 2;
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
      process.stderr.write(`pulumi-insights: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

