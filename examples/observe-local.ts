/**
 * The embedded default, end to end: serve a small page on 127.0.0.1, open local
 * Chromium through the engine, act on the page and print what an agent would see.
 *
 *   npm run example
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { PlaywrightBrowserAdapter } from "../src/playwright.js";

const page = `<!doctype html><title>Station demo</title>
<h1>Sign in</h1>
<form onsubmit="event.preventDefault(); document.querySelector('#status').textContent = 'Welcome, ' + user.value">
  <label>User name <input id="user"></label>
  <label>Password <input type="password"></label>
  <button>Continue</button>
</form>
<p id="status" role="status"></p>
<nav><a href="/help">Help</a> <a href="/privacy">Privacy</a></nav>`;

const server = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end(page));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

const adapter = new PlaywrightBrowserAdapter();
try {
  const handle = await adapter.open();
  console.log("navigate  →", await adapter.execute(handle, { op: "navigate", url }));

  const observed = await adapter.execute(handle, { op: "accessibility" });
  console.log(`\naccessibility (agent form, ${observed.bytes} bytes):\n${observed.snapshot}\n`);

  await adapter.execute(handle, { op: "fill", target: { by: "label", value: "User name" }, value: "ada" });
  await adapter.execute(handle, { op: "fill", target: { by: "label", value: "Password" }, value: "not-printed" });
  const clicked = await adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "Continue" } });
  console.log("click     →", clicked);
  const status = await adapter.execute(handle, { op: "evaluate", expression: "document.querySelector('#status').textContent" });
  console.log("status    →", status.value);

  const shot = await adapter.execute(handle, { op: "screenshot" });
  console.log(`screenshot → ${shot.mimeType} ${shot.width}×${shot.height}, ${shot.base64.length} base64 chars`);
  await adapter.close(handle);
} finally {
  await adapter.shutdown();
  server.close();
}
