import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { BrowserUseClient, resolveClientOptions, type BrowserUseClientOptions } from "../../src/agent.js";
import * as errors from "../../src/errors.js";
import { errorStatus, workerRequestSchemas, type WorkerErrorCode, type WorkerMethod } from "../../src/protocol/wire.js";
import { dataScript, sendJson, useScriptedWorker } from "../helpers/scripted-worker.js";

const apiKey = "tenant-key-0123456789abcdef0123456789abcdef";
const worker = useScriptedWorker();

const client = (options: Partial<BrowserUseClientOptions> = {}) =>
  new BrowserUseClient({ baseUrl: worker.origin, stationId: "local", apiKey, retry: { limit: 0 }, ...options });

const session = { id: "s1", provider: "local", openTag: "t1", openedAt: "2025-01-01T00:00:00.000Z", control: { mode: "automation" } };
const checkpoint = { id: "c1", createdAt: "x", sessionId: "s1", backend: "local", options: {}, pages: [{ url: "about:blank", title: "" }], selectedIndex: 0 };
const recording = { id: "r1", sessionId: "s1", startedAt: "x", state: "recording", frames: [{ id: "f1", capturedAt: "x", bytes: 3 }] };
const frame = { mimeType: "image/png", base64: "iVBO", capturedAt: "x" };
const grant = { token: "lease-token", expiresAt: "x" };
const actionResult = { ok: true, url: "https://example.com/", title: "Example", navigated: true, newPages: [] };
const inspectResult = { elements: [{ tag: "a", box: { x: 0, y: 0, width: 1, height: 1 } }], truncated: false, coordinateSpace: "css-pixels-main-viewport", viewport: { width: 1280, height: 800 } };

type Case = [name: string, call: (client: BrowserUseClient) => Promise<unknown>, body: Record<string, unknown> & { method: WorkerMethod }, data: unknown];
const cases: Case[] = [
  ["open", (c) => c.open({ openTag: "t1", profileId: "work" }), { method: "open", options: { openTag: "t1", profileId: "work" } }, session],
  ["execute", (c) => c.execute("s1", { op: "inspect" }, { controlToken: "tok" }), { method: "execute", id: "s1", command: { op: "inspect" }, controlToken: "tok" }, inspectResult],
  ["perform", (c) => c.perform("s1", "navigate", "https://example.com/", "tok"), { method: "action", id: "s1", action: "navigate", value: "https://example.com/", controlToken: "tok" }, actionResult],
  ["perform screenshot", (c) => c.perform("s1", "screenshot"), { method: "action", id: "s1", action: "screenshot" }, { mimeType: "image/png", base64: "iVBO", width: 1, height: 1, scale: 1 }],
  ["close", (c) => c.close("s1"), { method: "close", id: "s1" }, null],
  ["closeSession", (c) => c.closeSession("s2"), { method: "close", id: "s2" }, { ok: true }],
  ["list", (c) => c.list(), { method: "list" }, [session]],
  ["liveFrame", (c) => c.liveFrame("s1"), { method: "liveFrame", id: "s1" }, frame],
  ["acquireControl", (c) => c.acquireControl("s1", 5000), { method: "controlAcquire", id: "s1", ttlMs: 5000 }, grant],
  ["renewControl", (c) => c.renewControl("s1", "tok"), { method: "controlRenew", id: "s1", token: "tok" }, grant],
  ["releaseControl", (c) => c.releaseControl("s1", "tok"), { method: "controlRelease", id: "s1", token: "tok" }, { mode: "automation", challenge: { state: "none", evidence: [] } }],
  ["control", (c) => c.control("s1"), { method: "control", id: "s1" }, { mode: "human", expiresAt: "x" }],
  ["checkpoint", (c) => c.checkpoint("s1"), { method: "checkpoint", id: "s1" }, checkpoint],
  ["checkpoints", (c) => c.checkpoints(), { method: "checkpoints" }, [checkpoint]],
  ["resumeCheckpoint", (c) => c.resumeCheckpoint("c1", { openTag: "t9" }), { method: "resume", checkpointId: "c1", openTag: "t9" }, session],
  ["deleteCheckpoint", (c) => c.deleteCheckpoint("c1"), { method: "deleteCheckpoint", checkpointId: "c1" }, null],
  ["startRecording", (c) => c.startRecording("s1"), { method: "recordingStart", id: "s1" }, recording],
  ["stopRecording", (c) => c.stopRecording("r1"), { method: "recordingStop", recordingId: "r1" }, { ...recording, state: "stopped" }],
  ["getRecording", (c) => c.getRecording("r1"), { method: "recording", recordingId: "r1" }, recording],
  ["recordings", (c) => c.recordings(), { method: "recordings" }, [recording]],
  ["recordingFrame", (c) => c.recordingFrame("r1", "f1"), { method: "recordingFrame", recordingId: "r1", frameId: "f1" }, frame],
  ["deleteRecording", (c) => c.deleteRecording("r1"), { method: "recordingDelete", recordingId: "r1" }, null],
  ["reconcile", (c) => c.reconcile("t1"), { method: "reconcile", openTag: "t1" }, [session]],
  [
    "reconcileAll",
    (c) => c.reconcileAll({ adopt: true }),
    { method: "reconcileAll", adopt: true },
    { adopted: [{ openTag: "t1", sessionId: "s1" }], released: [], absent: ["t2"], unresolved: [{ openTag: "t3", reason: "search failed" }] },
  ],
];

describe("BrowserUseClient requests and results", () => {
  it.each(cases)("%s sends the wire body and returns the validated data", async (_name, call, body, data) => {
    expect(v.safeParse(workerRequestSchemas[body.method], body).success).toBe(true);
    worker.answer(dataScript(data));
    const result = await call(client());
    expect(worker.requests).toHaveLength(1);
    const [request] = worker.requests;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe("/api/v1/tenant/stations/local/execution/browser");
    expect(request!.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.body).toEqual(body);
    const voidResult = data === null || body.method === "close";
    expect(result).toEqual(voidResult ? undefined : data);
  });

  it("open sends a fresh UUID openTag when none is given, and refuses an answer for another tag", async () => {
    worker.answer((request, response) => sendJson(response, 200, { data: { ...session, openTag: (request.body!.options as { openTag: string }).openTag } }));
    const first = await client().open();
    const second = await client().open();
    const tags = worker.requests.map((request) => (request.body!.options as { openTag: string }).openTag);
    expect(tags[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(tags[1]).not.toBe(tags[0]);
    expect([first.openTag, second.openTag]).toEqual(tags);
    worker.answer(dataScript({ ...session, openTag: "someone-else" }));
    await expect(client().open({ openTag: "mine" })).rejects.toThrow(/data\.openTag: expected the tag that was sent/);
  });

  it("uses the operator route only when asked, keeps a base path and encodes the station id", async () => {
    worker.answer(dataScript([]));
    await client({ operator: true }).list();
    await client({ stationId: "a/b?c#d e", baseUrl: `${worker.origin}/prefix/` }).list();
    expect(worker.requests.map((request) => request.url)).toEqual([
      "/api/v1/stations/local/execution/browser",
      "/prefix/api/v1/tenant/stations/a%2Fb%3Fc%23d%20e/execution/browser",
    ]);
  });

  it("sends through the given fetch, with redirects set to manual", async () => {
    const seen: Request[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      seen.push(new Request(input, init));
      return globalThis.fetch(input, init);
    };
    worker.answer(dataScript([]));
    await client({ fetch }).list();
    expect(seen.map((request) => [request.method, request.redirect, request.url])).toEqual([
      ["POST", "manual", `${worker.origin}/api/v1/tenant/stations/local/execution/browser`],
    ]);
  });

  it("hands fetch the URL and an init rather than a Request, which fetch would copy with its body piped through one more stream", async () => {
    const inputs: unknown[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      inputs.push(input);
      return globalThis.fetch(input, init);
    };
    worker.answer(dataScript([]));
    await client({ fetch }).list();
    expect(inputs).toEqual([`${worker.origin}/api/v1/tenant/stations/local/execution/browser`]);
  });

  it("refuses a bad request before sending anything, naming the field", async () => {
    await expect(client().execute("", { op: "inspect" })).rejects.toThrow(/^execute\.id: expected a non-empty session id/);
    await expect(client().open({ profileId: "../etc" })).rejects.toThrow(/^open\.options\.profileId: expected a profile id/);
    await expect(client().recordingFrame("r1", "f/1")).rejects.toThrow(/^recordingFrame\.frameId: expected a frame id/);
    await expect(client().execute("s1", { op: "evaluate", expression: 1n } as never)).rejects.toThrow(/^execute\.command: expected JSON-compatible values/);
    const huge = "x".repeat(200 * 1024);
    await expect(client().execute("s1", { op: "fill", selector: "#a", value: huge })).rejects.toSatisfy(errors.isPayloadTooLargeError);
    // 50 000 characters of 3 UTF-8 bytes each: under the limit in characters, over it in bytes.
    await expect(client().execute("s1", { op: "fill", selector: "#a", value: "€".repeat(50_000) })).rejects.toThrow(/^execute: the request is 1500\d\d bytes; at most 131072/);
    expect(worker.requests).toHaveLength(0);
  });

  it("sends a body of multi-byte characters that is under the byte limit", async () => {
    worker.answer(dataScript(actionResult));
    await client().execute("s1", { op: "fill", selector: "#a", value: "€".repeat(40_000) });
    expect(worker.requests).toHaveLength(1);
  });
});

const expectedClass: Record<WorkerErrorCode, new (...args: never[]) => errors.StationBrowserError> = {
  validation: errors.ValidationError,
  bad_request: errors.ValidationError,
  unauthorized: errors.AuthenticationError,
  forbidden: errors.AuthenticationError,
  not_found: errors.NotFoundError,
  busy: errors.BusyError,
  stale_ref: errors.StaleRefError,
  profile_in_use: errors.ProfileInUseError,
  profile: errors.ProfileError,
  reconcile_required: errors.ReconcileRequiredError,
  session_closed: errors.SessionClosedError,
  payload_too_large: errors.PayloadTooLargeError,
  ambiguous_target: errors.AmbiguousTargetError,
  url_policy: errors.UrlPolicyError,
  action_failed: errors.ActionFailedError,
  control_lease: errors.ControlLeaseError,
  capacity: errors.CapacityError,
  rate_limited: errors.RateLimitedError,
  internal: errors.InternalError,
  not_implemented: errors.NotImplementedError,
  provider: errors.ProviderError,
  outcome_unknown: errors.OutcomeUnknownError,
  draining: errors.DrainingError,
  journal: errors.JournalError,
  browser_not_found: errors.BrowserNotFoundError,
  timeout: errors.TimeoutError,
};

describe("worker errors", () => {
  it.each(Object.entries(errorStatus))("%s (HTTP %i) comes back as its error class with the method and session", async (code, status) => {
    worker.answer((_request, response) => sendJson(response, status, { error: { code, message: "Ref e7 matched 3 things on s9" } }));
    const error = await client().close("s1").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(expectedClass[code as WorkerErrorCode]);
    expect((error as errors.StationBrowserError).code).toBe(code === "bad_request" ? "validation" : code);
    expect((error as Error).message).toContain("Ref e7 matched 3 things on s9");
    expect((error as Error).message).toContain("worker method close, station local, session s1");
    expect(worker.requests).toHaveLength(1);
  });

  const click = (c: BrowserUseClient): Promise<unknown> => c.execute("s1", { op: "click", selector: "a" });
  const failed = async (status: number, error: Record<string, unknown>, call = click) => {
    worker.answer((_request, response) => sendJson(response, status, { error }));
    return (await call(client()).catch((caught: unknown) => caught)) as errors.StationBrowserError & Record<string, unknown>;
  };

  it("rebuilds typed errors from the body's details, never from the message", async () => {
    const validation = await failed(400, { code: "validation", message: "command.url: required", details: { field: "command.url" } });
    expect(validation).toBeInstanceOf(errors.ValidationError);
    expect(validation.field).toBe("command.url");
    expect(validation.message).toBe("command.url: required (worker method execute, station local, session s1)");
    // The message names other values than the details: the details win.
    const ambiguous = await failed(422, { code: "ambiguous_target", message: "click: target matched 9 elements", details: { count: 4 } });
    expect([errors.isAmbiguousTargetError(ambiguous), ambiguous.count]).toEqual([true, 4]);
    const stale = await failed(409, { code: "stale_ref", message: "Ref e9 is stale", details: { ref: "e7" } });
    expect([errors.isStaleRefError(stale), stale.ref]).toEqual([true, "e7"]);
    const provider = await failed(502, { code: "provider", message: "browserbase refused", details: { status: 400, requestId: "req-1" } });
    expect([provider.status, provider.requestId]).toEqual([400, "req-1"]);
    const capacity = await failed(429, { code: "capacity", message: "at capacity", details: { retryAfterMs: 1500 } });
    expect([errors.isCapacityError(capacity), capacity.retryAfterMs]).toEqual([true, 1500]);
    // A newer worker's extra detail is let through the schema and ignored.
    const busy = await failed(409, { code: "busy", message: "busy", details: { queuePosition: 2 } });
    expect([errors.isBusyError(busy), busy.queuePosition]).toEqual([true, undefined]);
    const teapot = await failed(418, { code: "teapot", message: "short and stout", details: {} }, (c) => c.close("s1"));
    expect(teapot.message).toMatch(/unknown error code "teapot" \(HTTP 418\): short and stout/);
  });

  it("the call's own ids win over the worker's in an unknown outcome", async () => {
    const details = { method: "execute", sessionId: "manager-s1", openTag: "t9" };
    const unknown = await failed(502, { code: "outcome_unknown", message: "lost", details });
    expect(unknown).toBeInstanceOf(errors.OutcomeUnknownError);
    expect([unknown.method, unknown.sessionId, unknown.openTag]).toEqual(["execute", "s1", "t9"]);
  });

  it("gives a body without details (an older worker) its class, reading nothing out of the message", async () => {
    const validation = await failed(400, { code: "validation", message: "command.url: required" });
    expect([errors.isValidationError(validation), validation.field]).toEqual([true, "request"]);
    expect(validation.message).toContain("command.url: required");
    const ambiguous = await failed(422, { code: "ambiguous_target", message: "click: target matched 4 elements; give nth" });
    expect([errors.isAmbiguousTargetError(ambiguous), ambiguous.count]).toEqual([true, undefined]);
    const stale = await failed(409, { code: "stale_ref", message: "Ref e7 is stale" });
    expect([errors.isStaleRefError(stale), stale.ref]).toEqual([true, undefined]);
    // A provider error then carries the worker's HTTP status, as before details existed.
    const provider = await failed(502, { code: "provider", message: "browserbase refused" });
    expect([errors.isProviderError(provider), provider.status]).toEqual([true, 502]);
  });

  it("finds a details field of the wrong type unreadable, like any malformed answer", async () => {
    const error = await failed(422, { code: "ambiguous_target", message: "matched", details: { count: "4" } }, (c) => c.list());
    expect(error).toBeInstanceOf(errors.ProviderError);
    expect(error.message).toMatch(/^list: the worker's answer could not be read \(HTTP 422/);
  });
});

describe("malformed answers", () => {
  const answers: [what: string, status: number, contentType: string, text: string, pattern: RegExp][] = [
    ["missing data", 200, "application/json", "{}", /expected \{ "data": … \}/],
    ["data of the wrong type", 200, "application/json", '{"data":{"sessions":[]}}', /data: Invalid type: Expected Array/],
    ["a field of the wrong type", 200, "application/json", '{"data":[{"id":1}]}', /data\[0\]\.id: Invalid type/],
    ["not JSON", 200, "text/plain", "hello", /not JSON: text\/plain, "hello"/],
    ["an HTML 502 page", 502, "text/html", "<html>Bad Gateway</html>", /HTTP 502, not JSON: text\/html/],
    ["an error envelope with 200", 200, "application/json", '{"error":{"code":"busy","message":"x"}}', /HTTP 200/],
  ];
  it.each(answers)("%s on a read is a ProviderError naming the method", async (_what, status, contentType, text, pattern) => {
    worker.answer((_request, response) => response.writeHead(status, { "content-type": contentType }).end(text));
    const error = await client().list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(errors.ProviderError);
    expect((error as errors.ProviderError).status).toBe(status);
    expect((error as Error).message).toMatch(/^list: the worker's answer could not be read/);
    expect((error as Error).message).toMatch(pattern);
  });

  it("checks a text result's shape: a missing text is refused, not passed on", async () => {
    worker.answer(dataScript({ text: "Hello", truncated: false, url: "https://example.test/", title: "Example" }));
    expect(await client().execute("s1", { op: "text", maxBytes: 1024 })).toEqual({ text: "Hello", truncated: false, url: "https://example.test/", title: "Example" });
    worker.answer(dataScript({ ok: true, truncated: false, url: "https://example.test/", title: "Example" }));
    const malformed = await client().execute("s1", { op: "text" }).catch((caught: unknown) => caught);
    expect(malformed).toBeInstanceOf(Error);
    expect((malformed as Error).message).toMatch(/the text result does not match the protocol: result\.text: required/);
  });

  it("passes on a fill/type result's sensitive flag, accepts one without it (an older worker), refuses one of the wrong type", async () => {
    const action = { ok: true, url: "https://example.test/", title: "Example", navigated: false, newPages: [] };
    worker.answer(dataScript({ ...action, sensitive: false }));
    expect(await client().execute("s1", { op: "fill", selector: "#q", value: "v" })).toMatchObject({ sensitive: false });
    worker.answer(dataScript(action));
    expect(await client().execute("s1", { op: "type", text: "v" })).not.toHaveProperty("sensitive");
    worker.answer(dataScript({ ...action, sensitive: "no" }));
    await expect(client().execute("s1", { op: "type", text: "v" })).rejects.toThrow(/result\.sensitive: expected boolean, received "no"/);
  });

  it("passes on an action's textChange and refuses one of the wrong shape", async () => {
    const action = { ok: true, url: "https://example.test/", title: "Example", navigated: false, newPages: [] };
    const change = { added: ["Saved"], removed: [], addedCount: 1, removedCount: 0 };
    worker.answer(dataScript({ ...action, textChange: change }));
    expect(await client().execute("s1", { op: "click", selector: "a", textChange: true })).toMatchObject({ textChange: change });
    worker.answer(dataScript({ ...action, textChange: { added: "Saved", removed: [], addedCount: 1, removedCount: 0 } }));
    await expect(client().execute("s1", { op: "click", selector: "a", textChange: true })).rejects.toThrow(/result\.textChange\.added: expected Array/);
  });

  it("on a mutation the worker may have acted on, the outcome is unknown; a 4xx page is not", async () => {
    worker.answer(dataScript({ ok: false }));
    const click = await client().execute("s1", { op: "click", selector: "a" }).catch((caught: unknown) => caught);
    expect(click).toBeInstanceOf(errors.OutcomeUnknownError);
    expect((click as Error).message).toMatch(/the click result does not match the protocol: result\.ok: expected true, received false.*session s1.*observe session s1/);
    worker.answer(dataScript({ elements: "none", truncated: false }));
    await expect(client().execute("s1", { op: "inspect" })).rejects.toThrow(/result\.elements: expected Array/);
    worker.answer((_request, response) => response.writeHead(502, { "content-type": "text/html" }).end("<html>Bad Gateway</html>"));
    await expect(client().execute("s1", { op: "hover", selector: "a" })).rejects.toSatisfy(errors.isOutcomeUnknownError);
    // An observation changes nothing, so the same answer to it is a plain provider error.
    await expect(client().execute("s1", { op: "inspect" })).rejects.toSatisfy(errors.isProviderError);
    worker.answer((_request, response) => response.writeHead(404, { "content-type": "text/html" }).end("<html>Not Found</html>"));
    const notFound = await client().close("s1").catch((caught: unknown) => caught);
    expect(notFound).toBeInstanceOf(errors.ProviderError);
    expect((notFound as errors.ProviderError).status).toBe(404);
  });

  it("never returns anything but a valid result or a package error, whatever JSON the worker sends", async () => {
    const calls: [(c: BrowserUseClient) => Promise<unknown>, (result: unknown) => boolean][] = [
      [(c) => c.list(), (result) => Array.isArray(result) && result.every((item) => typeof (item as { id?: unknown }).id === "string")],
      [(c) => c.open({ openTag: "t1" }), (result) => (result as { openTag?: unknown }).openTag === "t1"],
      [(c) => c.execute("s1", { op: "click", selector: "a" }), (result) => (result as { ok?: unknown }).ok === true],
      [(c) => c.execute("s1", { op: "screenshot" }), (result) => typeof (result as { base64?: unknown }).base64 === "string"],
      [(c) => c.liveFrame("s1"), (result) => (result as { mimeType?: unknown }).mimeType === "image/png"],
      [(c) => c.control("s1"), (result) => ["automation", "human"].includes((result as { mode?: unknown }).mode as string)],
      [(c) => c.close("s1"), (result) => result === undefined],
    ];
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ data: fc.jsonValue() }),
      fc.record({ data: fc.record({ ok: fc.constantFrom(true, false), id: fc.string(), openTag: fc.constant("t1"), mode: fc.constantFrom("human", "x") }) }),
      fc.record({ error: fc.record({ code: fc.constantFrom(...Object.keys(errorStatus), "weird"), message: fc.string() }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.nat(calls.length - 1), fc.constantFrom(200, 201, 400, 404, 409, 500, 502, 503), body, async (index, status, json) => {
        worker.answer((_request, response) => sendJson(response, status, json));
        const [call, valid] = calls[index]!;
        const outcome = await call(client()).then(
          (result) => ({ ok: true as const, result }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        if (outcome.ok) {
          expect(status).toBeLessThan(300);
          expect(valid(outcome.result)).toBe(true);
        } else {
          expect(errors.isStationBrowserError(outcome.error)).toBe(true);
          expect((outcome.error as Error).message).toMatch(/worker method|station local/);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("options", () => {
  const base = { baseUrl: "http://127.0.0.1:1", stationId: "local", apiKey };
  const problem = (options: Record<string, unknown>) => {
    try {
      resolveClientOptions(options as unknown as BrowserUseClientOptions);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error("expected the options to be refused");
  };

  it("fills the defaults from one table", () => {
    const resolved = resolveClientOptions({ ...base, baseUrl: "https://browsers.example.com/base//" });
    expect(resolved).toMatchObject({ baseUrl: "https://browsers.example.com/base", timeoutMs: 60_000, operator: false, retry: { limit: 2, delayMs: 100, maxDelayMs: 400 } });
    expect(typeof resolved.fetch).toBe("function");
  });

  it("names the bad field and never echoes the key", () => {
    expect(problem({ ...base, baseUrl: undefined })).toMatch(/^options\.baseUrl: required/);
    expect(problem({ ...base, baseUrl: "/relative" })).toBe("options.baseUrl: expected an absolute http(s) URL");
    expect(problem({ ...base, baseUrl: "ftp://example.com" })).toBe("options.baseUrl: expected an http: or https: URL");
    expect(problem({ ...base, baseUrl: "https://user:pw@example.com" })).toMatch(/^options\.baseUrl: credentials in the URL are refused/);
    expect(problem({ ...base, baseUrl: "https://example.com/?key=1" })).toBe("options.baseUrl: expected no query or fragment");
    expect(problem({ ...base, stationId: "" })).toBe("options.stationId: expected a non-empty station id");
    expect(problem({ ...base, apiKey: "" })).toBe("options.apiKey: expected a non-empty API key");
    expect(problem({ ...base, apiKey: `${apiKey} x` })).toBe("options.apiKey: expected printable ASCII without spaces");
    expect(problem({ ...base, timeoutMs: 0 })).toBe("options.timeoutMs: expected a number ≥ 1");
    expect(problem({ ...base, operator: "yes" })).toBe("options.operator: expected a boolean");
    expect(problem({ ...base, fetch: "fetch" })).toBe("options.fetch: expected a fetch function");
    expect(problem({ ...base, retry: { limit: 9 } })).toBe("options.retry.limit: expected a number ≤ 5");
    expect(problem({ ...base, tenant: "t" })).toBe("options.tenant: unknown field");
  });
});
