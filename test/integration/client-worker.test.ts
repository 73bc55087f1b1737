import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AmbiguousTargetError, ControlLeaseError, NotFoundError, OutcomeUnknownError, StaleRefError, isBusyError } from "../../src/errors.js";
import { BrowserUseClient } from "../../src/client/index.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import type { FaultProxy } from "../helpers/fault-proxy.js";
import type { FixtureServer } from "../helpers/fixture-server.js";
import type { WorkerServer } from "../helpers/worker-server.js";
import { startWorkerStack, type WorkerStack } from "../helpers/worker-stack.js";

const token = "op-".padEnd(40, "x");
const tenantKey = "tenant-acme-".padEnd(40, "k");

let stack: WorkerStack;
let manager: BrowserSessionManager;
let worker: WorkerServer;
let proxy: FaultProxy;
let fixtures: FixtureServer;

beforeAll(async () => {
  stack = await startWorkerStack({ token, tenantKey, maxSessions: 8 });
  ({ manager, worker, proxy, fixtures } = stack);
});
/** Stops everything once (the last test does it and checks what is left; afterAll covers a failure before). */
const shutDown = () => stack.stopBrowsers();
afterAll(async () => {
  await stack?.close();
});

const client = (baseUrl = proxy.origin) => new BrowserUseClient({ baseUrl, stationId: "local", apiKey: tenantKey, timeoutMs: 30_000 });

describe("client → worker → manager → Chromium (real HTTP)", () => {
  it("drives a session end to end", async () => {
    const browser = client(worker.origin);
    const session = await browser.open();
    const navigated = await browser.execute(session.id, { op: "navigate", url: fixtures.url("/form.html") });
    expect(navigated.title).toBe("Form");
    const { snapshot } = await browser.execute(session.id, { op: "accessibility" });
    expect(snapshot).toMatch(/button "Sign in" \[e\d+\]/);
    expect(((await browser.perform(session.id, "evaluate", "document.title")) as { value: unknown }).value).toBe("Form");
    expect((await browser.list()).map((entry) => entry.id)).toContain(session.id);
    expect((await browser.liveFrame(session.id)).mimeType).toBe("image/png");
    await browser.close(session.id);
    await expect(browser.execute(session.id, { op: "pages" })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("brings a typed error's data across the wire: how many matched, which ref is stale", async () => {
    const browser = client(worker.origin);
    const session = await browser.open();
    await browser.execute(session.id, { op: "navigate", url: fixtures.url("/form.html") });
    const buttons = (await browser.execute(session.id, { op: "evaluate", expression: "document.querySelectorAll('button').length" })) as { value: unknown };
    const ambiguous = await browser.execute(session.id, { op: "click", selector: "button" }).catch((caught: unknown) => caught);
    expect(ambiguous).toBeInstanceOf(AmbiguousTargetError);
    expect((ambiguous as AmbiguousTargetError).count).toBe(buttons.value);
    const ref = /button "Sign in" \[(e\d+)\]/.exec((await browser.execute(session.id, { op: "accessibility" })).snapshot)![1]!;
    await browser.execute(session.id, { op: "navigate", url: fixtures.url("/second.html") });
    const stale = await browser.execute(session.id, { op: "click", target: { by: "ref", ref } }).catch((caught: unknown) => caught);
    expect(stale).toBeInstanceOf(StaleRefError);
    expect((stale as StaleRefError).ref).toBe(ref);
    await browser.close(session.id);
  });

  it("closes a session under a human lease only with the human's token", async () => {
    const browser = client(worker.origin);
    const session = await browser.open();
    const grant = await browser.acquireControl(session.id, 10_000);
    const refused = await browser.close(session.id).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(ControlLeaseError);
    expect((refused as Error).message).toMatch(/under human control until .*only the control token can close it/);
    expect((await browser.list()).map((entry) => entry.id)).toContain(session.id);
    await browser.close(session.id, { controlToken: grant.token });
    expect((await browser.list()).map((entry) => entry.id)).not.toContain(session.id);
  });

  it("reports a lost open response as outcome unknown; reconcile finds exactly one session and a repeated open creates none", async () => {
    const browser = client();
    const before = (await browser.list()).length;
    proxy.inject("open", "drop-response");
    const error = await browser.open({ openTag: "uncertain-open-1" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toMatch(/uncertain-open-1/);
    const found = await browser.reconcile("uncertain-open-1");
    expect(found).toHaveLength(1);
    const again = await browser.open({ openTag: "uncertain-open-1" });
    expect(again.id).toBe(found[0]!.id);
    expect((await browser.list()).length).toBe(before + 1);
    await browser.close(again.id);
  });

  it("a resume whose answer is lost carries its tag: reconcile finds exactly one session and a repeated resume creates none", async () => {
    const browser = client();
    const source = await browser.open();
    await browser.execute(source.id, { op: "navigate", url: fixtures.url("/second.html") });
    const checkpoint = await browser.checkpoint(source.id);
    const before = (await browser.list()).length;
    proxy.inject("resume", "drop-response");
    const error = await browser.resumeCheckpoint(checkpoint.id).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    const { openTag } = error as OutcomeUnknownError;
    expect(openTag).toMatch(/^[0-9a-f-]{36}$/);
    expect((error as Error).message).toContain(`reconcile("${openTag}")`);
    const found = await browser.reconcile(openTag!);
    expect(found).toHaveLength(1);
    const again = await browser.resumeCheckpoint(checkpoint.id, { openTag: openTag! });
    expect(again.id).toBe(found[0]!.id);
    expect((await browser.list()).length).toBe(before + 1);
    expect((await browser.execute(again.id, { op: "pages" })).pages.map((page) => page.url)).toEqual([fixtures.url("/second.html")]);
    await browser.close(again.id);
    await browser.close(source.id);
  });

  it("retries a read after a reset, never a mutation", async () => {
    const browser = client();
    const session = await browser.open();
    const forwardedBefore = proxy.forwarded.length;
    proxy.inject("list", "reset-before-forward");
    expect((await browser.list()).map((entry) => entry.id)).toContain(session.id);
    expect(proxy.forwarded.slice(forwardedBefore)).toEqual(["list"]);

    proxy.inject("execute", "reset-before-forward");
    const error = await browser.execute(session.id, { op: "navigate", url: fixtures.url("/index.html") }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(proxy.forwarded.slice(forwardedBefore)).toEqual(["list"]);
    await browser.close(session.id);
  });

  it("holds up under load: 8 sessions, 504 actions, only busy refusals, everything closed after", async () => {
    const browser = client(worker.origin);
    const sessions = await Promise.all(Array.from({ length: 8 }, () => browser.open()));
    await Promise.all(sessions.map((session) => browser.execute(session.id, { op: "navigate", url: fixtures.url("/index.html") })));
    let done = 0;
    let busy = 0;
    const unexpected: string[] = [];
    // Two callers per session, so some actions collide and must be refused as busy, never queued or interleaved.
    const caller = async (sessionId: string, count: number) => {
      for (let index = 0; index < count; index++) {
        try {
          await browser.execute(sessionId, index % 5 === 0 ? { op: "accessibility", interactiveOnly: true } : { op: "evaluate", expression: String(index) });
          done++;
        } catch (error) {
          if (isBusyError(error)) busy++;
          else unexpected.push(String(error));
        }
      }
    };
    await Promise.all(sessions.flatMap((session) => [caller(session.id, 32), caller(session.id, 31)]));
    expect(unexpected).toEqual([]);
    expect(done + busy).toBe(8 * 63);
    expect(done).toBeGreaterThan(50);
    await Promise.all(sessions.map((session) => browser.close(session.id)));
    expect(await browser.list()).toEqual([]);
    expect(manager.list()).toEqual([]);
  }, 120_000);
});

describe("no Chromium left", () => {
  it("leaves no browser process once the worker, its manager and its adapter shut down after the load", async () => {
    const { readdir, readFile } = await import("node:fs/promises");
    // Chromium processes whose parent is this test process (each test file runs in its own process).
    const browsers = async () => {
      const found: string[] = [];
      for (const entry of await readdir("/proc")) {
        if (!/^\d+$/.test(entry)) continue;
        const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
        if (stat.split(") ")[1]?.startsWith("Z")) continue;
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        if (parent === process.pid && /chrom/i.test(stat)) found.push(entry);
      }
      return found;
    };
    // A tenant's browser closes with its last session: one left open keeps acme's browser up.
    await client(worker.origin).open();
    expect((await browsers()).length).toBeGreaterThan(0);
    await shutDown();
    expect(manager.list()).toEqual([]);
    await expect.poll(browsers, { timeout: 10_000 }).toEqual([]);
  });
});
