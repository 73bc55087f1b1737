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
import { createSteelProvider } from "../../src/playwright.js";
import { createBrowserWorker } from "../../src/worker/index.js";
import { startBlackholeProxy } from "../helpers/blackhole-proxy.js";
import { startCdpChromium, type CdpChromium } from "../helpers/cdp-chromium.js";
import { startHoldingServer } from "../helpers/holding-server.js";
import { createFakeSteel, steelBase, type FakeSteel } from "../helpers/steel-mock.js";
import { startWorkerServer } from "../helpers/worker-server.js";
import { pages, token } from "./stack.js";
import { runScenario, type Row, type Scenario } from "./table.js";

const apiKey = "ste-faults-key-8c1d0e5b7a";
const profileId = "faults-profile";
const message = (error: unknown) => (error instanceof Error ? `${isStationBrowserError(error) ? `${error.code}: ` : ""}${error.message}` : String(error));
const live = (cloud: FakeSteel) => [...cloud.sessions.values()].filter((session) => session.status === "live").length;

/** A stack of its own (client → worker → manager → adapter → Steel stand-in), so a scenario can close its manager and see it return. */
async function cdpStackOn(cloud: FakeSteel) {
  const provider = createSteelProvider({ apiKey, baseURL: steelBase });
  const adapter = new PlaywrightBrowserAdapter({ provider });
  const manager = new BrowserSessionManager(adapter, 1);
  const worker = await startWorkerServer(createBrowserWorker({ manager, token, stationId: "local" }));
  const client = new BrowserUseClient({ baseUrl: worker.origin, stationId: "local", apiKey: token, operator: true, timeoutMs: 60_000 });
  return { cloud, adapter, manager, worker, client };
}

/**
 * A session is driven, then `drop` cuts its CDP connection while an evaluate
 * that never settles waits. Checked: a clear error with the outcome unknown,
 * session-close (browserGone), the slot free again, the release sent, nothing
 * live at the stand-in, and the manager's close returning with nothing owed.
 */
async function cdpDropped(s: Scenario, pending: ReturnType<typeof cdpStackOn>, url: string, drop: () => void, healthy: () => void): Promise<void> {
  const { cloud, adapter, manager, worker, client } = await pending;
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
  }
}

export async function providerScenarios(rows: Row[]): Promise<void> {
  const chrome: CdpChromium = await startCdpChromium();
  const served = await startHoldingServer(pages);
  /** Where a session's CDP URL points: the shared Chromium, unless a scenario routes it elsewhere. */
  let cdpEndpoint = () => chrome.wsUrl;
  const cloud = createFakeSteel({ apiKey, uploadPolls: 1, websocketUrl: (session) => `${cdpEndpoint()}?sessionId=${session.id}` });
  const msw = setupServer(...cloud.handlers);
  msw.listen({ onUnhandledRequest: "bypass" });
  const provider = createSteelProvider({ apiKey, baseURL: steelBase, rateLimitCapMs: 1500, profileReadyTimeoutMs: 1500, profilePollMs: 50 });
  const adapter = new PlaywrightBrowserAdapter({ provider });
  const manager = new BrowserSessionManager(adapter, 4);
  manager.grantProfile(profileId);
  const worker = await startWorkerServer(createBrowserWorker({ manager, token, stationId: "local" }));
  const client = new BrowserUseClient({ baseUrl: worker.origin, stationId: "local", apiKey: token, operator: true, timeoutMs: 30_000 });
  const secretsSeen = (text: string) => text.includes(apiKey);
  /** A fault a crashed scenario left unused must not reach the next one. */
  const scenario: typeof runScenario = (into, name, injected, body) =>
    runScenario(into, name, injected, body).finally(() => {
      for (const queue of Object.values(cloud.faults)) queue.length = 0;
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
  } finally {
    await worker.close();
    await manager.close().catch(() => undefined);
    await adapter.shutdown();
    msw.close();
    await chrome.close();
    await served.close();
  }
}
