/**
 * An MCP client uses the browser tools through `createMcpServer`: the
 * README's and docs/bridges.md's shared setup and MCP snippet, as one script.
 * The client and server are linked in memory; its script plays the part a
 * model would (list the tools, open the page, take a screenshot) and checks
 * what comes back in MCP's own shapes.
 *
 *   npm run example:mcp
 *
 * The browser is local Chromium in this process, on a page this script
 * serves itself on 127.0.0.1 (`page`).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createBrowserAgentTools } from "../src/agent.js";
import { createMcpServer } from "../src/mcp.js";
import { BrowserSessionManager, PlaywrightBrowserAdapter } from "../src/playwright.js";
import { examplePageTitle, serveExamplePage } from "./support/example-page.js";

const page = await serveExamplePage();

// In-process: the tools drive a manager you made; with ownsAdapter its close() ends Chromium too.
const browsers = new BrowserSessionManager(new PlaywrightBrowserAdapter(), 2, { ownsAdapter: true });
const tools = createBrowserAgentTools({ client: browsers, maxSessions: 2 });

const server = createMcpServer(tools.tools, { name: "my-browser" });
const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
await server.connect(serverTransport); // a stdio server: server.connect(new StdioServerTransport())
const client = new Client({ name: "my-agent", version: "1.0.0" });
await client.connect(clientTransport);
try {
  const { tools: listed } = await client.listTools();
  console.log(`${listed.length} tools: ${listed.map((tool) => tool.name).join(", ")}`);
  const opened = await client.callTool({ name: "station_browser_open", arguments: { url: page.url } });
  const shot = await client.callTool({ name: "station_browser_screenshot", arguments: {} }); // content: text, then { type: "image", data, mimeType }
  console.log(describeMcpResults(opened, shot));
} finally {
  await client.close();
  await server.close();
  await tools.close(); // the sessions this toolset opened
  await browsers.close(); // the backend: the manager and (ownsAdapter) its Chromium
  await page.close();
}

/** What came back, checked in MCP's shapes: the title in text content, the screenshot as image content (plain base64). */
function describeMcpResults(opened: Awaited<ReturnType<Client["callTool"]>>, shot: Awaited<ReturnType<Client["callTool"]>>): string {
  const parts = (result: typeof opened) => (Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : []);
  const text = parts(opened).map((part) => (part.type === "text" ? String(part.text) : "")).join("\n");
  if (opened.isError === true || !text.includes(examplePageTitle)) throw new Error(`station_browser_open did not return the page title "${examplePageTitle}": ${text}`);
  const image = parts(shot).find((part) => part.type === "image");
  if (image === undefined || typeof image.data !== "string" || image.data.startsWith("data:")) throw new Error("station_browser_screenshot returned no MCP image content with plain base64");
  const bytes = Math.floor((image.data.replace(/=+$/, "").length * 3) / 4);
  return `MCP client: the page title "${examplePageTitle}" came back as text content, and the screenshot as image content (${String(image.mimeType)}, ${bytes} bytes of base64 data).`;
}
