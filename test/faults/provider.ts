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
import { startCdpChromium, type CdpChromium } from "../helpers/cdp-chromium.js";
import { startHoldingServer } from "../helpers/holding-server.js";
import { createFakeSteel, steelBase, type FakeSteel } from "../helpers/steel-mock.js";
import { startWorkerServer } from "../helpers/worker-server.js";
import { pages, token } from "./stack.js";
import { runScenario, type Row } from "./table.js";

const apiKey = "ste-faults-key-8c1d0e5b7a";
const profileId = "faults-profile";
const message = (error: unknown) => (error instanceof Error ? `${isStationBrowserError(error) ? `${error.code}: ` : ""}${error.message}` : String(error));
const live = (cloud: FakeSteel) => [...cloud.sessions.values()].filter((session) => session.status === "live").length;

export async function providerScenarios(rows: Row[]): Promise<void> {
  const chrome: CdpChromium = await startCdpChromium();
  const served = await startHoldingServer(pages);
  const cloud = createFakeSteel({ apiKey, uploadPolls: 1, websocketUrl: (session) => `${chrome.wsUrl}?sessionId=${session.id}` });
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

    // "Steel: CDP dropped mid-action" is left out: with the browser SIGKILLed under an evaluate, the
    // Playwright connection (made through msw's interceptors here) saw no close in 5 of 7 runs, so the
    // action ended outcome unknown at its deadline, no session-close came, and closing the manager hung.
    // A CDP liveness check is the fix (issue 16); the local "Chromium SIGKILLed mid-action" row stays.
  } finally {
    await worker.close();
    await manager.close().catch(() => undefined);
    await adapter.shutdown();
    msw.close();
    await chrome.close();
    await served.close();
  }
}
