/**
 * `station-browser-use mcp`: the browser tools over MCP stdio. stdout is the
 * protocol channel, so every log line goes to stderr. Browsers are local
 * Chromium, or a worker when `STATION_WORKER_URL` is set. When the client
 * closes stdin or disconnects, and on SIGINT or SIGTERM, it closes every
 * session it opened and the browser, then exits.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createBrowserAgentTools } from "../agent-tools/index.js";
import { isValidationError } from "../errors.js";
import { createMcpBackend, type McpBackend } from "./backend.js";
import { mcpUsage, McpUsageError, parseMcpCommandLine, type McpCommandLine } from "./cli-options.js";
import { createMcpServer } from "./server.js";
import { installDefaultPost } from "../client/http-post.js";
import { nodeHttpPost } from "../node/http-post.js";

// A worker's client posts over node:http, as `station-browser-use/agent` does on Node.
installDefaultPost(nodeHttpPost);

const name = "station-browser-use mcp";
const log = (line: string) => process.stderr.write(`${name}: ${line}\n`);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Keeps stray `console.log` output (ours or a dependency's) off the protocol channel. */
function routeConsoleToStderr(): void {
  const toStderr = (...values: unknown[]) => console.error(...values);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

async function serve(commandLine: McpCommandLine): Promise<void> {
  let backend: McpBackend;
  try {
    backend = await createMcpBackend(commandLine);
  } catch (error) {
    log(messageOf(error));
    process.exit(isValidationError(error) ? 2 : 1);
  }
  let toolset: ReturnType<typeof createBrowserAgentTools>;
  try {
    toolset = createBrowserAgentTools({
      client: backend.backend,
      maxSessions: commandLine.maxSessions,
      profileIds: commandLine.profileIds,
      groups: commandLine.groups,
      ...(commandLine.maxTextBytes === undefined ? {} : { maxTextBytes: commandLine.maxTextBytes }),
    });
  } catch (error) {
    log(messageOf(error));
    await backend.shutdown().catch(() => undefined);
    process.exit(isValidationError(error) ? 2 : 1);
  }
  const server = createMcpServer(toolset.tools);
  const transport = new StdioServerTransport();
  transport.onerror = (error) => log(`protocol error: ${messageOf(error)}`);

  let stopping = false;
  const stop = async (reason: string, signal: boolean) => {
    if (stopping) {
      if (signal) {
        log(`${reason} again: exiting now`);
        process.exit(1);
      }
      return;
    }
    stopping = true;
    log(`${reason}: closing every session and the browser`);
    let code = 0;
    try {
      const report = await toolset.close();
      if (report.unresolved.length > 0) {
        log(`${report.unresolved.length} session(s) could not be closed (a human holds control, or the outcome is unknown)`);
        code = 1;
      }
    } catch (error) {
      log(`closing the sessions failed: ${messageOf(error)}`);
      code = 1;
    }
    await backend.shutdown().catch((error: unknown) => {
      log(`stopping the browser failed: ${messageOf(error)}`);
      code = 1;
    });
    await server.close().catch(() => undefined);
    log("stopped");
    process.exit(code);
  };
  process.on("SIGINT", () => void stop("SIGINT", true));
  process.on("SIGTERM", () => void stop("SIGTERM", true));
  process.stdin.once("end", () => void stop("stdin closed", false));
  process.stdin.once("close", () => void stop("stdin closed", false));
  server.onclose = () => void stop("the client disconnected", false);

  await server.connect(transport);
  log(`serving ${toolset.tools.length} browser tools over stdio; browsers: ${backend.description}`);
}

/**
 * Runs `station-browser-use mcp` with the arguments after `mcp`. Exits the
 * process: 2 for a bad command line, 1 when startup or shutdown fails, 0 after
 * a clean shutdown.
 */
export async function runMcpCommand(argv: readonly string[]): Promise<void> {
  routeConsoleToStderr();
  let commandLine: McpCommandLine | "help";
  try {
    commandLine = parseMcpCommandLine(argv, process.env);
  } catch (error) {
    log(messageOf(error));
    if (error instanceof McpUsageError) process.stderr.write("Run `station-browser-use mcp --help` for usage.\n");
    process.exit(2);
  }
  if (commandLine === "help") {
    process.stdout.write(`${mcpUsage}\n`);
    return;
  }
  try {
    await serve(commandLine);
  } catch (error) {
    log(messageOf(error));
    process.exit(1);
  }
}
