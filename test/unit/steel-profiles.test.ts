/**
 * Steel profile grants: the first persisting session creates the profile and
 * its id is stored; reuse waits for READY (UPLOADING is never reused); FAILED
 * is final; a deleted profile starts afresh; one session per profile.
 */
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OutcomeUnknownError, ProfileError, ProfileInUseError } from "../../src/errors.js";
import { createMemoryProfileStore, createSteelRestProvider, type ProfileStore, type SteelRestProviderOptions } from "../../src/steel.js";
import { createFakeSteel, steelBase, type FakeSteel } from "../helpers/steel-mock.js";
import { failure } from "../helpers/failure.js";

const apiKey = "ste-profile-key-2b8e61f0c4d7a9";
const grant = { id: "whatsapp:acme:+4712345678" };
const server = setupServer();
let fake: FakeSteel;

function steel(options: Partial<SteelRestProviderOptions> = {}) {
  return createSteelRestProvider({ apiKey, baseURL: steelBase, profilePollMs: 1, ...options });
}


/** The request log as "METHOD path" lines. */
const log = () => fake.requests.map((request) => `${request.method} ${request.path}`);
const createBodies = () => fake.requestsTo("POST", "/v1/sessions").map((request) => JSON.parse(request.body) as Record<string, unknown>);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function useFake(uploadPolls = 2): void {
  fake = createFakeSteel({ apiKey, uploadPolls, websocketUrl: (session) => `wss://connect.steel.test?sessionId=${session.id}` });
  server.use(...fake.handlers);
}

describe("Steel profiles", () => {
  it("the first persisting session creates the profile; its id is stored, never shown", async () => {
    useFake();
    const profileStore = createMemoryProfileStore();
    const provider = steel({ profileStore });
    await provider.profiles.awaitPersisted(grant); // nothing stored yet: nothing to wait for
    const openTag = crypto.randomUUID();
    const session = await provider.create({ openTag, profile: grant });
    expect(createBodies()).toEqual([{ sessionId: openTag, timeout: 900_000, dimensions: { width: 1280, height: 800 }, persistProfile: true }]);
    expect(await profileStore.get(grant.id)).toBe("prof_1");
    expect(session.profileId).toBe(grant.id);
    expect(JSON.stringify(session)).not.toContain("prof_1");
    expect(await provider.get(openTag)).toMatchObject({ profileId: grant.id });
    expect(log().filter((line) => line.startsWith("GET /v1/profiles"))).toEqual([]);
  });

  it("reuse waits while the profile is UPLOADING and loads it once READY", async () => {
    useFake(2);
    const provider = steel();
    const first = crypto.randomUUID();
    await provider.create({ openTag: first, profile: grant });
    await provider.release(first);
    expect(fake.profiles.get("prof_1")?.status).toBe("UPLOADING");

    fake.requests.length = 0;
    await provider.profiles.awaitPersisted(grant);
    const second = crypto.randomUUID();
    await provider.create({ openTag: second, profile: grant });
    // UPLOADING, UPLOADING, READY — then the create; create does not poll again right after.
    expect(log()).toEqual(["GET /v1/profiles/prof_1", "GET /v1/profiles/prof_1", "GET /v1/profiles/prof_1", "POST /v1/sessions"]);
    expect(createBodies()[0]).toEqual({
      sessionId: second,
      timeout: 900_000,
      dimensions: { width: 1280, height: 800 },
      profileId: "prof_1",
      persistProfile: true,
    });
  });

  it("create waits for READY by itself when nobody called awaitPersisted", async () => {
    useFake(1);
    const provider = steel();
    const first = crypto.randomUUID();
    await provider.create({ openTag: first, profile: grant });
    await provider.release(first);
    fake.requests.length = 0;
    await provider.create({ openTag: crypto.randomUUID(), profile: grant });
    expect(log()).toEqual(["GET /v1/profiles/prof_1", "GET /v1/profiles/prof_1", "POST /v1/sessions"]);
  });

  it("FAILED is final: ProfileError, and no session is created", async () => {
    useFake(1);
    const provider = steel();
    const first = crypto.randomUUID();
    await provider.create({ openTag: first, profile: grant });
    await provider.release(first);
    fake.profiles.get("prof_1")!.afterUpload = "FAILED";
    const waited = await failure(provider.profiles.awaitPersisted(grant));
    expect(waited).toBeInstanceOf(ProfileError);
    expect(waited.message).toMatch(/FAILED/);
    expect(waited.message).toContain(grant.id);
    expect(await failure(provider.create({ openTag: crypto.randomUUID(), profile: grant }))).toBeInstanceOf(ProfileError);
    expect(fake.requestsTo("POST", "/v1/sessions")).toHaveLength(1);
  });

  it("a profile that stays UPLOADING is not reused: ProfileError after the bounded wait", async () => {
    useFake(1_000_000);
    const provider = steel({ profileReadyTimeoutMs: 40, profilePollMs: 2 });
    const first = crypto.randomUUID();
    await provider.create({ openTag: first, profile: grant });
    await provider.release(first);
    const error = await failure(provider.create({ openTag: crypto.randomUUID(), profile: grant }));
    expect(error).toBeInstanceOf(ProfileError);
    expect(error.message).toMatch(/still UPLOADING/);
    expect(fake.requestsTo("POST", "/v1/sessions")).toHaveLength(1);
  });

  it("a profile Steel deleted (404) is forgotten and the next session starts a new one", async () => {
    useFake();
    const profileStore = createMemoryProfileStore({ [grant.id]: "prof_gone" });
    const provider = steel({ profileStore });
    await provider.profiles.awaitPersisted(grant);
    expect(await profileStore.get(grant.id)).toBeUndefined();
    await provider.create({ openTag: crypto.randomUUID(), profile: grant });
    expect(createBodies()[0]).not.toHaveProperty("profileId");
    expect(await profileStore.get(grant.id)).toBe("prof_1");
  });

  it("a server without a profiles route (Fastify's 404 'Route … not found') means profiles are unsupported there, not deleted", async () => {
    // A cloud-configured provider pointed at a steel-browser server, which has no /v1/profiles.
    fake = createFakeSteel({ selfHosted: true, websocketUrl: () => "ws://steel.local:3000/" });
    server.use(...fake.handlers);
    const profileStore = createMemoryProfileStore({ [grant.id]: "prof_kept" });
    const provider = steel({ profileStore });
    const error = await failure(provider.profiles.awaitPersisted(grant));
    expect(error).toBeInstanceOf(ProfileError);
    expect(error.message).toMatch(/has no profiles API \(it answers 404 "Route … not found" for \/v1\/profiles\)/);
    expect(error.message).not.toContain("prof_kept");
    expect(await profileStore.get(grant.id)).toBe("prof_kept");
    expect(await failure(provider.create({ openTag: crypto.randomUUID(), profile: grant }))).toBeInstanceOf(ProfileError);
    expect(await profileStore.get(grant.id)).toBe("prof_kept");
    expect(fake.requestsTo("POST", "/v1/sessions")).toHaveLength(0);
  });

  it("a persisting create whose answer names no profile is a ProfileError, and that session is released", async () => {
    // steel-browser takes persistProfile and answers without a profileId: the session would save nothing.
    fake = createFakeSteel({ selfHosted: true, websocketUrl: () => "ws://steel.local:3000/" });
    server.use(...fake.handlers);
    const profileStore = createMemoryProfileStore();
    const provider = steel({ profileStore });
    const openTag = crypto.randomUUID();
    const error = await failure(provider.create({ openTag, profile: grant }));
    expect(error).toBeInstanceOf(ProfileError);
    expect(error.message).toMatch(/answer to the create persisting profile whatsapp:acme:\+4712345678 names no profile \(nothing would be saved\), so session [0-9a-f-]{36} was released/);
    expect(createBodies()[0]).toMatchObject({ persistProfile: true });
    expect(fake.sessions.get(openTag)?.status).toBe("released");
    expect(await profileStore.get(grant.id)).toBeUndefined();
    // The profile is free again (the failed open holds nothing).
    fake.reset();
    const again = await failure(provider.create({ openTag: crypto.randomUUID(), profile: grant }));
    expect(again).not.toBeInstanceOf(ProfileInUseError);
    expect(again.message).toMatch(/names no profile/);
  });

  it("a profile is open in one session at a time", async () => {
    useFake(0);
    const provider = steel();
    const first = crypto.randomUUID();
    await provider.create({ openTag: first, profile: grant });
    expect(await failure(provider.create({ openTag: crypto.randomUUID(), profile: grant }))).toBeInstanceOf(ProfileInUseError);
    expect(fake.requestsTo("POST", "/v1/sessions")).toHaveLength(1);
    await provider.release(first);
    await provider.create({ openTag: crypto.randomUUID(), profile: grant });
    expect(fake.requestsTo("POST", "/v1/sessions")).toHaveLength(2);
  });

  it("after a lost create answer, find records the profile the session created and keeps the profile reserved until release", async () => {
    useFake(0);
    const profileStore = createMemoryProfileStore();
    const provider = steel({ profileStore });
    const openTag = crypto.randomUUID();
    fake.faults.create.push({ kind: "lose-response" });
    expect(await failure(provider.create({ openTag, profile: grant }))).toBeInstanceOf(OutcomeUnknownError);
    expect(await profileStore.get(grant.id)).toBeUndefined();
    expect(await failure(provider.create({ openTag: crypto.randomUUID(), profile: grant }))).toBeInstanceOf(ProfileInUseError);

    const found = await provider.find(openTag);
    expect(found).toEqual([expect.objectContaining({ id: openTag, status: "RUNNING", profileId: grant.id })]);
    expect(await profileStore.get(grant.id)).toBe("prof_1");

    await provider.release(openTag);
    await provider.create({ openTag: crypto.randomUUID(), profile: grant });
    expect(createBodies().at(-1)).toMatchObject({ profileId: "prof_1", persistProfile: true });
  });

  it("if find cannot store the profile of an uncertain create, it fails and a later find stores it", async () => {
    useFake(0);
    const inner = createMemoryProfileStore();
    let failSets = 1;
    const flaky: ProfileStore = {
      get: (id) => inner.get(id),
      set: async (id, value) => {
        if (failSets-- > 0) throw new Error("disk busy");
        await inner.set(id, value);
      },
      delete: (id) => inner.delete(id),
    };
    const provider = steel({ profileStore: flaky });
    const openTag = crypto.randomUUID();
    fake.faults.create.push({ kind: "lose-response" });
    expect(await failure(provider.create({ openTag, profile: grant }))).toBeInstanceOf(OutcomeUnknownError);
    const error = await failure(provider.find(openTag));
    expect(error).toBeInstanceOf(ProfileError);
    expect(error.message).toMatch(/disk busy/);
    expect(await provider.find(openTag)).toEqual([expect.objectContaining({ id: openTag, profileId: grant.id })]);
    expect(await inner.get(grant.id)).toBe("prof_1");
  });

  it("when the profile id cannot be stored, the session is released and the open fails", async () => {
    useFake();
    const broken: ProfileStore = {
      get: async () => undefined,
      set: async () => {
        throw new Error("disk full");
      },
      delete: async () => undefined,
    };
    const provider = steel({ profileStore: broken });
    const openTag = crypto.randomUUID();
    const error = await failure(provider.create({ openTag, profile: grant }));
    expect(error).toBeInstanceOf(ProfileError);
    expect(error.message).toMatch(/disk full/);
    expect(fake.sessions.get(openTag)?.status).toBe("released");
  });
});
