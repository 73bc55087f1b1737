/**
 * The driving half of a hosted provider (Node, Deno, Bun): Playwright
 * connects to the session's CDP URL and drives its default context, where
 * the provider's settings and persisted profile live. Releasing closes the
 * CDP connection first (bounded by `limits.teardown.disconnectMs`: a dead
 * connection is abandoned), then asks the provider to release the session.
 */
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { NotFoundError, ProviderError, TimeoutError } from "../errors.js";
import { within } from "../lifecycle/clock.js";
import { limits } from "../protocol/limits.js";
import type { BrowserProvider, ProviderSession, Viewport } from "./types.js";

/** A provider whose sessions are driven by Playwright in this process. */
export interface PlaywrightProvider extends BrowserProvider {
  /** The Playwright context of a created session. */
  connect(session: ProviderSession, signal?: AbortSignal): Promise<BrowserContext>;
  /** Releases everything the provider holds (browsers, temporary homes). */
  shutdown(): Promise<void>;
}

/** Options of {@link withPlaywright}. */
export interface CdpConnectOptions {
  /** Time allowed for the CDP connection (ms, default 30 000). */
  connectTimeoutMs?: number;
}

/**
 * Adds `connect` and `shutdown` to a REST provider: `connect` opens
 * `connectOverCDP(session.cdpUrl)`, `release` closes that connection and then
 * releases the provider session, `shutdown` releases everything still held.
 */
export function withPlaywright<Provider extends BrowserProvider>(
  provider: Provider,
  options: CdpConnectOptions = {},
): PlaywrightProvider & Omit<Provider, keyof PlaywrightProvider> {
  const connections = new Map<string, Browser>();

  async function disconnect(id: string): Promise<void> {
    const browser = connections.get(id);
    connections.delete(id);
    // On a CDP connection, close() disconnects; the provider's browser keeps running until released.
    // A dead connection may never answer the close (no close frame, no FIN): past the bound it is
    // abandoned, and the release below still ends the provider's session.
    if (browser) {
      const late = () => new TimeoutError(`${provider.name}: disconnecting session ${id} did not finish within ${limits.teardown.disconnectMs} ms`);
      await within(browser.close(), limits.teardown.disconnectMs, late).catch(() => undefined);
    }
  }

  async function connect(session: ProviderSession): Promise<BrowserContext> {
    if (!session.cdpUrl) throw new NotFoundError(`${provider.name} session ${session.id} has no CDP URL`);
    let browser: Browser;
    try {
      browser = await chromium.connectOverCDP(session.cdpUrl, { timeout: options.connectTimeoutMs ?? 30_000 });
    } catch (error) {
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      // The URL may carry a key (Steel's apiKey query); never repeat it.
      throw new ProviderError(`${provider.name}: could not connect to session ${session.id} over CDP: ${redactUrl(reason ?? "", session.cdpUrl)}`);
    }
    connections.set(session.id, browser);
    browser.on("disconnected", () => {
      if (connections.get(session.id) === browser) connections.delete(session.id);
    });
    const context = browser.contexts()[0] ?? (await browser.newContext());
    if (session.viewport) await holdViewport(context, session.viewport);
    return context;
  }

  const driven = Object.create(provider) as PlaywrightProvider & Omit<Provider, keyof PlaywrightProvider>;
  Object.assign(driven, {
    name: provider.name,
    connect,
    async release(id: string, signal?: AbortSignal) {
      await disconnect(id);
      await provider.release(id, signal);
    },
    async shutdown() {
      const ids = [...connections.keys()];
      const results = await Promise.allSettled(ids.map((id) => driven.release(id)));
      const failed = results.filter((result) => result.status === "rejected");
      if (failed.length > 0) {
        throw new ProviderError(`${provider.name}: ${failed.length} of ${ids.length} sessions could not be released at shutdown`);
      }
    },
  });
  return driven;
}

/**
 * Gives every page of a connected context `viewport` (CDP
 * `Emulation.setDeviceMetricsOverride`, through `page.setViewportSize`):
 * the pages there now, and each page opened later.
 */
async function holdViewport(context: BrowserContext, viewport: Viewport): Promise<void> {
  const size = { width: viewport.width, height: viewport.height };
  context.on("page", (page) => void page.setViewportSize(size).catch(() => undefined));
  await Promise.all(context.pages().map((page) => page.setViewportSize(size)));
}

/** Removes a URL (and its query) from a message. */
function redactUrl(message: string, url: string): string {
  const bare = url.split("?")[0] ?? url;
  return message.split(url).join(`${bare}?[redacted]`).replace(/([?&](?:apiKey|api_key|token|signingKey)=)[^&\s"']+/gi, "$1[redacted]");
}
