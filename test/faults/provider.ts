/**
 * Provider faults through the whole stack: client → worker → manager →
 * adapter → Steel provider, whose REST API is the msw stand-in of the
 * provider tests and whose CDP half is a local Chromium. After each: a clear
 * error, nothing left live at the stand-in, unknown where it is unknown.
 */
import { setupServer } from "msw/node";
import { BrowserUseClient } from "../../src/client/index.js";
import { isStationBrowserError, OutcomeUnknownError } from "../../src/errors.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { createMemoryStateStore } from "../../src/lifecycle/memory-stores.js";
import { createBrowserbaseProvider, createSteelProvider, type PlaywrightProvider } from "../../src/playwright.js";
import { createBrowserWorker } from "../../src/worker/index.js";
import { http, HttpResponse } from "msw";
import { startBlackholeProxy } from "../helpers/blackhole-proxy.js";
import { baseURL as browserbaseBase, createBrowserbaseMock, type BrowserbaseMock } from "../helpers/browserbase-mock.js";
import { startCdpChromium, type CdpChromium } from "../helpers/cdp-chromium.js";
import { startHoldingServer } from "../helpers/holding-server.js";
import { createFakeSteel, steelBase, type FakeSteel } from "../helpers/steel-mock.js";
import { startWorkerServer } from "../helpers/worker-server.js";
import { capturingFetch, collectStore } from "./artefacts.js";
import { pages, token } from "./stack.js";
import { runScenario, type Row, type Scenario } from "./table.js";

const apiKey = "ste-faults-key-8c1d0e5b7a";
const browserbaseKey = "bb_live_faults-key-3f9a2c71";
const profileId = "faults-profile";
const message = (error: unknown) => (error instanceof Error ? `${isStationBrowserError(error) ? `${error.code}: ` : ""}${error.message}` : String(error));
const live = (cloud: FakeSteel) => [...cloud.sessions.values()].filter((session) => session.status === "live").length;

/** A stack of its own (client → worker → manager → adapter → `provider`), so a scenario can close its manager and see it return. */
async function stackOn(provider: PlaywrightProvider, maxSessions = 1) {
  const adapter = new PlaywrightBrowserAdapter({ provider });
  const store = createMemoryStateStore();
  const manager = new BrowserSessionManager(adapter, maxSessions, { stateStore: store });
  const worker = await startWorkerServer(createBrowserWorker({ manager, token, stationId: "local" }));
  // Its answers and its manager's store go to the secrets scan.
  const client = new BrowserUseClient({ baseUrl: worker.origin, stationId: "local", apiKey: token, operator: true, timeoutMs: 60_000, fetch: capturingFetch });
  return { adapter, manager, worker, client, store };
}

async function cdpStackOn(cloud: FakeSteel) {
  return { cloud, ...(await stackOn(createSteelProvider({ apiKey, baseURL: steelBase }))) };
}

/**
 * A session is driven, then `drop` cuts its CDP connection while an evaluate
 * that never settles waits. Checked: a clear error with the outcome unknown,
 * session-close (browserGone), the slot free again, the release sent, nothing
 * live at the stand-in, and the manager's close returning with nothing owed.
 */
async function cdpDropped(s: Scenario, pending: ReturnType<typeof cdpStackOn>, url: string, drop: () => void, healthy: () => void): Promise<void> {
  const { cloud, adapter, manager, worker, client, store } = await pending;
  try {
    // Steel's session id is the open tag.
    const openTag = crypto.randomUUID();
    const { id } = await client.open({ openTag });
    await client.execute(id, { op: "navigate", url });
    // Warmed up: the engine's page scripts are in, so the evaluate below sends only a short message.
    await client.execute(id, { op: "evaluate", expression: "document.title" });
    const closed = new Promise<string>((resolve) => manager.events.on("session-close", (event) => event.sessionId === id && resolve(event.reason)));
    const started = new Promise<void>((resolve) => manager.events.once("action-start", () => resolve()));
    const outcome = client.execute(id, { op: "evaluate", expression: "new Promise(() => {})", timeoutMs: 60_000 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    await started;
    drop();
    const error = await outcome;
    s.check("the action ends with outcome unknown, saying the browser is gone", error instanceof OutcomeUnknownError && /gone|closed/.test(error.message), message(error));
    s.equal("session-close, reason browserGone", await closed, "browserGone");
    s.equal("the slot is free", manager.list().length, 0);
    s.equal("the release was sent", cloud.requestsTo("POST", `/v1/sessions/${openTag}/release`).length, 1);
    s.equal("nothing live at the stand-in", live(cloud), 0);
    healthy();
    const next = await client.open().then((info) => info.id, (caught: unknown) => message(caught));
    s.check("a new session is admitted", next.startsWith("s_"), next);
    if (next.startsWith("s_")) await client.close(next);
  } finally {
    await worker.close();
    const report = await manager.close();
    s.equal("manager.close() returns with nothing owed", report, { unreleased: [], uncertain: [] });
    await adapter.shutdown();
    await collectStore(store);
  }
}

export async function providerScenarios(rows: Row[]): Promise<void> {
  const chrome: CdpChromium = await startCdpChromium();
  const served = await startHoldingServer(pages);
  /** Where a session's CDP URL points: the shared Chromium, unless a scenario routes it elsewhere. */
  let cdpEndpoint = () => chrome.wsUrl;
  const cloud = createFakeSteel({ apiKey, uploadPolls: 1, websocketUrl: (session) => `${cdpEndpoint()}?sessionId=${session.id}` });
  const browserbase = createBrowserbaseMock({ apiKey: browserbaseKey, connectUrl: chrome.wsUrl });
  const msw = setupServer(...cloud.handlers, ...browserbase.handlers);
  msw.listen({ onUnhandledRequest: "bypass" });
  const provider = createSteelProvider({ apiKey, baseURL: steelBase, rateLimitCapMs: 1500, profileReadyTimeoutMs: 1500, profilePollMs: 50 });
  const adapter = new PlaywrightBrowserAdapter({ provider });
  const store = createMemoryStateStore();
  const manager = new BrowserSessionManager(adapter, 4, { stateStore: store });
  manager.grantProfile(profileId);
  const worker = await startWorkerServer(createBrowserWorker({ manager, token, stationId: "local" }));
  const client = new BrowserUseClient({ baseUrl: worker.origin, stationId: "local", apiKey: token, operator: true, timeoutMs: 30_000, fetch: capturingFetch });
  const secretsSeen = (text: string) => text.includes(apiKey);
  /** A fault a crashed scenario left unused must not reach the next one. */
  const scenario: typeof runScenario = (into, name, injected, body) =>
    runScenario(into, name, injected, body).finally(() => {
      for (const queue of Object.values(cloud.faults)) queue.length = 0;
      msw.resetHandlers();
    });
  try {
    await scenario(rows, "Steel: 429 on create", "429 with retry-after: 1, then 429 without", async (s) => {
      cloud.faults.create.push({ kind: "status", status: 429, headers: { "retry-after": "1" }, body: { message: "slow down" } });
      s.injected();
      const waited = await client.open().then(
        (info) => info.id,
        (error: unknown) => message(error),
      );
      s.check("a short retry-after is honoured: the open succeeds", !/^[a-z_]+: /.test(waited), waited);
      if (!/^[a-z_]+: /.test(waited)) await client.close(waited);
      cloud.faults.create.push({ kind: "status", status: 429, body: { message: "slow down" } }, { kind: "status", status: 429, body: { message: "slow down" } });
      s.injected();
      const refused = await client.open().catch((error: unknown) => error);
      s.check("without retry-after: a capacity error, not unknown", isStationBrowserError(refused) && refused.code === "capacity", message(refused));
      s.check("the key never shows", !secretsSeen(message(refused)), message(refused));
      cloud.faults.create.length = 0;
      s.equal("no uncertain opening", manager.uncertainOpenings(), []);
      s.equal("nothing live at the stand-in", live(cloud), 0);
    });

    await scenario(rows, "Steel: 5xx on create", "500 answered to POST /v1/sessions", async (s) => {
      cloud.faults.create.push({ kind: "status", status: 500, body: { message: "internal" } });
      s.injected();
      const error = await client.open().catch((caught: unknown) => caught);
      s.check("a clear error (provider, or unknown when it may have been created)", isStationBrowserError(error) && ["provider", "outcome_unknown"].includes(error.code), message(error));
      const report = await client.reconcileAll();
      s.equal("after reconcile: nothing uncertain", manager.uncertainOpenings(), []);
      s.check("nothing live at the stand-in", live(cloud) === 0, { live: live(cloud), report });
    });

    await scenario(rows, "Steel: create succeeded, answer lost", "the stand-in made the session, then dropped the answer", async (s) => {
      const openTag = crypto.randomUUID();
      cloud.faults.create.push({ kind: "lose-response" });
      s.injected();
      const error = await client.open({ openTag }).catch((caught: unknown) => caught);
      s.check("outcome unknown, naming the tag", error instanceof OutcomeUnknownError && error.message.includes(openTag), message(error));
      s.equal("one session at the stand-in", live(cloud), 1);
      const found = await client.reconcile(openTag);
      const again = await client.open({ openTag });
      s.equal("reconcile finds it, a repeated open adopts it", [found.length, again.id], [1, found[0]?.id]);
      s.equal("one create sent, none repeated", cloud.requestsTo("POST", "/v1/sessions").filter((request) => request.body.includes(openTag)).length, 1);
      const driven = await client.execute(again.id, { op: "navigate", url: served.url("/plain") });
      s.equal("the adopted session is driven", driven.title, "Plain");
      await client.close(again.id);
      s.equal("nothing live at the stand-in", live(cloud), 0);
    });

    await scenario(rows, "Steel: release failing", "503 answered to the release", async (s) => {
      const { id } = await client.open();
      cloud.faults.release.push({ kind: "status", status: 503, body: { message: "try again" } });
      s.injected();
      const error = await client.close(id).catch((caught: unknown) => caught);
      s.check("close says the release is unconfirmed", error !== undefined && /release/.test(message(error)), message(error));
      s.check("the key never shows", !secretsSeen(message(error)), message(error));
      // Whatever the manager kept (a pending release or the session), closing again, or reconciling, settles it.
      await client.close(id).catch(() => undefined);
      await client.reconcileAll();
      s.equal("nothing live at the stand-in after a retry", live(cloud), 0);
    });

    await scenario(rows, "Steel: profile stuck UPLOADING, then FAILED", "the profile never READY (bound 1.5 s); then FAILED", async (s) => {
      const first = await client.open({ profileId });
      await client.close(first.id);
      const [profile] = cloud.profiles.values();
      if (!profile) throw new Error("no profile at the stand-in");
      profile.status = "UPLOADING";
      profile.uploadingPolls = 1_000_000;
      s.injected();
      const stuck = await client.open({ profileId }).catch((error: unknown) => error);
      s.check("a clear profile error once the bound passes", isStationBrowserError(stuck) && /profile/i.test(message(stuck)) && /UPLOADING|ready|persist/i.test(message(stuck)), message(stuck));
      profile.uploadingPolls = 0;
      profile.afterUpload = "FAILED";
      profile.status = "FAILED";
      s.injected();
      const failed = await client.open({ profileId }).catch((error: unknown) => error);
      s.check("FAILED is final: a clear profile error", isStationBrowserError(failed) && /FAILED/.test(message(failed)), message(failed));
      s.equal("nothing live at the stand-in", live(cloud), 0);
    });

    await scenario(rows, "Steel: CDP dropped mid-action", "the provider's Chromium SIGKILLed while an evaluate waits", async (s) => {
      const doomed = await startCdpChromium();
      cdpEndpoint = () => doomed.wsUrl;
      try {
        await cdpDropped(s, cdpStackOn(cloud), served.url("/plain"), () => {
          doomed.process.kill("SIGKILL");
          s.injected();
        }, () => (cdpEndpoint = () => chrome.wsUrl));
      } finally {
        cdpEndpoint = () => chrome.wsUrl;
        await doomed.close();
      }
    });

    await scenario(rows, "Steel: CDP connection silently dropped mid-action", "the CDP relay stops forwarding (no FIN, no reset) while an evaluate waits", async (s) => {
      const relay = await startBlackholeProxy(chrome.port);
      cdpEndpoint = () => relay.via(chrome.wsUrl);
      try {
        await cdpDropped(s, cdpStackOn(cloud), served.url("/plain"), () => {
          relay.drop();
          s.injected();
        }, () => {
          s.equal("the session went through the relay", relay.connections, 1);
          cdpEndpoint = () => chrome.wsUrl;
        });
      } finally {
        cdpEndpoint = () => chrome.wsUrl;
        await relay.close();
      }
    });

    await browserbaseScenarios(rows, scenario, browserbase, (...handlers) => msw.use(...handlers), served.url("/plain"));
    await selfHostedScenarios(rows, scenario, chrome.wsUrl, (...handlers) => msw.use(...handlers), served.url("/plain"));
  } finally {
    await worker.close();
    await manager.close().catch(() => undefined);
    await adapter.shutdown();
    msw.close();
    await collectStore(store);
    await chrome.close();
    await served.close();
  }
}

const running = (cloud: BrowserbaseMock) => [...cloud.sessions.values()].filter((session) => session.status === "RUNNING" || session.status === "PENDING").length;
const browserbaseSessions = `${browserbaseBase}/v1/sessions`;
/** Browserbase's own 429 body (../shared/notes/providers.md). */
const tooMany = (s: Scenario, headers: Record<string, string> = {}) =>
  http.post(
    browserbaseSessions,
    () => {
      s.injected();
      return HttpResponse.json({ statusCode: 429, error: "Too Many Requests", message: "You've exceeded your max concurrent sessions limit (limit 3, currently 3)." }, { status: 429, headers });
    },
    { once: true },
  );

/**
 * Provider faults against the Browserbase stand-in (msw at its wire format,
 * a local Chromium behind `connectUrl`), through a stack of their own.
 */
async function browserbaseScenarios(
  rows: Row[],
  scenario: typeof runScenario,
  cloud: BrowserbaseMock,
  use: (...handlers: ReturnType<typeof http.post>[]) => void,
  url: string,
): Promise<void> {
  const { adapter, manager, worker, client, store } = await stackOn(createBrowserbaseProvider({ apiKey: browserbaseKey, baseURL: browserbaseBase, rateLimitCapMs: 1500, persistSettleMs: 10 }), 2);
  const secretsSeen = (text: string) => text.includes(browserbaseKey);
  try {
    await scenario(rows, "Browserbase: 429 on create", "429 with retry-after: 1, then 429 twice without", async (s) => {
      use(tooMany(s, { "retry-after": "1" }));
      const waited = await client.open().then(
        (info) => info.id,
        (error: unknown) => message(error),
      );
      s.check("a short retry-after is honoured: the open succeeds", waited.startsWith("s_"), waited);
      if (waited.startsWith("s_")) await client.close(waited);
      use(tooMany(s), tooMany(s));
      const refused = await client.open().catch((error: unknown) => error);
      s.check("without retry-after: a capacity error, not unknown", isStationBrowserError(refused) && refused.code === "capacity", message(refused));
      s.check("the key never shows", !secretsSeen(message(refused)), message(refused));
      s.equal("no uncertain opening", manager.uncertainOpenings(), []);
      s.equal("nothing running at the stand-in", running(cloud), 0);
    });

    await scenario(rows, "Browserbase: 5xx on create", "500 answered to POST /v1/sessions", async (s) => {
      const internal = () => (s.injected(), HttpResponse.json({ statusCode: 500, error: "Internal Server Error", message: "internal" }, { status: 500 }));
      use(http.post(browserbaseSessions, internal, { once: true }));
      const error = await client.open().catch((caught: unknown) => caught);
      s.check("a clear error (provider, or unknown when it may have been created)", isStationBrowserError(error) && ["provider", "outcome_unknown"].includes(error.code), message(error));
      s.check("the key never shows", !secretsSeen(message(error)), message(error));
      const report = await client.reconcileAll();
      s.equal("after reconcile: nothing uncertain", manager.uncertainOpenings(), []);
      s.check("nothing running at the stand-in", running(cloud) === 0, { running: running(cloud), report });
    });

    await scenario(rows, "Browserbase: create succeeded, answer lost", "the stand-in made the session, then dropped the connection", async (s) => {
      const openTag = crypto.randomUUID();
      use(cloud.lostCreate());
      const error = await client.open({ openTag }).catch((caught: unknown) => caught);
      // The stand-in's lost create records the request before it drops the connection.
      s.injected(cloud.requests.filter((request) => request.path === "/v1/sessions" && JSON.stringify(request.body).includes(openTag)).length);
      s.check("outcome unknown, naming the tag", error instanceof OutcomeUnknownError && error.message.includes(openTag), message(error));
      s.equal("one session at the stand-in", running(cloud), 1);
      const found = await client.reconcile(openTag);
      const again = await client.open({ openTag });
      s.equal("reconcile finds it by userMetadata, a repeated open adopts it", [found.length, again.id], [1, found[0]?.id]);
      const creates = cloud.requests.filter((request) => request.method === "POST" && request.path === "/v1/sessions" && JSON.stringify(request.body).includes(openTag));
      s.equal("one create sent, none repeated", creates.length, 1);
      const driven = await client.execute(again.id, { op: "navigate", url });
      s.equal("the adopted session is driven", driven.title, "Plain");
      await client.close(again.id);
      s.equal("nothing running at the stand-in", running(cloud), 0);
    });

    await scenario(rows, "Browserbase: release failing", "503 answered to REQUEST_RELEASE, then the connection dropped on the next", async (s) => {
      for (const fault of [() => HttpResponse.json({ statusCode: 503, error: "Service Unavailable", message: "try again" }, { status: 503 }), () => HttpResponse.error()]) {
        const { id } = await client.open();
        use(http.post(`${browserbaseSessions}/:id`, () => (s.injected(), fault()), { once: true }));
        const error = await client.close(id).catch((caught: unknown) => caught);
        s.check("close says the release is unconfirmed", error !== undefined && /release/i.test(message(error)), message(error));
        s.check("the key never shows", !secretsSeen(message(error)), message(error));
        s.check("the session is owed, holding its slot", manager.pendingReleases().length === 1, manager.pendingReleases());
        const report = await client.reconcileAll();
        s.check("reconcile releases it", report.released.length === 1 && manager.pendingReleases().length === 0, report);
        s.equal("nothing running at the stand-in", running(cloud), 0);
      }
    });
  } finally {
    await worker.close();
    await manager.close();
    await adapter.shutdown();
    await collectStore(store);
  }
}

/**
 * What the real self-hosted Steel (steel-browser) does (../shared/notes/providers.md),
 * in the Steel stand-in's `selfHosted` mode: a session that reads live while
 * its browser still launches, one session at a time, no profiles route.
 */
async function selfHostedScenarios(rows: Row[], scenario: typeof runScenario, wsUrl: string, use: (...handlers: FakeSteel["handlers"]) => void, url: string): Promise<void> {
  const { adapter, manager, worker, client, store } = await stackOn(createSteelProvider({ baseURL: steelBase, selfHosted: true }), 2);
  manager.grantProfile(profileId);
  const peer = (launchPolls = 0) => {
    const local = createFakeSteel({ selfHosted: true, launchPolls, websocketUrl: () => wsUrl });
    use(...local.handlers);
    return local;
  };
  const released = (local: FakeSteel) => [...local.sessions.values()].every((session) => session.status === "released");
  try {
    await scenario(rows, "Steel self-hosted: live while still launching", "live-details answers 500 for 3 polls after the create (the browser launches)", async (s) => {
      const local = peer(3);
      const { id } = await client.open();
      const driven = await client.execute(id, { op: "navigate", url });
      s.equal("the session is driven", driven.title, "Plain");
      await client.close(id);
      // Each live-details poll answered 500 used one of the session's launch polls.
      const launching = 3 - ([...local.sessions.values()][0]?.launchPolls ?? 3);
      s.injected(launching);
      s.check("the release waited for the browser: no release while it launched", local.releasesWhileLaunching === 0 && launching > 0, { releasesWhileLaunching: local.releasesWhileLaunching, launching });
      s.equal("one release sent", local.requestsTo("POST", /\/release$/).length, 1);
      s.check("nothing live at the stand-in", released(local), [...local.sessions.values()]);
      s.equal("nothing owed", manager.pendingReleases(), []);
    });

    await scenario(rows, "Steel self-hosted: concurrent creates", "two opens at once against a one-session server", async (s) => {
      const local = peer();
      const results = await Promise.allSettled([client.open(), client.open()]);
      s.injected();
      const opened = results.flatMap((result) => (result.status === "fulfilled" ? [result.value.id] : []));
      const refused = results.flatMap((result) => (result.status === "rejected" ? [result.reason as unknown] : []));
      s.equal("one opened, one refused", [opened.length, refused.length], [1, 1]);
      s.check("the refusal is a capacity error naming the one-session limit", isStationBrowserError(refused[0]) && refused[0].code === "capacity" && /one session at a time/.test(message(refused[0])), message(refused[0]));
      s.equal("one create sent (a second would end the first on steel-browser)", local.requestsTo("POST", "/v1/sessions").length, 1);
      s.equal("nothing uncertain", manager.uncertainOpenings(), []);
      for (const id of opened) await client.close(id);
      s.check("nothing live at the stand-in", released(local), [...local.sessions.values()]);
    });

    await scenario(rows, "Steel self-hosted: no profiles route", "the peer answers 404 to /v1/profiles; an open with a profile", async (s) => {
      const local = peer();
      const route = await fetch(`${steelBase}/v1/profiles/${profileId}`);
      if (route.status === 404) s.injected();
      s.check("the stand-in has no profiles route (as steel-browser)", route.status === 404 && /Route GET/.test(await route.text()), route.status);
      const before = local.requests.length;
      const error = await client.open({ profileId }).catch((caught: unknown) => caught);
      s.check("a clear profile error naming the profile", isStationBrowserError(error) && error.code === "profile" && error.message.includes(profileId), message(error));
      s.equal("nothing sent for it: no create, no profile request", local.requests.slice(before).filter((request) => request.method === "POST" || request.path.startsWith("/v1/profiles")).length, 0);
      const plain = await client.open();
      s.check("a session without a profile still opens", plain.id.startsWith("s_"), plain);
      await client.close(plain.id);
      s.check("nothing live at the stand-in", released(local), [...local.sessions.values()]);
    });
  } finally {
    await worker.close();
    await manager.close();
    await adapter.shutdown();
    await collectStore(store);
  }
}
