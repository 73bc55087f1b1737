#!/usr/bin/env node
/**
 * The `station-browser-use` bin: `worker`, `mcp`, `--help`, `--version`.
 *
 * `station-browser-use worker`: a browser worker with local Chromium behind
 * the station HTTP API. Secrets come from the environment only. On SIGINT or
 * SIGTERM it drains, closes every session, stops Chromium and exits 0.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PlaywrightBrowserAdapter } from "../engine/adapter.js";
import { createLocalProvider, findChromium } from "../providers/local/index.js";
import { BrowserSessionManager } from "../stores/session-manager.js";
import { parseWorkerCommandLine, usage, UsageError, type WorkerCommandLine } from "./cli-options.js";
import { createWorkerHttpServer } from "./http-server.js";
import { createBrowserWorker } from "./worker.js";
import { cliUsage, cliVersion, parseCliCommand, type CliChoice } from "./cli-commands.js";
import { isValidationError } from "../errors.js";

const name = "station-browser-use worker";
const log = (line: string) => process.stdout.write(`${line}\n`);
const fail = (line: string) => process.stderr.write(`${name}: ${line}\n`);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

async function run(commandLine: WorkerCommandLine): Promise<void> {
  findChromium();
  const provider = createLocalProvider(commandLine.profileRoot === undefined ? {} : { profileRootDir: commandLine.profileRoot });
  const adapter = new PlaywrightBrowserAdapter({
    provider,
    ...(commandLine.stagingMaxBytes === undefined ? {} : { stagingMaxBytes: commandLine.stagingMaxBytes }),
  });
  const manager = new BrowserSessionManager(adapter, commandLine.maxSessions, {
    profileGrants: commandLine.profileGrants,
    ...(commandLine.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: commandLine.idleTimeoutMs }),
    ...(commandLine.stateRoot === undefined ? {} : { stateRootDir: commandLine.stateRoot }),
    ...(commandLine.recordingRoot === undefined ? {} : { recordingRootDir: commandLine.recordingRoot }),
  });
  const worker = createBrowserWorker({
    manager,
    token: commandLine.token,
    tenants: commandLine.tenants,
    ...(commandLine.tenantId === undefined ? {} : { tenantId: commandLine.tenantId }),
    profileOwners: commandLine.profileOwners,
    ...(commandLine.tenantMaxSessions === undefined ? {} : { tenantMaxSessions: commandLine.tenantMaxSessions }),
    stationId: commandLine.stationId,
    closeGraceMs: commandLine.graceMs,
    onError: (error, { method }) => fail(`internal error in ${method ?? "a request"}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  });
  const server = createWorkerHttpServer(worker, {
    headersTimeoutMs: commandLine.headersTimeoutMs,
    requestTimeoutMs: commandLine.requestTimeoutMs,
    maxConnections: commandLine.maxConnections,
  });
  try {
    // Leftovers of a crashed run (temporary profiles, homes) go before anything else starts.
    await provider.start();
    await manager.ready();
    const address = await listen(server, commandLine.port, commandLine.host);
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
    log(`${name} listening on http://${host}:${address.port} (station ${commandLine.stationId})`);
  } catch (error) {
    await manager.close().catch(() => undefined);
    await adapter.shutdown().catch(() => undefined);
    throw error;
  }

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      fail(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    log(`${name}: ${signal}: draining, then closing every session`);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    let code = 0;
    try {
      await worker.close();
    } catch (error) {
      fail(`closing the sessions failed: ${messageOf(error)}`);
      code = 1;
    }
    await adapter.shutdown().catch((error: unknown) => {
      fail(`stopping Chromium failed: ${messageOf(error)}`);
      code = 1;
    });
    server.closeAllConnections();
    await closed;
    log(`${name}: stopped`);
    process.exit(code);
  };
  process.on("SIGINT", (signal) => void stop(signal));
  process.on("SIGTERM", (signal) => void stop(signal));
}

async function runWorkerCommand(args: readonly string[]): Promise<void> {
  let commandLine: WorkerCommandLine | "help";
  try {
    commandLine = parseWorkerCommandLine(["worker", ...args], process.env);
  } catch (error) {
    fail(messageOf(error));
    if (error instanceof UsageError) process.stderr.write(`Run \`station-browser-use worker --help\` for usage.\n`);
    process.exit(2);
  }
  if (commandLine === "help") {
    log(usage);
    return;
  }
  try {
    await run(commandLine);
  } catch (error) {
    fail(messageOf(error));
    // A value the worker refuses at start (a tenant key too short, …) is a usage error too.
    process.exit(isValidationError(error) ? 2 : 1);
  }
}

async function main(): Promise<void> {
  let choice: CliChoice;
  try {
    choice = parseCliCommand(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`station-browser-use: ${messageOf(error)}\nRun \`station-browser-use --help\` for usage.\n`);
    process.exit(2);
  }
  if (choice.kind !== "command") {
    log(choice.kind === "help" ? cliUsage : cliVersion);
    return;
  }
  if (choice.command === "mcp") {
    // `station-browser-use mcp`: the browser tools over MCP stdio (src/mcp/cli.ts).
    const { runMcpCommand } = await import("../mcp/cli.js");
    return runMcpCommand(choice.args);
  }
  return runWorkerCommand(choice.args);
}

void main();
