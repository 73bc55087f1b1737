/**
 * The WebSocket the CDP client speaks over: the standard one (global in
 * workerd, Deno, Bun and Node ≥ 22) unless the host hands in a factory (on
 * Node 20, one over the `ws` package; the client never imports it).
 */
import { ValidationError } from "../errors.js";

/** The part of the standard `WebSocket` the client uses (the `ws` package's `WebSocket` has it too). */
export interface CdpWebSocket {
  readonly readyState: number;
  binaryType: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "open", listener: () => void): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  addEventListener(type: "close", listener: (event: { code: number; reason: string }) => void): void;
  addEventListener(type: "error", listener: (event: { message?: string; error?: unknown }) => void): void;
}

/** What the client tells a socket factory: the largest message it will accept, so a socket that can refuse larger frames before buffering them does. */
export interface CdpWebSocketRequest {
  maxMessageBytes: number;
}

/** Makes the socket for a `ws:`/`wss:` URL. */
export type CdpWebSocketFactory = (url: string, request: CdpWebSocketRequest) => CdpWebSocket;

/** `WebSocket.OPEN` of the standard interface. */
export const socketOpen = 1;

/** The close code (RFC 6455) of a message too big to process. */
export const closeCodeTooBig = 1009;

/**
 * The runtime's own `WebSocket`, or a clear error where there is none (Node 20):
 * the host then passes `webSocket`.
 */
export function standardWebSocket(): CdpWebSocketFactory {
  const Standard = (globalThis as { WebSocket?: new (url: string) => CdpWebSocket }).WebSocket;
  if (typeof Standard !== "function") {
    throw new ValidationError(
      "options.webSocket",
      "this runtime has no global WebSocket (Node 20): pass a factory, e.g. one over the `ws` package",
    );
  }
  return (url) => new Standard(url);
}

/** The UTF-8 length of `text`, or a number past `limit` as soon as it is clear (JSON from CDP is mostly ASCII). */
function utf8LengthPast(text: string, limit: number): number {
  // Each UTF-16 unit takes 1–3 UTF-8 bytes (a surrogate pair 4 for 2).
  if (text.length > limit) return text.length;
  if (text.length * 3 <= limit) return text.length;
  return new TextEncoder().encode(text).length;
}

/** An incoming message as text, or its size when it is larger than `limit` bytes. */
export function readMessage(data: unknown, limit: number): { text: string } | { tooLarge: number } {
  if (typeof data === "string") {
    const bytes = utf8LengthPast(data, limit);
    return bytes > limit ? { tooLarge: bytes } : { text: data };
  }
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : undefined;
  if (bytes === undefined) return { text: String(data) };
  return bytes.byteLength > limit ? { tooLarge: bytes.byteLength } : { text: new TextDecoder().decode(bytes) };
}
