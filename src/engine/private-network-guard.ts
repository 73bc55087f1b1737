import { lookup as dnsLookup } from "node:dns/promises";
import type { BrowserContext } from "playwright-core";
import { UrlPolicyError } from "../errors.js";
import { privateAddressReason, privateHostReason } from "../protocol/private-network.js";
import { sanitizeUrl } from "../protocol/url-policy.js";

/** Resolves a host name to its addresses (default: the system resolver, every answer). */
export type HostLookup = (hostname: string) => Promise<string[]>;

const systemLookup: HostLookup = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((answer) => answer.address);

/**
 * The `blockPrivateNetworks` policy in the engine: every request and
 * WebSocket of a context whose host is private (an IP literal, a loopback
 * name) or resolves to a private address is refused before it leaves.
 * A check of the resolver's answers, not a pin: Chromium resolves again, so
 * a host that answers differently the second time (DNS rebinding with a very
 * short TTL) is not covered; put a filtering proxy in front for that.
 */
export class PrivateNetworkGuard {
  constructor(private readonly lookup: HostLookup = systemLookup) {}

  /** Why `url` must not be reached, or undefined. Only http(s) and ws(s) URLs are checked. */
  async reason(url: string): Promise<string | undefined> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    if (!/^(https?|wss?):$/.test(parsed.protocol)) return undefined;
    const direct = privateHostReason(parsed.hostname);
    if (direct) return `${parsed.hostname} is ${direct}`;
    let addresses: string[];
    try {
      addresses = await this.lookup(parsed.hostname);
    } catch {
      // Unresolvable: Chromium's own lookup fails too.
      return undefined;
    }
    for (const address of addresses) {
      const why = privateAddressReason(address);
      if (why) return `${parsed.hostname} resolves to ${why}`;
    }
    return undefined;
  }

  /** Throws {@link UrlPolicyError} for a private target (the navigate command's check, before anything is sent). */
  async assertAllowed(url: string): Promise<void> {
    const why = await this.reason(url);
    if (why) throw new UrlPolicyError(`Navigation to ${sanitizeUrl(url)} refused: private networks are blocked (${why})`);
  }

  /** Installs the check on every request and WebSocket of `context`; `blocked` hears each refusal. */
  async install(context: BrowserContext, blocked: (url: string, reason: string) => void): Promise<void> {
    await context.route("**/*", async (route) => {
      const url = route.request().url();
      const why = await this.reason(url);
      // The page may have gone meanwhile; its route goes with it.
      if (why === undefined) return route.fallback().catch(() => undefined);
      blocked(url, why);
      return route.abort("blockedbyclient").catch(() => undefined);
    });
    await context.routeWebSocket(/.*/, async (socket) => {
      const why = await this.reason(socket.url());
      if (why === undefined) return void socket.connectToServer();
      blocked(socket.url(), why);
      await socket.close({ code: 1008, reason: "private networks are blocked" }).catch(() => undefined);
    });
  }
}
