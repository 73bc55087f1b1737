/**
 * The MCP server bench/agent.ts runs as its "ours on the CDP engine" side: the
 * tools of `station-browser-use mcp` (same options: one session, default
 * groups and text budget), over stdio, on a session manager whose engine is
 * the CDP engine (`CdpBrowserAdapter`) over local Chromium, one Chromium per
 * session (`createLocalCdpProvider`, the closed-network flags). Only the
 * engine differs from `station-browser-use mcp`. When stdin closes it closes
 * the sessions and every Chromium, then exits.
 *
 * Run (by bench/mcp-sides.ts): `tsx bench/cdp-mcp.ts`.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createBrowserAgentTools } from "../src/agent-tools/index.js";
import { CdpBrowserAdapter } from "../src/cdp.js";
import { createMcpServer } from "../src/mcp/server.js";
import { BrowserSessionManager, nodeWebSocket } from "../src/playwright.js";
import { createLocalCdpProvider } from "../src/providers/local/cdp-chromium.js";

// stdout is the protocol channel.
console.log = (...values: unknown[]) => console.error(...values);

const provider = createLocalCdpProvider();
const adapter = new CdpBrowserAdapter({ provider, webSocket: nodeWebSocket });
const manager = new BrowserSessionManager(adapter, 1);
await manager.ready();
const toolset = createBrowserAgentTools({ client: manager, maxSessions: 1 });
const server = createMcpServer(toolset.tools);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await toolset.close().catch(() => undefined);
  await manager.close().catch(() => undefined);
  await adapter.shutdown().catch(() => undefined);
  await provider.shutdown().catch(() => undefined);
  process.exit(0);
}
process.stdin.once("end", () => void stop());
process.stdin.once("close", () => void stop());
server.onclose = () => void stop();
await server.connect(new StdioServerTransport());
