import packageJson from "../../package.json" with { type: "json" };
import { UsageError } from "./cli-options.js";

/** The package version `station-browser-use --version` prints. */
export const cliVersion: string = packageJson.version;

/** The commands of the `station-browser-use` bin, with one line each for `--help`. */
export const cliCommands = {
  worker: "run a browser worker: local Chromium behind the station HTTP API",
  mcp: "serve the browser tools over MCP stdio (local Chromium, or a worker)",
} as const;
export type CliCommand = keyof typeof cliCommands;

export const cliUsage = `Usage: station-browser-use <command> [options]

Commands:
${Object.entries(cliCommands)
  .map(([name, line]) => `  ${name.padEnd(8)} ${line}`)
  .join("\n")}

Options:
  -h, --help      show this help
  -v, --version   print the version

Run \`station-browser-use <command> --help\` for a command's options.`;

/** What the first argument asked for. */
export type CliChoice = { kind: "help" } | { kind: "version" } | { kind: "command"; command: CliCommand; args: string[] };

/**
 * Reads the first argument of `station-browser-use`.
 *
 * @throws {UsageError} for a missing or unknown command; the message names the real ones.
 */
export function parseCliCommand(argv: readonly string[]): CliChoice {
  const [first, ...rest] = argv;
  const known = Object.keys(cliCommands).join(", ");
  if (first === "-h" || first === "--help" || first === "help") return { kind: "help" };
  if (first === "-v" || first === "--version") return { kind: "version" };
  if (first === undefined) throw new UsageError(`missing command; the commands are: ${known}`);
  if (!Object.hasOwn(cliCommands, first)) {
    throw new UsageError(`unknown command ${JSON.stringify(first.slice(0, 40))}; the commands are: ${known}`);
  }
  return { kind: "command", command: first as CliCommand, args: rest };
}
