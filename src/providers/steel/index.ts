/**
 * The Steel provider with its driving half (Node, Deno, Bun): the REST half
 * plus a Playwright connection over CDP to each session.
 */
import { ValidationError } from "../../errors.js";
import { withPlaywright } from "../cdp.js";
import type { PlaywrightProvider } from "../local/index.js";
import { createSteelRestProvider, type SteelRestProvider } from "./rest.js";
import type { SteelRestProviderOptions } from "./options.js";

/** Options of {@link createSteelProvider}: the REST options plus the CDP connection's. */
export interface SteelProviderOptions extends SteelRestProviderOptions {
  /** Time allowed for the CDP connection to a created session (ms, default 30 000). */
  connectTimeoutMs?: number;
}

/** A Steel provider the Playwright engine can drive. */
export type SteelProvider = PlaywrightProvider & Omit<SteelRestProvider, keyof PlaywrightProvider>;

/**
 * Browsers on Steel (cloud, or a self-hosted steel-browser with
 * `selfHosted: true`), driven by Playwright over CDP. The API key goes to
 * Steel's API and into the CDP URL at connect time only; it never appears in
 * a session record, result, error or log. `release` closes the CDP
 * connection, then releases the Steel session.
 *
 * @throws {ValidationError} for malformed options (the key is never echoed).
 * @example
 * ```ts
 * import { PlaywrightBrowserAdapter, createSteelProvider } from "station-browser-use/playwright";
 *
 * const adapter = new PlaywrightBrowserAdapter({
 *   provider: createSteelProvider({ apiKey: process.env.STEEL_API_KEY!, useProxy: true }),
 * });
 * const handle = await adapter.open();
 * await adapter.execute(handle, { op: "navigate", url: "https://example.com/" });
 * await adapter.close(handle);
 * ```
 */
export function createSteelProvider(options: SteelProviderOptions): SteelProvider {
  const { connectTimeoutMs, ...restOptions } = options;
  if (connectTimeoutMs !== undefined && !(Number.isInteger(connectTimeoutMs) && connectTimeoutMs >= 1 && connectTimeoutMs <= 600_000)) {
    throw new ValidationError("options.connectTimeoutMs", "expected an integer from 1 to 600000");
  }
  const rest = createSteelRestProvider(restOptions);
  const driven = withPlaywright(rest, connectTimeoutMs === undefined ? {} : { connectTimeoutMs });
  const connectTo = driven.connect;
  // The session record carries the bare websocketUrl; the key is added only for the connection itself.
  driven.connect = async (session, signal) => {
    // A self-hosted session found right after its create (reconcile, adopt) may still be launching.
    await rest.awaitLaunched(session.id, signal);
    const url = rest.cdpConnectUrl(session);
    return connectTo(url === undefined ? session : { ...session, cdpUrl: url }, signal);
  };
  return driven;
}

export { createSteelRestProvider, type SteelRestProvider } from "./rest.js";
export { resolveSteelOptions, steelDefaults, type ResolvedSteelOptions, type SteelRegion, type SteelRestProviderOptions } from "./options.js";
