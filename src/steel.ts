/**
 * station-browser-use/steel: the Steel provider. `createSteelRestProvider`
 * is runtime-neutral (create, find, release from any runtime);
 * `createSteelProvider` adds the Playwright connection (Node, Deno, Bun).
 */
export {
  createSteelProvider,
  createSteelRestProvider,
  resolveSteelOptions,
  steelDefaults,
  type ResolvedSteelOptions,
  type SteelProvider,
  type SteelProviderOptions,
  type SteelRegion,
  type SteelRestProvider,
  type SteelRestProviderOptions,
} from "./providers/steel/index.js";
export { createMemoryProfileStore, type ProfileStore } from "./providers/hosted/profile-store.js";
export { createFileProfileStore } from "./stores/file-profile-store.js";
export type { BrowserProvider, CreateSessionRequest, ProfileGrant, ProviderSession, Viewport } from "./providers/types.js";
