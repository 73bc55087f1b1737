/**
 * Steel sessions driven for real: Steel's REST API is mocked with msw at the
 * wire format, and each "Steel" session's websocketUrl points at a local
 * Chromium started with --remote-debugging-port, so the adapter connects,
 * navigates, reads the accessibility tree and clicks through the provider.
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { chromium } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CapacityError, OutcomeUnknownError, ProfileError, ProviderError } from "../../src/errors.js";
import { CdpBrowserAdapter } from "../../src/cdp/adapter/index.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { nodeWebSocket } from "../../src/engine/node-websocket.js";
import type { BrowserAdapter } from "../../src/protocol/adapter.js";
import { createSteelRestProvider } from "../../src/providers/steel/rest.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { createFileProfileStore, createSteelProvider } from "../../src/playwright.js";
import { startCdpChromium, type CdpChromium } from "../helpers/cdp-chromium.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { createFakeSteel, steelBase, type FakeSteel } from "../helpers/steel-mock.js";
import { failure } from "../helpers/failure.js";
import { fakeSleep } from "../helpers/fake-sleep.js";

const apiKey = "ste-test-key-4f0c9b7e2a61d8";

let chrome: CdpChromium;
let fixtures: FixtureServer;
let cloud: FakeSteel;
const server = setupServer();

/** Everything a caller could see, serialized, must not contain the key. */
function expectNoKey(...outputs: unknown[]): void {
  for (const output of outputs) {
    const text = output instanceof Error ? `${output.name}: ${output.message} ${String(output.cause ?? "")} ${output.stack ?? ""}` : JSON.stringify(output);
    expect(text).not.toContain(apiKey);
    expect(text).not.toContain(encodeURIComponent(apiKey));
  }
}


beforeAll(async () => {
  [chrome, fixtures] = await Promise.all([startCdpChromium(), startFixtureServer()]);
  // Cloud websocketUrls carry a query (wss://connect.steel.dev?sessionId=…), so the key goes after `&`.
  cloud = createFakeSteel({ apiKey, websocketUrl: (session) => `${chrome.wsUrl}?sessionId=${session.id}` });
  server.listen({ onUnhandledRequest: "bypass" });
});
afterEach(() => {
  vi.restoreAllMocks();
  server.resetHandlers();
  cloud.reset();
});
afterAll(async () => {
  server.close();
  await Promise.all([chrome?.close(), fixtures?.close()]);
});

describe("Steel cloud, driven through the adapter", () => {
  it("creates with the open tag as sessionId, drives the page, and releases with an empty body", async () => {
    server.use(...cloud.handlers);
    const adapter = new PlaywrightBrowserAdapter({ provider: createSteelProvider({ apiKey, baseURL: steelBase, useProxy: true, blockAds: true }) });
    const connect = vi.spyOn(chromium, "connectOverCDP");
    const handle = await adapter.open({ viewport: { width: 1024, height: 700 } });
    try {
      // The key reaches the CDP URL only here, appended after the websocketUrl's own query.
      expect(connect).toHaveBeenCalledWith(`${chrome.wsUrl}?sessionId=${handle.id}&apiKey=${apiKey}`, expect.anything());
      expect(handle.provider).toBe("steel");
      expect(handle.id).toBe(handle.openTag);
      expect(handle.liveViewUrl).toBe(`https://app.steel.test/sessions/${handle.id}`);

      const [created] = cloud.requestsTo("POST", "/v1/sessions");
      expect(created?.apiKey).toBe(apiKey);
      expect(JSON.parse(created!.body)).toEqual({
        sessionId: handle.openTag,
        timeout: 900_000,
        dimensions: { width: 1024, height: 700 },
        useProxy: true,
        blockAds: true,
      });

      const navigated = await adapter.execute(handle, { op: "navigate", url: fixtures.url("/") });
      expect(navigated.title).toBe("Fixture home");
      const { snapshot } = await adapter.execute(handle, { op: "accessibility" });
      expect(snapshot).toContain("Second page");
      const clicked = await adapter.execute(handle, { op: "click", target: { by: "role", role: "link", name: "Second page", exact: true } });
      expect(clicked.url).toBe(fixtures.url("/second.html"));
      expectNoKey(handle, navigated, snapshot, clicked);
    } finally {
      await adapter.close(handle);
    }
    const releases = cloud.requestsTo("POST", `/v1/sessions/${handle.id}/release`);
    expect(releases).toHaveLength(1);
    expect(releases[0]).toMatchObject({ body: "", contentType: "application/json", apiKey });
    expect(cloud.sessions.get(handle.id)?.status).toBe("released");
    expect(chrome.alive()).toBe(true);
    await adapter.shutdown();
  });

  // Both engines ask Steel's captcha status with the challenge command, and only then.
  const engines: Array<[string, () => BrowserAdapter]> = [
    ["Playwright engine", () => new PlaywrightBrowserAdapter({ provider: createSteelProvider({ apiKey, baseURL: steelBase }) })],
    ["CDP engine", () => new CdpBrowserAdapter({ provider: createSteelRestProvider({ apiKey, baseURL: steelBase }), webSocket: nodeWebSocket })],
  ];
  it.each(engines)("%s: surfaces Steel's captcha status in the challenge command's result, and leaves it out when Steel saw no captcha", async (_name, make) => {
    let answer: unknown[] = [{ isSolvingCaptcha: true, pageId: "p1", url: "https://example.test/", tasks: [{ status: "solving" }] }];
    let asked = 0;
    server.use(
      http.get(`${steelBase}/v1/sessions/:id/captchas/status`, ({ request }) => {
        asked++;
        return request.headers.get("steel-api-key") === apiKey ? HttpResponse.json(answer) : HttpResponse.json({ message: "unauthorized" }, { status: 401 });
      }),
      ...cloud.handlers,
    );
    const adapter = make();
    const handle = await adapter.open();
    try {
      const navigated = await adapter.execute(handle, { op: "navigate", url: fixtures.url("/challenge") });
      // An action result carries the page's own classification: the solver API is not asked after actions.
      expect(navigated.challenge).toMatchObject({ state: "challenge", vendor: "cloudflare" });
      expect(navigated.challenge).not.toHaveProperty("solver");
      expect(asked).toBe(0);
      const solving = await adapter.execute(handle, { op: "challenge" });
      expect(solving).toMatchObject({ state: "challenge", vendor: "cloudflare", solver: { provider: "steel", state: "solving" } });
      answer = [{ isSolvingCaptcha: false, pageId: "p1", url: "https://example.test/", tasks: [{ status: "solved" }] }];
      expect(await adapter.execute(handle, { op: "challenge" })).toMatchObject({ solver: { provider: "steel", state: "finished" } });
      answer = [];
      expect(await adapter.execute(handle, { op: "challenge" })).not.toHaveProperty("solver");
      expect(asked).toBe(3);
      expectNoKey(solving);
    } finally {
      await adapter.close(handle);
      await adapter.shutdown?.();
    }
  });

  it("a lost create answer is an unknown outcome; find(openTag) returns exactly that session, which is adopted and driven", async () => {
    server.use(...cloud.handlers);
    const provider = createSteelProvider({ apiKey, baseURL: steelBase });
    const adapter = new PlaywrightBrowserAdapter({ provider });
    const openTag = crypto.randomUUID();
    cloud.faults.create.push({ kind: "lose-response" });

    const error = await failure(adapter.open({ openTag }));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expectNoKey(error);
    expect(cloud.sessions.size).toBe(1);

    const found = await adapter.find(openTag);
    expect(found).toEqual([{ id: openTag, provider: "steel", openTag, running: true }]);
    const handle = await adapter.adopt(found[0]!);
    const navigated = await adapter.execute(handle, { op: "navigate", url: fixtures.url("/second.html") });
    expect(navigated.url).toBe(fixtures.url("/second.html"));
    await adapter.close(handle);

    // One create only: nothing was retried blindly.
    expect(cloud.requestsTo("POST", "/v1/sessions")).toHaveLength(1);
    expect(cloud.requestsTo("GET", `/v1/sessions/${openTag}`).length).toBeGreaterThanOrEqual(1);
    expect(await provider.find(openTag)).toEqual([expect.objectContaining({ id: openTag, status: "ENDED" })]);
    await adapter.shutdown();
  });

  it("through the session manager: a lost create is found again under its tag (the Steel sessionId), and only one exists", async () => {
    server.use(...cloud.handlers);
    const adapter = new PlaywrightBrowserAdapter({ provider: createSteelProvider({ apiKey, baseURL: steelBase }) });
    const manager = new BrowserSessionManager(adapter, 2);
    cloud.faults.create.push({ kind: "lose-response" });
    try {
      const error = await failure(manager.open());
      expect(error).toBeInstanceOf(OutcomeUnknownError);
      const [uncertain] = manager.uncertainOpenings();
      expect(cloud.sessions.has(uncertain!.openTag)).toBe(true);
      // Repeating the open with the same tag takes the session over instead of creating another.
      const adopted = await manager.open({ openTag: uncertain!.openTag });
      expect(adopted.openTag).toBe(uncertain!.openTag);
      await expect(manager.execute(adopted.id, { op: "navigate", url: fixtures.url("/second.html") })).resolves.toMatchObject({ url: fixtures.url("/second.html") });
      expect(cloud.requestsTo("POST", "/v1/sessions")).toHaveLength(1);
      expect(manager.uncertainOpenings()).toEqual([]);
      expectNoKey(error, adopted, manager.list());
    } finally {
      expect(await manager.close()).toEqual({ unreleased: [], uncertain: [] });
      await adapter.shutdown();
    }
  });

  it("a release Steel does not confirm is surfaced by close, and a later retry releases it", async () => {
    server.use(...cloud.handlers);
    const adapter = new PlaywrightBrowserAdapter({ provider: createSteelProvider({ apiKey, baseURL: steelBase }) });
    const handle = await adapter.open();
    await adapter.execute(handle, { op: "navigate", url: fixtures.url("/") });
    cloud.faults.release.push({ kind: "status", status: 503, body: { message: "try again" } });
    const error = await failure(adapter.close(handle));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error.message).toContain(`release session ${handle.id}`);
    expectNoKey(error);
    expect(cloud.sessions.get(handle.id)?.status).toBe("live");
    await adapter.close(handle);
    expect(cloud.sessions.get(handle.id)?.status).toBe("released");
    expect(cloud.requestsTo("POST", `/v1/sessions/${handle.id}/release`)).toHaveLength(2);
    await adapter.shutdown();
  });

  it("a CDP connection failure names no key, and the session is released", async () => {
    const unreachable = createFakeSteel({ apiKey, websocketUrl: (session) => `ws://127.0.0.1:1/devtools/browser/none?sessionId=${session.id}` });
    server.use(...unreachable.handlers);
    const adapter = new PlaywrightBrowserAdapter({ provider: createSteelProvider({ apiKey, baseURL: steelBase, connectTimeoutMs: 5_000 }) });
    const error = await failure(adapter.open());
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toMatch(/could not connect/);
    expectNoKey(error);
    const [session] = unreachable.sessions.values();
    expect(session?.status).toBe("released");
    expect(unreachable.requestsTo("POST", `/v1/sessions/${session!.id}/release`)).toHaveLength(1);
    await adapter.shutdown();
  });
});

describe("Steel profiles, driven through the adapter", () => {
  it("a granted profile is created by the first session, kept in a file store, and reused once READY", async () => {
    const directory = await mkdtemp(join(tmpdir(), "station-steel-profiles-"));
    try {
      const profiles = createFakeSteel({ apiKey, uploadPolls: 2, websocketUrl: (session) => `${chrome.wsUrl}?sessionId=${session.id}` });
      server.use(...profiles.handlers);
      const path = join(directory, "steel-profiles.json");
      const provider = createSteelProvider({ apiKey, baseURL: steelBase, profileStore: createFileProfileStore(path), profilePollMs: 1 });
      const adapter = new PlaywrightBrowserAdapter({ provider });

      const first = await adapter.open({ profileId: "whatsapp:acme:+4712345678" });
      expect(first.profileId).toBe("whatsapp:acme:+4712345678");
      await adapter.execute(first, { op: "navigate", url: fixtures.url("/") });
      await adapter.close(first);
      expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ version: 1, profiles: { "whatsapp:acme:+4712345678": "prof_1" } });
      expect(profiles.profiles.get("prof_1")?.status).toBe("UPLOADING");

      // The adapter waits (awaitPersisted) through UPLOADING before it creates the next session on the profile.
      const second = await adapter.open({ profileId: "whatsapp:acme:+4712345678" });
      const sequence = profiles.requests.map((request) => `${request.method} ${request.path}`).slice(-4);
      expect(sequence).toEqual(["GET /v1/profiles/prof_1", "GET /v1/profiles/prof_1", "GET /v1/profiles/prof_1", "POST /v1/sessions"]);
      const bodies = profiles.requestsTo("POST", "/v1/sessions").map((request) => JSON.parse(request.body));
      expect(bodies[0]).toEqual({ sessionId: first.openTag, timeout: 900_000, dimensions: { width: 1280, height: 800 }, persistProfile: true });
      expect(bodies[1]).toEqual({ sessionId: second.openTag, timeout: 900_000, dimensions: { width: 1280, height: 800 }, profileId: "prof_1", persistProfile: true });
      const navigated = await adapter.execute(second, { op: "navigate", url: fixtures.url("/second.html") });
      expect(navigated.url).toBe(fixtures.url("/second.html"));
      await adapter.close(second);

      // FAILED is final: the open fails before any session is created.
      profiles.profiles.get("prof_1")!.afterUpload = "FAILED";
      const error = await failure(adapter.open({ profileId: "whatsapp:acme:+4712345678" }));
      expect(error).toBeInstanceOf(ProfileError);
      expectNoKey(error);
      expect(profiles.requestsTo("POST", "/v1/sessions")).toHaveLength(2);
      await adapter.shutdown();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe("self-hosted Steel (steel-browser), driven through the adapter", () => {
  it("creates, drives and releases; one session at a time; unknown ids are absent", async () => {
    // steel-browser's websocketUrl has no query, so a key (which it ignores) goes after `?`.
    const local = createFakeSteel({ selfHosted: true, websocketUrl: () => chrome.wsUrl });
    server.use(...local.handlers);
    const provider = createSteelProvider({ apiKey, baseURL: steelBase, selfHosted: true });
    const adapter = new PlaywrightBrowserAdapter({ provider });
    const connect = vi.spyOn(chromium, "connectOverCDP");
    const handle = await adapter.open();
    expect(connect).toHaveBeenCalledWith(`${chrome.wsUrl}?apiKey=${apiKey}`, expect.anything());
    const navigated = await adapter.execute(handle, { op: "navigate", url: fixtures.url("/") });
    expect(navigated.title).toBe("Fixture home");
    // Not steel-browser's own sessionViewerUrl (the server root, a 404 where only the API runs): its session viewer.
    expect(handle.liveViewUrl).toBe(`${steelBase}/v1/sessions/debug`);
    expectNoKey(handle, navigated);

    // A second create would replace (end) the live session on steel-browser: refused before anything is sent.
    const second = await failure(adapter.open());
    expect(second).toBeInstanceOf(CapacityError);
    expect(local.requestsTo("POST", "/v1/sessions")).toHaveLength(1);

    const unknown = crypto.randomUUID();
    expect(await provider.get(unknown)).toBeUndefined();
    expect(await provider.find(unknown)).toEqual([]);

    await adapter.close(handle);
    expect(local.requestsTo("POST", `/v1/sessions/${handle.id}/release`)).toHaveLength(1);
    expect(await provider.get(handle.id)).toBeUndefined();

    // Released: the next open goes through.
    const next = await adapter.open();
    await adapter.close(next);
    expect(local.requestsTo("POST", "/v1/sessions")).toHaveLength(2);
    await adapter.shutdown();
  });

  it("two opens at once through the manager: the one-session slot admits one, the other gets a CapacityError, and one create is sent", async () => {
    const local = createFakeSteel({ selfHosted: true, websocketUrl: () => chrome.wsUrl });
    server.use(...local.handlers);
    const adapter = new PlaywrightBrowserAdapter({ provider: createSteelProvider({ baseURL: steelBase, selfHosted: true }) });
    const manager = new BrowserSessionManager(adapter, 2);
    try {
      const results = await Promise.allSettled([manager.open(), manager.open()]);
      const opened = results.filter((result) => result.status === "fulfilled");
      const refused = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
      expect(opened).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(refused[0]!.reason).toBeInstanceOf(CapacityError);
      expect((refused[0]!.reason as Error).message).toMatch(/self-hosted Steel runs one session at a time/);
      expect(local.requestsTo("POST", "/v1/sessions")).toHaveLength(1);
      expect(manager.list()).toHaveLength(1);
      expect(manager.uncertainOpenings()).toEqual([]);
      const [session] = manager.list();
      await expect(manager.execute(session!.id, { op: "navigate", url: fixtures.url("/") })).resolves.toMatchObject({ title: "Fixture home" });
    } finally {
      expect(await manager.close()).toEqual({ unreleased: [], uncertain: [] });
      await adapter.shutdown();
    }
    expect(local.requestsTo("POST", /\/release$/)).toHaveLength(1);
    expect([...local.sessions.values()].map((session) => session.status)).toEqual(["released"]);
  });

  it("reconcile() after a lost open waits for the launching browser before it releases; past the bound the release stays owed", async () => {
    // The server reads the session live while its browser launches (live-details 500), and crashes on a release then.
    const local = createFakeSteel({ selfHosted: true, websocketUrl: () => chrome.wsUrl, launchPolls: 3 });
    server.use(...local.handlers);
    const timer = fakeSleep();
    const adapter = new PlaywrightBrowserAdapter({
      provider: createSteelProvider({ baseURL: steelBase, selfHosted: true, sleep: timer.sleep, launchTimeoutMs: 500 }),
    });
    const manager = new BrowserSessionManager(adapter, 1);
    try {
      local.faults.create.push({ kind: "lose-response" });
      await expect(manager.open()).rejects.toBeInstanceOf(OutcomeUnknownError);
      const openTag = manager.uncertainOpenings()[0]!.openTag;

      // 250 + 500 would pass the 500 ms bound: the release is not sent, and stays owed (holding the slot).
      const first = await manager.reconcile();
      expect(first).toMatchObject({ adopted: [], released: [], absent: [], unresolved: [{ openTag, reason: expect.stringMatching(/still launching/) }] });
      expect(manager.pendingReleases()).toMatchObject([{ openTag, providerSessionId: openTag }]);
      expect(local.requestsTo("POST", /\/release$/)).toHaveLength(0);
      await expect(manager.open()).rejects.toBeInstanceOf(CapacityError);

      // The browser comes up on the retry's second poll: it waits for it, then releases.
      const second = await manager.reconcile();
      expect(second).toMatchObject({ released: [{ openTag, providerSessionId: openTag }], unresolved: [] });
      expect(manager.pendingReleases()).toEqual([]);
      const order = local.requests.map((request) => `${request.method} ${request.path.replace(openTag, "{tag}")}`);
      expect(order.slice(-4)).toEqual([
        "GET /v1/sessions/{tag}",
        "GET /v1/sessions/{tag}/live-details",
        "GET /v1/sessions/{tag}/live-details",
        "POST /v1/sessions/{tag}/release",
      ]);
      expect(timer.waits).toEqual([250, 250]);
      expect(local.requestsTo("GET", `/v1/sessions/${openTag}/live-details`)).toHaveLength(4);
      expect(local.releasesWhileLaunching).toBe(0);
      expect(local.sessions.get(openTag)?.status).toBe("released");
    } finally {
      await manager.close();
      await adapter.shutdown();
    }
  });

  it("reconcile({ adopt: true }) right after a lost open connects only once the launching browser is up", async () => {
    const local = createFakeSteel({ selfHosted: true, websocketUrl: () => chrome.wsUrl, launchPolls: 2 });
    server.use(...local.handlers);
    const adapter = new PlaywrightBrowserAdapter({ provider: createSteelProvider({ baseURL: steelBase, selfHosted: true, sleep: fakeSleep().sleep }) });
    const manager = new BrowserSessionManager(adapter, 1);
    // What the browser's state was each time Playwright connected (a real steel-browser hangs up the socket while it launches).
    const launchPollsAtConnect: number[] = [];
    const connect = chromium.connectOverCDP.bind(chromium);
    vi.spyOn(chromium, "connectOverCDP").mockImplementation(async (...args: Parameters<typeof chromium.connectOverCDP>) => {
      launchPollsAtConnect.push([...local.sessions.values()][0]?.launchPolls ?? -1);
      return connect(...args);
    });
    try {
      local.faults.create.push({ kind: "lose-response" });
      await expect(manager.open()).rejects.toBeInstanceOf(OutcomeUnknownError);
      const openTag = manager.uncertainOpenings()[0]!.openTag;
      const report = await manager.reconcile({ adopt: true });
      expect(report).toMatchObject({ adopted: [{ openTag }], released: [], unresolved: [] });
      expect(launchPollsAtConnect).toEqual([0]);
      expect(local.requestsTo("GET", `/v1/sessions/${openTag}/live-details`)).toHaveLength(3);
      const [adopted] = manager.findByOpenTag(openTag);
      await expect(manager.execute(adopted!.id, { op: "navigate", url: fixtures.url("/") })).resolves.toMatchObject({ title: "Fixture home" });
    } finally {
      expect(await manager.close()).toEqual({ unreleased: [], uncertain: [] });
      await adapter.shutdown();
    }
  });

  it("the CDP engine connects with the key appended, on cloud, and only once a self-hosted browser has launched", async () => {
    // What URL each connection was made to, and the launching state then.
    const connected: Array<{ url: string; launchPolls: number }> = [];
    let sessions: FakeSteel["sessions"] | undefined;
    const webSocket: typeof nodeWebSocket = (url, request) => {
      connected.push({ url, launchPolls: [...(sessions?.values() ?? [])][0]?.launchPolls ?? -1 });
      return nodeWebSocket(url, request);
    };
    server.use(...cloud.handlers);
    const cloudAdapter = new CdpBrowserAdapter({ provider: createSteelRestProvider({ apiKey, baseURL: steelBase }), webSocket });
    const cloudHandle = await cloudAdapter.open();
    try {
      expect(connected.map((each) => each.url)).toEqual([`${chrome.wsUrl}?sessionId=${cloudHandle.id}&apiKey=${apiKey}`]);
      const navigated = await cloudAdapter.execute(cloudHandle, { op: "navigate", url: fixtures.url("/") });
      expect(navigated.title).toBe("Fixture home");
      expectNoKey(cloudHandle, navigated);
    } finally {
      await cloudAdapter.close(cloudHandle);
      await cloudAdapter.shutdown();
    }
    server.resetHandlers();
    connected.length = 0;
    const local = createFakeSteel({ selfHosted: true, websocketUrl: () => chrome.wsUrl, launchPolls: 2 });
    sessions = local.sessions;
    server.use(...local.handlers);
    const localAdapter = new CdpBrowserAdapter({ provider: createSteelRestProvider({ baseURL: steelBase, selfHosted: true, sleep: fakeSleep().sleep }), webSocket });
    const localHandle = await localAdapter.open();
    try {
      // steel-browser reads live while it launches: the connection waits until live-details answers.
      expect(connected).toEqual([{ url: chrome.wsUrl, launchPolls: 0 }]);
      expect(local.requestsTo("GET", `/v1/sessions/${localHandle.id}/live-details`)).toHaveLength(3);
    } finally {
      await localAdapter.close(localHandle);
      await localAdapter.shutdown();
    }
  });

  it("the page viewport is the one asked for, on the first page and on pages opened later", async () => {
    const local = createFakeSteel({ selfHosted: true, websocketUrl: () => chrome.wsUrl });
    server.use(...local.handlers);
    const adapter = new PlaywrightBrowserAdapter({ provider: createSteelProvider({ baseURL: steelBase, selfHosted: true }) });
    const inner = { op: "evaluate", expression: "[innerWidth, innerHeight]" } as const;
    const handle = await adapter.open({ viewport: { width: 1024, height: 700 } });
    try {
      expect(JSON.parse(local.requestsTo("POST", "/v1/sessions")[0]!.body).dimensions).toEqual({ width: 1024, height: 700 });
      await adapter.execute(handle, { op: "navigate", url: fixtures.url("/") });
      expect((await adapter.execute(handle, inner)).value).toEqual([1024, 700]);
      await adapter.execute(handle, { op: "newPage" });
      await adapter.execute(handle, { op: "navigate", url: fixtures.url("/second.html") });
      expect((await adapter.execute(handle, inner)).value).toEqual([1024, 700]);
    } finally {
      await adapter.close(handle);
      await adapter.shutdown();
    }
  });
});
