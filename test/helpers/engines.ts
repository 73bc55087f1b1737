/**
 * Both engines on a real local Chromium, for suites that run the engine
 * contract against each: the Playwright engine (src/engine) and the CDP
 * engine (src/cdp/adapter), with the options both take.
 */
import type { BrowserAdapter, BrowserHandle } from "../../src/protocol/adapter.js";
import { useBrowser } from "./browser.js";
import { useCdpBrowser } from "./cdp-engine.js";
import type { FixtureServer } from "./fixture-server.js";

export interface EngineFixture {
  adapter: BrowserAdapter;
  server: FixtureServer;
  open(): Promise<BrowserHandle>;
}

/** Options both engines take. */
export interface EngineOptions {
  downloadMaxBytes?: number;
  stagingMaxBytes?: number;
}

/** `[name, use]` per engine, for `describe.each`; `use` sets the fixture up for the suite (call it once, at the top of the describe). */
export const bothEngines = (options: EngineOptions = {}): Array<[string, () => EngineFixture]> => [
  ["Playwright engine", () => useBrowser(options)],
  ["CDP engine", () => useCdpBrowser(options)],
];
