/**
 * The session manager: the README's snippet, as one script. State and
 * recordings go to a temporary directory; the page is one this script serves
 * itself on 127.0.0.1 (`page`). `npm run example:manager`
 * (examples/manager-local.ts) shows more: checkpoints, recordings, the audit.
 *
 *   npm run example:session-manager
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BrowserSessionManager, PlaywrightBrowserAdapter } from "../src/playwright.js";
import { serveExamplePage } from "./support/example-page.js";

const page = await serveExamplePage();
const root = await mkdtemp(join(tmpdir(), "station-")); // any directory of yours
const browsers = new BrowserSessionManager(new PlaywrightBrowserAdapter(), 4, {
  ownsAdapter: true,                          // close() shuts the adapter (its Chromium) down too
  stateRootDir: join(root, "state"),          // durable journal + checkpoints (one live owner)
  recordingRootDir: join(root, "recordings"),
  idleTimeoutMs: 15 * 60_000,                 // default
  tenantId: "acme",                           // a root remembers its tenant; another tenant is refused
});
try {
  const { id } = await browsers.open();
  await browsers.perform(id, "navigate", page.url);        // or execute(id, anyCommand)
  const lease = await browsers.acquireControl(id, 30_000); // a human takes over
  await browsers.execute(id, { op: "click", selector: "#go" }, lease.token);
  await browsers.releaseControl(id, lease.token);
  for (const entry of await browsers.audit()) console.log(`#${entry.seq} ${entry.outcome} ${entry.detail}`);
} finally {
  await browsers.close();
  await rm(root, { recursive: true, force: true });
  await page.close();
}
