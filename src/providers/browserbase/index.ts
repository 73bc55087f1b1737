/**
 * The Browserbase provider for the Playwright engine (Node, Deno, Bun): the
 * REST half (`./rest.ts`) plus `connectOverCDP(connectUrl)`.
 */
import { ValidationError } from "../../errors.js";
import { withPlaywright } from "../cdp.js";
import type { PlaywrightProvider } from "../local/index.js";
import { createBrowserbaseRestProvider, type BrowserbaseRestProvider } from "./rest.js";
import type { BrowserbaseRestProviderOptions } from "./options.js";

/** Options of {@link createBrowserbaseProvider}: the REST options plus the CDP connection's. */
export interface BrowserbaseProviderOptions extends BrowserbaseRestProviderOptions {
  /** Time allowed for the CDP connection to a created session (ms, default 30 000). */
  connectTimeoutMs?: number;
}

/** A Browserbase provider the Playwright engine can drive. */
export type BrowserbaseProvider = PlaywrightProvider & Omit<BrowserbaseRestProvider, keyof PlaywrightProvider>;

/**
 * Browserbase sessions driven by Playwright over CDP. `release` closes the
 * CDP connection, then asks Browserbase to end the session
 * (`REQUEST_RELEASE`); a granted profile maps to a Browserbase context that
 * persists when its session ends.
 *
 * @throws {ValidationError} for malformed options (the key is never echoed).
 * @example
 * ```ts
 * import { PlaywrightBrowserAdapter, createBrowserbaseProvider } from "station-browser-use/playwright";
 *
 * const provider = createBrowserbaseProvider({ apiKey: process.env.BROWSERBASE_API_KEY!, region: "eu-central-1" });
 * const adapter = new PlaywrightBrowserAdapter({ provider });
 * const handle = await adapter.open({ profileId: "research" });
 * ```
 */
export function createBrowserbaseProvider(options: BrowserbaseProviderOptions): BrowserbaseProvider {
  const { connectTimeoutMs, ...restOptions } = options;
  if (connectTimeoutMs !== undefined && !(Number.isInteger(connectTimeoutMs) && connectTimeoutMs >= 1 && connectTimeoutMs <= 600_000)) {
    throw new ValidationError("options.connectTimeoutMs", "expected an integer from 1 to 600000");
  }
  return withPlaywright(createBrowserbaseRestProvider(restOptions), connectTimeoutMs === undefined ? {} : { connectTimeoutMs });
}

export { createBrowserbaseRestProvider, type BrowserbaseRestProvider } from "./rest.js";
export {
  browserbaseDefaults,
  resolveBrowserbaseOptions,
  type BrowserbaseBrowserSettings,
  type BrowserbaseProxies,
  type BrowserbaseRegion,
  type BrowserbaseRestProviderOptions,
  type ResolvedBrowserbaseOptions,
  type Sleep,
} from "./options.js";
