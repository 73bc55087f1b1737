/**
 * A local stand-in for the CDP half of a hosted provider: a real Chromium
 * started with `--remote-debugging-port=0`, whose browser WebSocket URL a
 * mocked `create` hands out as `connectUrl` / `websocketUrl`. Driving it
 * through the adapter drives a "Browserbase" or "Steel" session for real.
 * The launch itself is the local CDP provider's (src/providers/local/cdp-chromium.ts).
 */
export { launchCdpChromium as startCdpChromium, type CdpChromium } from "../../src/providers/local/cdp-chromium.js";
