/**
 * The CDP engine (src/cdp/adapter) against a real local Chromium, for tests:
 * one Chromium and one fixture server per test file. Each session the
 * adapter opens is a page target of that Chromium, handed out by a stand-in
 * provider as a hosted one would hand out its `cdpUrl` (a test may point
 * that URL at a relay).
 */
import { afterAll, beforeAll } from "vitest";
import { CdpBrowserAdapter, type CdpBrowserAdapterOptions } from "../../src/cdp/adapter/index.js";
import { nodeWebSocket } from "../../src/engine/node-websocket.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDownloadFolders } from "../../src/providers/local/download-folder.js";
import { createSessionStagingFolders } from "../../src/providers/local/staging-folder.js";
import type { BrowserProvider, ProviderSession } from "../../src/providers/types.js";
import { startCdpChromium, type CdpChromium } from "./cdp-chromium.js";
import { startFixtureServer, type FixtureServer } from "./fixture-server.js";

export interface CdpBrowserFixture {
  adapter: CdpBrowserAdapter;
  server: FixtureServer;
  chromium: CdpChromium;
  provider: SharedChromiumProvider;
  /** Opens a fresh session (closed with the suite). */
  open(options?: Parameters<CdpBrowserAdapter["open"]>[0]): Promise<BrowserHandle>;
}

/**
 * A provider whose sessions are all on one Chromium; `cdpUrl` says where a new session connects (the browser, or a relay).
 * Its file API stages into a folder per session on this machine, where that Chromium runs (as the local provider's);
 * its downloads go to one folder (the browser is shared, and its download folder with it).
 */
export interface SharedChromiumProvider extends BrowserProvider {
  cdpUrl: string;
  released: string[];
  /** Removes the staging folders. */
  cleanup(): Promise<void>;
}

export function sharedChromiumProvider(cdpUrl: string): SharedChromiumProvider {
  const sessions = new Map<string, ProviderSession>();
  let next = 1;
  let root: Promise<string> | undefined;
  const runPath = () => (root ??= mkdtemp(join(tmpdir(), "station-shared-chromium-")));
  const staging = createSessionStagingFolders(runPath);
  const provider: SharedChromiumProvider = {
    name: "shared-chromium",
    cdpUrl,
    released: [],
    files: { stage: (sessionId, file) => staging.stage(sessionId, file) },
    downloads: createDownloadFolders(async () => join(await runPath(), "downloads")),
    async cleanup() {
      if (root) await rm(await root, { recursive: true, force: true });
    },
    async create(request) {
      const session: ProviderSession = { id: `s${next++}`, status: "RUNNING", cdpUrl: provider.cdpUrl, openTag: request.openTag, createdAt: new Date().toISOString() };
      sessions.set(session.id, session);
      return session;
    },
    async get(id) {
      return sessions.get(id);
    },
    async release(id) {
      sessions.delete(id);
      provider.released.push(id);
      await staging.remove(id);
    },
    async find(openTag) {
      return [...sessions.values()].filter((session) => session.openTag === openTag);
    },
  };
  return provider;
}

/** `options` are the adapter's own (a clock, say); the provider and WebSocket are the fixture's; `chromiumArgs` go to the launch. */
export function useCdpBrowser(options: Omit<CdpBrowserAdapterOptions, "provider" | "webSocket"> = {}, chromiumArgs: string[] = []): CdpBrowserFixture {
  const fixture = {} as CdpBrowserFixture;
  beforeAll(async () => {
    [fixture.chromium, fixture.server] = await Promise.all([startCdpChromium({ args: chromiumArgs }), startFixtureServer()]);
    fixture.provider = sharedChromiumProvider(fixture.chromium.wsUrl);
    fixture.adapter = new CdpBrowserAdapter({ ...options, provider: fixture.provider, webSocket: nodeWebSocket });
    fixture.open = (options) => fixture.adapter.open(options);
  });
  afterAll(async () => {
    await fixture.adapter?.shutdown();
    await fixture.chromium?.close();
    await fixture.provider?.cleanup();
    await fixture.server?.close();
  });
  return fixture;
}
