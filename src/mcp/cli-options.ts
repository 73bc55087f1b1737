import { agentToolLimits } from "../agent-tools/limits.js";
import { agentToolGroups, type AgentToolGroup } from "../agent-tools/options.js";
import { limits } from "../protocol/limits.js";

/** Where the browsers of `station-browser-use mcp` run. */
export type McpBackendChoice =
  | { kind: "local"; profileRoot?: string; headed: boolean }
  /** A remote worker; `apiKey` comes from `STATION_API_KEY` only. */
  | { kind: "worker"; baseUrl: string; stationId: string; apiKey: string };

/** What `station-browser-use mcp` was asked to do. */
export interface McpCommandLine {
  maxSessions: number;
  /** Profile ids the model may open (`--profile`, repeatable). */
  profileIds: string[];
  /** Extra tool groups (`--group`, repeatable). */
  groups: AgentToolGroup[];
  /** Bytes of text per tool result (`--max-text-bytes`). */
  maxTextBytes?: number;
  backend: McpBackendChoice;
}

export const mcpUsage = `Usage: station-browser-use mcp [options]

Serves the browser tools to an MCP client (Claude Desktop, Cursor, …) over
stdio. stdout is the protocol channel; logs go to stderr.

Options:
  --max-sessions N      browser sessions the model may hold open at once (default 2)
  --profile ID          a profile id the model may open; repeat for more
  --group NAME          an extra tool group (${agentToolGroups.join(", ")}); repeat for more
  --max-text-bytes N    bytes of text per tool result (default ${agentToolLimits.textBytesDefault})
  --profile-root DIR    local browsers only: directory of persistent profiles (needed for --profile)
  --headed              local browsers only: show the browser window
  -h, --help            show this help

Environment (secrets are read from here only, never from flags):
  STATION_WORKER_URL    a browser worker to use instead of local Chromium, e.g. https://browsers.example.com
  STATION_API_KEY       the worker's tenant key (required with STATION_WORKER_URL)
  STATION_ID            the worker's station id (required with STATION_WORKER_URL)

Without STATION_WORKER_URL, browsers are local Chromium (CHROMIUM_PATH or a system install).`;

/** A command line the MCP command refuses; the message never contains a secret. */
export class McpUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpUsageError";
  }
}

const valueFlags = ["max-sessions", "profile", "group", "max-text-bytes", "profile-root"] as const;
const switchFlags = ["headed"] as const;
type ValueFlag = (typeof valueFlags)[number];
const secretLike = /token|key|secret|password|credential/i;

function integerFlag(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new McpUsageError(`--${flag} expects an integer from ${min} to ${max}`);
  }
  return value;
}

/** Reads `--name value`, `--name=value` and switches. A secret-looking flag is refused without echoing its value. */
function readFlags(args: readonly string[]): { values: Map<ValueFlag, string[]>; switches: Set<string> } {
  const values = new Map<ValueFlag, string[]>();
  const switches = new Set<string>();
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (!arg.startsWith("--")) throw new McpUsageError(`unexpected argument ${JSON.stringify(arg.slice(0, 40))}; see --help`);
    const [name = "", inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (secretLike.test(name)) {
      throw new McpUsageError(
        `--${name.slice(0, 40)} is refused: secrets come from the environment only (STATION_API_KEY), so they stay out of process lists and client config files`,
      );
    }
    if ((switchFlags as readonly string[]).includes(name)) {
      if (inline !== undefined) throw new McpUsageError(`--${name} takes no value`);
      switches.add(name);
      continue;
    }
    if (!(valueFlags as readonly string[]).includes(name)) throw new McpUsageError(`unknown option --${name.slice(0, 40)}; see --help`);
    const value = inline ?? args[++index];
    if (value === undefined) throw new McpUsageError(`--${name} needs a value`);
    values.set(name as ValueFlag, [...(values.get(name as ValueFlag) ?? []), value]);
  }
  return { values, switches };
}

function single(values: Map<ValueFlag, string[]>, flag: ValueFlag): string | undefined {
  const all = values.get(flag);
  if (all !== undefined && all.length > 1) throw new McpUsageError(`--${flag} may be given once`);
  return all?.[0];
}

function backendFrom(environment: Record<string, string | undefined>, profileRoot: string | undefined, headed: boolean): McpBackendChoice {
  const present = (name: string) => environment[name] !== undefined && environment[name] !== "";
  if (!present("STATION_WORKER_URL")) {
    for (const name of ["STATION_API_KEY", "STATION_ID"]) {
      if (present(name)) throw new McpUsageError(`${name} is set but STATION_WORKER_URL is not; set STATION_WORKER_URL to use a worker, or unset ${name} for local browsers`);
    }
    return { kind: "local", headed, ...(profileRoot === undefined ? {} : { profileRoot }) };
  }
  if (profileRoot !== undefined) throw new McpUsageError("--profile-root is for local browsers; the worker keeps its own profiles");
  if (headed) throw new McpUsageError("--headed is for local browsers; a worker's browsers run where the worker runs");
  if (!present("STATION_API_KEY")) throw new McpUsageError("STATION_WORKER_URL is set but STATION_API_KEY is not; set it to the worker's tenant key");
  if (!present("STATION_ID")) throw new McpUsageError("STATION_WORKER_URL is set but STATION_ID is not; set it to the worker's station id");
  return { kind: "worker", baseUrl: environment.STATION_WORKER_URL!, stationId: environment.STATION_ID!, apiKey: environment.STATION_API_KEY! };
}

/**
 * Parses the arguments after `station-browser-use mcp` and the environment.
 *
 * @returns `"help"` for `-h` / `--help`.
 * @throws {McpUsageError} for a bad command line or environment (messages never contain a secret).
 */
export function parseMcpCommandLine(argv: readonly string[], environment: Record<string, string | undefined>): McpCommandLine | "help" {
  if (argv.includes("-h") || argv.includes("--help")) return "help";
  const { values, switches } = readFlags(argv);
  const profileRoot = single(values, "profile-root");
  const backend = backendFrom(environment, profileRoot, switches.has("headed"));
  const profileIds = values.get("profile") ?? [];
  if (backend.kind === "local" && profileIds.length > 0 && backend.profileRoot === undefined) {
    throw new McpUsageError("--profile needs --profile-root DIR with local browsers (the directory that holds the persistent profiles)");
  }
  const maxTextBytes = single(values, "max-text-bytes");
  return {
    maxSessions: integerFlag("max-sessions", single(values, "max-sessions") ?? "2", 1, limits.manager.maxSessionsMax),
    profileIds,
    groups: (values.get("group") ?? []).map((group) => {
      if (!(agentToolGroups as readonly string[]).includes(group)) {
        throw new McpUsageError(`--group ${JSON.stringify(group.slice(0, 40))} is not a tool group; expected one of ${agentToolGroups.join(", ")}`);
      }
      return group as AgentToolGroup;
    }),
    ...(maxTextBytes === undefined ? {} : { maxTextBytes: integerFlag("max-text-bytes", maxTextBytes, 1, 64 * 1024 * 1024) }),
    backend,
  };
}
