/**
 * Browserbase contexts behind host profile grants: created on first use and
 * stored, sent as `{ id, persist: true }`, and serialised — a profile is
 * reused only after its last session reads ended and the settle delay passed.
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ActionFailedError, OutcomeUnknownError, ProfileError, ProfileInUseError, ProviderError } from "../../src/errors.js";
import { createBrowserbaseRestProvider, type BrowserbaseRestProviderOptions } from "../../src/providers/browserbase/index.js";
import { createMemoryProfileStore } from "../../src/providers/hosted/index.js";
import { baseURL, createBrowserbaseMock, fakeSleep } from "../helpers/browserbase-mock.js";
import { failure } from "../helpers/failure.js";

const apiKey = "bb_live_PROFILESECRET_0123456789";
const mock = createBrowserbaseMock({ apiKey });
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  mock.reset();
});
afterAll(() => server.close());

const settleMs = 3000;

function provider(options: Partial<BrowserbaseRestProviderOptions> = {}) {
  const timer = fakeSleep();
  const rest = createBrowserbaseRestProvider({ apiKey, baseURL, liveView: false, sleep: timer.sleep, persistSettleMs: settleMs, ...options });
  return { rest, timer };
}

const caught = (run: () => Promise<unknown>): Promise<Error> => failure(run());

describe("contexts for granted profiles", () => {
  it("creates the context on first use, stores it and sends it to persist", async () => {
    const profileStore = createMemoryProfileStore();
    const { rest } = provider({ profileStore, projectId: "proj_1" });
    const session = await rest.create({ openTag: "p-1", profile: { id: "whatsapp:acme:+4712345678" } });

    expect(mock.calls()).toEqual(["POST /v1/contexts", "POST /v1/sessions"]);
    expect(mock.requests[0]!.body).toEqual({ projectId: "proj_1" });
    expect(mock.requests[1]!.body).toEqual({
      projectId: "proj_1",
      browserSettings: { context: { id: "ctx_1", persist: true }, viewport: { width: 1280, height: 800 } },
      userMetadata: { openTag: "p-1" },
    });
    expect(await profileStore.get("whatsapp:acme:+4712345678")).toBe("ctx_1");
    // The host's profile id comes back, never the context id.
    expect(session.profileId).toBe("whatsapp:acme:+4712345678");
    expect(JSON.stringify(session)).not.toContain("ctx_1");
    expect((await rest.get(session.id))?.profileId).toBe("whatsapp:acme:+4712345678");
  });

  it("reuses a stored context without creating one", async () => {
    const { rest } = provider({ profileStore: createMemoryProfileStore({ research: "ctx_existing" }) });
    await rest.create({ openTag: "p-2", profile: { id: "research" } });
    expect(mock.calls()).toEqual(["POST /v1/sessions"]);
    expect(mock.requests[0]!.body).toMatchObject({ browserSettings: { context: { id: "ctx_existing", persist: true } } });
  });

  it("refuses a second session on a context that is open, without a request", async () => {
    const { rest } = provider();
    const first = await rest.create({ openTag: "p-3", profile: { id: "research" } });
    const before = mock.requests.length;
    const error = await caught(() => rest.create({ openTag: "p-4", profile: { id: "research" } }));
    expect(error).toBeInstanceOf(ProfileInUseError);
    expect(error.message).toContain(first.id);
    await expect(rest.profiles.awaitPersisted({ id: "research" })).rejects.toBeInstanceOf(ProfileInUseError);
    expect(mock.requests.length).toBe(before);
    // Other profiles, and sessions without one, are not held up.
    await rest.create({ openTag: "p-5", profile: { id: "other" } });
    await rest.create({ openTag: "p-6" });
  });

  it("refuses concurrent creates for one profile: only one reaches Browserbase", async () => {
    const { rest } = provider();
    const results = await Promise.allSettled([
      rest.create({ openTag: "c-1", profile: { id: "shared" } }),
      rest.create({ openTag: "c-2", profile: { id: "shared" } }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(mock.calls().filter((call) => call === "POST /v1/sessions")).toHaveLength(1);
    expect(mock.contexts).toHaveLength(1);
  });
});

describe("awaitPersisted", () => {
  it("after release, polls until the session reads ended, then waits the settle delay; the next open reuses the context", async () => {
    const { rest, timer } = provider();
    const first = await rest.create({ openTag: "s-1", profile: { id: "research" } });
    mock.readsUntilEnded = 3; // reads RUNNING twice after the release, then COMPLETED
    await rest.release(first.id);
    await rest.profiles.awaitPersisted({ id: "research" });
    expect(mock.calls().slice(-4)).toEqual([
      `POST /v1/sessions/${first.id}`,
      `GET /v1/sessions/${first.id}`,
      `GET /v1/sessions/${first.id}`,
      `GET /v1/sessions/${first.id}`,
    ]);
    expect(timer.waits).toEqual([250, 500, settleMs]);

    const second = await rest.create({ openTag: "s-2", profile: { id: "research" } });
    expect(mock.contexts).toEqual(["ctx_1"]);
    expect(mock.requests.at(-1)!.body).toMatchObject({ browserSettings: { context: { id: "ctx_1", persist: true } } });
    expect(second.profileId).toBe("research");
    // Persisted already: nothing more to wait for.
    const waited = timer.waits.length;
    mock.readsUntilEnded = 0;
    await rest.release(second.id);
    await rest.profiles.awaitPersisted({ id: "research" });
    await rest.profiles.awaitPersisted({ id: "research" });
    expect(timer.waits.length).toBe(waited + 1);
  });

  it("a create right after release waits for the save itself (callers need not call awaitPersisted)", async () => {
    const { rest, timer } = provider();
    const first = await rest.create({ openTag: "w-1", profile: { id: "research" } });
    await rest.release(first.id);
    await rest.create({ openTag: "w-2", profile: { id: "research" } });
    expect(mock.calls().slice(-3)).toEqual([`POST /v1/sessions/${first.id}`, `GET /v1/sessions/${first.id}`, "POST /v1/sessions"]);
    expect(timer.waits).toEqual([settleMs]);
  });

  it("returns at once for a profile with no session behind it", async () => {
    const { rest, timer } = provider();
    await rest.profiles.awaitPersisted({ id: "fresh" });
    expect(mock.requests).toEqual([]);
    expect(timer.waits).toEqual([]);
  });

  it("gives up with a ProfileError when the session never ends, and tries again later", async () => {
    const { rest, timer } = provider({ persistTimeoutMs: 5000 });
    const first = await rest.create({ openTag: "t-1", profile: { id: "research" } });
    mock.readsUntilEnded = 1000;
    await rest.release(first.id);
    const error = await caught(() => rest.profiles.awaitPersisted({ id: "research" }));
    expect(error).toBeInstanceOf(ProfileError);
    expect(error.message).toContain(first.id);
    // Backoff 250, 500, 1000, 2000 (sum 3750); the next 2000 would pass 5000.
    expect(timer.waits).toEqual([250, 500, 1000, 2000]);
    await expect(rest.create({ openTag: "t-2", profile: { id: "research" } })).rejects.toBeInstanceOf(ProfileError);

    mock.sessions.get(first.id)!.readsUntilEnded = 1;
    await rest.profiles.awaitPersisted({ id: "research" });
    await rest.create({ openTag: "t-3", profile: { id: "research" } });
  });

  it("a session that is gone (404) counts as ended", async () => {
    const { rest, timer } = provider();
    const first = await rest.create({ openTag: "g-1", profile: { id: "research" } });
    mock.readsUntilEnded = 1000;
    await rest.release(first.id);
    mock.sessions.delete(first.id);
    await rest.profiles.awaitPersisted({ id: "research" });
    expect(timer.waits).toEqual([settleMs]);
  });

  it("stops at once on a refusal while polling (a 403 will not pass by waiting)", async () => {
    const { rest } = provider();
    const first = await rest.create({ openTag: "r-1", profile: { id: "research" } });
    await rest.release(first.id);
    server.use(http.get(`${baseURL}/v1/sessions/:id`, () => HttpResponse.json({ message: "no" }, { status: 403 })));
    expect(await caught(() => rest.profiles.awaitPersisted({ id: "research" }))).toBeInstanceOf(ProviderError);
  });

  it("a caller's signal ends its own wait; the wait itself goes on for others", async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const rest = createBrowserbaseRestProvider({ apiKey, baseURL, liveView: false, persistSettleMs: 10, sleep: () => hold });
    const first = await rest.create({ openTag: "a-1", profile: { id: "research" } });
    await rest.release(first.id);
    const controller = new AbortController();
    const impatient = rest.profiles.awaitPersisted({ id: "research" }, controller.signal);
    const patient = rest.profiles.awaitPersisted({ id: "research" });
    controller.abort();
    await expect(impatient).rejects.toBeInstanceOf(ActionFailedError);
    release();
    await patient;
  });

  it("a release that fails still leaves the profile waiting on the session's real state", async () => {
    const { rest } = provider({ persistTimeoutMs: 1000 });
    const first = await rest.create({ openTag: "f-1", profile: { id: "research" } });
    server.use(http.post(`${baseURL}/v1/sessions/:id`, () => HttpResponse.error(), { once: true }));
    await expect(rest.release(first.id)).rejects.toBeInstanceOf(OutcomeUnknownError);
    // Still running at Browserbase: the profile is not reused.
    await expect(rest.profiles.awaitPersisted({ id: "research" })).rejects.toBeInstanceOf(ProfileError);
    await rest.release(first.id);
    await rest.profiles.awaitPersisted({ id: "research" });
  });
});

describe("uncertain creates of a profile", () => {
  const loseCreate = () => server.use(mock.lostCreate());

  it("holds the profile until find(openTag) resolves it; the found session is then serialised like any other", async () => {
    const { rest } = provider();
    loseCreate();
    await expect(rest.create({ openTag: "u-1", profile: { id: "research" } })).rejects.toBeInstanceOf(OutcomeUnknownError);
    const [lost] = [...mock.sessions.keys()];

    // The next open of that profile looks the uncertain one up first: it runs, so the profile is in use.
    const error = await caught(() => rest.create({ openTag: "u-2", profile: { id: "research" } }));
    expect(error).toBeInstanceOf(ProfileInUseError);
    expect(error.message).toContain(lost);
    expect(mock.calls().at(-1)).toBe("GET /v1/sessions");

    const [found] = await rest.find("u-1");
    expect(found).toMatchObject({ id: lost, profileId: "research", status: "RUNNING" });
    await rest.release(found!.id);
    const next = await rest.create({ openTag: "u-3", profile: { id: "research" } });
    expect(next.profileId).toBe("research");
    expect(mock.sessions.size).toBe(2);
  });

  it("frees the profile when find proves the uncertain create made nothing", async () => {
    const { rest } = provider();
    server.use(http.post(`${baseURL}/v1/sessions`, () => HttpResponse.error(), { once: true }));
    await expect(rest.create({ openTag: "n-1", profile: { id: "research" } })).rejects.toBeInstanceOf(OutcomeUnknownError);
    expect(mock.sessions.size).toBe(0);
    const session = await rest.create({ openTag: "n-2", profile: { id: "research" } });
    expect(mock.calls().slice(-2)).toEqual(["GET /v1/sessions", "POST /v1/sessions"]);
    expect(session.openTag).toBe("n-2");
  });

  it("a definite create failure frees the profile at once", async () => {
    const { rest } = provider();
    server.use(http.post(`${baseURL}/v1/sessions`, () => HttpResponse.json({ message: "bad viewport" }, { status: 400 }), { once: true }));
    await expect(rest.create({ openTag: "d-1", profile: { id: "research" } })).rejects.toBeInstanceOf(ProviderError);
    await rest.create({ openTag: "d-2", profile: { id: "research" } });
  });

  it("a failed context creation is a plain ProviderError (no session can exist) and frees the profile", async () => {
    const { rest } = provider();
    server.use(http.post(`${baseURL}/v1/contexts`, () => HttpResponse.error(), { once: true }));
    const error = await caught(() => rest.create({ openTag: "x-1", profile: { id: "research" } }));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).not.toContain(apiKey);
    await rest.create({ openTag: "x-2", profile: { id: "research" } });
    expect(mock.contexts).toEqual(["ctx_1"]);
  });
});
