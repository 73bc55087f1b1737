import { afterAll, beforeAll } from "vitest";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { startHoldingServer, type HoldingServer } from "./holding-server.js";

export interface HoldingBrowser {
  server: HoldingServer;
  adapter: PlaywrightBrowserAdapter;
  /** One session, open for the whole file. */
  handle: BrowserHandle;
}

/** A holding server serving `pages`, an adapter (local Chromium) and one open session, for a test file. */
export function useHoldingBrowser(pages: Record<string, string>): HoldingBrowser {
  const fixture = {} as HoldingBrowser;
  beforeAll(async () => {
    fixture.server = await startHoldingServer(pages);
    fixture.adapter = new PlaywrightBrowserAdapter();
    fixture.handle = await fixture.adapter.open();
  });
  afterAll(async () => {
    await fixture.adapter?.shutdown();
    await fixture.server?.close();
  });
  return fixture;
}
