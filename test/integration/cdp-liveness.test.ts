/**
 * A hosted session whose CDP connection dies silently (the relay stops
 * forwarding: no FIN, no reset, so Playwright never hears of it), against a
 * real Chromium: the liveness probe ends the session while a command waits
 * on it — the command reports its outcome unknown, saying the browser is
 * gone, the manager emits `session-close` (browserGone) with its slot free,
 * the provider's release is sent, and closing returns.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isOutcomeUnknownError, isSessionClosedError } from "../../src/errors.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { withPlaywright } from "../../src/providers/cdp.js";
import type { BrowserProvider, ProviderSession } from "../../src/providers/types.js";
import { startBlackholeProxy, type BlackholeProxy } from "../helpers/blackhole-proxy.js";
import { startCdpChromium, type CdpChromium } from "../helpers/cdp-chromium.js";

let chromium: CdpChromium;
beforeAll(async () => {
  chromium = await startCdpChromium();
});
afterAll(async () => {
  await chromium?.close();
});

/** A REST half that hands out the relay's URL to the local Chromium and records releases. */
function relayedProvider(relay: BlackholeProxy, released: string[]): BrowserProvider {
  const sessions = new Map<string, ProviderSession>();
  return {
    name: "relayed",
    async create(request) {
      const session: ProviderSession = { id: request.openTag, status: "RUNNING", cdpUrl: relay.via(chromium.wsUrl), openTag: request.openTag, createdAt: new Date().toISOString() };
      sessions.set(session.id, session);
      return session;
    },
    get: async (id) => sessions.get(id),
    async release(id) {
      released.push(id);
      sessions.delete(id);
    },
    find: async (openTag) => [...sessions.values()].filter((session) => session.openTag === openTag),
  };
}

describe("CDP liveness", () => {
  it.each([
    ["evaluate", { op: "evaluate", expression: "new Promise(() => {})", timeoutMs: 60_000 }, isOutcomeUnknownError],
    ["waitFor", { op: "waitFor", selector: "#never", timeoutMs: 60_000 }, isSessionClosedError],
  ] as const)("ends a session whose connection dropped silently under %s, and closing returns", async (_op, command, expected) => {
    const relay = await startBlackholeProxy(chromium.port);
    const released: string[] = [];
    const adapter = new PlaywrightBrowserAdapter({ provider: withPlaywright(relayedProvider(relay, released)) });
    const manager = new BrowserSessionManager(adapter, 1);
    try {
      const { id } = await manager.open({ openTag: crypto.randomUUID() });
      await manager.execute(id, { op: "evaluate", expression: "document.readyState" });
      const closed = new Promise<string>((resolve) => manager.events.on("session-close", (event) => event.sessionId === id && resolve(event.reason)));
      const started = new Promise<void>((resolve) => manager.events.once("action-start", () => resolve()));
      const outcome = manager.execute(id, command).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      await started;
      relay.drop();
      const error = await outcome;
      expect(expected(error)).toBe(true);
      expect(error?.message).toMatch(/its browser is gone: .*(did not answer a CDP probe|connection)/);
      expect(await closed).toBe("browserGone");
      expect(manager.list()).toEqual([]);
      expect(released).toHaveLength(1);
      expect(await manager.close()).toEqual({ unreleased: [], uncertain: [] });
      await adapter.shutdown();
    } finally {
      await relay.close();
    }
  }, 60_000);
});
