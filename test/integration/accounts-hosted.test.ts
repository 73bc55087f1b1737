/**
 * The persistent-accounts example's runs on the hosted providers: the same
 * stack and workflow as accounts.test.ts, but the worker's profiles are
 * Steel's or Browserbase's. Their REST APIs are the msw stand-ins at the wire
 * format; each session's CDP URL is a real local Chromium showing the
 * stand-in messaging site. What this shows is the wait: a run's session
 * closes (and the provider starts saving the profile), and the next run's
 * open goes ahead only once the provider has persisted it. (The stand-ins
 * keep no browser data, so whether the account stays linked on Steel or
 * Browserbase is not shown here.)
 */
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startMessagingSite, type MessagingSite } from "../../examples/accounts/messaging-site.js";
import { startAccountsStack, type AccountsStack } from "../../examples/accounts/stack.js";
import { checkLinked } from "../../examples/accounts/workflow.js";
import { createBrowserbaseProvider, createSteelProvider } from "../../src/playwright.js";
import { baseURL as browserbaseBase, createBrowserbaseMock } from "../helpers/browserbase-mock.js";
import { startCdpChromium, type CdpChromium } from "../helpers/cdp-chromium.js";
import { createFakeSteel, steelBase } from "../helpers/steel-mock.js";

const acmeProfile = "whatsapp:acme:+4712345678";
const steelKey = "ste-accounts-key-2b7e91c4d0";
const browserbaseKey = "bb_accounts_key_8d31f6a0e5";

const server = setupServer();
let chrome: CdpChromium;
let site: MessagingSite;
let stack: AccountsStack | undefined;

beforeAll(async () => {
  server.listen({ onUnhandledRequest: "bypass" });
  [chrome, site] = await Promise.all([startCdpChromium(), startMessagingSite()]);
});
afterEach(async () => {
  await stack?.close();
  stack = undefined;
  server.resetHandlers();
});
afterAll(async () => {
  server.close();
  await Promise.all([chrome?.close(), site?.close()]);
});

describe("persistent accounts on the hosted providers' stand-ins", () => {
  it("Steel: a run closes while the profile uploads; the next run creates its session only once the profile reads READY", { timeout: 60_000 }, async () => {
    const steel = createFakeSteel({ apiKey: steelKey, uploadPolls: 2, websocketUrl: (session) => `${chrome.wsUrl}?sessionId=${session.id}` });
    server.use(...steel.handlers);
    stack = await startAccountsStack({
      provider: createSteelProvider({ apiKey: steelKey, baseURL: steelBase, profilePollMs: 1 }),
      grants: { acme: [acmeProfile] },
    });
    const acme = stack.clientOf("acme");

    // First run: the QR page (no human here: the takeover is accounts.test.ts's). Its session is closed, not logged out.
    expect(await checkLinked(acme, { profileId: acmeProfile, siteUrl: site.url })).toEqual({ linked: false, challenge: "login_wall" });
    const [first] = steel.sessions.values();
    expect(first).toMatchObject({ status: "released", persistProfile: true });
    expect(steel.profiles.get("prof_1")?.status).toBe("UPLOADING");

    // Second run: the open waits through UPLOADING (two polls) and creates its session on the profile once READY.
    expect(await checkLinked(acme, { profileId: acmeProfile, siteUrl: site.url })).toEqual({ linked: false, challenge: "login_wall" });
    const calls = steel.requests.map((request) => `${request.method} ${request.path}`);
    const releasedAt = calls.indexOf(`POST /v1/sessions/${first!.id}/release`);
    expect(calls.slice(releasedAt + 1, releasedAt + 5)).toEqual([
      "GET /v1/profiles/prof_1",
      "GET /v1/profiles/prof_1",
      "GET /v1/profiles/prof_1",
      "POST /v1/sessions",
    ]);
    const creates = steel.requestsTo("POST", "/v1/sessions").map((request) => JSON.parse(request.body) as Record<string, unknown>);
    expect(creates.map((body) => [body["profileId"], body["persistProfile"]])).toEqual([
      [undefined, true],
      ["prof_1", true],
    ]);
    expect(stack.manager.list()).toEqual([]);
  });

  it("Browserbase: the next run creates its session on the context only once the last one reads ended (plus the settle delay)", { timeout: 60_000 }, async () => {
    const browserbase = createBrowserbaseMock({ apiKey: browserbaseKey, connectUrl: `${chrome.wsUrl}?signingKey=signing-secret-value` });
    server.use(...browserbase.handlers);
    stack = await startAccountsStack({
      provider: createBrowserbaseProvider({ apiKey: browserbaseKey, baseURL: browserbaseBase, persistSettleMs: 10, connectTimeoutMs: 10_000 }),
      grants: { acme: [acmeProfile] },
    });
    const acme = stack.clientOf("acme");

    // Released sessions read RUNNING twice more before COMPLETED: the context is still being saved.
    browserbase.readsUntilEnded = 2;
    expect(await checkLinked(acme, { profileId: acmeProfile, siteUrl: site.url })).toEqual({ linked: false, challenge: "login_wall" });
    const [first] = browserbase.sessions.values();
    expect(first?.status).toBe("RUNNING");

    expect(await checkLinked(acme, { profileId: acmeProfile, siteUrl: site.url })).toEqual({ linked: false, challenge: "login_wall" });
    const calls = browserbase.calls();
    const releasedAt = calls.indexOf(`POST /v1/sessions/${first!.id}`);
    expect(calls.slice(releasedAt + 1, releasedAt + 4)).toEqual([`GET /v1/sessions/${first!.id}`, `GET /v1/sessions/${first!.id}`, "POST /v1/sessions"]);
    // One context for the profile, persisted by both sessions.
    expect(browserbase.contexts).toEqual(["ctx_1"]);
    const creates = browserbase.requests.filter((request) => request.method === "POST" && request.path === "/v1/sessions");
    expect(creates.map((request) => (request.body as { browserSettings?: { context?: unknown } }).browserSettings?.context)).toEqual([
      { id: "ctx_1", persist: true },
      { id: "ctx_1", persist: true },
    ]);
    expect(stack.manager.list()).toEqual([]);
  });
});
