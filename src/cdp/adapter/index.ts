/**
 * The CDP engine (edge-direct, issue 17): `CdpBrowserAdapter` on the neutral
 * CDP client. Web standards only; not exported from the package yet.
 */
export { CdpBrowserAdapter, type CdpBrowserAdapterOptions } from "./adapter.js";
export { cdpSupportedOps, cdpNotImplementedOps } from "./capabilities.js";
