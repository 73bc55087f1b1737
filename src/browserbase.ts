/**
 * station-browser-use/browserbase: Browserbase sessions for the Playwright
 * engine. `createBrowserbaseRestProvider` (REST only) runs on every runtime;
 * `createBrowserbaseProvider` (REST + CDP driving) needs Node, Deno or Bun.
 */
export {
  browserbaseDefaults,
  createBrowserbaseProvider,
  createBrowserbaseRestProvider,
  type BrowserbaseBrowserSettings,
  type BrowserbaseProvider,
  type BrowserbaseProviderOptions,
  type BrowserbaseProxies,
  type BrowserbaseRegion,
  type BrowserbaseRestProvider,
  type BrowserbaseRestProviderOptions,
} from "./providers/browserbase/index.js";
export { createMemoryProfileStore, type ProfileStore } from "./providers/hosted/profile-store.js";
export { createFileProfileStore } from "./stores/file-profile-store.js";
export type { BrowserProvider, CreateSessionRequest, ProfileGrant, ProviderSession, Viewport } from "./providers/types.js";
