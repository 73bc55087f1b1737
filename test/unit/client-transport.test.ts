import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserUseClient, resolveClientOptions, type BrowserUseClientOptions } from "../../src/agent.js";
import * as errors from "../../src/errors.js";
import { installDefaultPost } from "../../src/client/http-post.js";
import { nodeHttpPost } from "../../src/node/http-post.js";
import { dataScript, inOrder, sendJson, useScriptedWorker, type Script } from "../helpers/scripted-worker.js";

const apiKey = "tenant-key-SECRET-0123456789abcdef0123456789";
const worker = useScriptedWorker();

const client = (options: Partial<BrowserUseClientOptions> = {}) =>
  new BrowserUseClient({ baseUrl: worker.origin, stationId: "local", apiKey, ...options });
const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail("expected the call to fail"), (error: unknown) => error as Error);

const session = { id: "s1", provider: "local", openTag: "t1", openedAt: "x", control: { mode: "automation" } };
const reset: Script = (_request, _response, destroy) => destroy();
const hang: Script = () => undefined;
const status = (code: number, body = "<html>upstream trouble</html>"): Script => (_request, response) =>
  response.writeHead(code, { "content-type": "text/html" }).end(body);
const cutOff: Script = (_request, response, destroy) => {
  response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
  // Cut once the head and part of the body are on the wire.
  response.write('{"data":[', () => destroy());
};

/**
 * Every case runs over both posters a client can have: fetch (every runtime
 * but Node, and any client given a `fetch`) and node:http (what
 * `station-browser-use/agent` installs on Node).
 */
const posters = [
  ["fetch", undefined],
  ["node:http", nodeHttpPost],
] as const;

describe.each(posters)("over %s", (poster, post) => {
  beforeAll(() => installDefaultPost(post));
  afterAll(() => installDefaultPost(undefined));
  /** What the refused connection's error says: undici's wrapper and its cause, or Node's own error. */
  const refusedText = poster === "fetch" ? /fetch failed: ECONNREFUSED/ : /connect ECONNREFUSED 127\.0\.0\.1:\d+/;

  it(`posts through ${poster}, and through a fetch given to the client whatever the poster`, async () => {
    const real = globalThis.fetch;
    let globalCalls = 0;
    globalThis.fetch = (...args) => (globalCalls++, real(...args));
    let givenCalls = 0;
    try {
      worker.answer(dataScript([]));
      await expect(client().list()).resolves.toEqual([]);
      await expect(client({ fetch: (...args) => (givenCalls++, real(...args)) }).list()).resolves.toEqual([]);
    } finally {
      globalThis.fetch = real;
    }
    expect(globalCalls).toBe(poster === "fetch" ? 1 : 0);
    expect(givenCalls).toBe(1);
    expect(worker.requests).toHaveLength(2);
  });

  describe("redirects", () => {
    it.each([
      [302, "list"],
      [307, "execute"],
      [301, "open"],
    ] as const)("a %i on %s is refused, never followed and never retried", async (code, method) => {
      worker.answer((request, response) =>
        request.url === "/elsewhere" ? sendJson(response, 200, { data: [] }) : response.writeHead(code, { location: `${worker.origin}/elsewhere` }).end(),
      );
      const call = { list: () => client().list(), execute: () => client().execute("s1", { op: "inspect" }), open: () => client().open() }[method];
      const error = await failure(call());
      expect(error).toBeInstanceOf(errors.ProviderError);
      expect((error as errors.ProviderError).status).toBe(code);
      expect(error.message).toMatch(new RegExp(`^${method}: the worker answered with a redirect \\(HTTP ${code}\\); redirects are refused`));
      expect(error.message).not.toContain("elsewhere");
      expect(worker.requests.map((request) => request.url)).toEqual(["/api/v1/tenant/stations/local/execution/browser"]);
    });
  });

  describe("reads retry, mutations never do", () => {
    it("retries a read after a reset, a 503, a 502 and a 504, with growing delays", async () => {
      // The waits are recorded, not waited: the delays are checked without a clock.
      const waits: number[] = [];
      const sleep = async (ms: number) => void waits.push(ms);
      const retrying = () => client({ retry: { sleep } });
      worker.answer(inOrder(reset, dataScript([session])));
      await expect(retrying().list()).resolves.toEqual([session]);
      expect(worker.requests).toHaveLength(2);
      worker.answer(inOrder(status(503), status(502), dataScript({ mode: "automation" })));
      await expect(retrying().control("s1")).resolves.toEqual({ mode: "automation" });
      expect(worker.requests).toHaveLength(5);
      worker.answer(inOrder(status(504), cutOff, dataScript([])));
      await expect(retrying().reconcile("t1")).resolves.toEqual([]);
      expect(worker.requests).toHaveLength(8);
      expect(waits).toEqual([100, 100, 200, 100, 200]);
      // The default waits for real: a read retried with the default timer still succeeds.
      worker.answer(inOrder(status(503), dataScript([])));
      await expect(client().list()).resolves.toEqual([]);
    });

    it("gives up after the retry limit with the last answer's error, and does not retry other failures", async () => {
      worker.answer(status(503));
      await expect(client().liveFrame("s1")).rejects.toSatisfy(errors.isProviderError);
      expect(worker.requests).toHaveLength(3);
      worker.answer(status(502));
      await expect(client({ retry: { limit: 0 } }).recordings()).rejects.toSatisfy(errors.isProviderError);
      expect(worker.requests).toHaveLength(4);
      worker.answer((_request, response) => sendJson(response, 500, { error: { code: "internal", message: "boom" } }));
      await expect(client().checkpoints()).rejects.toSatisfy(errors.isInternalError);
      expect(worker.requests).toHaveLength(5);
    });

    it("does not retry a read that a draining worker refused (503 draining is final)", async () => {
      worker.answer((_request, response) => sendJson(response, 503, { error: { code: "draining", message: "Worker is draining" } }));
      const draining = await failure(client().liveFrame("s1"));
      expect(draining).toBeInstanceOf(errors.DrainingError);
      expect(worker.requests).toHaveLength(1);
    });

    const mutations: [string, (client: BrowserUseClient) => Promise<unknown>, RegExp][] = [
      ["open", (c) => c.open({ openTag: "tag-1" }), /open tag tag-1\)\. To find out: call reconcile\("tag-1"\)/],
      ["execute", (c) => c.execute("s1", { op: "click", selector: "#go" }), /session s1\)\. To find out: observe session s1/],
      ["action", (c) => c.perform("s1", "click", "#go"), /session s1\)\. To find out: observe session s1/],
      ["close", (c) => c.close("s1"), /list\(\) shows whether session s1 is still open/],
      ["controlAcquire", (c) => c.acquireControl("s1"), /control\("s1"\) shows whether a lease is held/],
      ["controlRenew", (c) => c.renewControl("s1", "tok"), /control\("s1"\) shows the lease state/],
      ["controlRelease", (c) => c.releaseControl("s1", "tok"), /control\("s1"\) shows the lease state/],
      ["checkpoint", (c) => c.checkpoint("s1"), /checkpoints\(\) shows whether a checkpoint of session s1/],
      ["resume", (c) => c.resumeCheckpoint("c1"), /call reconcile\("[0-9a-f-]{36}"\) to find the session resumed from checkpoint c1/],
      ["deleteCheckpoint", (c) => c.deleteCheckpoint("c1"), /checkpoint c1 is gone/],
      ["recordingStart", (c) => c.startRecording("s1"), /recording of session s1 started/],
      ["recordingStop", (c) => c.stopRecording("r1"), /recording\("r1"\) shows its state/],
      ["recordingDelete", (c) => c.deleteRecording("r1"), /recording\("r1"\) shows its state/],
    ];
    it.each(mutations)("%s is sent once; a reset after the body arrived makes its outcome unknown", async (method, call, hint) => {
      worker.answer(reset);
      const error = await failure(call(client()));
      expect(error).toBeInstanceOf(errors.OutcomeUnknownError);
      expect(error.message).toMatch(new RegExp(`^${method}: the connection failed after the request was sent .*the worker may have run it`));
      expect(error.message).toMatch(hint);
      expect((error as errors.OutcomeUnknownError).method).toBe(method);
      expect(worker.requests.map((request) => request.body?.method)).toEqual([method]);
    });

    it("an uncertain open names its generated openTag, which reconcile then finds", async () => {
      worker.answer(reset);
      const error = await failure(client().open());
      const tag = (worker.requests[0]!.body!.options as { openTag: string }).openTag;
      expect(error.message).toContain(`call reconcile("${tag}")`);
      worker.answer(dataScript([{ ...session, openTag: tag }]));
      await expect(client().reconcile(tag)).resolves.toMatchObject([{ openTag: tag }]);
    });

    it("a 503 page, a body cut off or a draining refusal on a mutation is not retried", async () => {
      worker.answer(status(503));
      await expect(client().execute("s1", { op: "click", selector: "#go" })).rejects.toSatisfy(errors.isOutcomeUnknownError);
      worker.answer(cutOff);
      await expect(client().execute("s1", { op: "click", selector: "#go" })).rejects.toSatisfy(errors.isOutcomeUnknownError);
      worker.answer((_request, response) => sendJson(response, 503, { error: { code: "draining", message: "draining" } }));
      await expect(client().open()).rejects.toSatisfy(errors.isDrainingError);
      expect(worker.requests).toHaveLength(3);
    });

    it("a refused connection is a plain failure: nothing was sent", async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const nowhere = client({ baseUrl: `http://127.0.0.1:${port}`, retry: { limit: 1, delayMs: 1 } });
      const close = await failure(nowhere.close("s1"));
      expect(close).toBeInstanceOf(errors.ProviderError);
      expect(close.message).toMatch(/^close: could not reach the worker at http:\/\/127\.0\.0\.1:\d+ \(/);
      expect(close.message).toMatch(new RegExp(`${refusedText.source}\\); nothing was sent`));
      const list = await failure(nowhere.list());
      expect(list).toBeInstanceOf(errors.ProviderError);
      expect(list.message).not.toContain("nothing was sent");
    });

    it("a port fetch refuses to use is a plain failure too: nothing was sent", async () => {
      // Port 6000 (X11) is on fetch's bad-ports list: the request never leaves the process.
      const refused = await failure(client({ baseUrl: "http://127.0.0.1:6000" }).execute("s1", { op: "click", selector: "a" }));
      expect(refused).toBeInstanceOf(errors.ProviderError);
      expect(refused.message).toMatch(/nothing was sent, so it is safe to retry/);
    });
  });

  describe("time limits, cancellation and size", () => {
    it("a call without an answer times out: a read with TimeoutError, a mutation with an unknown outcome", async () => {
      worker.answer(hang);
      const read = await failure(client({ timeoutMs: 200 }).list());
      expect(read).toBeInstanceOf(errors.TimeoutError);
      expect(read.message).toBe("list: no answer within 200 ms (worker method list, station local)");
      const write = await failure(client({ timeoutMs: 200 }).execute("s1", { op: "click", selector: "#go" }));
      expect(write).toBeInstanceOf(errors.OutcomeUnknownError);
      expect(write.message).toMatch(/^execute: no answer within 200 ms; the worker may have run it/);
      expect(write).toMatchObject({ method: "execute", sessionId: "s1" });
      // An observation changes nothing: its lost answer is a plain time-out, not an unknown outcome.
      const look = await failure(client({ timeoutMs: 200 }).execute("s1", { op: "inspect" }));
      expect(look).toBeInstanceOf(errors.TimeoutError);
      expect(worker.requests).toHaveLength(3);
    });

    it("stretches the deadline for a command given a longer timeout of its own", async () => {
      // The command's answer is held until a plain call, started after it with the same 200 ms limit, has timed out:
      // the client's 200 ms would have cut the command off by then; its own 5 s timeout (plus margin) lets the answer arrive.
      const answer = dataScript({ ok: true, url: "http://127.0.0.1/", title: "" });
      let arrived!: () => void;
      const commandArrived = new Promise<void>((resolve) => (arrived = resolve));
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      worker.answer((request, response, destroy) => {
        if (request.body?.method !== "execute") return; // the plain call gets no answer
        arrived();
        void held.then(() => answer(request, response, destroy));
      });
      const command = client({ timeoutMs: 200 }).execute("s1", { op: "waitFor", text: "ready", timeoutMs: 5000 });
      await commandArrived;
      expect(await failure(client({ timeoutMs: 200 }).list())).toBeInstanceOf(errors.TimeoutError);
      release();
      await expect(command).resolves.toMatchObject({ ok: true });
    });

    it("stretches the deadline for a command carrying a typing cadence (its budget plus the longest pacing wait)", async () => {
      const answer = dataScript({ ok: true, url: "http://127.0.0.1/", title: "", navigated: false, newPages: [], pacedMs: 2 });
      let arrived!: () => void;
      const commandArrived = new Promise<void>((resolve) => (arrived = resolve));
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      worker.answer((request, response, destroy) => {
        if (request.body?.method !== "execute") return;
        arrived();
        void held.then(() => answer(request, response, destroy));
      });
      const command = client({ timeoutMs: 200 }).execute("s1", { op: "fill", selector: "#a", value: "ab", keyDelaysMs: [1, 1] });
      await commandArrived;
      expect(await failure(client({ timeoutMs: 200 }).list())).toBeInstanceOf(errors.TimeoutError);
      release();
      await expect(command).resolves.toMatchObject({ ok: true, pacedMs: 2 });
    });

    it("the time limit covers retries", async () => {
      worker.answer(status(503));
      await expect(client({ timeoutMs: 300, retry: { delayMs: 5000, maxDelayMs: 5000 } }).list()).rejects.toSatisfy(errors.isTimeoutError);
      expect(worker.requests).toHaveLength(1);
    });

    it("an AbortSignal cancels a call; a cancelled mutation that was sent has an unknown outcome", async () => {
      const aborted = AbortSignal.abort();
      await expect(client().execute("s1", { op: "click", selector: "a" }, { signal: aborted })).rejects.toThrow(/^execute: cancelled before it was sent/);
      await expect(client().list({ signal: aborted })).rejects.toSatisfy(errors.isActionFailedError);
      expect(worker.requests).toHaveLength(0);
      let controller = new AbortController();
      worker.answer(() => controller.abort());
      const write = await failure(client().execute("s1", { op: "click", selector: "a" }, { signal: controller.signal }));
      expect(write).toBeInstanceOf(errors.OutcomeUnknownError);
      expect(write.message).toMatch(/^execute: cancelled after the request was sent/);
      controller = new AbortController();
      const read = await failure(client().list({ signal: controller.signal }));
      expect(read).toBeInstanceOf(errors.ActionFailedError);
      expect(read.message).toBe("list: cancelled (worker method list, station local)");
      expect(worker.requests).toHaveLength(2);
    });

    it("refuses an answer over 33 MiB, declared or streamed", async () => {
      worker.answer((_request, response) => {
        response.writeHead(200, { "content-type": "application/json", "content-length": String(34 * 1024 * 1024) });
        response.write('{"data":');
      });
      await expect(client().list()).rejects.toThrow(/^list: the worker's answer is larger than 34603008 bytes/);
      await expect(client().close("s1")).rejects.toSatisfy(errors.isOutcomeUnknownError);
      worker.answer((_request, response) => {
        response.writeHead(200, { "content-type": "application/json" });
        const chunk = "x".repeat(1024 * 1024);
        for (let index = 0; index < 34; index++) response.write(chunk);
        response.end();
      });
      await expect(client({ retry: { limit: 0 } }).checkpoints()).rejects.toSatisfy(errors.isPayloadTooLargeError);
    });
  });

  describe("the API key", () => {
    const withKey = `before ${apiKey} after`;
    const leaks = (value: unknown) => {
      const text = value instanceof Error ? [value.message, value.stack, String(value), inspect(value, { depth: 10 })].join("\n") : inspect(value, { depth: 10 });
      return text.includes(apiKey) || text.includes(apiKey.slice(0, 16));
    };

    it("never appears in an error, even when the worker echoes it", async () => {
      const found: Error[] = [];
      const collect = async (script: Script, call: (c: BrowserUseClient) => Promise<unknown>, options: Partial<BrowserUseClientOptions> = {}) => {
        worker.answer(script);
        found.push(await failure(call(client({ retry: { limit: 0 }, ...options }))));
      };
      await collect((_request, response) => sendJson(response, 409, { error: { code: "busy", message: withKey } }), (c) => c.close("s1"));
      await collect((_request, response) => sendJson(response, 400, { error: { code: withKey, message: withKey } }), (c) => c.list());
      // Details are the worker's text too: each field is scrubbed (inspect shows the fields).
      await collect((_request, response) => sendJson(response, 409, { error: { code: "stale_ref", message: "stale", details: { ref: withKey } } }), (c) => c.list());
      await collect((_request, response) => sendJson(response, 400, { error: { code: "validation", message: "bad", details: { field: apiKey } } }), (c) => c.list());
      await collect(status(502, `${"x".repeat(70)}${apiKey}`), (c) => c.list());
      await collect(status(502, withKey), (c) => c.execute("s1", { op: "inspect" }));
      await collect(dataScript({ mode: apiKey }), (c) => c.control("s1"));
      await collect(status(302), (c) => c.list());
      await collect(reset, (c) => c.execute("s1", { op: "inspect" }));
      await collect(reset, (c) => c.list());
      await collect(hang, (c) => c.execute("s1", { op: "inspect" }), { timeoutMs: 100 });
      await collect(hang, (c) => c.list(), { timeoutMs: 100 });
      found.push(await failure(client({ baseUrl: "http://127.0.0.1:1" }).open()));
      found.push(await failure(Promise.resolve().then(() => resolveClientOptions({ baseUrl: worker.origin, stationId: "x", apiKey: `${apiKey} ` }))));
      expect(found).toHaveLength(14);
      for (const error of found) {
        expect(errors.isStationBrowserError(error)).toBe(true);
        expect(leaks(error)).toBe(false);
      }
      expect(found[0]!.message).toContain("before [redacted] after");
      expect((found[2] as errors.StaleRefError).ref).toBe("before [redacted] after");
    });

    it("is hidden in every form and every cut-off start a worker may echo", async () => {
      const key = 'k3y"/+&=%SECRET~-0123456789abcdef';
      const base64 = btoa(key);
      const forms = [key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key), new URL(`http://x/${key}`).pathname, new URLSearchParams({ k: key }).toString(), base64, btoa(`me:${key}`)];
      const echoes = [...forms, `${key.slice(0, 9)}XYZ`, `${encodeURIComponent(key).slice(0, 12)}&next=1`, `${base64.slice(0, 10)}…`];
      for (const echo of echoes) {
        worker.answer((_request, response) => sendJson(response, 409, { error: { code: "busy", message: `header was ${echo} (end)` } }));
        const error = await failure(client({ apiKey: key, retry: { limit: 0 } }).close("s1"));
        expect(error.message).toContain("[redacted]");
        expect(error.message).toContain("(end)");
        for (const form of [...forms, base64.slice(4)]) expect(error.message).not.toContain(form.slice(0, 8));
      }
    });

    it("stays out of the client's printed and serialized form", () => {
      const instance = client();
      expect(leaks(instance)).toBe(false);
      expect(JSON.stringify(instance)).not.toContain(apiKey);
      expect(instance.stationId).toBe("local");
    });
  });
});
