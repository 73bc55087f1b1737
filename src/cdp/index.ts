/**
 * The neutral CDP client (first slice of edge-direct, issue 17): a
 * browser-level Chrome DevTools Protocol connection over the standard
 * `WebSocket`, with flattened sessions, typed commands and events,
 * per-call deadlines and cancels, a bound on incoming messages and
 * disconnect detection. Web standards only; exported as station-browser-use/cdp (src/cdp.ts).
 */
export { connectCdp, CdpConnection } from "./connection.js";
export { CdpSession, type CdpCallOptions, type CdpWaitOptions } from "./session.js";
export { CdpProtocolError, cdpCallOf, mayHaveRun, type CdpCallInfo, type CdpEnd } from "./call-errors.js";
export type { CdpConnectOptions } from "./options.js";
export type { CdpWebSocket, CdpWebSocketFactory, CdpWebSocketRequest } from "./websocket.js";
export type * from "./protocol.js";
