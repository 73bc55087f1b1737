/**
 * The session manager on the embedded default: admission, a human control
 * lease, a checkpoint resumed into a new session, a recording and the audit.
 *
 *   npm run example:manager
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BrowserSessionManager, PlaywrightBrowserAdapter } from "../src/playwright.js";

const pages: Record<string, string> = {
  "/": `<title>Inbox</title><h1>Inbox</h1><a href="/compose">Compose</a>`,
  "/compose": `<title>Compose</title><label>To <input id="to"></label><label>Message <textarea id="body"></textarea></label><button>Send</button>`,
};
const server = createServer((request, response) =>
  response.writeHead(200, { "content-type": "text/html" }).end(pages[new URL(request.url ?? "/", "http://x").pathname] ?? "not found"),
);
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const stateRootDir = await mkdtemp(join(tmpdir(), "station-example-state-"));
const adapter = new PlaywrightBrowserAdapter();
const browsers = new BrowserSessionManager(adapter, 2, { stateRootDir, idleTimeoutMs: 5 * 60_000 });
browsers.events.on("action-finish", (event) => console.log(`  [event] ${event.op} → ${event.outcome} in ${event.durationMs} ms`));
try {
  const { id } = await browsers.open();
  await browsers.perform(id, "navigate", `${origin}/`);
  await browsers.execute(id, { op: "click", target: { by: "role", role: "link", name: "Compose" } });
  await browsers.execute(id, { op: "fill", target: { by: "label", value: "Message" }, value: "Hello from the agent" });

  // A human takes over: automation may only observe until the lease ends.
  const lease = await browsers.acquireControl(id, 30_000);
  const refused = await browsers.perform(id, "click", "button").catch((error: Error) => error.message);
  console.log("automation during the lease →", refused);
  console.log("control →", await browsers.control(id));
  await browsers.execute(id, { op: "fill", selector: "#to", value: "ada@example.com" }, lease.token);
  await browsers.releaseControl(id, lease.token);

  const recording = await browsers.startRecording(id);
  const checkpoint = await browsers.checkpoint(id);
  console.log("checkpoint →", checkpoint.pages);
  await browsers.stopRecording(recording.id);

  const resumed = await browsers.resumeCheckpoint(checkpoint.id);
  const title = await browsers.perform(resumed.id, "evaluate", "document.title");
  console.log("resumed session", resumed.id, "→", title);

  console.log("\naudit (typed text masked):");
  for (const entry of await browsers.audit()) console.log(`  #${entry.seq} ${entry.outcome.padEnd(7)} ${entry.detail}`);
} finally {
  await browsers.close();
  await adapter.shutdown();
  server.close();
  await rm(stateRootDir, { recursive: true, force: true });
}
