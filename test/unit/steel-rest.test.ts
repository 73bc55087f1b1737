/**
 * The Steel REST half against a fake Steel API (msw, exact wire format):
 * request bodies and headers, 429 handling, lost answers, absence (404 and
 * steel-browser's made-up "released"), release failures, and credentials
 * never surfacing.
 */
import { delay, http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  ActionFailedError,
  CapacityError,
  OutcomeUnknownError,
  ProfileError,
  ProviderError,
  TimeoutError,
  ValidationError,
} from "../../src/errors.js";
import { createSteelRestProvider, type SteelRestProviderOptions } from "../../src/steel.js";
import { createFakeSteel, steelBase, type FakeSteel } from "../helpers/steel-mock.js";
import { failure } from "../helpers/failure.js";
import { fakeSleep, heldSleep } from "../helpers/fake-sleep.js";

const apiKey = "ste-unit-key-7c1d93a0be55f2";
const server = setupServer();
let cloud: FakeSteel;

function steel(options: Partial<SteelRestProviderOptions> = {}) {
  return createSteelRestProvider({ apiKey, baseURL: steelBase, ...options });
}


function expectNoKey(...outputs: unknown[]): void {
  for (const output of outputs) {
    const text = output instanceof Error ? `${output.name}: ${output.message} ${String(output.cause ?? "")} ${output.stack ?? ""}` : JSON.stringify(output);
    expect(text).not.toContain(apiKey);
    expect(text).not.toContain(encodeURIComponent(apiKey));
  }
}

beforeAll(() => {
  cloud = createFakeSteel({ apiKey, websocketUrl: (session) => `wss://connect.steel.test?sessionId=${session.id}` });
  server.listen({ onUnhandledRequest: "error" });
});
afterEach(() => {
  server.resetHandlers();
  cloud.reset();
});
afterAll(() => server.close());

describe("create", () => {
  it("sends the open tag as sessionId, timeout in ms, dimensions and the provider settings, with the steel-api-key header", async () => {
    server.use(...cloud.handlers);
    const provider = steel({
      sessionTimeoutMs: 120_000,
      solveCaptcha: true,
      region: "iad",
      userAgent: "station-test",
      stealthConfig: { humanizeInteractions: false },
      viewport: { width: 1440, height: 900 },
    });
    const openTag = crypto.randomUUID();
    const session = await provider.create({ openTag });
    const [request] = cloud.requestsTo("POST", "/v1/sessions");
    expect(request).toMatchObject({ apiKey, contentType: "application/json" });
    expect(JSON.parse(request!.body)).toEqual({
      sessionId: openTag,
      timeout: 120_000,
      dimensions: { width: 1440, height: 900 },
      solveCaptcha: true,
      region: "iad",
      userAgent: "station-test",
      stealthConfig: { humanizeInteractions: false },
    });
    expect(session).toEqual({
      id: openTag,
      status: "RUNNING",
      cdpUrl: `wss://connect.steel.test?sessionId=${openTag}`,
      liveViewUrl: `https://app.steel.test/sessions/${openTag}`,
      openTag,
      createdAt: expect.any(String),
    });
    // The key is added only when connecting, never kept in the session record.
    expect(provider.cdpConnectUrl(session)).toBe(`wss://connect.steel.test?sessionId=${openTag}&apiKey=${apiKey}`);
    expectNoKey(session);
  });

  it("lower-cases an upper-case UUID tag and refuses a tag that is not a UUID before sending anything", async () => {
    server.use(...cloud.handlers);
    const provider = steel();
    const upper = crypto.randomUUID().toUpperCase();
    const session = await provider.create({ openTag: upper });
    expect(session).toMatchObject({ id: upper.toLowerCase(), openTag: upper });
    expect(JSON.parse(cloud.requests[0]!.body).sessionId).toBe(upper.toLowerCase());

    const error = await failure(provider.create({ openTag: `open_${crypto.randomUUID()}` }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("request.openTag");
    expect(await provider.find("open_1")).toEqual([]);
    expect(cloud.requests).toHaveLength(1);
  });

  it("waits for retry-after on a 429 and tries again; a 429 is a definite refusal, so one session results", async () => {
    server.use(...cloud.handlers);
    cloud.faults.create.push({ kind: "status", status: 429, headers: { "retry-after-ms": "5" }, body: { message: "Too many requests" } });
    const openTag = crypto.randomUUID();
    const session = await steel().create({ openTag });
    expect(session.id).toBe(openTag);
    expect(cloud.requestsTo("POST", "/v1/sessions")).toHaveLength(2);
    expect(cloud.sessions.size).toBe(1);
  });

  it("gives up with a CapacityError carrying Steel's message once the waits would pass the cap", async () => {
    server.use(...cloud.handlers);
    for (let index = 0; index < 5; index++) {
      cloud.faults.create.push({
        kind: "status",
        status: 429,
        headers: { "retry-after-ms": "5" },
        body: { message: "You've exceeded your max concurrent sessions limit" },
      });
    }
    const error = await failure(steel({ rateLimitCapMs: 600 }).create({ openTag: crypto.randomUUID() }));
    expect(error).toBeInstanceOf(CapacityError);
    expect(error.message).toMatch(/exceeded your max concurrent sessions limit/);
    // Each wait is at least 250 ms, whatever Steel asks: 250 + 250; a third would pass 600 ms.
    expect(cloud.requestsTo("POST", "/v1/sessions")).toHaveLength(3);

    cloud.reset();
    server.resetHandlers();
    server.use(...cloud.handlers);
    cloud.faults.create.push({ kind: "status", status: 429, headers: { "retry-after": "30" }, body: { message: "slow down" } });
    const slowDown = await failure(steel().create({ openTag: crypto.randomUUID() }));
    expect(slowDown).toBeInstanceOf(CapacityError);
    expect((slowDown as CapacityError).retryAfterMs).toBe(30_000);
    expect(cloud.requestsTo("POST", "/v1/sessions")).toHaveLength(1);
  });

  it("a 429 asking for no wait at all is not a tight loop: at most 5 retries, each after a floor", async () => {
    server.use(...cloud.handlers);
    for (let index = 0; index < 20; index++) {
      cloud.faults.create.push({ kind: "status", status: 429, headers: { "retry-after": "0" }, body: { message: "busy" } });
    }
    expect(await failure(steel({ rateLimitCapMs: 10_000 }).create({ openTag: crypto.randomUUID() }))).toBeInstanceOf(CapacityError);
    expect(cloud.requestsTo("POST", "/v1/sessions")).toHaveLength(6);
  });

  it("a lost answer is an unknown outcome; find(openTag) reads GET /v1/sessions/{tag} and returns exactly that session", async () => {
    server.use(...cloud.handlers);
    const provider = steel();
    const openTag = crypto.randomUUID();
    cloud.faults.create.push({ kind: "lose-response" });
    const error = await failure(provider.create({ openTag }));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error.message).toContain(`create session ${openTag}`);
    expectNoKey(error);

    const found = await provider.find(openTag);
    expect(found).toEqual([expect.objectContaining({ id: openTag, openTag, status: "RUNNING" })]);
    expect(cloud.requestsTo("GET", `/v1/sessions/${openTag}`)).toHaveLength(1);
    expect(cloud.requestsTo("GET", "/v1/sessions")).toHaveLength(0); // no list, no auto-pager
    expect(cloud.requestsTo("POST", "/v1/sessions")).toHaveLength(1);
  });

  it("a create that never reached Steel is proved absent by find", async () => {
    server.use(http.post(`${steelBase}/v1/sessions`, () => HttpResponse.error()), ...cloud.handlers);
    const provider = steel();
    const openTag = crypto.randomUUID();
    expect(await failure(provider.create({ openTag }))).toBeInstanceOf(OutcomeUnknownError);
    expect(await provider.find(openTag)).toEqual([]);
  });

  it("5xx on create is an unknown outcome; 400 is a plain provider error", async () => {
    server.use(...cloud.handlers);
    cloud.faults.create.push({ kind: "status", status: 502, body: { message: "bad gateway" } });
    expect(await failure(steel().create({ openTag: crypto.randomUUID() }))).toBeInstanceOf(OutcomeUnknownError);
    cloud.faults.create.push({ kind: "status", status: 400, body: { message: "dimensions too large" } });
    const error = await failure(steel().create({ openTag: crypto.randomUUID() }));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).status).toBe(400);
    expect(error.message).toMatch(/dimensions too large/);
  });

  it("a create cancelled while in flight is an unknown outcome", async () => {
    const controller = new AbortController();
    server.use(http.post(`${steelBase}/v1/sessions`, async () => {
      // The request has reached Steel: cancel now.
      controller.abort();
      await delay("infinite");
      return HttpResponse.json({});
    }));
    expect(await failure(steel().create({ openTag: crypto.randomUUID(), signal: controller.signal }))).toBeInstanceOf(OutcomeUnknownError);
  });

  it("a create cancelled during a 429 wait created nothing and says it was cancelled", async () => {
    server.use(...cloud.handlers);
    cloud.faults.create.push({ kind: "status", status: 429, headers: { "retry-after": "5" }, body: { message: "later" } });
    const controller = new AbortController();
    const held = heldSleep();
    const waiting = held.nextWait();
    const pending = steel({ sleep: held.sleep }).create({ openTag: crypto.randomUUID(), signal: controller.signal });
    // Cancel once the 429 has been answered, during the 5 s wait it asked for.
    await waiting;
    expect(held.waits).toEqual([5000]);
    expect(cloud.requests).toHaveLength(1);
    controller.abort();
    const error = await failure(pending);
    expect(error).toBeInstanceOf(ActionFailedError);
    expect(cloud.sessions.size).toBe(0);
  });
});

describe("get, find and release", () => {
  it("get answers undefined on 404 and maps released to ENDED", async () => {
    server.use(...cloud.handlers);
    const provider = steel();
    expect(await provider.get(crypto.randomUUID())).toBeUndefined();
    const openTag = crypto.randomUUID();
    await provider.create({ openTag });
    await provider.release(openTag);
    expect(await provider.get(openTag)).toMatchObject({ id: openTag, status: "ENDED" });
    // A released session that existed is found, as ended (nothing left to release).
    expect(await provider.find(openTag)).toEqual([expect.objectContaining({ id: openTag, status: "ENDED" })]);
  });

  it("a made-up 'released' answer (all-zero record) proves absence even from a cloud base URL", async () => {
    const id = crypto.randomUUID();
    server.use(
      http.get(`${steelBase}/v1/sessions/:id`, ({ params }) =>
        HttpResponse.json({ id: params.id, createdAt: new Date().toISOString(), status: "released", duration: 0, eventCount: 0, timeout: 0, creditsUsed: 0, websocketUrl: "ws://x/", sessionViewerUrl: "http://x" }),
      ),
    );
    const provider = steel();
    expect(await provider.get(id)).toBeUndefined();
    expect(await provider.find(id)).toEqual([]);
  });

  it("encodes ids into the path", async () => {
    server.use(...cloud.handlers);
    expect(await steel().get("../profiles/x")).toBeUndefined();
    expect(cloud.requests[0]!.path).toBe("/v1/sessions/..%2Fprofiles%2Fx");
  });

  it("release sends an empty JSON body; 404 means already gone", async () => {
    server.use(...cloud.handlers);
    const provider = steel();
    const openTag = crypto.randomUUID();
    await provider.create({ openTag });
    await provider.release(openTag);
    await provider.release(openTag); // already released: Steel still answers; fine
    await provider.release(crypto.randomUUID()); // 404: already gone
    const releases = cloud.requestsTo("POST", /\/release$/);
    expect(releases).toHaveLength(3);
    for (const request of releases) expect(request).toMatchObject({ body: "", contentType: "application/json", apiKey });
  });

  it("a failed release is surfaced: 5xx or no answer as unknown outcome, 4xx and success:false as provider errors", async () => {
    server.use(...cloud.handlers);
    const provider = steel();
    const openTag = crypto.randomUUID();
    await provider.create({ openTag });

    cloud.faults.release.push({ kind: "status", status: 500, body: { message: "internal" } });
    const unknown = await failure(provider.release(openTag));
    expect(unknown).toBeInstanceOf(OutcomeUnknownError);
    expect(unknown.message).toContain(`release session ${openTag}`);

    cloud.faults.release.push({ kind: "lose-response" });
    expect(await failure(provider.release(openTag))).toBeInstanceOf(OutcomeUnknownError);

    // The lost answer above did release it; a live session refused with a 4xx stays refused.
    const liveTag = crypto.randomUUID();
    await provider.create({ openTag: liveTag });
    cloud.faults.release.push({ kind: "status", status: 409, body: { message: "conflict" } });
    const refused = await failure(provider.release(liveTag));
    expect(refused).toBeInstanceOf(ProviderError);
    expect((refused as ProviderError).status).toBe(409);

    server.use(http.post(`${steelBase}/v1/sessions/:id/release`, () => HttpResponse.json({ success: false, message: "still starting" })));
    const declined = await failure(provider.release(liveTag));
    expect(declined).toBeInstanceOf(ProviderError);
    expect(declined.message).toMatch(/still starting/);
    for (const error of [unknown, refused, declined]) expectNoKey(error);
  });

  it("a 4xx on release for a session that no longer runs counts as released (it is not retried for ever)", async () => {
    server.use(...cloud.handlers);
    const provider = steel();
    const openTag = crypto.randomUUID();
    await provider.create({ openTag });
    // The session ended meanwhile (released elsewhere, or reaped); Steel then refuses the release with a 400.
    cloud.sessions.get(openTag)!.status = "released";
    cloud.faults.release.push({ kind: "status", status: 400, body: { message: "session is not live" } });
    await expect(provider.release(openTag)).resolves.toBeUndefined();
    expect(cloud.requestsTo("GET", `/v1/sessions/${openTag}`).length).toBeGreaterThanOrEqual(1);
  });
});

describe("credentials", () => {
  it("never appear in errors, even when Steel echoes them", async () => {
    server.use(...cloud.handlers);
    cloud.faults.create.push({ kind: "status", status: 401, body: { message: `Invalid API key ${apiKey}` } });
    cloud.faults.get.push({ kind: "status", status: 500, body: { message: `upstream said key=${encodeURIComponent(apiKey)}` } });
    cloud.faults.release.push({ kind: "status", status: 503, body: { message: `${apiKey} unavailable` } });
    const provider = steel();
    const errors = [
      await failure(provider.create({ openTag: crypto.randomUUID() })),
      await failure(provider.get(crypto.randomUUID())),
      await failure(provider.release(crypto.randomUUID())),
    ];
    expect(errors[0]).toBeInstanceOf(ProviderError);
    expect(errors[0]!.message).toMatch(/refused the credentials \(401\)/);
    expect(errors[1]).toBeInstanceOf(ProviderError);
    expect(errors[2]).toBeInstanceOf(OutcomeUnknownError);
    for (const error of errors) {
      expect(error.message).toContain("[redacted]");
      expectNoKey(error);
    }
  });

  it("a wrong key is refused by the fake (the header is what authenticates)", async () => {
    server.use(...cloud.handlers);
    const error = await failure(steel({ apiKey: "ste-wrong-key-000000" }).create({ openTag: crypto.randomUUID() }));
    expect((error as ProviderError).status).toBe(401);
  });
});

describe("self-hosted steel-browser", () => {
  function selfHosted(fakeOptions: { launchPolls?: number } = {}, options: Partial<SteelRestProviderOptions> = {}) {
    const fake = createFakeSteel({ selfHosted: true, websocketUrl: () => "ws://steel.local:3000/", ...fakeOptions });
    server.use(...fake.handlers);
    return { fake, provider: createSteelRestProvider({ baseURL: steelBase, selfHosted: true, sleep: fakeSleep().sleep, ...options }) };
  }
  const routes = (fake: FakeSteel) => fake.requests.map((request) => `${request.method} ${request.path.replace(/[0-9a-f-]{36}/, "{id}")}`);

  it("two creates at once: the one-session slot is taken before any await, so one create is sent and the other is refused", async () => {
    const { fake, provider } = selfHosted();
    const [first, second] = await Promise.allSettled([
      provider.create({ openTag: crypto.randomUUID() }),
      provider.create({ openTag: crypto.randomUUID() }),
    ]);
    expect(first).toMatchObject({ status: "fulfilled", value: { status: "RUNNING" } });
    expect(second.status).toBe("rejected");
    const refusal = (second as PromiseRejectedResult).reason as Error;
    expect(refusal).toBeInstanceOf(CapacityError);
    expect(refusal.message).toMatch(/one session at a time and the open of session [0-9a-f-]{36} is in progress/);
    expect(fake.requestsTo("POST", "/v1/sessions")).toHaveLength(1);
  });

  it("a release waits until the session's browser answers live-details, then sends it; a create meanwhile is refused", async () => {
    const timer = heldSleep();
    const { fake, provider } = selfHosted({ launchPolls: 2 }, { sleep: timer.sleep });
    const openTag = crypto.randomUUID();
    const created = await provider.create({ openTag });
    // steel-browser's own sessionViewerUrl names the server root; its session viewer is /v1/sessions/debug.
    expect(created).toMatchObject({ liveViewUrl: `${steelBase}/v1/sessions/debug`, viewport: { width: 1280, height: 800 } });
    fake.requests.length = 0;

    const waited = timer.nextWait();
    const releasing = provider.release(openTag);
    await waited;
    expect(await failure(provider.create({ openTag: crypto.randomUUID() }))).toBeInstanceOf(CapacityError);
    const secondWait = timer.nextWait();
    timer.proceed();
    await secondWait;
    timer.proceed();
    await releasing;

    expect(routes(fake)).toEqual([
      "GET /v1/sessions/{id}",
      "GET /v1/sessions/{id}/live-details",
      "GET /v1/sessions/{id}/live-details",
      "GET /v1/sessions/{id}/live-details",
      "POST /v1/sessions/{id}/release",
    ]);
    expect(timer.waits).toEqual([250, 500]);
    expect(fake.releasesWhileLaunching).toBe(0);
    expect(fake.sessions.get(openTag)?.status).toBe("released");
  });

  it("a launch that outlasts launchTimeoutMs: TimeoutError, nothing is sent, and a later release goes through", async () => {
    const timer = fakeSleep();
    const { fake, provider } = selfHosted({ launchPolls: 50 }, { sleep: timer.sleep, launchTimeoutMs: 5_000 });
    const openTag = crypto.randomUUID();
    await provider.create({ openTag });
    const error = await failure(provider.release(openTag));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toMatch(/still launching after 3750 ms .*not released/);
    // Pauses 250, 500, 1000, 2000 (capped): the next 2000 would pass 5000.
    expect(timer.waits).toEqual([250, 500, 1000, 2000]);
    expect(fake.requestsTo("POST", /\/release$/)).toHaveLength(0);
    expect(fake.sessions.get(openTag)?.status).toBe("live");

    fake.sessions.get(openTag)!.launchPolls = 0;
    await provider.release(openTag);
    expect(fake.sessions.get(openTag)?.status).toBe("released");
    expect(fake.releasesWhileLaunching).toBe(0);
  });

  it("the launch wait ends when the release's signal aborts; nothing is sent", async () => {
    const timer = heldSleep();
    const { fake, provider } = selfHosted({ launchPolls: 50 }, { sleep: timer.sleep });
    const openTag = crypto.randomUUID();
    await provider.create({ openTag });
    const controller = new AbortController();
    const waited = timer.nextWait();
    const releasing = provider.release(openTag, controller.signal);
    await waited;
    controller.abort();
    const error = await failure(releasing);
    expect(error).toBeInstanceOf(ActionFailedError);
    expect(error.message).toMatch(/cancelled while waiting for session .* to finish launching; it was not released/);
    expect(fake.requestsTo("POST", /\/release$/)).toHaveLength(0);
    expect(fake.sessions.get(openTag)?.status).toBe("live");
  });

  it("works without a key: no header, no apiKey on the CDP URL; timeout 0 is accepted", async () => {
    const { fake, provider } = selfHosted();
    const openTag = crypto.randomUUID();
    const session = await provider.create({ openTag });
    expect(fake.requests[0]!.apiKey).toBeNull();
    expect(provider.cdpConnectUrl(session)).toBe("ws://steel.local:3000/");
    expect(await provider.get(openTag)).toMatchObject({ id: openTag, status: "RUNNING" });
    expect(await provider.find(openTag)).toHaveLength(1);
  });

  it("an unknown id (200 'released') is absent for get and find", async () => {
    const { provider } = selfHosted();
    const id = crypto.randomUUID();
    expect(await provider.get(id)).toBeUndefined();
    expect(await provider.find(id)).toEqual([]);
  });

  it("release is sent only while that session reads live, because steel-browser releases whatever is live", async () => {
    const { fake, provider } = selfHosted();
    const first = crypto.randomUUID();
    await provider.create({ openTag: first });
    await provider.release(first);
    // A stale release (e.g. a retry after a lost answer) must not end a newer session.
    const second = crypto.randomUUID();
    await provider.create({ openTag: second });
    await provider.release(first);
    expect(fake.sessions.get(second)?.status).toBe("live");
    expect(fake.requestsTo("POST", /\/release$/).map((request) => request.path)).toEqual([`/v1/sessions/${first}/release`]);
    await provider.release(second);
    expect(fake.sessions.get(second)?.status).toBe("released");
  });

  it("refuses a second session while one is live, and profile grants (no profiles API)", async () => {
    const { fake, provider } = selfHosted();
    await provider.create({ openTag: crypto.randomUUID() });
    expect(await failure(provider.create({ openTag: crypto.randomUUID() }))).toBeInstanceOf(CapacityError);
    expect(await failure(provider.create({ openTag: crypto.randomUUID(), profile: { id: "acme" } }))).toBeInstanceOf(ProfileError);
    await provider.profiles.awaitPersisted({ id: "acme" });
    expect(fake.requestsTo("POST", "/v1/sessions")).toHaveLength(1);
  });
});
