/**
 * station-browser-use/steel: the REST half of the Steel provider (create,
 * find, release sessions; profiles), on every runtime: Node, Deno, Bun,
 * Cloudflare Workers, edge. The driving half (`createSteelProvider`,
 * Playwright over CDP) and the file profile store are in
 * `station-browser-use/playwright` (Node, Deno, Bun).
 */
export { createSteelRestProvider, type SteelRestProvider } from "./providers/steel/rest.js";
export { resolveSteelOptions, steelDefaults, type ResolvedSteelOptions, type SteelRegion, type SteelRestProviderOptions } from "./providers/steel/options.js";
export { createMemoryProfileStore, type ProfileStore } from "./providers/hosted/profile-store.js";
export type { BrowserProvider, CreateSessionRequest, ProfileGrant, ProviderSession, Viewport } from "./providers/types.js";
