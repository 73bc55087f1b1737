/**
 * Uncertain opens and unconfirmed releases (issue 5, manager side), on real
 * Chromium: a local provider whose answers are lost or refused on cue, so
 * the provider really holds the sessions the manager must find again.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import { CapacityError, OutcomeUnknownError, ProviderError, ReconcileRequiredError, isOutcomeUnknownError } from "../../src/errors.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { createLocalProvider, type PlaywrightProvider } from "../../src/providers/local/index.js";
import { createFileStateStore } from "../../src/stores/index.js";
import { faulty, noFaults, type Faults } from "../helpers/faulty-provider.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";

let fixtures: FixtureServer;
let inner: PlaywrightProvider;
let adapter: PlaywrightBrowserAdapter;
const faults: Faults = noFaults();
const managers: BrowserSessionManager[] = [];

beforeAll(async () => {
  fixtures = await startFixtureServer();
  inner = createLocalProvider();
  adapter = new PlaywrightBrowserAdapter({ provider: faulty(inner, faults) });
});
afterEach(async () => {
  Object.assign(faults, noFaults());
  for (const manager of managers.splice(0)) await manager.close();
});
afterAll(async () => {
  await adapter?.shutdown();
  await fixtures?.close();
});

function manager(maxSessions = 2): BrowserSessionManager {
  const created = new BrowserSessionManager(adapter, maxSessions);
  managers.push(created);
  return created;
}

/** Sessions the provider really runs with this tag. */
const running = async (openTag: string) => (await inner.find(openTag)).length;

describe("uncertain opens (real Chromium)", () => {
  it("records a lost create, refuses new opens, and reconcile() releases the session the provider made", async () => {
    const browsers = manager();
    faults.loseCreateAnswer = 1;
    const error = await browsers.open({ openTag: "lost-1" }).then(() => undefined, (caught: unknown) => caught);
    expect(isOutcomeUnknownError(error)).toBe(true);
    expect(browsers.uncertainOpenings()).toMatchObject([{ openTag: "lost-1", reason: expect.stringMatching(/no answer/) }]);
    expect(browsers.list()).toEqual([]);
    expect(await running("lost-1")).toBe(1);

    await expect(browsers.open()).rejects.toBeInstanceOf(ReconcileRequiredError);
    await expect(browsers.open({ openTag: "other" })).rejects.toThrow(/1 earlier open\(s\) have an unknown outcome; they must be reconciled/);
    // The refusal does not name another caller's tag.
    expect(((await browsers.open({ openTag: "other" }).catch((caught: unknown) => caught)) as Error).message).not.toMatch(/lost-1/);
    expect(await running("other")).toBe(0);

    const report = await browsers.reconcile();
    expect(report).toMatchObject({ adopted: [], absent: [], unresolved: [], released: [{ openTag: "lost-1" }] });
    expect(await running("lost-1")).toBe(0);
    expect(browsers.uncertainOpenings()).toEqual([]);
    const opened = await browsers.open();
    expect(browsers.list().map((each) => each.id)).toEqual([opened.id]);
  });

  it("repeating the open with the same tag takes the provider's session over: exactly one exists", async () => {
    const browsers = manager();
    faults.loseCreateAnswer = 1;
    await expect(browsers.open({ openTag: "again-1" })).rejects.toBeInstanceOf(OutcomeUnknownError);
    const adopted = await browsers.open({ openTag: "again-1" });
    expect(adopted.openTag).toBe("again-1");
    expect(await running("again-1")).toBe(1);
    expect(browsers.uncertainOpenings()).toEqual([]);
    const home = fixtures.url("/index.html");
    await expect(browsers.execute(adopted.id, { op: "navigate", url: home })).resolves.toMatchObject({ ok: true, url: home });
    // reconcile(openTag), the worker's form, returns the same single session.
    expect((await browsers.reconcile("again-1")).map((each) => each.id)).toEqual([adopted.id]);
  });

  it("reconcile({ adopt: true }) hands the found session back instead of releasing it", async () => {
    const browsers = manager();
    faults.loseCreateAnswer = 1;
    await expect(browsers.open({ openTag: "adopt-1" })).rejects.toBeInstanceOf(OutcomeUnknownError);
    const report = await browsers.reconcile({ adopt: true });
    expect(report.adopted).toHaveLength(1);
    expect(report.released).toEqual([]);
    expect(browsers.list().map((each) => each.id)).toEqual([report.adopted[0]!.sessionId]);
    expect(await running("adopt-1")).toBe(1);
  });

  it("proves absence when the provider made nothing, then admits opens again", async () => {
    const browsers = manager();
    faults.failCreateUnknown = 1;
    await expect(browsers.open({ openTag: "never-1" })).rejects.toBeInstanceOf(OutcomeUnknownError);
    expect(await browsers.reconcile()).toEqual({ adopted: [], released: [], absent: ["never-1"], unresolved: [] });
    await expect(browsers.open()).resolves.toMatchObject({ provider: "local" });
  });
});

describe("across a restart (real Chromium, file state root)", () => {
  it("what the manager owes its provider survives a restart and is settled by the next owner's reconcile()", async () => {
    const root = await mkdtemp(join(tmpdir(), "station-ledger-"));
    try {
      const store = createFileStateStore(root);
      const first = new BrowserSessionManager(adapter, 2, { stateStore: store });
      const kept = await first.open({ openTag: "restart-release" });
      faults.refuseRelease = 1;
      await expect(first.closeSession(kept.id)).rejects.toBeInstanceOf(ProviderError);
      faults.loseCreateAnswer = 1;
      await expect(first.open({ openTag: "restart-open" })).rejects.toBeInstanceOf(OutcomeUnknownError);
      await expect.poll(async () => readFile(join(root, "ledger.json"), "utf8").catch(() => "")).toContain("restart-open");
      // The process "dies": the manager is abandoned without close(); only the root is let go.
      await store.close();

      const second = new BrowserSessionManager(adapter, 2, { stateStore: createFileStateStore(root) });
      managers.push(second);
      await second.ready();
      expect(second.uncertainOpenings()).toMatchObject([{ openTag: "restart-open" }]);
      expect(second.pendingReleases()).toMatchObject([{ openTag: "restart-release" }]);
      await expect(second.open()).rejects.toBeInstanceOf(ReconcileRequiredError);
      const report = await second.reconcile();
      expect(report.released.map((each) => each.openTag).sort()).toEqual(["restart-open", "restart-release"]);
      expect(await running("restart-open")).toBe(0);
      expect(await running("restart-release")).toBe(0);
      await expect.poll(async () => JSON.parse(await readFile(join(root, "ledger.json"), "utf8"))).toEqual([]);
      await expect(second.open()).resolves.toMatchObject({ provider: "local" });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("settlements running at the same time (real Chromium)", () => {
  it("two reconcile({ adopt: true }) at once take the session over once", async () => {
    const browsers = manager();
    faults.loseCreateAnswer = 1;
    await expect(browsers.open({ openTag: "twice-1" })).rejects.toBeInstanceOf(OutcomeUnknownError);
    const [first, second] = await Promise.all([browsers.reconcile({ adopt: true }), browsers.reconcile({ adopt: true })]);
    expect(first.adopted.length + second.adopted.length).toBe(1);
    expect(browsers.list()).toHaveLength(1);
    expect(await running("twice-1")).toBe(1);
    const [only] = browsers.list();
    await expect(browsers.execute(only!.id, { op: "navigate", url: fixtures.url("/index.html") })).resolves.toMatchObject({ ok: true });
  });

  it("an open repeating the tag while reconcile() releases it ends with one working session, or none", async () => {
    const browsers = manager();
    faults.loseCreateAnswer = 1;
    await expect(browsers.open({ openTag: "race-1" })).rejects.toBeInstanceOf(OutcomeUnknownError);
    const [, opened] = await Promise.all([browsers.reconcile(), browsers.open({ openTag: "race-1" })]);
    // Whoever settled first decided; the open then returns a session that really runs.
    expect(browsers.list().map((each) => each.id)).toEqual([opened.id]);
    expect(await running("race-1")).toBe(1);
    await expect(browsers.execute(opened.id, { op: "navigate", url: fixtures.url("/index.html") })).resolves.toMatchObject({ ok: true });
  });

  it("close() during reconcile({ adopt: true }) admits nothing and leaves nothing running", async () => {
    const browsers = new BrowserSessionManager(adapter, 2);
    faults.loseCreateAnswer = 1;
    await expect(browsers.open({ openTag: "closing-1" })).rejects.toBeInstanceOf(OutcomeUnknownError);
    const settling = browsers.reconcile({ adopt: true }).catch((error: unknown) => error);
    const report = await browsers.close();
    await settling;
    expect(browsers.list()).toEqual([]);
    expect(report).toEqual({ unreleased: [], uncertain: [] });
    expect(await running("closing-1")).toBe(0);
  });
});

describe("unconfirmed releases (real Chromium)", () => {
  it("a refused release is reported, keeps its slot, and is released by reconcile()", async () => {
    const browsers = manager(1);
    const opened = await browsers.open({ openTag: "rel-1" });
    faults.refuseRelease = 1;
    await expect(browsers.closeSession(opened.id)).rejects.toBeInstanceOf(ProviderError);
    expect(browsers.list()).toEqual([]);
    expect(browsers.pendingReleases()).toMatchObject([{ openTag: "rel-1", sessionId: opened.id, reason: expect.stringMatching(/503/) }]);
    expect(await running("rel-1")).toBe(1);
    await expect(browsers.open()).rejects.toBeInstanceOf(CapacityError);
    await expect(browsers.open()).rejects.toThrow(/1 held by unconfirmed releases/);

    const report = await browsers.reconcile();
    expect(report.released).toMatchObject([{ openTag: "rel-1" }]);
    expect(browsers.pendingReleases()).toEqual([]);
    expect(await running("rel-1")).toBe(0);
    await expect(browsers.open()).resolves.toMatchObject({ provider: "local" });
  });

  it("a release that fails while an uncertain open is settled puts its tag in unresolved only; the next reconcile() releases it", async () => {
    const browsers = manager(1);
    faults.loseCreateAnswer = 1;
    await expect(browsers.open({ openTag: "lost-then-refused" })).rejects.toBeInstanceOf(OutcomeUnknownError);
    faults.refuseRelease = 1;
    const first = await browsers.reconcile();
    const tagsIn = (report: typeof first) =>
      [report.adopted, report.released, report.unresolved].map((list) => list.filter((entry) => entry.openTag === "lost-then-refused").length);
    expect(tagsIn(first)).toEqual([0, 0, 1]);
    expect(first.absent).toEqual([]);
    expect(first.unresolved).toMatchObject([{ openTag: "lost-then-refused", reason: expect.stringMatching(/release failed: .*503/) }]);
    expect(browsers.pendingReleases()).toMatchObject([{ openTag: "lost-then-refused" }]);
    expect(await running("lost-then-refused")).toBe(1);

    const second = await browsers.reconcile();
    expect(tagsIn(second)).toEqual([0, 1, 0]);
    expect(browsers.pendingReleases()).toEqual([]);
    expect(await running("lost-then-refused")).toBe(0);
  });

  it("a definite not-found on release counts as released and frees the slot", async () => {
    const browsers = manager(1);
    const opened = await browsers.open();
    faults.releaseNotFound = 1;
    await expect(browsers.closeSession(opened.id)).resolves.toBeUndefined();
    expect(browsers.pendingReleases()).toEqual([]);
    await expect(browsers.open()).resolves.toMatchObject({ provider: "local" });
  });

  it("close() retries once and returns what it still could not release", async () => {
    const browsers = new BrowserSessionManager(adapter, 2);
    const opened = await browsers.open({ openTag: "stuck-1" });
    faults.refuseRelease = 2;
    const report = await browsers.close();
    expect(report.unreleased).toMatchObject([{ openTag: "stuck-1", sessionId: opened.id }]);
    expect(report.uncertain).toEqual([]);
    expect(await running("stuck-1")).toBe(1);
    await inner.release((await inner.find("stuck-1"))[0]!.id);
  });
});
