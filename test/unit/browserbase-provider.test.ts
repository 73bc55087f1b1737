/**
 * The Browserbase REST half against an msw stand-in at the wire format:
 * exact request bodies, statuses, release, find, 429s, lost responses and
 * credentials. No browser here; test/integration/browserbase.test.ts drives one.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { http, HttpResponse, passthrough } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ActionFailedError,
  CapacityError,
  OutcomeUnknownError,
  ProviderError,
  ValidationError,
} from "../../src/errors.js";
import { createBrowserbaseRestProvider, type BrowserbaseRestProviderOptions } from "../../src/providers/browserbase/index.js";
import { baseURL, createBrowserbaseMock, fakeSleep } from "../helpers/browserbase-mock.js";
import { failure } from "../helpers/failure.js";

const apiKey = "bb_live_TOPSECRET_0123456789abcdef";
const mock = createBrowserbaseMock({ apiKey, connectUrl: "wss://connect.browserbase.test/?signingKey=abc" });
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  mock.reset();
});
afterAll(() => server.close());

type Resolver = (request: Request) => Response | Promise<Response>;
/** A handler put in front of the stand-in's; it records the request like the stand-in does. */
const answer = (resolver: Resolver) => async ({ request }: { request: Request }) => {
  await mock.record(request);
  return resolver(request);
};

function provider(options: Partial<BrowserbaseRestProviderOptions> = {}) {
  return createBrowserbaseRestProvider({ apiKey, baseURL, sleep: fakeSleep().sleep, ...options });
}

const caught = (run: () => Promise<unknown>): Promise<Error> => failure(run());

describe("create", () => {
  it("sends the exact body, in seconds, with the key header, and reads the live view", async () => {
    const rest = provider({
      projectId: "proj_1",
      region: "eu-central-1",
      proxies: true,
      solveCaptchas: false,
      blockAds: true,
      keepAlive: true,
      sessionTimeoutMs: 300_000,
      viewport: { width: 1440, height: 900 },
      browserSettings: { recordSession: false, os: "linux" },
    });
    const session = await rest.create({ openTag: "tag-1" });

    expect(mock.calls()).toEqual(["POST /v1/sessions", `GET /v1/sessions/${session.id}/debug`]);
    expect(mock.requests.every((request) => request.apiKey === apiKey)).toBe(true);
    expect(mock.requests[0]!.body).toEqual({
      projectId: "proj_1",
      timeout: 300,
      keepAlive: true,
      region: "eu-central-1",
      proxies: true,
      browserSettings: { recordSession: false, os: "linux", blockAds: true, solveCaptchas: false, viewport: { width: 1440, height: 900 } },
      userMetadata: { openTag: "tag-1" },
    });
    expect(session).toEqual({
      id: session.id,
      status: "RUNNING",
      openTag: "tag-1",
      createdAt: expect.any(String),
      cdpUrl: "wss://connect.browserbase.test/?signingKey=abc",
      liveViewUrl: expect.stringContaining("fullscreen=1"),
    });
    expect(JSON.stringify(session)).not.toContain("signing-key-value");
  });

  it("sends only what is set, the request's viewport over the default, and the timeout rounded up to whole seconds", async () => {
    await provider().create({ openTag: "tag-2" });
    await provider({ sessionTimeoutMs: 90_500 }).create({ openTag: "tag-3", viewport: { width: 800, height: 600 } });
    expect(mock.requests.filter((request) => request.method === "POST").map((request) => request.body)).toEqual([
      { browserSettings: { viewport: { width: 1280, height: 800 } }, userMetadata: { openTag: "tag-2" } },
      { timeout: 91, browserSettings: { viewport: { width: 800, height: 600 } }, userMetadata: { openTag: "tag-3" } },
    ]);
  });

  it("skips the live view call when asked, and survives a failing one", async () => {
    const quiet = await provider({ liveView: false }).create({ openTag: "no-live" });
    expect(mock.calls()).toEqual(["POST /v1/sessions"]);
    expect(quiet.liveViewUrl).toBeUndefined();

    server.use(http.get(`${baseURL}/v1/sessions/:id/debug`, answer(() => HttpResponse.json({ message: "boom" }, { status: 500 }))));
    const session = await provider().create({ openTag: "live-fails" });
    expect(session.status).toBe("RUNNING");
    expect(session.liveViewUrl).toBeUndefined();
    server.resetHandlers();
    expect(await provider().liveViewUrl("00000000-0000-4000-8000-00000000dead")).toBeUndefined();
  });

  it("refuses a malformed open tag or profile id before any request", async () => {
    const rest = provider();
    expect(await caught(() => rest.create({ openTag: "x' OR 1=1" }))).toBeInstanceOf(ValidationError);
    expect(await caught(() => rest.create({ openTag: "ok", profile: { id: "../etc" } }))).toBeInstanceOf(ValidationError);
    expect(mock.requests).toEqual([]);
  });

  it("does not send a create whose signal is already aborted", async () => {
    const error = await caught(() => provider().create({ openTag: "aborted", signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(ActionFailedError);
    expect(mock.requests).toEqual([]);
  });

  it("reports a create cancelled in flight as outcome unknown", async () => {
    const controller = new AbortController();
    // The answer is held until the create has given up on it, so the abort is what ends the create.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post(
        `${baseURL}/v1/sessions`,
        answer(async () => {
          controller.abort();
          await held;
          return HttpResponse.json({}, { status: 201 });
        }),
      ),
    );
    const error = await caught(() => provider().create({ openTag: "cancelled", signal: controller.signal })).finally(release);
    expect(mock.calls()).toEqual(["POST /v1/sessions"]);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error.message).toContain("open tag cancelled");
  });
});

describe("options", () => {
  it("refuses malformed options, naming the field and never echoing the key", () => {
    const attempt = (options: Record<string, unknown>) => {
      try {
        createBrowserbaseRestProvider({ apiKey, baseURL, ...options } as BrowserbaseRestProviderOptions);
        return undefined;
      } catch (error) {
        return error as ValidationError;
      }
    };
    expect(attempt({ sessionTimeoutMs: 1000 })?.field).toBe("options.sessionTimeoutMs");
    expect(attempt({ sessionTimeoutMs: 22_000_000 })?.field).toBe("options.sessionTimeoutMs");
    expect(attempt({ region: "mars-1" })?.field).toBe("options.region");
    expect(attempt({ baseURL: "https://user:pw@api.browserbase.test" })?.field).toBe("options.baseURL");
    expect(attempt({ sessionTimeout: 300 })?.field).toBe("options.sessionTimeout");
    const badKey = attempt({ apiKey: `${apiKey} trailing` });
    expect(badKey?.field).toBe("options.apiKey");
    expect(badKey?.message).not.toContain(apiKey);
    expect(attempt({})).toBeUndefined();
  });
});

describe("get", () => {
  it("maps every Browserbase status, and 404 to undefined", async () => {
    const rest = provider({ liveView: false });
    const { id } = await rest.create({ openTag: "statuses" });
    const expected = { PENDING: "PENDING", RUNNING: "RUNNING", ERROR: "ERROR", TIMED_OUT: "ENDED", COMPLETED: "ENDED" } as const;
    for (const [wire, mapped] of Object.entries(expected)) {
      mock.sessions.get(id)!.status = wire as keyof typeof expected;
      expect((await rest.get(id))?.status).toBe(mapped);
    }
    expect((await rest.get(id))?.openTag).toBe("statuses");
    expect(await rest.get("00000000-0000-4000-8000-000000000404")).toBeUndefined();
  });

  it("returns the connect URL of a running session (to adopt it) and encodes the id in the path", async () => {
    const rest = provider({ liveView: false });
    const { id } = await rest.create({ openTag: "adoptable" });
    expect((await rest.get(id))?.cdpUrl).toBe(mock.connectUrl);
    expect(await rest.get("a/b?c")).toBeUndefined();
    expect(mock.requests.at(-1)!.path).toBe("/v1/sessions/a%2Fb%3Fc");
  });

  it("throws a ProviderError (not undefined) when the read fails", async () => {
    server.use(http.get(`${baseURL}/v1/sessions/:id`, () => HttpResponse.json({ message: "upstream down" }, { status: 503 })));
    const error = await caught(() => provider().get("00000000-0000-4000-8000-000000000001"));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).status).toBe(503);
  });
});

describe("release", () => {
  it("posts REQUEST_RELEASE (with the project when one is set); there is no DELETE", async () => {
    const rest = provider({ liveView: false, projectId: "proj_1" });
    const { id } = await rest.create({ openTag: "rel" });
    await rest.release(id);
    expect(mock.requests.at(-1)).toEqual({
      method: "POST",
      path: `/v1/sessions/${id}`,
      apiKey,
      body: { status: "REQUEST_RELEASE", projectId: "proj_1" },
    });
    expect(mock.sessions.get(id)!.status).toBe("COMPLETED");

    const plain = provider({ liveView: false });
    const other = await plain.create({ openTag: "rel-2" });
    await plain.release(other.id);
    expect(mock.requests.at(-1)!.body).toEqual({ status: "REQUEST_RELEASE" });
    expect(mock.requests.some((request) => request.method === "DELETE")).toBe(false);
  });

  it("treats 404 and an already-ended session as released", async () => {
    const rest = provider({ liveView: false });
    await rest.release("00000000-0000-4000-8000-000000000404");
    const { id } = await rest.create({ openTag: "ended" });
    mock.sessions.get(id)!.status = "TIMED_OUT";
    await rest.release(id);
    expect(mock.calls().slice(-2)).toEqual([`POST /v1/sessions/${id}`, `GET /v1/sessions/${id}`]);
  });

  it("surfaces a failed release: refused while running, 5xx, or no answer", async () => {
    const rest = provider({ liveView: false });
    const { id } = await rest.create({ openTag: "stuck" });

    server.use(http.post(`${baseURL}/v1/sessions/:id`, answer(() => HttpResponse.json({ message: "bad request" }, { status: 400 })), { once: true }));
    const refused = await caught(() => rest.release(id));
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused.message).toContain(`release session ${id}`);

    server.use(http.post(`${baseURL}/v1/sessions/:id`, answer(() => HttpResponse.json({ message: "oops" }, { status: 502 })), { once: true }));
    expect(await caught(() => rest.release(id))).toBeInstanceOf(OutcomeUnknownError);

    server.use(http.post(`${baseURL}/v1/sessions/:id`, answer(() => HttpResponse.error()), { once: true }));
    expect(await caught(() => rest.release(id))).toBeInstanceOf(OutcomeUnknownError);

    expect(mock.sessions.get(id)!.status).toBe("RUNNING");
    await rest.release(id);
    expect(mock.sessions.get(id)!.status).toBe("COMPLETED");
  });
});

describe("find", () => {
  it("queries user metadata by open tag and returns only that tag's sessions", async () => {
    const rest = provider({ liveView: false });
    const wanted = await rest.create({ openTag: "find-me" });
    await rest.create({ openTag: "find-me-not" });
    const found = await rest.find("find-me");
    const request = mock.requests.at(-1)!;
    expect(request.method).toBe("GET");
    expect(new URL(request.path, baseURL).searchParams.get("q")).toBe("user_metadata['openTag']:'find-me'");
    expect(found.map((session) => [session.id, session.openTag, session.status])).toEqual([[wanted.id, "find-me", "RUNNING"]]);
  });

  it("drops a listed session whose stored tag differs (the query is trusted no further than equality)", async () => {
    server.use(
      http.get(`${baseURL}/v1/sessions`, () =>
        HttpResponse.json([
          { id: "a", status: "RUNNING", createdAt: "2026-01-01T00:00:00Z", userMetadata: { openTag: "other" } },
          { id: "b", status: "COMPLETED", createdAt: "2026-01-01T00:00:00Z", userMetadata: { openTag: "mine" } },
        ]),
      ),
    );
    expect((await provider().find("mine")).map((session) => [session.id, session.status])).toEqual([["b", "ENDED"]]);
  });

  it("refuses a tag that could break the query's quoting, without a request", async () => {
    for (const tag of ["a'b", "a b", "", "x".repeat(129), "tag\\"]) {
      expect(await caught(() => provider().find(tag))).toBeInstanceOf(ValidationError);
    }
    expect(mock.requests).toEqual([]);
  });
});

describe("429 and no blind retries", () => {
  const tooMany = (headers: Record<string, string>) =>
    HttpResponse.json(
      {
        statusCode: 429,
        error: "Too Many Requests",
        message: "You've exceeded your max concurrent sessions limit (limit 3, currently 3).",
      },
      { status: 429, headers },
    );

  it("waits what retry-after asks, then creates once", async () => {
    const timer = fakeSleep();
    server.use(http.post(`${baseURL}/v1/sessions`, answer(() => tooMany({ "retry-after": "2" })), { once: true }));
    const session = await provider({ sleep: timer.sleep, liveView: false }).create({ openTag: "after-429" });
    expect(timer.waits).toEqual([2000]);
    expect(mock.calls()).toEqual(["POST /v1/sessions", "POST /v1/sessions"]);
    expect(mock.sessions.size).toBe(1);
    expect(session.openTag).toBe("after-429");
  });

  it("gives up at the cap with a CapacityError carrying the provider's words", async () => {
    const timer = fakeSleep();
    server.use(http.post(`${baseURL}/v1/sessions`, answer(() => tooMany({ "retry-after-ms": "1000" }))));
    const error = await caught(() => provider({ sleep: timer.sleep, rateLimitCapMs: 2500 }).create({ openTag: "capped" }));
    expect(error).toBeInstanceOf(CapacityError);
    expect(error.message).toContain("max concurrent sessions limit (limit 3, currently 3)");
    expect((error as CapacityError).retryAfterMs).toBe(1000);
    expect(timer.waits).toEqual([1000, 1000]);
    expect(mock.calls()).toEqual(["POST /v1/sessions", "POST /v1/sessions", "POST /v1/sessions"]);
  });

  it("does not wait past the cap for a long retry-after", async () => {
    const timer = fakeSleep();
    server.use(http.post(`${baseURL}/v1/sessions`, answer(() => tooMany({ "retry-after": "60" }))));
    expect(await caught(() => provider({ sleep: timer.sleep }).create({ openTag: "long-wait" }))).toBeInstanceOf(CapacityError);
    expect(timer.waits).toEqual([]);
    expect(mock.calls()).toEqual(["POST /v1/sessions"]);
  });

  it("never repeats a create answered 5xx: outcome unknown, one request", async () => {
    server.use(http.post(`${baseURL}/v1/sessions`, answer(() => HttpResponse.json({ message: "gateway" }, { status: 502 }))));
    const error = await caught(() => provider().create({ openTag: "five-oh-two" }));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(mock.calls()).toEqual(["POST /v1/sessions"]);
  });

  it("a lost create response is outcome unknown; find(openTag) then returns exactly that session", async () => {
    server.use(mock.lostCreate());
    const rest = provider();
    const error = await caught(() => rest.create({ openTag: "lost-1" }));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error.message).toContain("open tag lost-1");
    expect(mock.calls()).toEqual(["POST /v1/sessions"]);

    const found = await rest.find("lost-1");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ id: [...mock.sessions.keys()][0], openTag: "lost-1", status: "RUNNING" });
    await rest.release(found[0]!.id);
    expect(await rest.find("lost-1")).toMatchObject([{ status: "ENDED" }]);
    expect(mock.sessions.size).toBe(1);
  });
});

describe("credentials", () => {
  it("never appear in errors or results, even when the provider echoes the key", async () => {
    const outputs: unknown[] = [];
    const record = async (run: () => Promise<unknown>) => {
      try {
        outputs.push(await run());
      } catch (error) {
        const failure = error as Error & { cause?: unknown };
        outputs.push({ ...failure, name: failure.name, message: failure.message, stack: failure.stack, cause: String(failure.cause) });
      }
    };
    const wrongKey = createBrowserbaseRestProvider({ apiKey: `${apiKey}-wrong`, baseURL });
    await record(() => wrongKey.create({ openTag: "bad-key" })); // 401 whose message echoes the key
    const rest = provider();
    const session = await rest.create({ openTag: "good" });
    outputs.push(session, await rest.get(session.id), await rest.find("good"));
    server.use(http.post(`${baseURL}/v1/sessions`, ({ request }) => HttpResponse.json({ message: `quota for ${request.headers.get("x-bb-api-key")}` }, { status: 429 })));
    await record(() => provider({ rateLimitCapMs: 0 }).create({ openTag: "rate" }));
    server.use(http.post(`${baseURL}/v1/sessions`, () => HttpResponse.error()));
    await record(() => rest.create({ openTag: "lost" }));
    server.use(http.get(`${baseURL}/v1/sessions/:id`, ({ request }) => HttpResponse.json({ message: `key ${request.headers.get("x-bb-api-key")} broke` }, { status: 500 })));
    await record(() => rest.get(session.id));

    const text = JSON.stringify(outputs);
    expect(text).toContain("[redacted]");
    expect(text).not.toContain("TOPSECRET");
    expect(outputs.filter((output) => (output as { name?: string }).name !== undefined).length).toBe(4);
  });
});

describe("answers lost after the headers", () => {
  it("a create whose body is cut off after a 201 is an unknown outcome, not a definite failure", async () => {
    server.use(
      http.post(
        `${baseURL}/v1/sessions`,
        answer(() => {
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"id":"bb-cut","status":"RUN'));
              controller.error(new Error("connection reset"));
            },
          });
          return new HttpResponse(body, { status: 201, headers: { "content-type": "application/json" } });
        }),
        { once: true },
      ),
    );
    const error = await caught(() => provider().create({ openTag: "cut-body" }));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error.message).toMatch(/create session.* lost its answer/);
  });

  it("a body that stalls is cut off by the request time limit instead of hanging", async () => {
    // A real socket (msw does not tie a mocked body to the request's signal): headers and half a body, then silence.
    const stalling = createServer((_request, response) => {
      response.writeHead(201, { "content-type": "application/json" });
      response.write('{"id":"bb-stall"');
    });
    await new Promise<void>((resolve) => stalling.listen(0, "127.0.0.1", resolve));
    try {
      const origin = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`;
      let served = 0;
      stalling.on("request", () => served++);
      server.use(http.post(`${origin}/v1/sessions`, () => passthrough()));
      const error = await caught(() => provider({ baseURL: origin, requestTimeoutMs: 1000 }).create({ openTag: "stalled-body" }));
      expect(error).toBeInstanceOf(OutcomeUnknownError);
      expect(error.message).toMatch(/lost its answer|got no answer/);
      expect(served).toBe(1);
    } finally {
      stalling.closeAllConnections();
      await new Promise((resolve) => stalling.close(resolve));
    }
  });
});

describe("the SDK's debug log (DEBUG=true)", () => {
  it("prints no key: the SDK only ever holds a placeholder", async () => {
    const logged: string[] = [];
    const original = console.log;
    const debug = process.env.DEBUG;
    console.log = (...args: unknown[]) => void logged.push(args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg))).join(" "));
    process.env.DEBUG = "true";
    try {
      const session = await provider({ liveView: false }).create({ openTag: "debug-log" });
      expect(session.id).toBeTruthy();
    } finally {
      console.log = original;
      if (debug === undefined) delete process.env.DEBUG;
      else process.env.DEBUG = debug;
    }
    expect(logged.join("\n")).toMatch(/Browserbase:DEBUG/);
    expect(logged.join("\n")).not.toContain(apiKey);
    // The request still carried the real key (the mock accepts no other).
    expect(mock.requests.filter((request) => request.path === "/v1/sessions").at(-1)?.apiKey).toBe(apiKey);
  });
});
