import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBrowserAgentTools } from "../../src/agent-tools/index.js";
import { BrowserUseClient } from "../../src/client/index.js";
import { OutcomeUnknownError, TimeoutError, isOutcomeUnknownError } from "../../src/errors.js";
import { startHoldingServer, type HoldingServer } from "../helpers/holding-server.js";
import { startWorkerStack, type WorkerStack } from "../helpers/worker-stack.js";

/**
 * The outcome rule through every layer: a click whose form POST reached the
 * server, and whose answer never came, is `unknown` in the engine's error,
 * the journal, the worker's answer, the client's error and the agent tools'
 * text — and a click that could not act is `failed` in each of them.
 */
const token = "op-outcome-".padEnd(40, "x");
const tenantKey = "tenant-outcome-".padEnd(40, "k");

const pages = {
  "/form": `<title>Form</title><form method="post" action="/hold-submit"><input name="q"><button id="go">Send</button></form>
    <button id="hidden" style="display:none">Hidden</button>`,
};

let stack: WorkerStack;
let server: HoldingServer;

beforeAll(async () => {
  stack = await startWorkerStack({ token, tenantKey, maxSessions: 4 });
  server = await startHoldingServer(pages);
});
afterAll(async () => {
  await stack?.close();
  await server?.close();
});

const client = () => new BrowserUseClient({ baseUrl: stack.worker.origin, stationId: "local", apiKey: tenantKey, timeoutMs: 30_000 });
const posts = () => server.requests.filter((request) => request === "POST /hold-submit").length;

describe("outcome unknown across the stack", () => {
  it("client → worker → manager: unknown in the client's error and the journal; a click that could not act is failed in both", async () => {
    const remote = client();
    const { id } = await remote.open();
    await remote.execute(id, { op: "navigate", url: server.url("/form") });
    const before = posts();
    const unknown = await remote.execute(id, { op: "click", selector: "#go", timeoutMs: 4000 }).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(OutcomeUnknownError);
    expect(posts()).toBe(before + 1);
    await remote.execute(id, { op: "navigate", url: server.url("/form") });
    const refused = await remote.execute(id, { op: "click", selector: "#hidden", timeoutMs: 400 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TimeoutError);
    expect(isOutcomeUnknownError(refused)).toBe(false);
    const clicks = (await stack.manager.audit()).filter((entry) => entry.op === "click" && entry.sessionId === id);
    expect(clicks.map((entry) => [entry.outcome, entry.errorCode])).toEqual([
      ["unknown", "outcome_unknown"],
      ["error", "timeout"],
    ]);
    await remote.close(id);
  });

  it("agent tools over the worker: the model reads outcome unknown and is told to check, not to retry", async () => {
    const toolset = createBrowserAgentTools({ client: client(), maxSessions: 1 });
    const tool = (name: string) => toolset.tools.find((candidate) => candidate.name === `station_browser_${name}`)!;
    try {
      const opened = await tool("open").execute({ url: server.url("/form") });
      expect(opened.isError).toBeUndefined();
      const before = posts();
      const clicked = await tool("click").execute({ target: { by: "role", role: "button", name: "Send" } });
      expect(clicked.isError).toBe(true);
      expect(clicked.text).toMatch(/^outcome: unknown — click/);
      expect(clicked.text).toMatch(/do not repeat it blindly/);
      expect(clicked.text).not.toMatch(/outcome: failed/);
      // What to check comes from the engine, fenced: where the page is and what to look for.
      expect(clicked.text).toMatch(/<untrusted-page-content nonce="[0-9a-f]{16}">[\s\S]*was the form sent/);
      expect(posts()).toBe(before + 1);
    } finally {
      await toolset.close();
    }
  });
});
