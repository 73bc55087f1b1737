/**
 * Typed text and host secrets never reach page JavaScript, and a page cannot
 * switch redaction off (real Chromium, both backends). The top page hooks
 * `String.prototype.includes` and fakes `document.activeElement` and
 * `querySelectorAll`, recording and echoing all it sees; a password field
 * sits in a cross-origin iframe (out of process on `localhost`, or in process
 * on another port of 127.0.0.1).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBrowserAgentTools, type AgentTool, type ToolResult } from "../../src/agent-tools/index.js";
import { BrowserUseClient } from "../../src/client/index.js";
import type { BrowserBackend } from "../../src/protocol/backend.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { startWorkerStack, type WorkerStack } from "../helpers/worker-stack.js";

const token = "op-".padEnd(40, "x");
const tenantKey = "tenant-page-code-".padEnd(40, "k");
const secret = "bank-secret-value-4242";
const topPassword = "top-typed-pass-77";
const framePassword = "frame-typed-pass-55";

let stack: WorkerStack;
let otherPort: FixtureServer;
beforeAll(async () => {
  stack = await startWorkerStack({ token, tenantKey, maxSessions: 4 });
  otherPort = await startFixtureServer();
});
afterAll(async () => {
  await stack?.close();
  await otherPort?.close();
});

const backends: { name: string; backend: () => BrowserBackend }[] = [
  { name: "the in-process manager", backend: () => stack.manager },
  {
    name: "a client talking HTTP to a worker",
    backend: () => new BrowserUseClient({ baseUrl: stack.worker.origin, stationId: "local", apiKey: tenantKey, timeoutMs: 30_000 }),
  },
];
const outOfProcess = () => stack.fixtures.url("/frame-password.html").replace("127.0.0.1", "localhost");
const inProcess = () => otherPort.url("/frame-password.html");
const frameField = { by: "selector", selector: "#fpw", frame: ["#login"] };

/** The pages: one spies on String.prototype.includes (and pulls focus out of the iframe), one fakes the focus and password queries. */
const cases = [
  { mode: "spy", frame: "out of process (localhost)", url: outOfProcess },
  { mode: "spy", frame: "in process (another port)", url: inProcess },
  { mode: "fake", frame: "out of process (localhost)", url: outOfProcess },
] as const;

describe.each(backends)("page code over $name", ({ backend }) => {
  it.each(cases)("a page in $mode mode never sees typed text or a host secret and cannot unredact them (iframe $frame)", async ({ mode, url }) => {
    const client = backend();
    const tools = createBrowserAgentTools({ client, maxSessions: 1, secrets: { bank: secret } });
    const tool = (name: string): AgentTool => tools.tools.find((each) => each.name === `station_browser_${name}`)!;
    const results: ToolResult[] = [];
    const ok = async (name: string, input: Record<string, unknown>) => {
      const result = await tool(name).execute(input);
      results.push(result);
      expect(result.isError, result.text).toBeUndefined();
      return result;
    };
    let seen: string[] = [];
    try {
      await ok("open", { url: `${stack.fixtures.url("/hostile-top.html")}?mode=${mode}&frame=${encodeURIComponent(url())}` });
      // The top page's own password field, which it echoes into its text.
      const topFill = await ok("fill", { fields: [{ target: { by: "selector", selector: "#pw" }, value: topPassword }] });
      expect(topFill.text).toContain("+ you typed [redacted]");
      // The iframe's field: a host secret, then typed text (into the focused element when the page leaves focus there).
      await ok("fill", { fields: [{ target: frameField, secret: "bank" }] });
      await ok("type", mode === "spy" ? { target: frameField, text: framePassword } : { text: framePassword });
      for (const observeMode of ["aria", "text"]) await ok("observe", { mode: observeMode });
      // What the top page's JavaScript recorded, read straight from the backend (no redaction on this path).
      const [session] = await client.list();
      const { value } = await client.execute(session!.id, { op: "evaluate", expression: "window.__seen" });
      seen = value as string[];
    } finally {
      await tools.close();
    }
    // The page's hooks ran, but never on our text.
    expect(seen).toContain("armed");
    const heard = JSON.stringify(seen);
    const shown = JSON.stringify(results);
    expect(shown).toContain("frame got [secret:bank][redacted]");
    for (const value of [secret, topPassword, framePassword]) {
      // Any start of 8 or more characters contains the first 8.
      expect(heard).not.toContain(value.slice(0, 8));
      expect(shown).not.toContain(value.slice(0, 8));
    }
  });
});
