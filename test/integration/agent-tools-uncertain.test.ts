import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBrowserAgentTools, type AgentTool } from "../../src/agent-tools/index.js";
import { BrowserUseClient } from "../../src/client/index.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import type { BrowserBackend } from "../../src/protocol/backend.js";
import type { FaultProxy } from "../helpers/fault-proxy.js";
import type { FixtureServer } from "../helpers/fixture-server.js";
import type { WorkerServer } from "../helpers/worker-server.js";
import { startWorkerStack, type WorkerStack } from "../helpers/worker-stack.js";

/** Uncertain opens, human control leases and cancellation, with real Chromium and real HTTP. */
const token = "op-".padEnd(40, "x");
const tenantKey = "tenant-uncertain-".padEnd(40, "k");

let stack: WorkerStack;
let manager: BrowserSessionManager;
let worker: WorkerServer;
let proxy: FaultProxy;
let fixtures: FixtureServer;

beforeAll(async () => {
  stack = await startWorkerStack({ token, tenantKey, maxSessions: 6 });
  ({ manager, worker, proxy, fixtures } = stack);
});
afterAll(async () => {
  await stack?.close();
});

const client = () => new BrowserUseClient({ baseUrl: proxy.origin, stationId: "local", apiKey: tenantKey, timeoutMs: 30_000 });
const toolNamed = (tools: AgentTool[], name: string) => tools.find((tool) => tool.name === `station_browser_${name}`)!;

describe("an open whose answer is lost", () => {
  it("counts as uncertain, blocks further opens, is resolved by reconcile(), and close() leaves nothing unresolved", async () => {
    const toolset = createBrowserAgentTools({ client: client(), maxSessions: 2 });
    const open = toolNamed(toolset.tools, "open");
    const sessionsBefore = manager.list().length;
    const known = new Set(manager.list().map((session) => session.id));
    proxy.inject("open", "drop-response");
    const lost = await open.execute({ url: fixtures.url("/index.html") });
    expect(lost.isError).toBe(true);
    expect(lost.text).toMatch(/^outcome: unknown — opening a session: its completion could not be confirmed\./);
    expect(lost.text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|station local|worker method/);
    expect(toolset.uncertainOpenings()).toBe(1);
    // The worker did open it: a live session nobody was told about.
    const orphan = manager.list().find((session) => !known.has(session.id));
    expect(orphan).toBeDefined();
    expect(manager.list()).toHaveLength(sessionsBefore + 1);

    const opensForwarded = proxy.forwarded.filter((method) => method === "open").length;
    const refused = await open.execute({});
    expect(refused.text).toMatch(/^error: input: an earlier open has an unknown outcome \(1 uncertain\)/);
    expect(proxy.forwarded.filter((method) => method === "open").length).toBe(opensForwarded);

    const report = await toolset.reconcile();
    expect(report).toEqual({ resolved: 1, closed: [{ sessionId: orphan!.id }], unresolved: [] });
    expect(toolset.uncertainOpenings()).toBe(0);
    expect(manager.list().map((session) => session.id)).not.toContain(orphan!.id);

    expect((await open.execute({})).text).toBe("session s1 is open");
    const closed = await toolset.close();
    expect(closed.unresolved).toEqual([]);
    expect(closed.closed.map((session) => session.alias)).toEqual(["s1"]);
    expect(manager.list()).toHaveLength(sessionsBefore);
  });

  it("a resume whose answer is lost is uncertain too, and reconcile() finds it by its tag", async () => {
    const toolset = createBrowserAgentTools({ client: client(), maxSessions: 2 });
    const open = toolNamed(toolset.tools, "open");
    await open.execute({ url: fixtures.url("/index.html") });
    const saved = await toolNamed(toolset.tools, "checkpoint").execute({ session: "s1" });
    expect(saved.text).toMatch(/\bc1\b/);
    const known = new Set(manager.list().map((session) => session.id));
    proxy.inject("resume", "drop-response");
    const lost = await open.execute({ checkpoint: "c1" });
    expect(lost.text).toMatch(/^outcome: unknown — resuming the checkpoint/);
    expect(toolset.uncertainOpenings()).toBe(1);
    const orphan = manager.list().find((session) => !known.has(session.id));
    expect(orphan).toBeDefined();
    const report = await toolset.reconcile();
    expect(report).toEqual({ resolved: 1, closed: [{ sessionId: orphan!.id }], unresolved: [] });
    expect(manager.list().map((session) => session.id)).not.toContain(orphan!.id);
    expect((await toolset.close()).unresolved).toEqual([]);
  });

  it("lets close() reconcile what is still uncertain", async () => {
    const toolset = createBrowserAgentTools({ client: client(), maxSessions: 1 });
    proxy.inject("open", "drop-response");
    await toolNamed(toolset.tools, "open").execute({});
    expect(toolset.uncertainOpenings()).toBe(1);
    const report = await toolset.close();
    expect(report.unresolved).toEqual([]);
    expect(report.closed).toHaveLength(1);
    expect(manager.list().filter((session) => session.id === report.closed[0]!.sessionId)).toEqual([]);
  });
});

describe("a human control lease", () => {
  it("keeps close() from yanking the session: reported unresolved, closed on retry after the lease ends", async () => {
    const toolset = createBrowserAgentTools({ client: client(), maxSessions: 1 });
    const known = new Set(manager.list().map((session) => session.id));
    await toolNamed(toolset.tools, "open").execute({ url: fixtures.url("/form.html") });
    const session = manager.list().find((candidate) => !known.has(candidate.id))!;
    const grant = await manager.acquireControl(session.id, 60_000);
    const click = await toolNamed(toolset.tools, "click").execute({ target: { by: "role", role: "button", name: "Sign in" } });
    expect(click.text).toMatch(/^outcome: failed — click \(control_lease\)/);
    expect(click.text).toContain("A human is controlling this session");
    const observe = await toolNamed(toolset.tools, "observe").execute({ mode: "interactive" });
    expect(observe.isError).toBeUndefined();
    const first = await toolset.close();
    expect(first.closed).toEqual([]);
    expect(first.unresolved).toEqual([{ sessionId: session.id, alias: "s1", reason: "a human holds the control lease; close again after it ends" }]);
    expect(manager.list().map((candidate) => candidate.id)).toContain(session.id);
    await manager.releaseControl(session.id, grant.token);
    expect(await toolset.close()).toEqual({ closed: [{ sessionId: session.id, alias: "s1" }], unresolved: [] });
  });
});

const backends: { name: string; backend: () => BrowserBackend }[] = [
  { name: "the in-process manager", backend: () => manager },
  // Straight to the worker: the fault proxy would keep the worker's side of a cancelled request open.
  { name: "a client over HTTP", backend: () => new BrowserUseClient({ baseUrl: worker.origin, stationId: "local", apiKey: tenantKey, timeoutMs: 30_000 }) },
];

describe.each(backends)("cancelling a call over $name", ({ backend }) => {
  it("aborts the in-flight backend call", async () => {
    const toolset = createBrowserAgentTools({ client: backend(), maxSessions: 1 });
    try {
      await toolNamed(toolset.tools, "open").execute({ url: fixtures.url("/index.html") });
      const started = new Promise<void>((resolve) => manager.events.on("action-start", (event) => event.op === "waitFor" && resolve()));
      const finished = new Promise<string>((resolve) => manager.events.on("action-finish", (event) => event.op === "waitFor" && resolve(event.outcome)));
      const controller = new AbortController();
      const pending = toolNamed(toolset.tools, "wait").execute({ text: "never on this page", timeoutMs: 120_000 }, { signal: controller.signal });
      await started;
      controller.abort();
      const result = await pending;
      expect(result.text).not.toMatch(/to find out|worker method/i);
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/^outcome: failed — wait/);
      // The browser-side wait ended too (it would otherwise run for two minutes).
      expect(await finished).toBe("error");
    } finally {
      expect((await toolset.close()).unresolved).toEqual([]);
    }
  });
});
