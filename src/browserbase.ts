/**
 * station-browser-use/browserbase: the REST half of the Browserbase provider
 * (create, find, release sessions; profiles as contexts), on every runtime:
 * Node, Deno, Bun, Cloudflare Workers, edge. The driving half
 * (`createBrowserbaseProvider`, Playwright over CDP) and the file profile
 * store are in `station-browser-use/playwright` (Node, Deno, Bun).
 */
export { createBrowserbaseRestProvider, type BrowserbaseRestProvider } from "./providers/browserbase/rest.js";
export {
  browserbaseDefaults,
  type BrowserbaseBrowserSettings,
  type BrowserbaseProxies,
  type BrowserbaseRegion,
  type BrowserbaseRestProviderOptions,
} from "./providers/browserbase/options.js";
export { createMemoryProfileStore, type ProfileStore } from "./providers/hosted/profile-store.js";
export type { BrowserProvider, CreateSessionRequest, ProfileGrant, ProviderSession, Viewport } from "./providers/types.js";
