/**
 * The manager applies the pacing policy: on an in-memory adapter named like
 * a hosted provider, with a fake clock (waits end only when the test moves
 * it) and a seeded random source. Nothing here sleeps.
 */
import { describe, expect, it, vi } from "vitest";
import { createSeededRandom } from "../../src/access/pacing/index.js";
import { ActionFailedError, RateLimitedError, ValidationError, isRateLimitedError } from "../../src/errors.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { createMemoryStateStore } from "../../src/lifecycle/memory-stores.js";
import type { SessionManagerOptions } from "../../src/lifecycle/options.js";
import type { OpenOptions } from "../../src/protocol/open-options.js";
import { FakeAdapter } from "../helpers/fake-adapter.js";
import { FakeClock } from "../helpers/fake-clock.js";

const caught = (promise: Promise<unknown>) => promise.then(() => expect.fail("expected a failure"), (error: unknown) => error as Error);

async function setup(provider: string, open: OpenOptions = {}, options: SessionManagerOptions = {}) {
  const adapter = new FakeAdapter(provider);
  const clock = new FakeClock(Date.UTC(2026, 11, 1, 9, 0, 0));
  const manager = new BrowserSessionManager(adapter, 2, { clock, random: createSeededRandom(5), profileGrants: ["whatsapp:acme"], ...options });
  const { id } = await manager.open(open);
  /** Resolves with the next pacing wait the manager starts. */
  const nextWait = () => new Promise<{ waitMs: number; reasons: string[] }>((resolve) => manager.events.once("pacing-wait", resolve));
  return { adapter, clock, manager, id, nextWait };
}

describe("defaults", () => {
  it("paces a Browserbase session: the second click waits a jittered gap on the clock, and its result says how long", async () => {
    const { adapter, clock, manager, id, nextWait } = await setup("browserbase");
    const first = await manager.execute(id, { op: "click", selector: "#go" });
    expect(first.pacedMs).toBe(0);
    const waiting = nextWait();
    const second = manager.execute(id, { op: "click", selector: "#go" });
    const { waitMs, reasons } = await waiting;
    expect(waitMs).toBeGreaterThanOrEqual(800);
    expect(waitMs).toBeLessThanOrEqual(2500);
    expect(reasons).toEqual(["gap"]);
    expect(adapter.count("click")).toBe(1); // not sent while it waits
    clock.advance(waitMs - 1);
    expect(adapter.count("click")).toBe(1);
    clock.advance(1);
    await expect(second).resolves.toMatchObject({ ok: true, pacedMs: waitMs });
    expect(adapter.count("click")).toBe(2);
    const shot = await manager.execute(id, { op: "screenshot" });
    expect(shot).not.toHaveProperty("pacedMs");
    const diagnostics = await manager.execute(id, { op: "diagnostics" });
    expect(diagnostics.pacing).toMatchObject({ enabled: true, totalWaitedMs: waitMs, refused: 0, dayCount: 2, policy: { minGapMs: 800, maxGapMs: 2500 } });
    expect(diagnostics.pacing!.waits.map((wait) => [wait.op, wait.waitedMs])).toEqual([
      ["click", 0],
      ["click", waitMs],
    ]);
    await manager.close();
  });

  it("does not pace a local session unless the open asks; an open may turn pacing off for Steel", async () => {
    const local = await setup("local");
    await local.manager.execute(local.id, { op: "click", selector: "#a" });
    const again = await local.manager.execute(local.id, { op: "click", selector: "#a" });
    expect(again).not.toHaveProperty("pacedMs");
    expect((await local.manager.execute(local.id, { op: "diagnostics" })).pacing).toMatchObject({ enabled: false });
    const { id: paced } = await local.manager.open({ pacing: { minGapMs: 100, maxGapMs: 100 } });
    await local.manager.execute(paced, { op: "click", selector: "#a" });
    const waiting = local.nextWait();
    const second = local.manager.execute(paced, { op: "click", selector: "#a" });
    expect((await waiting).waitMs).toBe(100);
    local.clock.advance(100);
    await expect(second).resolves.toMatchObject({ pacedMs: 100 });
    await local.manager.close();

    const steel = await setup("steel", { pacing: false });
    await steel.manager.execute(steel.id, { op: "click", selector: "#a" });
    expect(await steel.manager.execute(steel.id, { op: "click", selector: "#a" })).not.toHaveProperty("pacedMs");
    await steel.manager.close();
  });

  it("refuses bad pacing options naming the field", async () => {
    const { manager } = await setup("local");
    await expect(manager.open({ pacing: { minGapMs: 900, maxGapMs: 100 } })).rejects.toThrow(/^options\.pacing\.maxGapMs: expected minGapMs ≤ maxGapMs/);
    await expect(manager.open({ pacing: { actionsPerMinute: 0 } })).rejects.toThrow(/^options\.pacing\.actionsPerMinute: expected a number ≥ 1/);
    await expect(manager.open({ pacing: "fast" as never })).rejects.toThrow(/^options\.pacing: expected true, false or an object/);
    await expect(manager.open({ pacing: { actionsPerDay: 10, warmupStartPerDay: 20 } })).rejects.toThrow(/^options\.pacing\.warmupStartPerDay: expected warmupStartPerDay ≤ actionsPerDay/);
    await expect(manager.open({ pacing: { speed: 2 } as never })).rejects.toThrow(/^options\.pacing\.speed: unknown field/);
    expect(() => new BrowserSessionManager(new FakeAdapter(), 1, { random: 4 as never })).toThrow(ValidationError);
    await manager.close();
  });
});

describe("the bucket", () => {
  it("fails with RateLimitedError and retryAfterMs when the wait is too long, without sending or journaling anything", async () => {
    const { adapter, manager, id } = await setup("browserbase", { pacing: { minGapMs: 0, maxGapMs: 0, actionsPerMinute: 2, maxWaitMs: 1000 } });
    await manager.execute(id, { op: "click", selector: "#a" });
    await manager.execute(id, { op: "click", selector: "#a" });
    const audited = (await manager.audit()).length;
    const error = await caught(manager.execute(id, { op: "click", selector: "#a" }));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(30_000);
    expect(error.message).toMatch(/2 actions per minute are spent; it may run in 30 s/);
    expect(adapter.count("click")).toBe(2);
    expect(await manager.audit()).toHaveLength(audited);
    // The session is free again at once: observation runs, and the refusal is counted.
    await expect(manager.execute(id, { op: "text" })).resolves.toMatchObject({ truncated: false });
    expect((await manager.execute(id, { op: "diagnostics" })).pacing).toMatchObject({ refused: 1 });
    await manager.close();
  });

  it("a caller's abort ends the wait: nothing is sent and the session is free", async () => {
    const { adapter, manager, id, nextWait } = await setup("steel");
    await manager.execute(id, { op: "click", selector: "#a" });
    const controller = new AbortController();
    const waiting = nextWait();
    const second = caught(manager.execute(id, { op: "click", selector: "#a" }, { signal: controller.signal }));
    await waiting;
    controller.abort();
    const error = await second;
    expect(error).toBeInstanceOf(ActionFailedError);
    expect(error.message).toMatch(/cancelled while it waited for its turn \(pacing\); nothing was sent/);
    expect(adapter.count("click")).toBe(1);
    expect(manager.list()[0]).not.toHaveProperty("busy");
    await manager.close();
  });

  it("the wait is bounded by the command's own budget", async () => {
    const { manager, id } = await setup("browserbase", { pacing: { minGapMs: 5000, maxGapMs: 5000, maxWaitMs: 30_000 } });
    await manager.execute(id, { op: "click", selector: "#a" });
    const error = await caught(manager.execute(id, { op: "click", selector: "#a", timeoutMs: 2000 }));
    expect(isRateLimitedError(error)).toBe(true);
    expect((error as RateLimitedError).retryAfterMs).toBe(5000);
    await manager.close();
  });

  it("keeps a profile's daily count in the state store: a restarted manager still refuses past the allowance", async () => {
    const stateStore = createMemoryStateStore();
    const open = { profileId: "whatsapp:acme", pacing: { minGapMs: 0, maxGapMs: 0, actionsPerDay: 2 } };
    const first = await setup("browserbase", open, { stateStore });
    await first.manager.execute(first.id, { op: "click", selector: "#a" });
    await first.manager.execute(first.id, { op: "click", selector: "#a" });
    await first.manager.close();
    const second = await setup("browserbase", open, { stateStore });
    const error = await caught(second.manager.execute(second.id, { op: "click", selector: "#a" }));
    expect(error.message).toMatch(/2 actions of today \(UTC\) are spent/);
    expect((await second.manager.execute(second.id, { op: "diagnostics" })).pacing).toMatchObject({ bucketKey: "whatsapp:acme", dayCount: 2, dailyLimit: 2 });
    await second.manager.close();
  });

  it("writes of the counters do not pile up behind a slow store: a write not started takes the latest state", async () => {
    const memory = createMemoryStateStore();
    const written: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const stateStore = {
      ...memory,
      async writePacing(pacing: Record<string, { dayCount: number }>) {
        written.push(pacing["whatsapp:acme"]!.dayCount);
        await held;
      },
    };
    const { manager, id } = await setup("browserbase", { profileId: "whatsapp:acme", pacing: { minGapMs: 0, maxGapMs: 0 } }, { stateStore: stateStore as never });
    for (let index = 0; index < 4; index++) await manager.execute(id, { op: "click", selector: "#a" });
    release();
    await manager.close();
    // The first write started at once; the three counts after it were folded into one write of the last.
    expect(written).toEqual([1, 4]);
  });

  it("a human acting under the control lease is not paced", async () => {
    const { manager, id } = await setup("browserbase", { pacing: { actionsPerMinute: 1, maxWaitMs: 0 } });
    await manager.execute(id, { op: "click", selector: "#a" });
    const grant = await manager.acquireControl(id);
    await expect(manager.execute(id, { op: "click", selector: "#a" }, grant.token)).resolves.not.toHaveProperty("pacedMs");
    await manager.close();
  });
});

describe("throttle signals", () => {
  it("a rate_limited challenge pauses the profile for the back-off instead of trying harder", async () => {
    const { adapter, clock, manager, id } = await setup("browserbase", { profileId: "whatsapp:acme", pacing: { minGapMs: 0, maxGapMs: 0, backoffMs: 120_000 } });
    const pauses: unknown[] = [];
    manager.events.on("pacing-pause", (event) => pauses.push(event));
    adapter.answerNext("challenge", { state: "rate_limited", vendor: "whatsapp", evidence: ["text: You're sending too many messages"] });
    await manager.execute(id, { op: "challenge" });
    expect(pauses).toEqual([{ sessionId: id, profileId: "whatsapp:acme", until: new Date(clock.now() + 120_000).toISOString(), reason: "the page is a rate_limited challenge (whatsapp)" }]);
    const error = await caught(manager.execute(id, { op: "click", selector: "#send" }));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(120_000);
    expect(error.message).toMatch(/paused after the site throttled it/);
    // Our own refusal is no new signal: the pause does not grow.
    expect(manager.noteThrottle(id, error)).toBeUndefined();
    expect((await manager.execute(id, { op: "diagnostics" })).pacing).toMatchObject({ pausedUntil: new Date(clock.now() + 120_000).toISOString() });
    clock.advance(120_000);
    await expect(manager.execute(id, { op: "click", selector: "#send" })).resolves.toMatchObject({ pacedMs: 0 });
    expect(adapter.count("click")).toBe(1);
    await manager.close();
  });

  it("an action result carrying challenge.state rate_limited, or the site's RateLimitedError, pauses the bucket too", async () => {
    const { adapter, clock, manager, id } = await setup("steel", { pacing: { minGapMs: 0, maxGapMs: 0, backoffMs: 60_000 } });
    adapter.answerNext("navigate", { challenge: { state: "rate_limited", evidence: ["status 429"] } });
    await manager.execute(id, { op: "navigate", url: "https://example.com/" });
    expect((await caught(manager.execute(id, { op: "click", selector: "#a" })) as RateLimitedError).retryAfterMs).toBe(60_000);
    clock.advance(60_000);
    adapter.answerNext("click", new RateLimitedError("the site said 429", { retryAfterMs: 300_000 }));
    await caught(manager.execute(id, { op: "click", selector: "#a" }));
    expect((await caught(manager.execute(id, { op: "click", selector: "#a" })) as RateLimitedError).retryAfterMs).toBe(300_000);
    // Other challenge states are not throttle signals.
    expect(manager.noteThrottle(id, { challenge: { state: "challenge", evidence: [] } })).toBeUndefined();
    await manager.close();
  });

  it("one throttle pauses once: noting a result (or its challenge, or an error) that execute already noted adds no pause", async () => {
    const { adapter, clock, manager, id } = await setup("browserbase", { pacing: { minGapMs: 0, maxGapMs: 0, backoffMs: 60_000 } });
    const pauses: { until: string }[] = [];
    manager.events.on("pacing-pause", (event) => pauses.push(event));
    adapter.answerNext("navigate", { challenge: { state: "rate_limited", evidence: ["status 429"] } });
    const result = await manager.execute(id, { op: "navigate", url: "https://example.com/" });
    const until = new Date(clock.now() + 60_000).toISOString();
    clock.advance(1_000);
    expect(manager.noteThrottle(id, result)).toBeUndefined();
    expect(manager.noteThrottle(id, result.challenge)).toBeUndefined();
    adapter.answerNext("evaluate", new RateLimitedError("the site said 429", { retryAfterMs: 90_000 }));
    clock.advance(60_000);
    const error = await caught(manager.execute(id, { op: "evaluate", expression: "1" }));
    expect(manager.noteThrottle(id, error)).toBeUndefined();
    expect(pauses.map((pause) => pause.until)).toEqual([until, new Date(clock.now() + 90_000).toISOString()]);
    expect((await manager.execute(id, { op: "diagnostics" })).pacing).toMatchObject({ pausedUntil: new Date(clock.now() + 90_000).toISOString() });
    await manager.close();
  });

  it("an unpaced (local) session ignores throttle signals", async () => {
    const { manager, id } = await setup("local");
    expect(manager.noteThrottle(id, { state: "rate_limited", evidence: [] })).toBeUndefined();
    await manager.close();
  });
});

describe("human typing", () => {
  it("gives fill and type a per-character cadence, counted in pacedMs, never logged", async () => {
    const { adapter, clock, manager, id } = await setup("browserbase", { pacing: { humanTyping: true, minGapMs: 0, maxGapMs: 0 } });
    const secret = "hunter2, ok";
    const filled = await manager.execute(id, { op: "fill", selector: "#password", value: secret });
    const sent = adapter.commands.at(-1) as { keyDelaysMs: number[] };
    expect(sent.keyDelaysMs).toHaveLength([...secret].length);
    const typingMs = sent.keyDelaysMs.reduce((sum, delay) => sum + delay, 0);
    expect(filled.pacedMs).toBe(typingMs);
    clock.advance(1);
    await manager.execute(id, { op: "type", text: "hi" });
    expect((adapter.commands.at(-1) as { keyDelaysMs: number[] }).keyDelaysMs).toHaveLength(2);
    // A caller's own delayMs is left alone.
    await manager.execute(id, { op: "type", text: "hi", delayMs: 5 });
    expect(adapter.commands.at(-1)).not.toHaveProperty("keyDelaysMs");
    const diagnostics = await manager.execute(id, { op: "diagnostics" });
    expect(diagnostics.pacing!.waits[0]).toMatchObject({ op: "fill", typingMs });
    const logged = JSON.stringify([await manager.audit(), diagnostics]);
    expect(logged).not.toContain("hunter2");
    expect(logged).not.toContain(JSON.stringify(sent.keyDelaysMs));
    await manager.close();
  });

  it("fill stays instant without human typing", async () => {
    const { adapter, manager, id } = await setup("browserbase");
    await manager.execute(id, { op: "fill", selector: "#q", value: "hello" });
    expect(adapter.commands.at(-1)).not.toHaveProperty("keyDelaysMs");
    await manager.close();
  });
});

describe("timers that fire a little early", () => {
  /** A clock whose timers fire 1 ms before they are due, as real timers and the wall clock can round apart. */
  class EarlyClock extends FakeClock {
    override setTimeout(callback: () => void, ms: number): unknown {
      return super.setTimeout(callback, Math.max(0, ms - 1));
    }
  }

  it("waits the remainder quietly and runs the action, never refusing it for the lost millisecond", async () => {
    const adapter = new FakeAdapter("browserbase");
    const clock = new EarlyClock(Date.UTC(2026, 11, 1, 9, 0, 0));
    const manager = new BrowserSessionManager(adapter, 1, { clock, random: createSeededRandom(5) });
    const { id } = await manager.open({});
    const waits: number[] = [];
    manager.events.on("pacing-wait", ({ waitMs }) => void waits.push(waitMs));
    await manager.execute(id, { op: "click", selector: "#go" });
    const second = manager.execute(id, { op: "click", selector: "#go" });
    await new Promise((resolve) => manager.events.once("pacing-wait", resolve));
    const [waitMs] = waits;
    clock.advance(waitMs! - 1); // the timer fires; 1 ms is still owed
    expect(adapter.count("click")).toBe(1);
    await vi.waitFor(() => expect(clock.pending).toBe(1)); // the remainder's timer
    clock.advance(1);
    await expect(second).resolves.toMatchObject({ ok: true, pacedMs: waitMs });
    expect(adapter.count("click")).toBe(2);
    expect(waits).toEqual([waitMs]); // one event for the one action
    await manager.close();
  });
});
