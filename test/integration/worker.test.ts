import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { ValidationError } from "../../src/errors.js";
import { BrowserSessionManager, type ManagedSessionInfo } from "../../src/lifecycle/manager.js";
import { workerRoute } from "../../src/protocol/wire.js";
import { createBrowserWorker, type BrowserWorker } from "../../src/worker/index.js";
import { scopedOpenTag } from "../../src/worker/scoped-tag.js";
import { createLocalProvider, type PlaywrightProvider } from "../../src/providers/local/index.js";
import { faulty, noFaults } from "../helpers/faulty-provider.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { startWorkerServer, type WorkerAnswer, type WorkerServer } from "../helpers/worker-server.js";

const token = "operator-token-0123456789abcdef-XYZ";
const keyA = "tenant-a-key-0123456789abcdef-AAAA";
const keyB = "tenant-b-key-0123456789abcdef-BBBB";
const tenants = { [keyA]: "acme", [keyB]: "globex" };
const operatorPath = workerRoute("w1", "operator");
const tenantPath = workerRoute("w1", "tenant");

let fixtures: FixtureServer;
let adapter: PlaywrightBrowserAdapter;
let manager: BrowserSessionManager;
let server: WorkerServer;
const extras: { server: WorkerServer }[] = [];

beforeAll(async () => {
  fixtures = await startFixtureServer();
  adapter = new PlaywrightBrowserAdapter();
  manager = new BrowserSessionManager(adapter, 8);
  server = await startWorkerServer(createBrowserWorker({ manager, token, tenants, stationId: "w1" }));
});
afterAll(async () => {
  await Promise.all([server, ...extras.map((extra) => extra.server)].map((each) => each?.close()));
  await manager?.close();
  await adapter?.shutdown();
  await fixtures?.close();
});

type Call = (body: unknown) => Promise<WorkerAnswer>;
const asOperator: Call = (body) => server.post(operatorPath, token, body);
const asA: Call = (body) => server.post(tenantPath, keyA, body);
const asB: Call = (body) => server.post(tenantPath, keyB, body);

/** The `data` of a 200 answer (the failure is shown when it is not one). */
function data(answer: WorkerAnswer): any {
  expect({ status: answer.status, error: answer.json?.error }).toEqual({ status: 200, error: undefined });
  return answer.json?.data;
}

function failure(answer: WorkerAnswer, status: number, code: string): string {
  expect({ status: answer.status, code: answer.json?.error?.code }).toEqual({ status, code });
  return answer.json!.error!.message;
}

const ids = (sessions: ManagedSessionInfo[]) => sessions.map((session) => session.id);
const isPng = (base64: string) => Buffer.from(base64, "base64").subarray(1, 4).toString("latin1") === "PNG";

async function everyMethod(call: Call): Promise<void> {
  const tag = `tag-${randomUUID()}`;
  const opened = data(await call({ method: "open", options: { openTag: tag } }));
  expect(opened.openTag).toBe(tag);
  expect(data(await call({ method: "open", options: { openTag: tag } })).id).toBe(opened.id);
  const id: string = opened.id;
  const home = fixtures.url("/index.html");
  expect(data(await call({ method: "execute", id, command: { op: "navigate", url: home } }))).toMatchObject({ ok: true, url: home });
  expect(data(await call({ method: "action", id, action: "evaluate", value: "document.title" })).value).toBe("Fixture home");
  expect(isPng(data(await call({ method: "liveFrame", id })).base64)).toBe(true);

  const grant = data(await call({ method: "controlAcquire", id, ttlMs: 5000 }));
  expect(data(await call({ method: "control", id })).mode).toBe("human");
  expect(data(await call({ method: "controlRenew", id, token: grant.token, ttlMs: 6000 })).token).toBe(grant.token);
  // The release re-runs challenge detection: the agent may resume only on a page without one.
  expect(data(await call({ method: "controlRelease", id, token: grant.token }))).toEqual({ mode: "automation", challenge: { state: "none", evidence: ["status 200"] } });
  expect(data(await call({ method: "control", id })).mode).toBe("automation");

  const checkpoint = data(await call({ method: "checkpoint", id }));
  expect(checkpoint).toMatchObject({ sessionId: id, pages: [{ url: home, title: "Fixture home" }] });
  expect(data(await call({ method: "checkpoints" })).map((each: { id: string }) => each.id)).toContain(checkpoint.id);
  const resumed = data(await call({ method: "resume", checkpointId: checkpoint.id }));
  expect(resumed.id).not.toBe(id);
  expect(data(await call({ method: "execute", id: resumed.id, command: { op: "evaluate", expression: "location.href" } })).value).toBe(home);
  expect(data(await call({ method: "deleteCheckpoint", checkpointId: checkpoint.id }))).toBeNull();
  expect(data(await call({ method: "checkpoints" })).map((each: { id: string }) => each.id)).not.toContain(checkpoint.id);

  const recording = data(await call({ method: "recordingStart", id }));
  expect(recording).toMatchObject({ sessionId: id, state: "recording" });
  const described = data(await call({ method: "recording", recordingId: recording.id }));
  expect(described.frames.length).toBeGreaterThanOrEqual(1);
  const frame = data(await call({ method: "recordingFrame", recordingId: recording.id, frameId: described.frames[0].id }));
  expect(isPng(frame.base64)).toBe(true);
  expect(data(await call({ method: "recordingStop", recordingId: recording.id })).state).toBe("stopped");
  expect(data(await call({ method: "recordings" })).map((each: { id: string }) => each.id)).toContain(recording.id);
  expect(data(await call({ method: "recordingDelete", recordingId: recording.id }))).toBeNull();
  expect(data(await call({ method: "recordings" })).map((each: { id: string }) => each.id)).not.toContain(recording.id);

  expect(ids(data(await call({ method: "reconcile", openTag: tag })))).toEqual([id]);
  expect(ids(data(await call({ method: "list" })))).toEqual(expect.arrayContaining([id, resumed.id]));
  expect(data(await call({ method: "close", id }))).toBeNull();
  expect(data(await call({ method: "close", id: resumed.id }))).toBeNull();
  expect(ids(data(await call({ method: "list" })))).not.toContain(id);
  expect(data(await call({ method: "reconcile", openTag: tag }))).toEqual([]);
}

describe("worker over real HTTP (real Chromium)", () => {
  it("serves every method on the operator route", async () => {
    await everyMethod(asOperator);
  });

  it("serves every method on the tenant route", async () => {
    await everyMethod(asA);
  });

  it("refuses missing, malformed and wrong credentials (401) and the wrong route for them (403)", async () => {
    const missing = await server.post(operatorPath, undefined, { method: "list" });
    expect(failure(missing, 401, "unauthorized")).toMatch(/Missing credentials/);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    failure(await server.post(operatorPath, `${token}x`, { method: "list" }), 401, "unauthorized");
    failure(await server.post(tenantPath, "not-a-key-but-long-enough-0123456789", { method: "list" }), 401, "unauthorized");
    expect(failure(await server.post(operatorPath, keyA, { method: "list" }), 403, "forbidden")).toMatch(/tenant key cannot use the operator route/);
    expect(failure(await server.post(tenantPath, token, { method: "list" }), 403, "forbidden")).toMatch(/operator token cannot use the tenant route/);
  });

  it("refuses a short token or tenant key at construction, naming the field but not the secret", () => {
    const short = "short-secret-value-123";
    const build = (options: { token: string; tenants?: Record<string, string> }) => () => createBrowserWorker({ manager, stationId: "w1", ...options });
    expect(build({ token: short })).toThrow(ValidationError);
    expect(build({ token: short })).toThrow(/^options\.token: the execution token must have at least 32 characters \(it has 22\)$/);
    expect(build({ token, tenants: { [short]: "acme" } })).toThrow(/^options\.tenants \(tenant acme\): .*at least 32 characters/);
    expect(build({ token, tenants: { [token]: "acme" } })).toThrow(/must differ from the operator token/);
  });

  it("keeps tenants apart: another tenant's session, checkpoint and recording read as not found", async () => {
    const tag = `tag-${randomUUID()}`;
    const { id } = data(await asA({ method: "open", options: { openTag: tag } }));
    data(await asA({ method: "execute", id, command: { op: "navigate", url: fixtures.url("/index.html") } }));
    const checkpoint = data(await asA({ method: "checkpoint", id }));
    const recording = data(await asA({ method: "recordingStart", id }));
    const missing = failure(await asB({ method: "close", id: "s_missing" }), 404, "not_found");
    expect(missing).toBe("Browser session s_missing does not exist");

    for (const body of [
      { method: "execute", id, command: { op: "evaluate", expression: "1" } },
      { method: "action", id, action: "navigate", value: fixtures.url("/second.html") },
      { method: "close", id },
      { method: "liveFrame", id },
      { method: "controlAcquire", id },
      { method: "control", id },
      { method: "checkpoint", id },
      { method: "recordingStart", id },
    ]) {
      expect(failure(await asB(body), 404, "not_found")).toBe(`Browser session ${id} does not exist`);
    }
    expect(failure(await asB({ method: "resume", checkpointId: checkpoint.id }), 404, "not_found")).toBe(`Checkpoint ${checkpoint.id} does not exist`);
    failure(await asB({ method: "deleteCheckpoint", checkpointId: checkpoint.id }), 404, "not_found");
    for (const method of ["recording", "recordingStop", "recordingDelete"]) {
      expect(failure(await asB({ method, recordingId: recording.id }), 404, "not_found")).toBe(`Recording ${recording.id} does not exist`);
    }
    failure(await asB({ method: "recordingFrame", recordingId: recording.id, frameId: recording.frames[0].id }), 404, "not_found");

    expect(ids(data(await asB({ method: "list" })))).not.toContain(id);
    expect(data(await asB({ method: "reconcile", openTag: tag }))).toEqual([]);
    expect(data(await asB({ method: "checkpoints" })).map((each: { id: string }) => each.id)).not.toContain(checkpoint.id);
    expect(data(await asB({ method: "recordings" })).map((each: { id: string }) => each.id)).not.toContain(recording.id);
    // Tags are per tenant: B's equal tag neither reveals nor reaches A's session; it opens B's own.
    const ofB = data(await asB({ method: "open", options: { openTag: tag } }));
    expect(ofB.id).not.toBe(id);
    expect(ofB.openTag).toBe(tag);
    expect(ids(data(await asB({ method: "reconcile", openTag: tag })))).toEqual([ofB.id]);
    expect(ids(data(await asA({ method: "reconcile", openTag: tag })))).toEqual([id]);
    expect(data(await asA({ method: "open", options: { openTag: tag } })).id).toBe(id);
    // The manager sees each tenant's scoped tag, not the tag itself.
    expect(manager.list().filter((session) => session.openTag === tag)).toEqual([]);
    data(await asB({ method: "close", id: ofB.id }));

    // A's own view, and the operator's, are unchanged: nothing B did touched them.
    expect(data(await asA({ method: "action", id, action: "evaluate", value: "location.pathname" })).value).toBe("/index.html");
    expect(ids(data(await asOperator({ method: "list" })))).toContain(id);
    expect(data(await asOperator({ method: "checkpoints" })).map((each: { id: string }) => each.id)).toContain(checkpoint.id);
    data(await asA({ method: "recordingDelete", recordingId: recording.id }));
    data(await asA({ method: "deleteCheckpoint", checkpointId: checkpoint.id }));
    data(await asA({ method: "close", id }));
  });

  it("with tenantId, the execution token acts as that one tenant on the tenant route", async () => {
    const single = await startWorkerServer(createBrowserWorker({ manager, token, tenants, tenantId: "acme", stationId: "w1" }));
    extras.push({ server: single });
    const asToken: Call = (body) => single.post(tenantPath, token, body);
    const { id: ofGlobex } = data(await single.post(tenantPath, keyB, { method: "open", options: {} }));
    const { id } = data(await asToken({ method: "open", options: {} }));
    const { id: ofAcme } = data(await single.post(tenantPath, keyA, { method: "open", options: {} }));
    // The token is tenant acme here: it sees acme's sessions (its own and the acme key's), never globex's.
    const seen = ids(data(await asToken({ method: "list" })));
    expect(seen).toEqual(expect.arrayContaining([id, ofAcme]));
    expect(seen).not.toContain(ofGlobex);
    failure(await asToken({ method: "close", id: ofGlobex }), 404, "not_found");
    // The operator route still takes the token as the operator, who sees everything.
    expect(ids(data(await single.post(operatorPath, token, { method: "list" })))).toEqual(expect.arrayContaining([id, ofAcme, ofGlobex]));
    // Without tenantId (the main worker), the same call is forbidden.
    expect(failure(await server.post(tenantPath, token, { method: "list" }), 403, "forbidden")).toMatch(/start the worker with a tenantId/);
    for (const each of [id, ofAcme]) data(await asToken({ method: "close", id: each }));
    data(await single.post(tenantPath, keyB, { method: "close", id: ofGlobex }));
    expect(() => createBrowserWorker({ manager, token, tenantId: "no spaces allowed", stationId: "w1" })).toThrow(/^options\.tenantId: expected 1–128/);
  });

  it("a tenant opens only the profiles given to it; another's reads as not granted and nothing opens", async () => {
    const owned = await startWorkerServer(createBrowserWorker({ manager, token, tenants, profileOwners: { "whatsapp:acme:+4712345678": "acme" }, stationId: "w1" }));
    extras.push({ server: owned });
    const before = manager.list().length;
    const open = (key: string, profileId: string) => owned.post(tenantPath, key, { method: "open", options: { profileId } });
    const refusedB = failure(await open(keyB, "whatsapp:acme:+4712345678"), 400, "validation");
    expect(refusedB).toBe("body.options.profileId: profile whatsapp:acme:+4712345678 is not granted to this tenant");
    // The same words for a profile nobody owns: nothing tells B that acme has one.
    expect(failure(await open(keyB, "nobody"), 400, "validation")).toBe("body.options.profileId: profile nobody is not granted to this tenant");
    // acme passes the worker's check and reaches the manager, which has not granted the id.
    expect(failure(await open(keyA, "whatsapp:acme:+4712345678"), 400, "validation")).toMatch(/^options\.profileId: profile whatsapp:acme:\+4712345678 is not granted to this manager/);
    expect(manager.list()).toHaveLength(before);
  });

  it("holds each tenant to its session quota, counting opens in flight, and tells the provider whose each session is", async () => {
    const tenantsSeen: (string | undefined)[] = [];
    const inner = createLocalProvider();
    const recording: PlaywrightProvider = { ...inner, name: inner.name, create: (request) => (tenantsSeen.push(request.tenant), inner.create(request)) };
    const quotaAdapter = new PlaywrightBrowserAdapter({ provider: recording });
    const quotaManager = new BrowserSessionManager(quotaAdapter, 8);
    const worker = await startWorkerServer(createBrowserWorker({ manager: quotaManager, token, tenants, stationId: "w1", tenantMaxSessions: 2 }));
    try {
      const open = (key: string, options: object = {}) => worker.post(key === token ? operatorPath : tenantPath, key, { method: "open", options });
      const tag = `quota-${randomUUID()}`;
      const answers = await Promise.all([open(keyA, { openTag: tag }), open(keyA), open(keyA)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 429]);
      expect(failure(answers.find((answer) => answer.status === 429)!, 429, "capacity")).toBe("Tenant acme already holds its quota of 2 browser sessions; close one first");
      // Repeating the tag of one of its sessions gets that session, not a refusal.
      const again = data(await open(keyA, { openTag: tag }));
      expect(again.id).toBe(data(answers[0]!).id);
      // Another tenant and the operator are not held by acme's quota.
      data(await open(keyB));
      data(await open(token));
      data(await worker.post(tenantPath, keyA, { method: "close", id: again.id }));
      data(await open(keyA));
      expect(tenantsSeen.sort()).toEqual(["acme", "acme", "acme", "globex", undefined].sort());
    } finally {
      await worker.close();
      await quotaManager.close();
      await quotaAdapter.shutdown();
    }
  });

  it("refuses a tenant quota out of range, naming the option", () => {
    expect(() => createBrowserWorker({ manager, token, stationId: "w1", tenantMaxSessions: 0 })).toThrow(/^options\.tenantMaxSessions: /);
  });

  it("an uncertain open stays its opener's: others cannot settle it or learn its tag; reconcileAll is the operator's", async () => {
    const faults = noFaults();
    const shakyAdapter = new PlaywrightBrowserAdapter({ provider: faulty(createLocalProvider(), faults) });
    const shaky = new BrowserSessionManager(shakyAdapter, 4);
    const worker = await startWorkerServer(createBrowserWorker({ manager: shaky, token, tenants, stationId: "w1" }));
    try {
      const tag = `secret-tag-${randomUUID()}`;
      faults.loseCreateAnswer = 1;
      failure(await worker.post(tenantPath, keyA, { method: "open", options: { openTag: tag } }), 502, "outcome_unknown");
      expect(shaky.uncertainOpenings()).toHaveLength(1);
      const blocked = failure(await worker.post(tenantPath, keyB, { method: "open", options: {} }), 409, "reconcile_required");
      expect(blocked).not.toContain(tag);
      // B cannot settle A's open, nor take its tag.
      expect(data(await worker.post(tenantPath, keyB, { method: "reconcile", openTag: tag }))).toEqual([]);
      expect(shaky.uncertainOpenings()).toHaveLength(1);
      const taken = failure(await worker.post(tenantPath, keyB, { method: "open", options: { openTag: tag } }), 409, "reconcile_required");
      expect(taken).not.toContain(tag);
      failure(await worker.post(tenantPath, keyB, { method: "reconcileAll" }), 403, "forbidden");
      // A's reconcile takes the session over, as A's.
      const found = data(await worker.post(tenantPath, keyA, { method: "reconcile", openTag: tag }));
      expect(found.map((each: ManagedSessionInfo) => each.openTag)).toEqual([tag]);
      expect(ids(data(await worker.post(tenantPath, keyA, { method: "list" })))).toEqual([found[0].id]);
      expect(ids(data(await worker.post(tenantPath, keyB, { method: "list" })))).toEqual([]);
      data(await worker.post(tenantPath, keyA, { method: "execute", id: found[0].id, command: { op: "navigate", url: fixtures.url("/index.html") } }));

      // The operator settles what nobody reconciled: the found session is released.
      faults.loseCreateAnswer = 1;
      const tagOfB = `b-${randomUUID()}`;
      failure(await worker.post(tenantPath, keyB, { method: "open", options: { openTag: tagOfB } }), 502, "outcome_unknown");
      const report = data(await worker.post(operatorPath, token, { method: "reconcileAll" }));
      // The operator sees the manager's tags: B's scoped one.
      expect(report).toMatchObject({ adopted: [], absent: [], unresolved: [], released: [{ openTag: scopedOpenTag("globex", tagOfB) }] });
      expect(shaky.uncertainOpenings()).toEqual([]);
      data(await worker.post(tenantPath, keyB, { method: "open", options: {} }));
    } finally {
      await worker.close();
      await shaky.close();
      await shakyAdapter.shutdown();
    }
  });

  it("an upload over 4 MiB decoded is refused with 413 before anything runs", async () => {
    const { id } = data(await asOperator({ method: "open" }));
    const half = Buffer.alloc(2 * 1024 * 1024 + 1, 0x61).toString("base64");
    const auditBefore = (await manager.audit()).length;
    const files = [{ name: "a.bin", base64: half }, { name: "b.bin", base64: half }];
    const refused = await asOperator({ method: "execute", id, command: { op: "upload", selector: "#f", files } });
    expect(failure(refused, 413, "payload_too_large")).toMatch(/^command\.files: 4194306 bytes in total; at most 4194304 decoded bytes/);
    expect(await manager.audit()).toHaveLength(auditBefore);
    data(await asOperator({ method: "close", id }));
  });

  it("answers 404 for another station or path and 405 for other methods, never a redirect", async () => {
    failure(await server.post(workerRoute("w2", "operator"), token, { method: "list" }), 404, "not_found");
    failure(await server.post(workerRoute("w2", "tenant"), keyA, { method: "list" }), 404, "not_found");
    for (const path of ["/", `${operatorPath}/`, `${operatorPath}/extra`, "/api/v1/stations/w1/execution"]) {
      failure(await server.post(path, token, { method: "list" }), 404, "not_found");
    }
    const get = await server.post(operatorPath, token, undefined, { method: "GET" });
    failure(get, 405, "bad_request");
    expect(get.headers.get("allow")).toBe("POST");
  });

  it("answers 400 for malformed JSON, another content type, an unknown method and a bad field", async () => {
    expect(failure(await asOperator("{ not json"), 400, "bad_request")).toMatch(/^Malformed JSON body: /);
    expect(failure(await asOperator("[1, 2]"), 400, "bad_request")).toMatch(/expected a JSON object with a "method" field/);
    const form = await server.post(operatorPath, token, "method=list", { contentType: "application/x-www-form-urlencoded" });
    expect(failure(form, 400, "bad_request")).toMatch(/content-type: application\/json/);
    expect(failure(await asOperator({ method: "frobnicate" }), 400, "bad_request")).toMatch(/^Unknown method "frobnicate"; expected one of open, execute/);
    expect(failure(await asOperator({ method: token }), 400, "bad_request")).toMatch(/^Unknown method "\[redacted\]"/);
    const missing = await asOperator({ method: "close" });
    expect(failure(missing, 400, "validation")).toBe("body.id: required");
    expect(missing.json?.error?.details).toEqual({ field: "body.id" });
    // A field named after a secret: the secret leaves neither the message nor the details.
    const secretField = await asOperator({ method: "list", [token]: 1 });
    expect(failure(secretField, 400, "validation")).toBe("body.[redacted]: unknown field");
    expect(secretField.json?.error?.details).toEqual({ field: "body.[redacted]" });
    expect(secretField.text).not.toContain(token);
    expect(failure(await asOperator({ method: "list", extra: 1 }), 400, "validation")).toBe("body.extra: unknown field");
    expect(failure(await asOperator({ method: "controlAcquire", id: "s_1", ttlMs: 5 }), 400, "validation")).toMatch(/^body\.ttlMs: /);
    expect(failure(await asOperator({ method: "action", id: "s_1", action: "navigate" }), 400, "validation")).toBe("body.value: navigate needs a URL string");
    expect(failure(await asOperator({ method: "execute", id: "s_1", command: { op: "navigate" } }), 400, "validation")).toMatch(/^command\.url: required/);
  });

  it("answers 400 for a body that is not UTF-8, every time, and then reads the next body as usual", async () => {
    const bytes = (text: string, ...extra: number[]): Uint8Array<ArrayBuffer> => new Uint8Array([...new TextEncoder().encode(text), ...extra, ...new TextEncoder().encode('"}')]);
    const send = (body: Uint8Array<ArrayBuffer>) =>
      fetch(server.origin + operatorPath, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body });
    for (const body of [bytes('{"method":"list","x":"', 0xff), bytes('{"method":"list","x":"', 0xe2, 0x82)]) {
      const answer = await send(body);
      expect({ status: answer.status, body: await answer.json() }).toEqual({
        status: 400,
        body: { error: { code: "bad_request", message: "Malformed request body: it is not valid UTF-8", details: {} } },
      });
    }
    const fine = await send(bytes('{"method":"reconcile","openTag":"t', 0xe2, 0x82, 0xac));
    expect(failure({ status: fine.status, json: await fine.json() } as WorkerAnswer, 400, "validation")).toMatch(/^body\.openTag: expected a open tag/);
  });

  it("refuses a >128 KiB body with 413 and runs nothing; accepts a ~3 MiB upload", async () => {
    const { id } = data(await asOperator({ method: "open" }));
    data(await asOperator({ method: "execute", id, command: { op: "navigate", url: fixtures.url("/form.html") } }));
    const auditBefore = (await manager.audit()).length;
    const padded = { method: "execute", id, command: { op: "evaluate", expression: `document.title = "changed" // ${"x".repeat(130 * 1024)}` } };
    expect(failure(await asOperator(padded), 413, "payload_too_large")).toMatch(/at most 131072 bytes are accepted .*Nothing was executed/);
    expect(await manager.audit()).toHaveLength(auditBefore);
    const bytes = Buffer.alloc(2_500_000, 0x61);
    const upload = { method: "execute", id, command: { op: "upload", selector: "#avatar", files: [{ name: "big.txt", mimeType: "text/plain", base64: bytes.toString("base64") }] } };
    expect(JSON.stringify(upload).length).toBeGreaterThan(3 * 1024 * 1024);
    data(await asOperator(upload));
    const size = data(await asOperator({ method: "execute", id, command: { op: "evaluate", expression: "[document.title, document.querySelector('#avatar').files[0].size]" } }));
    expect(size.value).toEqual(["Form", bytes.length]);
    data(await asOperator({ method: "close", id }));
  });

  it("caps a body while it streams (fetch form): a 9 MiB stream is cut off and answered 413", async () => {
    const worker = createBrowserWorker({ manager, token, stationId: "w1" });
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 9 * 1024 * 1024) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const request = new Request(`http://127.0.0.1${operatorPath}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    const response = await worker.fetch(request);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/more than 8388608 bytes/);
    // Cut off at the 8 MiB envelope, give or take the chunk in flight.
    expect(pulled).toBeLessThanOrEqual(8 * 1024 * 1024 + 2 * chunk.byteLength);
  });

  it("holds at most maxLargeBodies bodies over the request limit at once; more get 429 and run nothing", async () => {
    const worker = createBrowserWorker({ manager, token, stationId: "w1", maxLargeBodies: 1 });
    const post = (body: BodyInit) =>
      worker.fetch(
        new Request(`http://127.0.0.1${operatorPath}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body,
          duplex: "half",
        } as RequestInit),
      );
    // A first large body that arrives slowly: 200 KiB now, the rest only when released.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let sent = 0;
    const slow = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 0) {
          sent++;
          return controller.enqueue(new TextEncoder().encode(`{"method":"list","pad":"${" ".repeat(200 * 1024)}`));
        }
        await released;
        controller.enqueue(new TextEncoder().encode('"}'));
        controller.close();
      },
    });
    const first = post(slow);
    await expect.poll(() => sent).toBe(1);
    const auditBefore = (await manager.audit()).length;
    const second = await post(JSON.stringify({ method: "list", pad: " ".repeat(300 * 1024) }));
    expect(second.status).toBe(429);
    expect(((await second.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "capacity",
      message: expect.stringMatching(/^1 large request bodies \(uploads\) are being received already; nothing was executed/),
    });
    release();
    // The first is over the 128 KiB limit and no upload: refused by size, and its gate slot freed.
    expect((await first).status).toBe(413);
    const third = await post(JSON.stringify({ method: "list", pad: " ".repeat(300 * 1024) }));
    expect(third.status).toBe(413);
    expect(await manager.audit()).toHaveLength(auditBefore);
  });

  it("an oversize body is refused by its size first, even when it is not JSON", async () => {
    const worker = createBrowserWorker({ manager, token, stationId: "w1" });
    const response = await worker.fetch(
      new Request(`http://127.0.0.1${operatorPath}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: `{not json ${"x".repeat(200 * 1024)}`,
      }),
    );
    expect(response.status).toBe(413);
  });

  it("says an oversize answer ran, and aborts a command when its client disconnects", async () => {
    const small = await startWorkerServer(createBrowserWorker({ manager, token, stationId: "w1", maxResponseBytes: 4096 }));
    extras.push({ server: small });
    const { id } = data(await small.post(operatorPath, token, { method: "open" }));
    const shot = await small.post(operatorPath, token, { method: "execute", id, command: { op: "screenshot" } });
    expect(failure(shot, 500, "payload_too_large")).toMatch(/answer to execute \(screenshot\) is \d+ bytes.*did run/);

    // The client goes away once the page has asked for /slow; the page would answer after 8 s.
    const finished = new Promise<{ outcome: string; seq: number }>((resolve) =>
      manager.events.on("action-finish", (event) => event.sessionId === id && event.op === "navigate" && resolve(event)),
    );
    const asked = fixtures.nextRequest("/slow");
    await small.postAndDisconnect(operatorPath, token, { method: "execute", id, command: { op: "navigate", url: fixtures.url("/slow?ms=8000") } }, asked);
    // The command ends before the page answers because its client went away; the navigation was under way, so its outcome is unknown.
    const { outcome, seq } = await finished;
    expect(outcome).toBe("unknown");
    expect(manager.list().find((session) => session.id === id)?.busy).toBeUndefined();
    expect((await manager.audit()).find((each) => each.seq === seq)).toMatchObject({ sessionId: id, op: "navigate", outcome: "unknown" });
    data(await small.post(operatorPath, token, { method: "close", id }));
  });

  it("drains: new work is refused with 503 draining; list, control, reconcile and close still work", async () => {
    const worker: BrowserWorker = createBrowserWorker({ manager, token, stationId: "w1" });
    const draining = await startWorkerServer(worker);
    extras.push({ server: draining });
    const call: Call = (body) => draining.post(operatorPath, token, body);
    const { id, openTag } = data(await call({ method: "open" }));
    const lease = data(await call({ method: "controlAcquire", id, ttlMs: 5000 }));
    await worker.drain();
    // Cleanup is not new work: a human can still hand control back.
    expect(data(await call({ method: "controlRelease", id, token: lease.token }))).toMatchObject({ mode: "automation" });
    expect(worker.draining).toBe(true);
    expect(failure(await call({ method: "open" }), 503, "draining")).toMatch(/draining: open is refused/);
    failure(await call({ method: "execute", id, command: { op: "evaluate", expression: "1" } }), 503, "draining");
    failure(await call({ method: "checkpoint", id }), 503, "draining");
    expect(ids(data(await call({ method: "list" })))).toContain(id);
    expect(data(await call({ method: "control", id })).mode).toBe("automation");
    expect(ids(data(await call({ method: "reconcile", openTag })))).toEqual([id]);
    expect(data(await call({ method: "close", id }))).toBeNull();
    expect(ids(data(await call({ method: "list" })))).not.toContain(id);
  });

  it("close() closes the manager's sessions and refuses everything after", async () => {
    const own = new BrowserSessionManager(adapter, 1);
    const worker = createBrowserWorker({ manager: own, token, stationId: "w1" });
    const response = await worker.fetch(
      new Request(`http://127.0.0.1${operatorPath}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: '{"method":"open"}' }),
    );
    expect(response.status).toBe(200);
    expect(own.list()).toHaveLength(1);
    await worker.close();
    expect(own.list()).toEqual([]);
    const after = await worker.fetch(
      new Request(`http://127.0.0.1${operatorPath}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: '{"method":"list"}' }),
    );
    expect(after.status).toBe(503);
  });

  it("never sends a token or key back in any answer", () => {
    const bodies = [server, ...extras.map((extra) => extra.server)].flatMap((each) => each.bodies);
    expect(bodies.length).toBeGreaterThan(80);
    for (const secret of [token, keyA, keyB]) expect(bodies.filter((body) => body.includes(secret))).toEqual([]);
  });
});
