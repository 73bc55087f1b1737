import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalProvider } from "../../src/providers/local/index.js";
import {
  ControlLeaseError,
  NotFoundError,
  OutcomeUnknownError,
  ProfileInUseError,
  ValidationError,
} from "../../src/errors.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";

let adapter: PlaywrightBrowserAdapter;
let server: FixtureServer;

beforeAll(async () => {
  adapter = new PlaywrightBrowserAdapter();
  server = await startFixtureServer();
});
afterAll(async () => {
  await adapter.shutdown();
  await server.close();
});

// The manager's own rules (admission, busy, idle expiry, leases, open tags, recordings' timing, events)
// run on an in-memory adapter in test/unit/manager.test.ts; these are the ones that need a real page.
describe("BrowserSessionManager (real Chromium)", () => {
  it("hands control to a human on a real page: automation's click does not reach it, the human's does", async () => {
    const manager = new BrowserSessionManager(adapter, 1);
    const { id } = await manager.open();
    await manager.perform(id, "navigate", server.url("/form.html"));
    const checked = async (token?: string) =>
      (await manager.execute(id, { op: "evaluate", expression: "document.querySelector('#remember').checked" }, token)).value;
    const grant = await manager.acquireControl(id, 10_000);
    await expect(manager.execute(id, { op: "click", selector: "#remember" })).rejects.toBeInstanceOf(ControlLeaseError);
    const observed = await manager.execute(id, { op: "accessibility" });
    expect(observed.snapshot).toMatch(/Remember me/);
    expect(await checked(grant.token)).toBe(false);
    await manager.execute(id, { op: "click", selector: "#remember" }, grant.token);
    expect(await checked(grant.token)).toBe(true);
    await manager.releaseControl(id, grant.token);
    await manager.execute(id, { op: "uncheck", selector: "#remember" });
    expect(await checked()).toBe(false);
    await manager.close();
  });

  it("reads the page text while a human holds control, without a token and without acting for the human", async () => {
    const manager = new BrowserSessionManager(adapter, 1);
    const { id } = await manager.open();
    await manager.perform(id, "navigate", server.url("/visible-text.html?token=abc123"));
    const grant = await manager.acquireControl(id, 10_000);

    await expect(manager.execute(id, { op: "evaluate", expression: "document.body.innerText" })).rejects.toBeInstanceOf(ControlLeaseError);
    const read = await manager.execute(id, { op: "text" });
    expect(read).toMatchObject({ truncated: false, url: server.url("/visible-text.html"), title: "Visible text" });
    expect(read.text).toContain("Shown paragraph");
    expect(read.text).not.toContain("display-none-text");
    // A human's own read is fine too, and a wrong token does not matter for an observation.
    expect((await manager.execute(id, { op: "text", maxBytes: 9 }, grant.token)).text).toBe("€uro ");
    expect((await manager.execute(id, { op: "text" }, "wrong-token")).text).toContain("Shown paragraph");

    const audit = await manager.audit();
    expect(audit.map((entry) => [entry.op, entry.outcome, entry.human ?? false])).toEqual([
      ["navigate", "ok", false],
      ["text", "ok", false],
      ["text", "ok", true],
      ["text", "ok", false],
    ]);
    expect(audit[1]!.detail).toBe("text");
    await manager.releaseControl(id, grant.token);
    await manager.close();
  });

  it("journals masked metadata, never typed text", async () => {
    const manager = new BrowserSessionManager(adapter, 1);
    const { id } = await manager.open();
    await manager.perform(id, "navigate", server.url("/form.html?token=abc123"));
    await manager.execute(id, { op: "fill", selector: "#pass", value: "correct-horse-battery" });
    await manager.execute(id, { op: "type", selector: "#user", text: "typed-secret-text" });
    await manager.execute(id, { op: "click", selector: "#missing", timeoutMs: 100 }).catch(() => undefined);
    const audit = await manager.audit();
    const serialized = JSON.stringify(audit);
    expect(serialized).not.toMatch(/correct-horse-battery|typed-secret-text|abc123/);
    expect(audit.map((entry) => entry.op)).toEqual(["navigate", "fill", "type", "click"]);
    // Length only: a hash of a short typed value could be guessed.
    expect(audit[1]!.detail).toBe("fill #pass value=[21 chars]");
    expect(audit[2]!.detail).toBe("type #user text=[17 chars]");
    expect(audit[0]!.detail).toBe(`navigate ${server.url("/form.html")}`);
    expect(audit[3]).toMatchObject({ outcome: "error", errorCode: "not_found" });
    expect(audit.every((entry, index) => entry.seq === index + 1 && typeof entry.durationMs === "number")).toBe(true);
    await manager.close();
  });

  it("opens a profile at most once per manager, and again once it is closed", async () => {
    const profileRootDir = await mkdtemp(join(tmpdir(), "station-manager-profiles-"));
    const profiled = new PlaywrightBrowserAdapter({ provider: createLocalProvider({ profileRootDir }) });
    const manager = new BrowserSessionManager(profiled, 3, { profileGrants: ["alice"] });
    try {
      // Only granted profiles open; the refusal names the field and nothing is created.
      await expect(manager.open({ profileId: "mallory" })).rejects.toThrow(/^options\.profileId: profile mallory is not granted/);
      expect(manager.list()).toHaveLength(0);
      const first = await manager.open({ profileId: "alice" });
      expect(first.profileId).toBe("alice");
      const error = await manager.open({ profileId: "alice" }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProfileInUseError);
      expect((error as Error).message).toMatch(/already open in this manager/);
      await manager.closeSession(first.id);
      const again = await manager.open({ profileId: "alice" });
      expect(again.profileId).toBe("alice");
      // A failed open does not leave the profile marked as open.
      const noRoot = new BrowserSessionManager(adapter, 1, { profileGrants: ["bob"] });
      await expect(noRoot.open({ profileId: "bob" })).rejects.toBeInstanceOf(ValidationError);
      await expect(noRoot.open({ profileId: "bob" })).rejects.toThrow(/no profileRootDir/);
      await noRoot.close();
    } finally {
      await manager.close();
      await profiled.shutdown();
      await rm(profileRootDir, { recursive: true, force: true });
    }
  });

  it("checkpoints sanitised pages and resumes them into a new session", async () => {
    const manager = new BrowserSessionManager(adapter, 2);
    const { id } = await manager.open();
    await manager.perform(id, "navigate", server.url("/index.html?session=secret#top"));
    await manager.execute(id, { op: "newPage", url: server.url("/second.html?q=private") });
    await manager.execute(id, { op: "selectPage", pageId: "p1" });
    const checkpoint = await manager.checkpoint(id);
    expect(checkpoint.pages.map((page) => page.url)).toEqual([server.url("/index.html"), server.url("/second.html")]);
    expect(checkpoint.selectedIndex).toBe(0);
    expect(checkpoint.backend).toBe("local");
    expect(JSON.stringify(checkpoint)).not.toMatch(/secret|private|#top/);
    expect(await manager.checkpoints()).toHaveLength(1);

    const resumed = await manager.resumeCheckpoint(checkpoint.id);
    expect(resumed.id).not.toBe(id);
    const pages = await manager.execute(resumed.id, { op: "pages" });
    expect(pages.pages.map((page) => page.title)).toEqual(["Fixture home", "Second page"]);
    expect(pages.selectedPageId).toBe(pages.pages[0]!.pageId);
    await manager.deleteCheckpoint(checkpoint.id);
    expect(await manager.checkpoints()).toEqual([]);
    await expect(manager.resumeCheckpoint(checkpoint.id)).rejects.toBeInstanceOf(NotFoundError);
    await manager.close();
  });

  it("records real PNG frames of the page, and keeps them after the session closes", async () => {
    const manager = new BrowserSessionManager(adapter, 1);
    const { id } = await manager.open();
    await manager.perform(id, "navigate", server.url("/index.html"));
    const recording = await manager.startRecording(id);
    expect(recording.frames).toHaveLength(1);
    const first = await manager.recordingFrame(recording.id, recording.frames[0]!.id);
    expect(first.mimeType).toBe("image/png");
    expect(Buffer.from(first.base64, "base64").subarray(1, 4).toString()).toBe("PNG");
    expect(recording.frames[0]!.bytes).toBe(Buffer.from(first.base64, "base64").byteLength);
    await manager.closeSession(id);
    expect(await manager.getRecording(recording.id)).toMatchObject({ state: "stopped", stopReason: "sessionClosed", frames: [{ id: recording.frames[0]!.id }] });
    await manager.close();
  });
  it("cancels an action through an AbortSignal", async () => {
    const manager = new BrowserSessionManager(adapter, 1);
    const { id } = await manager.open();
    await manager.perform(id, "navigate", server.url("/index.html"));
    const controller = new AbortController();
    // Aborted once the page runs the script (its fetch reaches the server): it was dispatched, so its outcome is unknown.
    const reached = server.nextRequest("/status");
    const pending = manager.execute(id, { op: "evaluate", expression: "fetch('/status').then(() => new Promise(() => {}))" }, { signal: controller.signal });
    await reached;
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(OutcomeUnknownError);
    expect((await manager.audit()).at(-1)).toMatchObject({ op: "evaluate", outcome: "unknown" });
    await expect(manager.execute(id, { op: "pages" }, { signal: controller.signal })).rejects.toThrow(/cancelled before it started/);
    await manager.close();
  });

});
