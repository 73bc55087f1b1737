/**
 * station-browser-use/cdp: the CDP engine (edge-direct), on every runtime
 * with a standard `WebSocket` (Cloudflare Workers, Deno, Bun, Node ≥ 22;
 * Node 20 passes `nodeWebSocket` from `station-browser-use/playwright`):
 * `CdpBrowserAdapter`, a `BrowserAdapter` for `BrowserSessionManager` that
 * drives a provider session over its `cdpUrl`, and the CDP client under it.
 * Web standards only. What the engine does not implement yet,
 * `capabilities().notImplemented` lists and `execute` refuses with
 * `NotImplementedError`.
 */
export { CdpBrowserAdapter, type CdpBrowserAdapterOptions, cdpSupportedOps, cdpNotImplementedOps } from "./cdp/adapter/index.js";
export {
  connectCdp,
  CdpConnection,
  CdpSession,
  CdpProtocolError,
  cdpCallOf,
  mayHaveRun,
  type CdpCallInfo,
  type CdpCallOptions,
  type CdpConnectOptions,
  type CdpEnd,
  type CdpWaitOptions,
  type CdpWebSocket,
  type CdpWebSocketFactory,
  type CdpWebSocketRequest,
} from "./cdp/index.js";
