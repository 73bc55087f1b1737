/**
 * For hosted sessions the live view answer also offers the provider's own
 * live view: Browserbase's debugger URL (`debuggerFullscreenUrl` of
 * `GET /v1/sessions/{id}/debug`) and Steel's session viewer
 * (`sessionViewerUrl`). The REST APIs are the msw stand-ins of the provider
 * tests; the CDP half is a local Chromium, so the worker's own page works too.
 */
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BrowserUseClient } from "../../src/client/index.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import type { PlaywrightProvider } from "../../src/providers/local/index.js";
import { createBrowserbaseProvider } from "../../src/providers/browserbase/index.js";
import { createSteelProvider } from "../../src/playwright.js";
import { createBrowserWorker } from "../../src/worker/index.js";
import { baseURL, createBrowserbaseMock } from "../helpers/browserbase-mock.js";
import { startCdpChromium, type CdpChromium } from "../helpers/cdp-chromium.js";
import { createFakeSteel, steelBase } from "../helpers/steel-mock.js";
import { startWorkerServer } from "../helpers/worker-server.js";

const token = "op-live-providers-".padEnd(40, "x");
const tenantKey = "tenant-live-providers-".padEnd(40, "k");
const browserbaseKey = "bb_live_VIEWSECRET_0123456789";
const steelKey = "ste-live-view-key-4f0c9b7e2a61d8";

const browserbase = createBrowserbaseMock({ apiKey: browserbaseKey });
const server = setupServer();
let chrome: CdpChromium;

beforeAll(async () => {
  chrome = await startCdpChromium();
  server.listen({ onUnhandledRequest: "bypass" });
});
afterEach(() => {
  server.resetHandlers();
  browserbase.reset();
});
afterAll(async () => {
  server.close();
  await chrome?.close();
});

/** Opens a session on `provider` through a real worker and asks for its live view. */
async function liveViewOn(provider: PlaywrightProvider) {
  const adapter = new PlaywrightBrowserAdapter({ provider });
  const manager = new BrowserSessionManager(adapter, 2);
  const worker = await startWorkerServer(createBrowserWorker({ manager, token, stationId: "local", tenants: { [tenantKey]: "acme" } }));
  try {
    const client = new BrowserUseClient({ baseUrl: worker.origin, stationId: "local", apiKey: tenantKey });
    const { id, liveViewUrl } = await client.open();
    const live = await client.createLiveView(id);
    const page = await fetch(live.url);
    const html = await page.text();
    await client.close(id);
    return { liveViewUrl, live, page: { status: page.status, html } };
  } finally {
    await worker.close();
    await manager.close();
    await adapter.shutdown();
  }
}

describe("live view of hosted sessions", () => {
  it("offers Browserbase's debugger URL next to the worker's page", async () => {
    server.use(...browserbase.handlers);
    browserbase.connectUrl = chrome.wsUrl;
    const { liveViewUrl, live, page } = await liveViewOn(createBrowserbaseProvider({ apiKey: browserbaseKey, baseURL, persistSettleMs: 10, connectTimeoutMs: 10_000 }));
    const [created] = [...browserbase.sessions.keys()];
    expect(browserbase.calls()).toContain(`GET /v1/sessions/${created}/debug`);
    expect(live.providerUrl).toMatch(/fullscreen=1$/);
    expect(live.providerUrl).toContain(created);
    expect(live.providerUrl).toBe(liveViewUrl);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Take control");
    expect(JSON.stringify(live)).not.toContain(browserbaseKey);
  });

  it("offers Steel's session viewer URL next to the worker's page", async () => {
    const steel = createFakeSteel({ apiKey: steelKey, websocketUrl: (session) => `${chrome.wsUrl}?sessionId=${session.id}` });
    server.use(...steel.handlers);
    const { liveViewUrl, live, page } = await liveViewOn(createSteelProvider({ apiKey: steelKey, baseURL: steelBase }));
    const [created] = [...steel.sessions.keys()];
    expect(live.providerUrl).toBe(`https://app.steel.test/sessions/${created}`);
    expect(live.providerUrl).toBe(liveViewUrl);
    expect(page.status).toBe(200);
    expect(JSON.stringify(live)).not.toContain(steelKey);
  });
});
