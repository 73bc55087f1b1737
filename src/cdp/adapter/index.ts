/**
 * The CDP engine (edge-direct, issue 17): `CdpBrowserAdapter` on the neutral
 * CDP client. Web standards only; exported as station-browser-use/cdp (src/cdp.ts).
 */
export { CdpBrowserAdapter, type CdpBrowserAdapterOptions } from "./adapter.js";
export { cdpSupportedOps, cdpNotImplementedOps } from "./capabilities.js";
