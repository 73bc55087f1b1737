/**
 * Tenancy: random cross-tenant attempts through the worker over real HTTP.
 * Tenant acme owns sessions (one under a human's control lease, one with a
 * live view and a running recording), a checkpoint and a stopped recording;
 * globex and initech try acme's ids, lease token and their own view tokens on
 * every worker method, the live view routes and the staging route. Each
 * attempt must read as not found (or forbidden), listings must not show
 * acme's ids, and acme's state must be what it was.
 */
import fc from "fast-check";
import { BrowserUseClient } from "../../src/client/index.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { createMemoryStateStore } from "../../src/lifecycle/memory-stores.js";
import { workerRoute, type WorkerMethod } from "../../src/protocol/wire.js";
import { createBrowserWorker } from "../../src/worker/index.js";
import { startHoldingServer } from "../helpers/holding-server.js";
import { startWorkerServer, type WorkerAnswer, type WorkerServer } from "../helpers/worker-server.js";
import { capturingFetch, collectAnswers, collectStore } from "./artefacts.js";
import { pages, token } from "./stack.js";
import { runScenario, type Row } from "./table.js";

export const tenancyKeys = {
  acme: "tenant-acme-".padEnd(40, "a"),
  globex: "tenant-globex-".padEnd(40, "g"),
  initech: "tenant-initech-".padEnd(40, "i"),
};
const tenantRoute = workerRoute("local", "tenant");
const operatorRoute = workerRoute("local", "operator");

/** What acme owns, by kind. */
interface Owned {
  sessions: string[];
  openTags: string[];
  checkpoints: string[];
  recordings: string[];
  frames: { recordingId: string; frameId: string }[];
  controlToken: string;
  leasedSession: string;
  liveViewPath: string;
}

/** One cross-tenant attempt: how to send it, and whether its answer is a listing (200 without acme's ids) or a refusal. */
interface Attempt {
  /** The method or route tried. */
  kind: string;
  describe: string;
  send(server: WorkerServer, key: string, own: { viewToken: string }): Promise<WorkerAnswer>;
  listing?: boolean;
}

const call = (body: Record<string, unknown>, listing = false): Attempt => ({
  kind: String(body.method),
  describe: JSON.stringify(body),
  send: (server, key) => server.post(tenantRoute, key, body),
  listing,
});

/** Every attempt a tenant can make with acme's ids, as a fast-check arbitrary. */
function attempts(owned: Owned, pageUrl: string): fc.Arbitrary<Attempt> {
  const session = fc.constantFrom(...owned.sessions);
  const checkpoint = fc.constantFrom(...owned.checkpoints);
  const recording = fc.constantFrom(...owned.recordings);
  const leaseToken = fc.constantFrom(owned.controlToken, undefined);
  const command = fc.constantFrom<Record<string, unknown>>(
    { op: "navigate", url: pageUrl },
    { op: "click", selector: "#go" },
    { op: "evaluate", expression: "document.title" },
    { op: "pages" },
    { op: "text" },
    { op: "screenshot" },
    { op: "closePage" },
    { op: "recordingStart" },
  );
  const withToken = (body: Record<string, unknown>, presented: string | undefined) => (presented === undefined ? body : { ...body, controlToken: presented });
  const byMethod: Partial<Record<WorkerMethod, fc.Arbitrary<Attempt>>> = {
    execute: fc.tuple(session, command, leaseToken).map(([id, cmd, presented]) => call(withToken({ method: "execute", id, command: cmd }, presented))),
    action: fc.tuple(session, fc.constantFrom("navigate", "click", "type", "screenshot"), leaseToken).map(([id, action, presented]) =>
      call(withToken({ method: "action", id, action, value: action === "navigate" ? pageUrl : "#go" }, presented)),
    ),
    close: fc.tuple(session, leaseToken).map(([id, presented]) => call(withToken({ method: "close", id }, presented))),
    liveFrame: session.map((id) => call({ method: "liveFrame", id })),
    liveView: session.map((id) => call({ method: "liveView", id })),
    controlAcquire: session.map((id) => call({ method: "controlAcquire", id, ttlMs: 60_000 })),
    controlRenew: session.map((id) => call({ method: "controlRenew", id, token: owned.controlToken })),
    controlRelease: session.map((id) => call({ method: "controlRelease", id, token: owned.controlToken })),
    control: session.map((id) => call({ method: "control", id })),
    checkpoint: session.map((id) => call({ method: "checkpoint", id })),
    resume: checkpoint.map((checkpointId) => call({ method: "resume", checkpointId })),
    deleteCheckpoint: checkpoint.map((checkpointId) => call({ method: "deleteCheckpoint", checkpointId })),
    recordingStart: session.map((id) => call({ method: "recordingStart", id })),
    recordingStop: recording.map((recordingId) => call({ method: "recordingStop", recordingId })),
    recording: recording.map((recordingId) => call({ method: "recording", recordingId })),
    recordingFrame: fc.constantFrom(...owned.frames).map((frame) => call({ method: "recordingFrame", ...frame })),
    recordingDelete: recording.map((recordingId) => call({ method: "recordingDelete", recordingId })),
    reconcile: fc.constantFrom(...owned.openTags).map((openTag) => call({ method: "reconcile", openTag }, true)),
    list: fc.constant(call({ method: "list" }, true)),
    checkpoints: fc.constant(call({ method: "checkpoints" }, true)),
    recordings: fc.constant(call({ method: "recordings" }, true)),
    reconcileAll: fc.constant(call({ method: "reconcileAll", adopt: true })),
  };
  const routes: fc.Arbitrary<Attempt>[] = [
    // The operator route with a tenant key.
    fc.tuple(session, command).map(([id, cmd]) => ({ kind: "operator route", describe: `operator route: execute ${id}`, send: (server, key) => server.post(operatorRoute, key, { method: "execute", id, command: cmd }) })),
    // The live view routes of acme's sessions with the attacker's own view token, a forged one, or none.
    fc.tuple(session, fc.constantFrom("", "/frame", "/stream"), fc.constantFrom("own", "forged", "none")).map(([id, sub, which]) => ({
      kind: `GET /live${sub} (${which} token)`,
      describe: `GET /live/${id}${sub} (${which} token)`,
      send: (server, _key, own) => {
        const presented = { own: own.viewToken, forged: `${own.viewToken.slice(0, -4)}AAAA`, none: undefined }[which];
        return server.post(`/live/${encodeURIComponent(id)}${sub}${presented === undefined ? "" : `?token=${encodeURIComponent(presented)}`}`, undefined, undefined, { method: "GET" });
      },
    })),
    fc.tuple(session, fc.constantFrom<Record<string, unknown>>({ action: "take" }, { action: "release", controlToken: owned.controlToken }, { action: "renew", controlToken: owned.controlToken })).map(([id, body]) => ({
      kind: `POST /live/control ${String(body.action)}`,
      describe: `POST /live/${id}/control ${JSON.stringify(body)} (own view token)`,
      send: (server, _key, own) => server.post(`/live/${encodeURIComponent(id)}/control?token=${encodeURIComponent(own.viewToken)}`, undefined, body),
    })),
    // The staging route with acme's session id.
    session.map((id) => ({
      kind: "files",
      describe: `POST files for ${id}`,
      send: (server, key) => server.post(`${tenantRoute}/files?sessionId=${encodeURIComponent(id)}&name=x.txt`, key, "staged by another tenant", { contentType: "application/octet-stream" }),
    })),
  ];
  return fc.oneof(...Object.values(byMethod), ...routes);
}

/** When acme's sessions last ran an action, as the manager lists them (read first: acme's own reads below move it). */
const lastActions = async (acme: BrowserUseClient) => (await acme.list()).map(({ id, openTag, lastActionAt }) => ({ id, openTag, lastActionAt }));

/** acme's state as acme and the operator see it (what a cross-tenant write would change). */
async function stateOf(acme: BrowserUseClient, owned: Owned, manager: BrowserSessionManager): Promise<unknown> {
  const pagesOf = await Promise.all(owned.sessions.map(async (id) => (await acme.execute(id, { op: "pages" })).pages.map(({ url, title }) => ({ url, title }))));
  const checkpoints = (await acme.checkpoints()).map(({ id, sessionId, pages: saved }) => ({ id, sessionId, saved }));
  const recordings = (await acme.recordings()).map(({ id, sessionId, state }) => ({ id, sessionId, state }));
  const control = await acme.control(owned.leasedSession);
  return { pagesOf, checkpoints, recordings, control: { mode: control.mode, expiresAt: control.expiresAt }, managed: manager.list().length };
}

export async function tenancyScenarios(rows: Row[], runs = 1000): Promise<void> {
  const served = await startHoldingServer(pages);
  const adapter = new PlaywrightBrowserAdapter();
  // Its own store, read for the secrets scan once the manager has closed.
  const store = createMemoryStateStore();
  const manager = new BrowserSessionManager(adapter, 6, { stateStore: store });
  const worker = createBrowserWorker({ manager, token, stationId: "local", tenants: { [tenancyKeys.acme]: "acme", [tenancyKeys.globex]: "globex", [tenancyKeys.initech]: "initech" } });
  const server = await startWorkerServer(worker);
  const client = (key: string) => new BrowserUseClient({ baseUrl: server.origin, stationId: "local", apiKey: key, timeoutMs: 30_000, fetch: capturingFetch });
  try {
    await runScenario(rows, `Tenancy: ${runs} cross-tenant attempts`, "another tenant's session, checkpoint, recording, frame, lease token and open tag ids on every worker method, the live view and staging routes", async (s) => {
      const acme = client(tenancyKeys.acme);
      const first = await acme.open({ openTag: "acme-first" });
      const second = await acme.open({ openTag: "acme-second" });
      await acme.execute(first.id, { op: "navigate", url: served.url("/form") });
      await acme.execute(second.id, { op: "navigate", url: served.url("/plain") });
      const checkpoint = await acme.checkpoint(first.id);
      const stopped = await acme.startRecording(second.id);
      const stoppedMeta = await acme.stopRecording(stopped.id);
      const running = await acme.startRecording(first.id);
      const grant = await acme.acquireControl(second.id, 120_000);
      const view = await acme.createLiveView(first.id);
      const frames = [...stoppedMeta.frames.map((frame) => ({ recordingId: stopped.id, frameId: frame.id })), ...running.frames.map((frame) => ({ recordingId: running.id, frameId: frame.id }))];
      const owned: Owned = {
        sessions: [first.id, second.id],
        openTags: ["acme-first", "acme-second"],
        checkpoints: [checkpoint.id],
        recordings: [stopped.id, running.id],
        frames: frames.length ? frames : [{ recordingId: stopped.id, frameId: "f1" }],
        controlToken: grant.token,
        leasedSession: second.id,
        liveViewPath: new URL(view.url).pathname + new URL(view.url).search,
      };
      // The attackers' own sessions and view tokens.
      const own: Record<string, { viewToken: string }> = {};
      for (const tenant of ["globex", "initech"] as const) {
        const theirs = client(tenancyKeys[tenant]);
        const opened = await theirs.open({ openTag: "acme-first" });
        s.check(`${tenant}'s open with acme's tag opens its own session`, !owned.sessions.includes(opened.id), opened.id);
        own[tenant] = { viewToken: new URL((await theirs.createLiveView(opened.id)).url).searchParams.get("token")! };
      }
      const hitsBefore = served.requests.filter((request) => request === "POST /hit").length;
      const before = await stateOf(acme, owned, manager);
      const actedBefore = await lastActions(acme);
      const ownedIds = [...owned.sessions, ...owned.checkpoints, ...owned.recordings, owned.controlToken];
      const reads: string[] = [];
      const wrongAnswers: string[] = [];
      const tried = new Set<string>();
      const sample = fc.sample(fc.tuple(fc.constantFrom("globex", "initech") as fc.Arbitrary<"globex" | "initech">, attempts(owned, served.url("/hit"))), runs);
      for (const [tenant, attempt] of sample) {
        s.injected();
        tried.add(attempt.kind);
        const answer = await attempt.send(server, tenancyKeys[tenant], own[tenant]!);
        const label = `${tenant}: ${attempt.describe} → ${answer.status} ${answer.text.slice(0, 160)}`;
        if (attempt.listing) {
          if (answer.status !== 200) wrongAnswers.push(label);
          if (ownedIds.some((id) => answer.text.includes(id))) reads.push(label);
          continue;
        }
        const code = answer.json?.error?.code;
        if (answer.status === 200 || answer.json?.data !== undefined) reads.push(label);
        else if (!(code === "not_found" || code === "forbidden" || code === "unauthorized")) wrongAnswers.push(label);
        // A refusal quotes at most the id the attacker sent, never acme's other data.
        else if (answer.text.includes(owned.controlToken) && !attempt.describe.includes(owned.controlToken)) reads.push(label);
      }
      const actedAfter = await lastActions(acme);
      const after = await stateOf(acme, owned, manager);
      s.equal("0 reads across tenants (every attempt not found or forbidden; listings without acme's ids)", reads, []);
      s.equal("every refusal is not_found, forbidden or unauthorized", wrongAnswers, []);
      s.equal("0 writes across tenants: no action ran on acme's sessions", actedAfter, actedBefore);
      s.equal("0 writes across tenants: acme's pages, checkpoints, recordings and lease unchanged", after, before);
      s.equal("no request reached acme's pages", served.requests.filter((request) => request === "POST /hit").length - hitsBefore, 0);
      const renewed = await acme.renewControl(owned.leasedSession, owned.controlToken, 60_000).then(() => "renewed", (error: unknown) => String(error));
      s.equal("acme's lease token still works", renewed, "renewed");
      const viewPage = await server.post(owned.liveViewPath, undefined, undefined, { method: "GET" });
      s.equal("acme's live view still opens", viewPage.status, 200);
      s.check("attempts covered many kinds", tried.size >= 30, [...tried]);
      await acme.releaseControl(owned.leasedSession, owned.controlToken);
    });
  } finally {
    // For the secrets scan: every answer, and the lease and view tokens they handed out.
    collectAnswers(server.bodies);
    await server.close();
    await manager.close();
    await adapter.shutdown();
    await served.close();
    await collectStore(store);
  }
}
