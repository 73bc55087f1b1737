/**
 * The WebSocket the Node side hands the neutral CDP client (src/cdp/) where
 * the runtime has no global one (Node 20): the `ws` package's, with its
 * `maxPayload` set to the client's message limit, so a larger frame is
 * refused from its header (close code 1009) before it is buffered.
 */
import WebSocket from "ws";
import type { CdpWebSocket, CdpWebSocketFactory } from "../cdp/websocket.js";

/**
 * A {@link CdpWebSocketFactory} over `ws`.
 *
 * @example
 * ```ts
 * const connection = await connectCdp(cdpUrl, { webSocket: nodeWebSocket });
 * ```
 */
export const nodeWebSocket: CdpWebSocketFactory = (url, request) =>
  new WebSocket(url, { maxPayload: request.maxMessageBytes, perMessageDeflate: false, followRedirects: false }) as unknown as CdpWebSocket;
