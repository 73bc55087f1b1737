/**
 * The session manager's own rules, on an in-memory adapter (no Chromium):
 * admission, one action at a time, idle expiry, human control, open tags and
 * reconciliation, recordings, the journal and events. What commands do to a
 * page is tested against real Chromium in test/integration/manager.test.ts
 * and the engine's tests.
 */
import { describe, expect, it } from "vitest";
import { BusyError, CapacityError, ControlLeaseError, NotFoundError, OutcomeUnknownError, ReconcileRequiredError, ValidationError } from "../../src/errors.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { FakeAdapter } from "../helpers/fake-adapter.js";
import { FakeClock } from "../helpers/fake-clock.js";

const caught = (promise: Promise<unknown>) => promise.then(() => expect.fail("expected a failure"), (error: unknown) => error as Error);

describe("admission", () => {
  it("admits at most maxSessions and frees a slot on close", async () => {
    const adapter = new FakeAdapter();
    const manager = new BrowserSessionManager(adapter, 2);
    const first = await manager.open();
    await manager.open();
    const error = await caught(manager.open());
    expect(error).toBeInstanceOf(CapacityError);
    expect(error.message).toMatch(/All 2 browser sessions are in use/);
    expect(adapter.opens).toHaveLength(2);
    await manager.closeSession(first.id);
    const third = await manager.open();
    expect(manager.list().map((session) => session.id)).toContain(third.id);
    await manager.close();
    expect(manager.list()).toEqual([]);
    expect(adapter.openSessions()).toEqual([]);
  });

  it("counts an open in flight: a concurrent one beyond capacity is refused without reaching the adapter", async () => {
    const adapter = new FakeAdapter();
    const manager = new BrowserSessionManager(adapter, 1);
    const held = adapter.hold("open");
    const first = manager.open();
    await held.started;
    expect(await caught(manager.open())).toBeInstanceOf(CapacityError);
    expect(adapter.opens).toHaveLength(1);
    held.release();
    await first;
    await manager.close();
  });

  it("refuses bad input naming the field", async () => {
    const adapter = new FakeAdapter();
    expect(() => new BrowserSessionManager(adapter, 0)).toThrow(/maxSessions: expected an integer/);
    expect(() => new BrowserSessionManager(adapter, 1, { idleTimeoutMs: 5 })).toThrow(/options.idleTimeoutMs/);
    expect(() => new BrowserSessionManager(adapter, 1, { stateRootDir: "/tmp/x" })).toThrow(/options.stateRootDir: file storage needs Node/);
    const manager = new BrowserSessionManager(adapter, 1);
    const { id } = await manager.open();
    await expect(manager.perform(id, "navigate")).rejects.toThrow(/value: navigate needs a URL string/);
    await expect(manager.execute(id, { op: "click" } as never)).rejects.toThrow(/command.target: required/);
    await expect(manager.open({ viewport: { width: 5, height: 5 } })).rejects.toThrow(/viewport\.width/);
    // Nothing malformed reached the adapter.
    expect(adapter.executed).toEqual([]);
    await manager.close();
  });
});

describe("one action at a time", () => {
  it("refuses a second action on a busy session as busy, not queued, and runs the next one after", async () => {
    const adapter = new FakeAdapter();
    const manager = new BrowserSessionManager(adapter, 1);
    const { id } = await manager.open();
    const held = adapter.hold("evaluate");
    const slow = manager.execute(id, { op: "evaluate", expression: "slow" });
    await held.started;
    const second = await caught(manager.execute(id, { op: "evaluate", expression: "second" }));
    expect(second).toBeInstanceOf(BusyError);
    expect(second.message).toMatch(/busy with evaluate/);
    held.release();
    expect((await slow).value).toBe("slow");
    expect((await manager.execute(id, { op: "evaluate", expression: "third" })).value).toBe("third");
    expect(adapter.count("evaluate")).toBe(2);
    await manager.close();
  });

  it("ends a pending action as unknown when its session closes, journals it, and frees the slot", async () => {
    const adapter = new FakeAdapter();
    const manager = new BrowserSessionManager(adapter, 1);
    const { id } = await manager.open();
    const held = adapter.hold("evaluate");
    const pending = caught(manager.execute(id, { op: "evaluate", expression: "never" }));
    await held.started;
    expect(manager.list()[0]?.busy).toBe("evaluate");
    await manager.closeSession(id);
    const error = await pending;
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error.message).toMatch(/was closed while evaluate was running/);
    const again = await manager.open();
    expect(again.id).not.toBe(id);
    expect((await manager.audit()).at(-1)).toMatchObject({ sessionId: id, op: "evaluate", outcome: "unknown" });
    await expect(manager.execute(id, { op: "pages" })).rejects.toBeInstanceOf(NotFoundError);
    await manager.close();
  });

  it("cancels an action through an AbortSignal: before it starts it is refused, once it runs it is unknown", async () => {
    const adapter = new FakeAdapter();
    const manager = new BrowserSessionManager(adapter, 1);
    const { id } = await manager.open();
    const controller = new AbortController();
    const held = adapter.hold("evaluate");
    const pending = caught(manager.execute(id, { op: "evaluate", expression: "x" }, { signal: controller.signal }));
    await held.started;
    controller.abort();
    expect(await pending).toBeInstanceOf(OutcomeUnknownError);
    expect((await manager.audit()).at(-1)).toMatchObject({ op: "evaluate", outcome: "unknown" });
    const before = adapter.executed.length;
    await expect(manager.execute(id, { op: "pages" }, { signal: controller.signal })).rejects.toThrow(/cancelled before it started/);
    expect(adapter.executed).toHaveLength(before);
    await manager.close();
  });
});

describe("idle expiry", () => {
  it("closes a session after idleTimeoutMs without actions; live frames do not extend it", async () => {
    const clock = new FakeClock();
    const adapter = new FakeAdapter();
    const manager = new BrowserSessionManager(adapter, 1, { clock, idleTimeoutMs: 60_000 });
    const closed: string[] = [];
    manager.events.on("session-close", (event) => closed.push(`${event.sessionId}:${event.reason}`));
    const { id } = await manager.open();
    clock.advance(50_000);
    await manager.perform(id, "navigate", "http://127.0.0.1:9/a");
    clock.advance(50_000);
    expect(manager.list()).toHaveLength(1);
    expect((await manager.liveFrame(id)).mimeType).toBe("image/png");
    clock.advance(10_001);
    await expect.poll(() => closed).toEqual([`${id}:idleTimeout`]);
    expect(manager.list()).toEqual([]);
    expect(adapter.openSessions()).toEqual([]);
    await manager.close();
  });
});

describe("human control", () => {
  it("lets automation only observe while a human holds control, refuses wrong tokens, and hands back on expiry", async () => {
    const clock = new FakeClock();
    const adapter = new FakeAdapter();
    const manager = new BrowserSessionManager(adapter, 1, { clock });
    const changes: string[] = [];
    manager.events.on("control-change", (event) => changes.push(`${event.mode}:${event.reason}`));
    const { id } = await manager.open();

    const grant = await manager.acquireControl(id, 10_000);
    expect(grant.token).toMatch(/^[0-9a-f-]{36}$/);
    expect(await manager.control(id)).toEqual({ mode: "human", expiresAt: grant.expiresAt });
    expect(JSON.stringify([await manager.control(id), manager.list(), await manager.audit()])).not.toContain(grant.token);
    await expect(manager.acquireControl(id)).rejects.toBeInstanceOf(ControlLeaseError);

    const clicks = () => adapter.count("click");
    await expect(manager.execute(id, { op: "click", selector: "#x" })).rejects.toThrow(/under human control/);
    await expect(manager.execute(id, { op: "click", selector: "#x" }, "wrong-token")).rejects.toThrow(/Wrong control token/);
    expect(clicks()).toBe(0);
    await manager.execute(id, { op: "text" });
    await manager.execute(id, { op: "click", selector: "#x" }, grant.token);
    expect(clicks()).toBe(1);
    expect((await manager.audit()).map((entry) => [entry.op, entry.human ?? false])).toEqual([
      ["text", false],
      ["click", true],
    ]);

    const renewed = await manager.renewControl(id, grant.token, 20_000);
    expect(Date.parse(renewed.expiresAt)).toBe(clock.now() + 20_000);
    await expect(manager.renewControl(id, "wrong-token")).rejects.toBeInstanceOf(ControlLeaseError);
    clock.advance(20_001);
    expect(await manager.control(id)).toEqual({ mode: "automation" });
    await manager.execute(id, { op: "click", selector: "#x" });
    await expect(manager.execute(id, { op: "click", selector: "#x" }, grant.token)).rejects.toThrow(/lease ended/);

    const again = await manager.acquireControl(id);
    await manager.releaseControl(id, again.token);
    expect(await manager.control(id)).toEqual({ mode: "automation" });
    expect(changes).toEqual(["human:acquired", "human:renewed", "automation:expired", "human:acquired", "automation:released"]);
    await expect(manager.acquireControl(id, 500)).rejects.toBeInstanceOf(ValidationError);
    await expect(manager.acquireControl(id, 120_001)).rejects.toThrow(/ttlMs: expected an integer from 1000 to 120000/);
    await manager.close();
  });

  it("closes a session under a human lease only with its token; the manager's own cleanup overrides the lease", async () => {
    const adapter = new FakeAdapter();
    const manager = new BrowserSessionManager(adapter, 2);
    const closed: string[] = [];
    manager.events.on("session-close", (event) => closed.push(event.reason));
    const held = await manager.open();
    const grant = await manager.acquireControl(held.id, 10_000);
    await expect(manager.closeSession(held.id)).rejects.toThrow(/under human control until .*only the control token can close it/);
    await expect(manager.closeSession(held.id, { controlToken: "wrong-token" })).rejects.toBeInstanceOf(ControlLeaseError);
    expect(manager.list().map((session) => session.id)).toEqual([held.id]);
    expect(adapter.closed).toEqual([]);
    await manager.closeSession(held.id, { controlToken: grant.token });
    expect(manager.list()).toEqual([]);

    const other = await manager.open();
    await manager.acquireControl(other.id, 10_000);
    await manager.close();
    expect(closed).toEqual(["closed", "managerClosed"]);
    expect(adapter.openSessions()).toEqual([]);
  });
});

describe("open tags and reconciliation", () => {
  it("returns the same session for a repeated open tag, also when both opens run at once, and reconciles by tag", async () => {
    const adapter = new FakeAdapter();
    const manager = new BrowserSessionManager(adapter, 2);
    const [first, concurrent] = await Promise.all([manager.open({ openTag: "tag-1" }), manager.open({ openTag: "tag-1" })]);
    expect(concurrent.id).toBe(first.id);
    expect((await manager.open({ openTag: "tag-1" })).id).toBe(first.id);
    expect(adapter.opens).toHaveLength(1);
    expect((await manager.reconcile("tag-1")).map((session) => session.id)).toEqual([first.id]);
    expect(await manager.reconcile("tag-unknown")).toEqual([]);
    const untagged = await manager.open();
    expect(untagged.openTag).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await manager.closeSession(first.id);
    expect(await manager.reconcile("tag-1")).toEqual([]);
    await manager.close();
  });

  it("holds an open whose answer was lost as uncertain: nothing new opens until reconcile adopts its session, once", async () => {
    const adapter = new FakeAdapter();
    const manager = new BrowserSessionManager(adapter, 2);
    adapter.loseNextOpen();
    expect(await caught(manager.open({ openTag: "lost-1" }))).toBeInstanceOf(OutcomeUnknownError);
    expect(manager.uncertainOpenings().map((each) => each.openTag)).toEqual(["lost-1"]);
    await expect(manager.open({ openTag: "other-1" })).rejects.toBeInstanceOf(ReconcileRequiredError);
    expect(adapter.opens).toHaveLength(1);
    const report = await manager.reconcile({ adopt: true });
    expect(report.adopted.map((each) => each.openTag)).toEqual(["lost-1"]);
    expect(manager.list().map((session) => session.openTag)).toEqual(["lost-1"]);
    expect(manager.uncertainOpenings()).toEqual([]);
    expect(await manager.reconcile({ adopt: true })).toEqual({ adopted: [], released: [], absent: [], unresolved: [] });
    // The same tag now returns that session instead of a second one.
    expect((await manager.open({ openTag: "lost-1" })).id).toBe(report.adopted[0]!.sessionId);
    await manager.close();
    expect(await adapter.find("lost-1")).toEqual([]);
  });
});

describe("journal and events", () => {
  it("keeps the latest auditLimit entries with a growing sequence", async () => {
    const manager = new BrowserSessionManager(new FakeAdapter(), 1, { auditLimit: 3 });
    const { id } = await manager.open();
    for (let index = 0; index < 5; index++) await manager.perform(id, "evaluate", String(index));
    expect((await manager.audit()).map((entry) => entry.seq)).toEqual([3, 4, 5]);
    await manager.close();
  });

  it("journals masked metadata, never typed text, query strings or fragments", async () => {
    const manager = new BrowserSessionManager(new FakeAdapter(), 1);
    const { id } = await manager.open();
    await manager.perform(id, "navigate", "http://127.0.0.1:9/form?token=abc123#frag");
    await manager.execute(id, { op: "fill", selector: "#pass", value: "correct-horse-battery" });
    await manager.execute(id, { op: "type", selector: "#user", text: "typed-secret-text" });
    const audit = await manager.audit();
    expect(JSON.stringify(audit)).not.toMatch(/correct-horse-battery|typed-secret-text|abc123|frag/);
    expect(audit.map((entry) => entry.detail)).toEqual([
      "navigate http://127.0.0.1:9/form",
      "fill #pass value=[21 chars]",
      "type #user text=[17 chars]",
    ]);
    await manager.close();
  });

  it("emits session and action events in order", async () => {
    const manager = new BrowserSessionManager(new FakeAdapter(), 1);
    const seen: string[] = [];
    manager.events.on("session-open", () => seen.push("open"));
    manager.events.on("action-start", (event) => seen.push(`start:${event.op}`));
    manager.events.on("action-finish", (event) => seen.push(`finish:${event.op}:${event.outcome}`));
    manager.events.on("session-close", (event) => seen.push(`close:${event.reason}`));
    const { id } = await manager.open();
    await manager.perform(id, "evaluate", "1 + 1");
    await manager.closeSession(id);
    expect(seen).toEqual(["open", "start:evaluate", "finish:evaluate:ok", "close:closed"]);
    await manager.close();
  });

  it("reports a session whose browser went away on its own, and frees its slot", async () => {
    const adapter = new FakeAdapter();
    const manager = new BrowserSessionManager(adapter, 1);
    const closed: string[] = [];
    manager.events.on("session-close", (event) => closed.push(event.reason));
    const { id } = await manager.open();
    const handleId = adapter.openSessions()[0]!;
    adapter.crash(handleId);
    await expect.poll(() => manager.list()).toEqual([]);
    expect(closed).toHaveLength(1);
    await expect(manager.execute(id, { op: "pages" })).rejects.toBeInstanceOf(NotFoundError);
    await manager.open();
    await manager.close();
  });
});

describe("recordings", () => {
  it("records a frame at once and every 5 s, skips a frame while busy, stops at limits and on close", async () => {
    const clock = new FakeClock();
    const adapter = new FakeAdapter();
    const manager = new BrowserSessionManager(adapter, 2, { clock, recordingLimits: { framesPerRecording: 3, recordingsPerManager: 2 } });
    const stops: string[] = [];
    manager.events.on("recording-stop", (event) => stops.push(event.reason));
    const { id } = await manager.open();
    const recording = await manager.startRecording(id);
    expect(recording.frames).toHaveLength(1);
    expect((await manager.recordingFrame(recording.id, recording.frames[0]!.id)).mimeType).toBe("image/png");

    // A busy browser skips the frame: no screenshot is even asked for.
    const held = adapter.hold("evaluate");
    const busy = manager.execute(id, { op: "evaluate", expression: "busy" });
    await held.started;
    const shots = adapter.count("screenshot");
    clock.advance(5_000);
    expect(adapter.count("screenshot")).toBe(shots);
    held.release();
    await busy;
    expect((await manager.getRecording(recording.id)).frames).toHaveLength(1);

    clock.advance(5_000);
    await expect.poll(async () => (await manager.getRecording(recording.id)).frames.length).toBe(2);
    clock.advance(5_000);
    await expect.poll(async () => (await manager.getRecording(recording.id)).state).toBe("stopped");
    expect(await manager.getRecording(recording.id)).toMatchObject({ stopReason: "frameLimit", frames: [{}, {}, {}] });

    const second = await manager.startRecording(id);
    await expect(manager.startRecording(id)).rejects.toBeInstanceOf(CapacityError);
    await manager.closeSession(id);
    expect(await manager.getRecording(second.id)).toMatchObject({ state: "stopped", stopReason: "sessionClosed", frames: [{}] });
    expect(stops).toEqual(["frameLimit", "sessionClosed"]);

    const other = await manager.open();
    await expect(manager.startRecording(other.id)).rejects.toThrow(/At most 2 recordings/);
    await manager.deleteRecording(recording.id);
    await expect(manager.recordingFrame(recording.id, "f0001")).rejects.toBeInstanceOf(NotFoundError);
    expect((await manager.recordings()).map((entry) => entry.id)).toEqual([second.id]);
    await manager.close();
  });

  it("stops a recording at the per-manager byte limit, keeping what it has", async () => {
    const clock = new FakeClock();
    const manager = new BrowserSessionManager(new FakeAdapter(), 1, { clock, recordingLimits: { bytesPerManager: 16 } });
    const stops: string[] = [];
    manager.events.on("recording-stop", (event) => stops.push(event.reason));
    const { id } = await manager.open();
    const recording = await manager.startRecording(id);
    expect(recording).toMatchObject({ state: "stopped", stopReason: "byteLimit", frames: [] });
    expect(stops).toEqual(["byteLimit"]);
    expect(clock.pending).toBe(1); // only the idle timer is left: capture stopped
    await manager.close();
  });
});

describe("checkpoints", () => {
  it("keeps sanitised pages and the selected one, and resumes them into a new session explicitly", async () => {
    const adapter = new FakeAdapter();
    const manager = new BrowserSessionManager(adapter, 2);
    const { id } = await manager.open();
    await manager.perform(id, "navigate", "http://127.0.0.1:9/one?session=secret#top");
    await manager.execute(id, { op: "newPage", url: "http://127.0.0.1:9/two?q=private" });
    await manager.execute(id, { op: "selectPage", pageId: "p1" });
    const checkpoint = await manager.checkpoint(id);
    expect(checkpoint).toMatchObject({ backend: "fake", selectedIndex: 0 });
    expect(checkpoint.pages.map((page) => page.url)).toEqual(["http://127.0.0.1:9/one", "http://127.0.0.1:9/two"]);
    expect(JSON.stringify(checkpoint)).not.toMatch(/secret|private|#top/);

    const resumed = await manager.resumeCheckpoint(checkpoint.id);
    expect(resumed.id).not.toBe(id);
    const pages = await manager.execute(resumed.id, { op: "pages" });
    expect(pages.pages.map((page) => page.url)).toEqual(["http://127.0.0.1:9/one", "http://127.0.0.1:9/two"]);
    expect(pages.selectedPageId).toBe("p1");
    await manager.deleteCheckpoint(checkpoint.id);
    await expect(manager.resumeCheckpoint(checkpoint.id)).rejects.toBeInstanceOf(NotFoundError);
    await manager.close();
  });
});
