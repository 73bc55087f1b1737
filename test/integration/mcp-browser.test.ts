import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBrowserAgentTools, type BrowserAgentTools } from "../../src/agent-tools/index.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { createMcpServer } from "../../src/mcp.js";
import { BrowserSessionManager } from "../../src/stores/session-manager.js";
import { allStrings } from "../helpers/bridges-tools.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";

/** The real browser tools over MCP, in process: local Chromium against pages on 127.0.0.1. */
let fixtures: FixtureServer;
let adapter: PlaywrightBrowserAdapter;
let manager: BrowserSessionManager;
let toolset: BrowserAgentTools;
let client: Client;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  adapter = new PlaywrightBrowserAdapter();
  manager = new BrowserSessionManager(adapter, 2);
  toolset = createBrowserAgentTools({ client: manager, maxSessions: 2 });
  const server = createMcpServer(toolset.tools);
  client = new Client({ name: "test-client", version: "1.0.0" });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
});

afterAll(async () => {
  await client?.close();
  await toolset?.close();
  await manager?.close();
  await adapter?.shutdown();
  await fixtures?.close();
});

const textOf = (result: CallToolResult) => result.content.flatMap((item) => (item.type === "text" ? [item.text] : [])).join("\n");

describe("MCP server with the real browser tools", () => {
  it("lists the tools with their schemas and hints: screenshot read-only, open not", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(toolset.tools.map((tool) => tool.name));
    const screenshot = tools.find((tool) => tool.name === "station_browser_screenshot")!;
    expect(screenshot.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(screenshot.inputSchema).toEqual(toolset.tools.find((tool) => tool.name === "station_browser_screenshot")!.inputSchema);
    expect(tools.find((tool) => tool.name === "station_browser_open")!.annotations).toMatchObject({ readOnlyHint: false });
  });

  it("opens a page, returns a screenshot as MCP image content, and reports bad input as isError", async () => {
    const opened = (await client.callTool({ name: "station_browser_open", arguments: { url: fixtures.url("/index.html") } })) as CallToolResult;
    expect(opened.isError).toBeUndefined();
    expect(textOf(opened)).toMatch(/session s1 is open/);
    expect(textOf(opened)).toContain("Fixture home");

    const shot = (await client.callTool({ name: "station_browser_screenshot", arguments: { session: "s1" } })) as CallToolResult;
    expect(shot.isError).toBeUndefined();
    const images = shot.content.filter((item) => item.type === "image");
    expect(images).toHaveLength(1);
    const image = images[0] as { type: "image"; data: string; mimeType: string };
    expect(image.mimeType).toBe("image/png");
    expect(image.data.startsWith("data:")).toBe(false);
    expect([...Buffer.from(image.data, "base64").subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(textOf(shot)).toMatch(/screenshot of s1/);
    for (const text of allStrings(shot.content.filter((item) => item.type === "text"))) expect(text).not.toContain(image.data.slice(0, 64));

    const bad = (await client.callTool({ name: "station_browser_screenshot", arguments: { session: 5 } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/input\.session/);

    const report = await toolset.close();
    expect(report.closed.map((session) => session.alias)).toEqual(["s1"]);
    expect(report.unresolved).toEqual([]);
  });
});
