import { describe, expect, it } from "vitest";
import { UrlPolicyError } from "../../src/errors.js";
import { useBrowser } from "../helpers/browser.js";

/** Names a fake resolver answers for: one rebinds to loopback, one is public (and unreachable here). */
const answers: Record<string, string[]> = { "rebind.test": ["93.184.215.14", "127.0.0.1"], "public.test": ["93.184.215.14"] };
const browser = useBrowser({ blockPrivateNetworks: { lookup: async (hostname) => answers[hostname] ?? [] } });

describe("blockPrivateNetworks (real Chromium)", () => {
  it("refuses a navigation to a private target in any spelling, and a name resolving to one, before a request leaves", async () => {
    const handle = await browser.open();
    const port = new URL(browser.server.origin).port;
    const before = browser.server.requests.length;
    const targets = [`127.0.0.1:${port}`, `0x7f.1:${port}`, `2130706433:${port}`, `[::1]:${port}`, `[::ffff:127.0.0.1]:${port}`, `localhost:${port}`, `\u217Cocalhost:${port}`, `rebind.test:${port}`];
    for (const target of targets) {
      const refused = await browser.adapter.execute(handle, { op: "navigate", url: `http://${target}/index.html` }).catch((error: unknown) => error);
      expect(refused, target).toBeInstanceOf(UrlPolicyError);
      expect((refused as Error).message).toMatch(/private networks are blocked \(.*(loopback|resolves to)/);
    }
    expect(browser.server.requests.length).toBe(before);
  });

  it("refuses a page's own requests (fetch, WebSocket) to private hosts, with a diagnostics event", async () => {
    const handle = await browser.open();
    const before = browser.server.requests.length;
    const fetched = await browser.adapter.execute(handle, {
      op: "evaluate",
      expression: `fetch(${JSON.stringify(`${browser.server.origin}/index.html`)}).then(() => "reached", (error) => "refused: " + error.name)`,
    });
    expect(fetched.value).toBe("refused: TypeError");
    const socket = await browser.adapter.execute(handle, {
      op: "evaluate",
      expression: `new Promise((resolve) => { const ws = new WebSocket(${JSON.stringify(browser.server.origin.replace("http", "ws"))}); ws.onopen = () => resolve("open"); ws.onclose = (event) => resolve("closed " + event.code); ws.onerror = () => {}; })`,
    });
    expect(socket.value).not.toBe("open");
    expect(browser.server.requests.length).toBe(before);
    const { events } = await browser.adapter.execute(handle, { op: "diagnostics" });
    expect(events.filter((event) => event.kind === "navigation-blocked").map((event) => event.text)).toContain("127.0.0.1 is a loopback address");
  });
});
