/**
 * A "Browserbase" session driven for real: the REST API is the msw stand-in,
 * and the `connectUrl` its create hands out points at a local Chromium
 * started with `--remote-debugging-port`, so the adapter connects over CDP
 * and runs commands on a fixture page.
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OutcomeUnknownError, ProfileInUseError, ProviderError, ReconcileRequiredError } from "../../src/errors.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { createBrowserbaseProvider, type BrowserbaseProviderOptions } from "../../src/providers/browserbase/index.js";
import { baseURL, createBrowserbaseMock } from "../helpers/browserbase-mock.js";
import { startCdpChromium, type CdpChromium } from "../helpers/cdp-chromium.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { failure } from "../helpers/failure.js";

const apiKey = "bb_live_DRIVENSECRET_0123456789";
const mock = createBrowserbaseMock({ apiKey });
// Only the fake API origin is mocked; CDP (ws://127.0.0.1) and the fixture pages pass through.
const server = setupServer(...mock.handlers);
let chromium: CdpChromium;
let fixtures: FixtureServer;

beforeAll(async () => {
  server.listen({ onUnhandledRequest: "bypass" });
  [chromium, fixtures] = await Promise.all([startCdpChromium(), startFixtureServer()]);
});
beforeEach(() => {
  // Browserbase connect URLs carry a signing key in the query; Chromium ignores it.
  mock.connectUrl = `${chromium.wsUrl}?signingKey=signing-secret-value`;
});
afterEach(() => {
  server.resetHandlers();
  mock.reset();
});
afterAll(async () => {
  server.close();
  await Promise.all([chromium?.close(), fixtures?.close()]);
});

function refOf(snapshot: string, pattern: RegExp): string {
  const line = snapshot.split("\n").find((candidate) => pattern.test(candidate));
  const ref = line && /\[((?:f\d+)?e\d+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no ref for ${pattern} in:\n${snapshot}`);
  return ref;
}


function adapterFor(options: Partial<BrowserbaseProviderOptions> = {}) {
  const provider = createBrowserbaseProvider({ apiKey, baseURL, persistSettleMs: 10, connectTimeoutMs: 10_000, ...options });
  return { provider, adapter: new PlaywrightBrowserAdapter({ provider }) };
}

describe("Browserbase through the Playwright adapter (real Chromium over CDP)", () => {
  it("opens, navigates, reads the accessibility tree, clicks, and releases with REQUEST_RELEASE", async () => {
    const { adapter } = adapterFor();
    const handle = await adapter.open({ openTag: "driven-1" });
    expect(handle).toMatchObject({ provider: "browserbase", openTag: "driven-1", liveViewUrl: expect.stringContaining("fullscreen=1") });
    expect(mock.requests[0]!.body).toEqual({ browserSettings: { viewport: { width: 1280, height: 800 } }, userMetadata: { openTag: "driven-1" } });

    const home = await adapter.execute(handle, { op: "navigate", url: fixtures.url("/index.html") });
    expect(home).toMatchObject({ ok: true, title: "Fixture home", navigated: true });
    const { snapshot } = await adapter.execute(handle, { op: "accessibility" });
    expect(snapshot).toContain('link "Second page"');
    const clicked = await adapter.execute(handle, { op: "click", target: { by: "ref", ref: refOf(snapshot, /link "Second page"/) } });
    expect(clicked).toMatchObject({ title: "Second page", navigated: true });
    expect(fixtures.requests).toContain("GET /second.html");

    await adapter.close(handle);
    expect(mock.calls()).toEqual(["POST /v1/sessions", `GET /v1/sessions/${handle.id}/debug`, `POST /v1/sessions/${handle.id}`]);
    expect(mock.requests.at(-1)!.body).toEqual({ status: "REQUEST_RELEASE" });
    expect(mock.sessions.get(handle.id)!.status).toBe("COMPLETED");
    // Closing a CDP connection only disconnects; the (remote) browser is ended by the release, not by us.
    expect(chromium.alive()).toBe(true);
    await adapter.shutdown();
  });

  it("opens a granted profile on its context, serialises it, and waits for the save before reopening", async () => {
    const { adapter, provider } = adapterFor();
    const first = await adapter.open({ profileId: "research", openTag: "prof-1" });
    expect(first.profileId).toBe("research");
    expect(mock.requests.find((request) => request.path === "/v1/sessions")!.body).toMatchObject({
      browserSettings: { context: { id: "ctx_1", persist: true } },
    });
    await expect(adapter.open({ profileId: "research", openTag: "prof-2" })).rejects.toBeInstanceOf(ProfileInUseError);

    mock.readsUntilEnded = 2;
    await adapter.close(first);
    const second = await adapter.open({ profileId: "research", openTag: "prof-3" });
    const calls = mock.calls();
    const releaseAt = calls.indexOf(`POST /v1/sessions/${first.id}`);
    expect(calls.slice(releaseAt, releaseAt + 4)).toEqual([
      `POST /v1/sessions/${first.id}`,
      `GET /v1/sessions/${first.id}`,
      `GET /v1/sessions/${first.id}`,
      "POST /v1/sessions",
    ]);
    expect(mock.contexts).toEqual(["ctx_1"]);
    const result = await adapter.execute(second, { op: "navigate", url: fixtures.url("/index.html") });
    expect(result.title).toBe("Fixture home");
    await adapter.close(second);
    await provider.shutdown();
  });

  it("a lost create response is outcome unknown; find(openTag) finds exactly that session, which can be adopted", async () => {
    const { adapter } = adapterFor();
    server.use(mock.lostCreate());
    const error = await failure(adapter.open({ openTag: "lost-open" }));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(mock.calls()).toEqual(["POST /v1/sessions"]);

    const found = await adapter.find("lost-open");
    expect(found).toEqual([{ id: [...mock.sessions.keys()][0], provider: "browserbase", openTag: "lost-open", running: true }]);
    const handle = await adapter.adopt(found[0]!);
    const result = await adapter.execute(handle, { op: "navigate", url: fixtures.url("/second.html") });
    expect(result.title).toBe("Second page");
    await adapter.close(handle);
    expect(mock.sessions.size).toBe(1);
    expect([...mock.sessions.values()][0]!.status).toBe("COMPLETED");
    await adapter.shutdown();
  });

  it("through the session manager: a lost create blocks opens until reconcile() adopts exactly one session", async () => {
    const { adapter } = adapterFor();
    const manager = new BrowserSessionManager(adapter, 2);
    server.use(mock.lostCreate());
    try {
      await expect(manager.open()).rejects.toBeInstanceOf(OutcomeUnknownError);
      expect(manager.uncertainOpenings()).toHaveLength(1);
      await expect(manager.open()).rejects.toBeInstanceOf(ReconcileRequiredError);
      expect(mock.calls().filter((call) => call === "POST /v1/sessions")).toHaveLength(1);
      const report = await manager.reconcile({ adopt: true });
      expect(report).toMatchObject({ released: [], absent: [], unresolved: [] });
      expect(report.adopted).toHaveLength(1);
      const { sessionId } = report.adopted[0]!;
      await expect(manager.execute(sessionId, { op: "navigate", url: fixtures.url("/second.html") })).resolves.toMatchObject({ title: "Second page" });
      // Exactly one provider session exists: nothing was created twice.
      expect(mock.sessions.size).toBe(1);
      expect(JSON.stringify(report) + JSON.stringify(manager.list())).not.toContain(apiKey);
    } finally {
      expect(await manager.close()).toEqual({ unreleased: [], uncertain: [] });
      await adapter.shutdown();
    }
  });

  it("a remote browser that dies closes its managed session and releases the provider session, without waiting for idle expiry", async () => {
    const doomed = await startCdpChromium();
    mock.connectUrl = `${doomed.wsUrl}?signingKey=signing-secret-value`;
    const { adapter } = adapterFor();
    const manager = new BrowserSessionManager(adapter, 1);
    const closes: string[] = [];
    manager.events.on("session-close", (event) => closes.push(event.reason));
    try {
      const session = await manager.open();
      await manager.execute(session.id, { op: "navigate", url: fixtures.url("/index.html") });
      const [providerSession] = [...mock.sessions.values()];
      await doomed.close();
      await expect.poll(() => manager.list().length, { timeout: 10_000 }).toBe(0);
      expect(closes).toEqual(["browserGone"]);
      // The provider was asked to release it, and the slot is free for the next open.
      expect(mock.calls()).toContain(`POST /v1/sessions/${providerSession!.id}`);
      expect(manager.pendingReleases()).toEqual([]);
      mock.connectUrl = `${chromium.wsUrl}?signingKey=signing-secret-value`;
      await expect(manager.open()).resolves.toMatchObject({ provider: "browserbase" });
    } finally {
      mock.connectUrl = `${chromium.wsUrl}?signingKey=signing-secret-value`;
      await manager.close();
      await adapter.shutdown();
      await doomed.close();
    }
  });

  it("a CDP connect failure releases the session; if that release fails too, the open is outcome unknown", async () => {
    const { adapter } = adapterFor({ connectTimeoutMs: 2000 });
    mock.connectUrl = "ws://127.0.0.1:9/devtools/browser/gone?signingKey=signing-secret-value";
    const failed = await failure(adapter.open({ openTag: "no-cdp" }));
    expect(failed).toBeInstanceOf(ProviderError);
    const [session] = [...mock.sessions.values()];
    expect(session!.status).toBe("COMPLETED");
    expect(mock.calls().at(-1)).toBe(`POST /v1/sessions/${session!.id}`);

    server.use(http.post(`${baseURL}/v1/sessions/:id`, () => HttpResponse.json({ message: "upstream" }, { status: 503 })));
    const uncertain = await failure(adapter.open({ openTag: "no-cdp-2" }));
    expect(uncertain).toBeInstanceOf(OutcomeUnknownError);
    expect(uncertain.message).toContain("no-cdp-2");

    for (const error of [failed, uncertain]) {
      const text = JSON.stringify({ ...error, message: error.message, stack: error.stack });
      expect(text).not.toContain("DRIVENSECRET");
      expect(text).not.toContain("signing-secret-value");
    }
    await adapter.shutdown();
  });

  it("a release that fails is surfaced by close, not swallowed", async () => {
    const { adapter } = adapterFor();
    const handle = await adapter.open({ openTag: "close-fails" });
    server.use(http.post(`${baseURL}/v1/sessions/:id`, () => HttpResponse.error(), { once: true }));
    const error = await failure(adapter.close(handle));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error.message).toContain(handle.id);
    expect(error.message).not.toContain(apiKey);
    expect(mock.sessions.get(handle.id)!.status).toBe("RUNNING");
    // Trying again (as reconcile does) releases it.
    await adapter.close(handle);
    expect(mock.sessions.get(handle.id)!.status).toBe("COMPLETED");
    await adapter.shutdown();
  });
});
