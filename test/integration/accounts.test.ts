/**
 * The persistent-accounts example end to end against the local provider: the
 * stand-in messaging site on 127.0.0.1, an in-process worker on real HTTP
 * over real Chromium with persistent profiles (one grant per tenant and
 * account), the agent tools' takeover, and the worker's live view page driven
 * in a second Chromium by the test, which plays the human under the control
 * lease. Synchronised on events and page state only; pacing's own gaps are
 * real (they are the feature).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMessagingSite, type MessagingSite } from "../../examples/accounts/messaging-site.js";
import { startAccountsStack, type AccountsStack } from "../../examples/accounts/stack.js";
import { checkLinked, linkAccount, postMedia, sendMessages } from "../../examples/accounts/workflow.js";
import type { BrowserUseClient, TakeoverNotice } from "../../src/agent.js";
import { isProfileInUseError, isRateLimitedError, isValidationError } from "../../src/errors.js";
import { closedNetworkArgs, findChromium } from "../../src/providers/local/index.js";
import { failure } from "../helpers/failure.js";
import { fiftyMegabytes, generatedStream, sha256Of } from "../helpers/generated-stream.js";

const acmeProfile = "whatsapp:acme:+4712345678";
const globexProfile = "whatsapp:globex:+4687654321";

let site: MessagingSite;
let profileRoot: string;
let stack: AccountsStack;
let viewerBrowser: Browser;
let acme: BrowserUseClient;
let globex: BrowserUseClient;

beforeAll(async () => {
  // A third send within 2.5 s is throttled. Paced at the default policy a message (fill, then click) comes at least two
  // 0.8 s gaps after the last, so three span at least 3.2 s; unpaced, three messages take well under a second.
  site = await startMessagingSite({ sendLimit: 2, windowMs: 2500 });
  profileRoot = await mkdtemp(join(tmpdir(), "station-accounts-"));
  stack = await startAccountsStack({ profileRoot, grants: { acme: [acmeProfile], globex: [globexProfile] } });
  acme = stack.clientOf("acme");
  globex = stack.clientOf("globex");
  viewerBrowser = await chromium.launch({ executablePath: findChromium(), args: [...closedNetworkArgs] });
});
afterAll(async () => {
  await viewerBrowser?.close();
  await stack?.close();
  await site?.close();
  if (profileRoot) await rm(profileRoot, { recursive: true, force: true });
});

/**
 * The human: opens the live view link, takes control, clicks "Link this
 * browser" on the streamed image, waits for the chat, releases control.
 * Returns the control state the site's link arrived under.
 */
async function playHuman(client: BrowserUseClient, notice: TakeoverNotice): Promise<{ mode: string; deviceId: string }> {
  const viewer = await viewerBrowser.newPage({ viewport: { width: 800, height: 700 } });
  try {
    await viewer.goto(notice.liveViewUrl!);
    await viewer.waitForFunction(() => Number(document.getElementById("frame")?.dataset.frames ?? "0") > 0);
    await viewer.getByRole("button", { name: "Take control" }).click();
    await viewer.waitForSelector('body[data-control="human"]');
    const { elements } = await client.execute(notice.sessionId, { op: "inspect" });
    const button = elements.find((element) => element.id === "link")?.box;
    expect(button, JSON.stringify(elements).slice(0, 400)).toBeDefined();
    const linked = site.nextLink();
    const image = (await viewer.locator("#frame").boundingBox())!;
    // The frame is the page's 1280×800 viewport, shown scaled.
    await viewer.mouse.click(image.x + (image.width * (button!.x + button!.width / 2)) / 1280, image.y + (image.height * (button!.y + button!.height / 2)) / 800);
    const deviceId = await linked;
    // The link reached the site while the click (which waits for the reload it starts) may still run: the session
    // takes one command at a time, so wait until the page has its answer before the host's next call.
    await viewer.waitForFunction(() => Number(document.body.dataset.inputs ?? "0") >= 1);
    const { mode } = await client.control(notice.sessionId);
    // The page stores the device and reloads into the chat (waitFor is an observation: allowed under the lease).
    await client.execute(notice.sessionId, { op: "waitFor", selector: "#composer" });
    await viewer.getByRole("button", { name: "Release control" }).click();
    await viewer.waitForSelector('body[data-control="automation"]');
    // The page stops sending input at once; the worker answers the release once it has read the page.
    await viewer.getByText("Control handed back").waitFor();
    return { mode, deviceId };
  } finally {
    await viewer.close();
  }
}

describe("persistent accounts (local provider)", () => {
  let deviceId = "";

  it("first run: the agent meets the QR page (login_wall), the tools hand over, a human links it in the live view; closing is not logging out", async () => {
    let human: { mode: string; deviceId: string } | undefined;
    const report = await linkAccount(acme, {
      profileId: acmeProfile,
      siteUrl: site.url,
      handOver: async (notice) => void (human = await playHuman(acme, notice)),
    });
    expect(report.takeover?.challenge).toMatchObject({ state: "login_wall", evidence: ["status 200", "a QR code sign-in"] });
    expect(report.takeover?.liveViewUrl).toMatch(/\/live\/[^?]+\?token=/);
    // While held, the agent's mutating call was refused and nothing reached the page.
    expect(report.refusedWhileHeld).toBe(true);
    // The link came from the page while the human held the control lease.
    expect(human).toMatchObject({ mode: "human" });
    deviceId = human!.deviceId;
    expect(report.linked).toBe(true);
    // The model never sees the live view link or its token.
    expect(report.modelTexts.join("\n")).not.toMatch(/token=|\/live\//);
    // The session is closed; the account is still linked at the site.
    expect(stack.manager.list()).toEqual([]);
    expect(site.devices.get(deviceId)?.linked).toBe(true);
  });

  it("second run: a new session with the same profile finds the account linked, with no human", async () => {
    const visits = site.visits.length;
    expect(await checkLinked(acme, { profileId: acmeProfile, siteUrl: site.url })).toEqual({ linked: true });
    // The browser (a new process on the same profile) sent the cookie from the first run.
    expect(site.visits.slice(visits).map((visit) => visit.deviceId)).toEqual([deviceId]);
  });

  it("two tenants' profiles never see each other's cookies; a tenant cannot open another's profile", async () => {
    const visits = site.visits.length;
    expect(await checkLinked(globex, { profileId: globexProfile, siteUrl: site.url })).toEqual({ linked: false, challenge: "login_wall" });
    expect(site.visits.slice(visits)).toEqual([{ at: expect.any(Number) }]); // no cookie at all
    const refused = await failure(globex.open({ profileId: acmeProfile, openTag: crypto.randomUUID() }));
    expect(isValidationError(refused) && refused.field, String(refused)).toBe("body.options.profileId");
    expect(String(refused)).toContain("is not granted to this tenant");
    expect(stack.manager.list()).toEqual([]);
  });

  it("the same profile opened twice at once is refused", async () => {
    const { id } = await acme.open({ profileId: acmeProfile, openTag: crypto.randomUUID() });
    try {
      const second = await failure(acme.open({ profileId: acmeProfile, openTag: crypto.randomUUID() }));
      expect(isProfileInUseError(second), String(second)).toBe(true);
      expect(stack.manager.list().map((session) => session.id)).toEqual([id]);
    } finally {
      await acme.close(id);
    }
  });

  it("media: a 50 MB video streamed through the worker is uploaded by the page and stays unpublished; the task's publish publishes", { timeout: 120_000 }, async () => {
    // Past the 4 MiB command path: the 50 MB test video, generated as it is read (the host's own stream, never a path).
    const { stream } = generatedStream(fiftyMegabytes);
    const options = stack.clientOptionsOf("acme");
    const video = await postMedia(acme, options, { profileId: acmeProfile, siteUrl: site.url, file: { name: "clip.mp4", mimeType: "video/mp4", stream }, publish: false });
    expect(video).toMatchObject({ staged: { size: fiftyMegabytes }, published: false });
    // The site received every byte, in order, from the page's own upload (a fetch with the File), and nothing was published.
    const uploads = site.devices.get(deviceId)?.uploads ?? [];
    expect(uploads.at(-1)).toEqual({
      uploadId: expect.any(String),
      name: "clip.mp4",
      type: "video/mp4",
      bytes: fiftyMegabytes,
      sha256: await sha256Of(generatedStream(fiftyMegabytes).stream),
      published: false,
    });

    const note = await postMedia(acme, options, { profileId: acmeProfile, siteUrl: site.url, file: { name: "note.txt", mimeType: "text/plain", bytes: new TextEncoder().encode("hello media") }, publish: true });
    expect(note.published).toBe(true);
    expect(site.devices.get(deviceId)?.uploads.at(-1)).toMatchObject({ name: "note.txt", bytes: 11, published: true });
    // The video stays unpublished.
    expect(site.devices.get(deviceId)?.uploads.find((upload) => upload.name === "clip.mp4")?.published).toBe(false);
    expect(stack.manager.list()).toEqual([]);
  });

  it("at the default pacing policy the throttle banner never appears", { timeout: 90_000 }, async () => {
    const waits: Array<{ sessionId: string; op: string; reasons: string[] }> = [];
    const onWait = (event: (typeof waits)[number]) => void waits.push(event);
    stack.manager.events.on("pacing-wait", onWait);
    try {
      const report = await sendMessages(acme, { profileId: acmeProfile, siteUrl: site.url, messages: ["one", "two", "three"], pacing: true });
      expect(report).toEqual({ sessionId: report.sessionId, sent: ["one", "two", "three"], throttleBanner: false });
      // More sends than the site allows in its window reached it, spaced by the pacer, and none was refused.
      expect(site.devices.get(deviceId)).toMatchObject({ accepted: ["one", "two", "three"], refused: 0 });
      const clicks = waits.filter((wait) => wait.sessionId === report.sessionId && wait.op === "click");
      expect(clicks).toHaveLength(3);
      for (const click of clicks) expect(click.reasons).toContain("gap");
    } finally {
      stack.manager.events.off("pacing-wait", onWait);
    }
  });

  it("with the gaps off the banner appears, and the throttle signal pauses the profile instead of retrying", { timeout: 60_000 }, async () => {
    const pauses: Array<{ sessionId: string; profileId?: string; reason: string; until: string }> = [];
    const onPause = (event: (typeof pauses)[number]) => void pauses.push(event);
    stack.manager.events.on("pacing-pause", onPause);
    try {
      const before = site.devices.get(deviceId)!.accepted.length;
      const messages = ["a", "b", "c", "d", "e", "f"];
      const report = await sendMessages(acme, { profileId: acmeProfile, siteUrl: site.url, messages, pacing: { minGapMs: 0, maxGapMs: 0, actionsPerMinute: 600 } });
      expect(report.throttleBanner).toBe(true);
      expect(report.throttleState).toBe("rate_limited");
      // The next send was refused by the pacer (nothing reached the site): one refusal at the site, then no retry.
      expect(report.pausedRetryAfterMs).toBeGreaterThan(0);
      const device = site.devices.get(deviceId)!;
      expect(device.refused).toBe(1);
      expect(device.accepted.length - before).toBe(report.sent.length);
      expect(report.sent.length).toBeLessThan(messages.length - 1);
      // The banner's throttle paused the profile (once, or again when the click's own result already carried it).
      expect(pauses.length).toBeGreaterThanOrEqual(1);
      for (const pause of pauses) expect(pause).toMatchObject({ sessionId: report.sessionId, profileId: acmeProfile });
      const until = pauses.at(-1)!.until;
      expect(Date.parse(until)).toBeGreaterThan(Date.now());

      // The pause is the profile's: a new paced session on it is refused too, before anything is sent.
      const { id } = await acme.open({ profileId: acmeProfile, openTag: crypto.randomUUID(), pacing: true });
      try {
        const refused = await failure(acme.execute(id, { op: "navigate", url: site.url }));
        expect(isRateLimitedError(refused), String(refused)).toBe(true);
        // The pacer's own refusal is no new throttle signal: the pause is not extended.
        expect(pauses.at(-1)!.until).toBe(until);
        const { pacing } = await acme.execute(id, { op: "diagnostics" });
        expect(pacing).toMatchObject({ enabled: true, pausedUntil: until });
      } finally {
        await acme.close(id);
      }
      expect(site.devices.get(deviceId)!.refused).toBe(1);
    } finally {
      stack.manager.events.off("pacing-pause", onPause);
    }
  });

  it("log out unlinks: the next session sees the QR page again", async () => {
    const { id } = await acme.open({ profileId: acmeProfile, openTag: crypto.randomUUID(), pacing: false });
    try {
      await acme.execute(id, { op: "navigate", url: site.url });
      await acme.execute(id, { op: "click", selector: "#logout" });
      await acme.execute(id, { op: "waitFor", selector: "#link" });
    } finally {
      await acme.close(id);
    }
    expect(site.devices.get(deviceId)?.linked).toBe(false);
    expect(await checkLinked(acme, { profileId: acmeProfile, siteUrl: site.url })).toEqual({ linked: false, challenge: "login_wall" });
  });
});
