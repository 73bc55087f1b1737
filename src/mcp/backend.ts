import { BrowserUseClient } from "../client/client.js";
import { PlaywrightBrowserAdapter } from "../engine/adapter.js";
import type { BrowserBackend } from "../protocol/backend.js";
import { createLocalProvider, findChromium } from "../providers/local/index.js";
import { BrowserSessionManager } from "../stores/session-manager.js";
import type { McpCommandLine } from "./cli-options.js";

/** The browser backend of `station-browser-use mcp` and how to stop what it started. */
export interface McpBackend {
  backend: BrowserBackend;
  /** A line for stderr: where the browsers run (never a secret). */
  description: string;
  /** Closes the local sessions and stops local Chromium; nothing for a worker. */
  shutdown(): Promise<void>;
}

/**
 * A `BrowserUseClient` for a worker, or an embedded `BrowserSessionManager`
 * over local Chromium (profiles granted are exactly `--profile`).
 *
 * @throws `ValidationError` for a bad worker URL or station id; `BrowserNotFoundError` when no Chromium is found.
 */
export async function createMcpBackend(commandLine: McpCommandLine): Promise<McpBackend> {
  const choice = commandLine.backend;
  if (choice.kind === "worker") {
    const client = new BrowserUseClient({ baseUrl: choice.baseUrl, stationId: choice.stationId, apiKey: choice.apiKey });
    return { backend: client, description: `worker ${new URL(choice.baseUrl).origin} (station ${choice.stationId})`, shutdown: async () => undefined };
  }
  findChromium();
  const provider = createLocalProvider({
    headless: !choice.headed,
    ...(choice.profileRoot === undefined ? {} : { profileRootDir: choice.profileRoot }),
  });
  const adapter = new PlaywrightBrowserAdapter({ provider });
  const manager = new BrowserSessionManager(adapter, commandLine.maxSessions, { profileGrants: commandLine.profileIds });
  try {
    await manager.ready();
  } catch (error) {
    await adapter.shutdown().catch(() => undefined);
    throw error;
  }
  return {
    backend: manager,
    description: `local Chromium (${choice.headed ? "headed" : "headless"}, up to ${commandLine.maxSessions} session${commandLine.maxSessions === 1 ? "" : "s"})`,
    async shutdown() {
      try {
        await manager.close();
      } finally {
        await adapter.shutdown();
      }
    },
  };
}
