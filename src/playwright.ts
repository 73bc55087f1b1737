/**
 * station-browser-use/playwright: the Playwright engine and the local
 * Chromium provider (Node, Deno, Bun).
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
