/**
 * `station-browser-use/worker` under the `workerd`, `edge-light` and
 * `browser` conditions: importing it throws at once, naming the entry that
 * runs here. Its export names match the real entry's, so a bundle builds and
 * the refusal is the error a user sees.
 */
import { refuseNodeOnlyEntry } from "./refuse.js";

refuseNodeOnlyEntry(
  "station-browser-use/worker",
  "it serves HTTP with node:http and holds browsers through station-browser-use/playwright",
  '"station-browser-use/agent" (BrowserUseClient and the agent tools) against a worker that runs on Node, Deno or Bun',
);

const refused = undefined as never;
export {
  refused as createBrowserWorker,
  refused as resolveBrowserWorkerOptions,
  refused as parseTenantKeys,
  refused as createWorkerHttpServer,
  refused as resolveWorkerHttpServerOptions,
  refused as workerHttpServerDefaults,
};
