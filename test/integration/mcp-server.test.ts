import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema, ListToolsResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpServer } from "../../src/mcp.js";
import type { AgentTool } from "../../src/agent-tools/types.js";
import { allStrings, createFakeTools, jpegBase64, pngBase64 } from "../helpers/bridges-tools.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function connect(tools: AgentTool[]): Promise<Client> {
  const server = createMcpServer(tools, { name: "browser-test", version: "9.9.9" });
  const client = new Client({ name: "test-client", version: "1.0.0" });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  cleanups.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

describe("MCP server (in-memory client)", () => {
  it("introduces itself and lists every tool with its JSON Schema, title and hints", async () => {
    const { tools } = createFakeTools();
    const client = await connect(tools);
    expect(client.getServerVersion()).toMatchObject({ name: "browser-test", version: "9.9.9" });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toMatch(/untrusted data/);

    const listed = ListToolsResultSchema.parse(await client.listTools());
    expect(listed.tools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    const click = listed.tools.find((tool) => tool.name === "station_browser_click")!;
    expect(click).toEqual({
      name: "station_browser_click",
      title: "Click",
      description: tools[3]!.description,
      inputSchema: tools[3]!.inputSchema,
      annotations: { title: "Click", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    });
    expect(listed.tools.find((tool) => tool.name === "station_browser_screenshot")!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });

  it("answers a call with text and image content (plain base64), arguments passed through", async () => {
    const { tools, seen } = createFakeTools();
    const client = await connect(tools);
    const result = CallToolResultSchema.parse(await client.callTool({ name: "station_browser_screenshot", arguments: { session: "s1" } })) as CallToolResult;
    expect(result.content).toEqual([
      { type: "text", text: "Screenshot of s1 (1×1, png)." },
      { type: "image", data: pngBase64, mimeType: "image/png" },
    ]);
    expect(result.isError).toBeUndefined();
    expect(seen).toEqual([{ tool: "station_browser_screenshot", input: { session: "s1" }, signal: expect.any(AbortSignal) }]);

    const images = (await client.callTool({ name: "station_browser_two_images", arguments: {} })) as CallToolResult;
    expect(images.content).toEqual([
      { type: "image", data: pngBase64, mimeType: "image/png" },
      { type: "image", data: jpegBase64, mimeType: "image/jpeg" },
    ]);
    for (const text of allStrings(images.content)) expect(text.startsWith("data:")).toBe(false);
  });

  it("reports tool failures, unknown tools, throws and missing arguments as isError results, not protocol errors", async () => {
    const { tools, seen } = createFakeTools();
    const client = await connect(tools);
    const failed = (await client.callTool({ name: "station_browser_click", arguments: { session: "s9" } })) as CallToolResult;
    expect(failed).toEqual({ content: [{ type: "text", text: "session: s9 is not open in this toolset. Open one with station_browser_open." }], isError: true });

    const unknown = (await client.callTool({ name: "station_browser_nope", arguments: {} })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toEqual([{ type: "text", text: expect.stringMatching(/^Unknown tool "station_browser_nope"\. The browser tools are: /) }]);

    const thrown = (await client.callTool({ name: "station_browser_throws", arguments: {} })) as CallToolResult;
    expect(thrown).toEqual({ content: [{ type: "text", text: "station_browser_throws failed: tool bug" }], isError: true });

    await client.callTool({ name: "station_browser_echo" });
    expect(seen.at(-1)).toMatchObject({ tool: "station_browser_echo", input: {} });
  });

  it("a client cancellation aborts the running tool", async () => {
    const { tools, waitStarted } = createFakeTools();
    const client = await connect(tools);
    const controller = new AbortController();
    const call = client.callTool({ name: "station_browser_wait", arguments: {} }, undefined, { signal: controller.signal });
    const signal = await waitStarted;
    expect(signal.aborted).toBe(false);
    const aborted = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
    controller.abort("user cancelled");
    await expect(call).rejects.toThrow();
    await aborted;
    expect(signal.aborted).toBe(true);
  });

  it("refuses tool names MCP does not allow when the server is made", () => {
    const { tools } = createFakeTools();
    expect(() => createMcpServer([{ ...tools[0]!, name: "station browser" }])).toThrow(/tools\[0\]\.name: "station browser" is not a valid MCP tool name/);
  });
});
