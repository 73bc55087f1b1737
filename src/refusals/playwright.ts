/**
 * `station-browser-use/playwright` under the `workerd`, `edge-light` and
 * `browser` conditions: importing it throws at once, naming the entries that
 * run here. Its export names match the real entry's, so a bundle builds and
 * the refusal is the error a user sees.
 */
import { refuseNodeOnlyEntry } from "./refuse.js";

refuseNodeOnlyEntry(
  "station-browser-use/playwright",
  "it drives Chromium with playwright-core and keeps files with node:fs",
  '"station-browser-use/agent" (BrowserUseClient and the agent tools, against a worker that runs on Node, Deno or Bun) ' +
    'or "station-browser-use/cdp" (the CDP engine, which drives a Browserbase or Steel session from here over WebSocket) ' +
    'with the REST halves "station-browser-use/browserbase" and "station-browser-use/steel"',
);

const refused = undefined as never;
export {
  refused as PlaywrightBrowserAdapter,
  refused as createLocalProvider,
  refused as findChromium,
  refused as closedNetworkArgs,
  refused as BrowserSessionManager,
  refused as createFileStateStore,
  refused as createFileRecordingStore,
  refused as createFileProfileStore,
  refused as withPlaywright,
  refused as createBrowserbaseProvider,
  refused as createSteelProvider,
  refused as nodeWebSocket,
  refused as createLocalCdpProvider,
};
