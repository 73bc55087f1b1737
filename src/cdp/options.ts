/** Options of {@link connectCdp}, validated at the boundary with their defaults in one table. */
import * as v from "valibot";
import { integerIn } from "../protocol/fields.js";
import { cdpLimits } from "../protocol/limits.js";
import { parseWith } from "../protocol/parse.js";
import { standardWebSocket, type CdpWebSocketFactory } from "./websocket.js";

/** Options of {@link connectCdp}. */
export interface CdpConnectOptions {
  /** Makes the socket. Default: the runtime's global `WebSocket`; Node 20 has none, so its host passes one (over the `ws` package). */
  webSocket?: CdpWebSocketFactory;
  /** Largest incoming message (UTF-8 bytes); a larger one closes the connection and fails every pending call. Default 64 MiB, at most 256 MiB. */
  maxMessageBytes?: number;
  /** Time limit of a call that sets none (ms). Default 30 000, at most 600 000. */
  callTimeoutMs?: number;
  /** Time limit of opening the socket (ms). Default 30 000, at most 120 000. */
  connectTimeoutMs?: number;
  /** Cancels the opening. */
  signal?: AbortSignal;
  /**
   * Called when an event listener throws; the connection goes on. Default:
   * the error is thrown again in a microtask (as an uncaught error of the runtime).
   */
  onListenerError?: (error: unknown, event: string) => void;
}

/** Options after validation, with every default filled in. */
export interface ResolvedCdpOptions {
  webSocket: CdpWebSocketFactory;
  maxMessageBytes: number;
  callTimeoutMs: number;
  callTimeoutMaxMs: number;
  connectTimeoutMs: number;
  onListenerError: (error: unknown, event: string) => void;
}

const functionOption = (what: string) => v.optional(v.custom<(...args: never[]) => unknown>((value) => typeof value === "function", `expected ${what}`));

const urlProblem = (value: string): string | undefined => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "expected an absolute ws: or wss: URL";
  }
  if (url.protocol !== "ws:" && url.protocol !== "wss:") return "expected a ws: or wss: URL (the browser's DevTools WebSocket)";
  return undefined;
};

const UrlSchema = v.custom<string>(
  (value) => typeof value === "string" && urlProblem(value) === undefined,
  // Never echoes the URL: a provider's query carries its key.
  (issue) => (typeof issue.input === "string" ? (urlProblem(issue.input) ?? "invalid URL") : "expected the DevTools WebSocket URL as a string"),
);

const OptionsSchema = v.strictObject({
  webSocket: functionOption("a function that makes a WebSocket"),
  maxMessageBytes: v.optional(integerIn(1024, cdpLimits.messageBytesMax)),
  callTimeoutMs: v.optional(integerIn(1, cdpLimits.callTimeoutMaxMs)),
  connectTimeoutMs: v.optional(integerIn(1, cdpLimits.connectTimeoutMaxMs)),
  signal: v.optional(v.custom<AbortSignal>((value) => typeof (value as AbortSignal | null)?.aborted === "boolean", "expected an AbortSignal")),
  onListenerError: functionOption("a function"),
});

const rethrow = (error: unknown) =>
  queueMicrotask(() => {
    throw error;
  });

/** Validates `url` and `options` (a bad one is a `ValidationError` naming the field) and fills in the defaults. */
export function resolveCdpOptions(url: unknown, options: CdpConnectOptions): ResolvedCdpOptions {
  parseWith(UrlSchema, url, "url");
  const parsed = parseWith(OptionsSchema, options, "options");
  return {
    webSocket: (parsed.webSocket as CdpWebSocketFactory | undefined) ?? standardWebSocket(),
    maxMessageBytes: parsed.maxMessageBytes ?? cdpLimits.messageBytesDefault,
    callTimeoutMs: parsed.callTimeoutMs ?? cdpLimits.callTimeoutDefaultMs,
    callTimeoutMaxMs: cdpLimits.callTimeoutMaxMs,
    connectTimeoutMs: parsed.connectTimeoutMs ?? cdpLimits.connectTimeoutDefaultMs,
    onListenerError: (parsed.onListenerError as ResolvedCdpOptions["onListenerError"] | undefined) ?? rethrow,
  };
}
