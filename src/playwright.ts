/**
 * station-browser-use/playwright: everything that drives a browser or keeps
 * files (Node, Deno, Bun): the Playwright engine, the local Chromium
 * provider, the driving halves of Browserbase and Steel (their REST halves
 * are in `station-browser-use/browserbase` and `/steel`, on every runtime)
 * and the file-backed stores.
 */
export { PlaywrightBrowserAdapter, type PlaywrightBrowserAdapterOptions } from "./engine/adapter.js";
export {
  createLocalProvider,
  findChromium,
  closedNetworkArgs,
  type LocalProvider,
  type LocalProviderOptions,
  type PlaywrightProvider,
} from "./providers/local/index.js";
export { BrowserSessionManager } from "./stores/session-manager.js";
export { createFileStateStore, createFileRecordingStore, createFileProfileStore } from "./stores/index.js";
export { withPlaywright, type CdpConnectOptions } from "./providers/cdp.js";
export {
  createBrowserbaseProvider,
  type BrowserbaseProvider,
  type BrowserbaseProviderOptions,
} from "./providers/browserbase/index.js";
export { createSteelProvider, type SteelProvider, type SteelProviderOptions } from "./providers/steel/index.js";
export { nodeWebSocket } from "./engine/node-websocket.js";
export { createLocalCdpProvider } from "./providers/local/cdp-chromium.js";
