import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBrowserAgentTools, type AgentTool, type BrowserAgentTools, type TakeoverNotice } from "../../src/agent-tools/index.js";
import { BrowserUseClient } from "../../src/client/index.js";
import type { BrowserBackend } from "../../src/protocol/backend.js";
import { startWorkerStack, type WorkerStack } from "../helpers/worker-stack.js";

/**
 * Human takeover from the tools' side, end to end: the tools talk HTTP to a
 * real worker driving real Chromium on fixture pages. A result showing a
 * challenge stops the session's mutating calls (nothing reaches the backend
 * but one `challenge` read); observing still works; once a human has taken
 * the page past it, the next call resumes.
 */
const token = "op-".padEnd(40, "x");
const tenantKey = "tenant-takeover-".padEnd(40, "k");

let stack: WorkerStack;
beforeAll(async () => {
  stack = await startWorkerStack({ token, tenantKey, maxSessions: 4 });
});
afterAll(async () => {
  await stack?.close();
});

/** The client, with every `execute` op it is asked for recorded. */
function recordingBackend(ops: string[]): BrowserBackend {
  const client = new BrowserUseClient({ baseUrl: stack.worker.origin, stationId: "local", apiKey: tenantKey, timeoutMs: 30_000 });
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === "execute") {
        return (id: string, command: { op: string }, options?: unknown) => {
          ops.push(command.op);
          return target.execute(id, command as never, options as never);
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("agent tools hand a challenged session to a human", () => {
  const ops: string[] = [];
  const notices: TakeoverNotice[] = [];
  let toolset: BrowserAgentTools;
  let tools: Record<string, AgentTool>;

  let viewClient: BrowserUseClient;

  beforeAll(() => {
    viewClient = new BrowserUseClient({ baseUrl: stack.worker.origin, stationId: "local", apiKey: tenantKey, timeoutMs: 30_000 });
    toolset = createBrowserAgentTools({
      client: recordingBackend(ops),
      maxSessions: 1,
      // The host's wiring the README shows: the worker's own live view page.
      liveView: async (sessionId) => (await viewClient.createLiveView(sessionId)).url,
      onTakeover: (notice) => void notices.push(notice),
    });
    tools = Object.fromEntries(toolset.tools.map((tool) => [tool.name.replace("station_browser_", ""), tool]));
  });
  afterAll(async () => {
    expect((await toolset.close()).unresolved).toEqual([]);
  });

  it("stops mutating at a challenge, refuses without sending, observes, and resumes once a human took the page past it", async () => {
    const events: unknown[] = [];
    stack.manager.events.on("challenge", (event) => events.push(event));
    await tools.open!.execute({ url: stack.fixtures.url("/challenge-turns.html") });
    const clicked = await tools.click!.execute({ target: { by: "selector", selector: "#to-challenge" } });
    expect(clicked.isError).toBeUndefined();
    expect(clicked.text).toMatch(/takeover: challenge \(cloudflare\) on s1; a human must take it over\./);
    // The live view is the host's: the model's text does not carry it.
    expect(clicked.text).not.toContain("/live/");
    expect(clicked.text).not.toContain("token=");
    const [session] = stack.manager.list();
    expect(clicked.takeover).toMatchObject({ sessionId: session!.id, session: "s1", challenge: { state: "challenge" } });
    const liveViewUrl = clicked.takeover!.liveViewUrl!;
    expect(liveViewUrl.startsWith(`${stack.worker.origin}/live/${session!.id}?token=`)).toBe(true);
    // The URL opens the live view page, with no other credential.
    const page = await fetch(liveViewUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    await page.body?.cancel();
    expect(notices).toEqual([clicked.takeover]);
    expect(events).toEqual([{ sessionId: session!.id, challenge: clicked.takeover!.challenge, after: "action" }]);

    ops.length = 0;
    const refused = await tools.click!.execute({ target: { by: "selector", selector: "#continue" } });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^outcome: refused — s1 still shows challenge \(cloudflare\); nothing was sent\./);
    const typed = await tools.type!.execute({ text: "hello" });
    expect(typed.isError).toBe(true);
    // One observation each, to check; no mutating command reached the backend.
    expect(ops).toEqual(["challenge", "challenge"]);
    const seen = await tools.observe!.execute({});
    expect(seen.isError).toBeUndefined();

    // The human, through the control lease: takes the page past the challenge, and hands it back.
    const lease = await stack.manager.acquireControl(session!.id, 10_000);
    await stack.manager.execute(session!.id, { op: "navigate", url: stack.fixtures.url("/challenge-turns.html") }, lease.token);
    events.length = 0;
    const released = await stack.manager.releaseControl(session!.id, lease.token);
    // The release re-ran detection: the host can tell the agent may resume.
    expect(released).toMatchObject({ mode: "automation", challenge: { state: "none" } });
    expect(events).toEqual([{ sessionId: session!.id, challenge: released.challenge, after: "control-release" }]);

    ops.length = 0;
    const resumed = await tools.click!.execute({ target: { by: "selector", selector: "#become-challenge" } });
    expect(ops).toEqual(["challenge", "click"]);
    // The in-place challenge that click causes holds the session again.
    expect(resumed.text).toMatch(/takeover: challenge \(cloudflare\) on s1/);
    expect(notices).toHaveLength(2);
  });
});

describe("agent tools and a login wall", () => {
  it("hold a session at a login wall only when the host opts in", async () => {
    for (const takeoverOnLoginWall of [false, true]) {
      const toolset = createBrowserAgentTools({ client: recordingBackend([]), maxSessions: 1, takeoverOnLoginWall });
      const open = toolset.tools.find((tool) => tool.name === "station_browser_open")!;
      const opened = await open.execute({ url: stack.fixtures.url("/login-wall") });
      expect(opened.takeover !== undefined, opened.text).toBe(takeoverOnLoginWall);
      await toolset.close();
    }
  });
});
