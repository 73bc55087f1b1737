/**
 * Secret values in the agent tools' results (real Chromium, in-process
 * manager): a long host secret is never shown in part when a view shortens
 * it, and a typed password stays hidden when the page moves focus away.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBrowserAgentTools, type AgentTool } from "../../src/agent-tools/index.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";

const longSecret = `eyJhbGciOiJIUzI1NiJ9.${"AbCdEfGhIjKlMnOpQrStUvWxYz0123456789".repeat(4)}.sig`;
const pin = "zq7731";

let adapter: PlaywrightBrowserAdapter;
let manager: BrowserSessionManager;
let fixtures: FixtureServer;

beforeAll(async () => {
  adapter = new PlaywrightBrowserAdapter();
  manager = new BrowserSessionManager(adapter, 2);
  fixtures = await startFixtureServer();
});
afterAll(async () => {
  await manager?.close();
  await adapter?.shutdown();
  await fixtures?.close();
});

const tool = (tools: AgentTool[], name: string) => tools.find((each) => each.name === `station_browser_${name}`)!;

describe("secrets and passwords in results (real Chromium)", () => {
  it("never shows a long secret, whole or shortened, in any observation", async () => {
    const tools = createBrowserAgentTools({ client: manager, maxSessions: 1, secrets: { token: longSecret } });
    const results = [];
    try {
      results.push(await tool(tools.tools, "open").execute({ url: fixtures.url("/agent-tools-pin.html") }));
      const snapshot = await tool(tools.tools, "observe").execute({});
      const ref = /textbox "Token" \[(e\d+)\]/.exec(snapshot.text)?.[1];
      expect(ref).toBeDefined();
      results.push(await tool(tools.tools, "fill").execute({ fields: [{ target: ref, secret: "token" }] }));
      for (const mode of ["aria", "interactive", "dom", "text"]) results.push(await tool(tools.tools, "observe").execute({ mode }));
    } finally {
      await tools.close();
    }
    const all = JSON.stringify(results);
    expect(all).toContain("[secret:token]");
    expect(all).not.toContain(longSecret.slice(0, 12));
  });

  it("keeps a typed PIN hidden when the page moves focus on and echoes it", async () => {
    const tools = createBrowserAgentTools({ client: manager, maxSessions: 1 });
    const results = [];
    try {
      results.push(await tool(tools.tools, "open").execute({ url: fixtures.url("/agent-tools-pin.html") }));
      const snapshot = await tool(tools.tools, "observe").execute({});
      const ref = /textbox "PIN" \[(e\d+)\]/.exec(snapshot.text)?.[1];
      expect(ref).toBeDefined();
      results.push(await tool(tools.tools, "fill").execute({ fields: [{ target: ref, value: pin }] }));
      results.push(await tool(tools.tools, "observe").execute({ mode: "text" }));
    } finally {
      await tools.close();
    }
    // The page did echo it (in its title and its text): the tools showed it redacted.
    expect(await manager.list()).toEqual([]);
    const all = JSON.stringify(results);
    expect(all).toContain("PIN [redacted]");
    expect(all).not.toContain(pin);
  });
});
