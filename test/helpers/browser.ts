import { afterAll, beforeAll } from "vitest";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { PlaywrightBrowserAdapter, type PlaywrightBrowserAdapterOptions } from "../../src/engine/adapter.js";
import { startFixtureServer, type FixtureServer } from "./fixture-server.js";

export interface BrowserFixture {
  adapter: PlaywrightBrowserAdapter;
  server: FixtureServer;
  /** Opens a fresh session (closed with the suite). */
  open(): Promise<BrowserHandle>;
}

/**
 * One fixture server and one adapter (local Chromium) per test file; every
 * session it opens is closed after the file's tests.
 */
export function useBrowser(options: PlaywrightBrowserAdapterOptions = {}): BrowserFixture {
  const fixture = {} as BrowserFixture;
  beforeAll(async () => {
    fixture.server = await startFixtureServer();
    fixture.adapter = new PlaywrightBrowserAdapter(options);
    fixture.open = () => fixture.adapter.open();
  });
  afterAll(async () => {
    await fixture.adapter?.shutdown();
    await fixture.server?.close();
  });
  return fixture;
}
