/**
 * A WebSocket relay between a CDP client (Playwright's `connectOverCDP`, or src/cdp) and
 * one Chromium's browser endpoint, for bench/cdp.ts and the round-trip tests. It forwards every frame
 * unchanged, logs each one as the client sees it (a command when the client
 * sends it, a reply or event when it is handed to the client), and can hold
 * each frame back by a fixed delay per direction, keeping the order.
 *
 * The WebSocket parts are playwright-core's own bundled `ws`
 * (`playwright-core/lib/utilsBundle`, an exported entry), so the benchmark
 * needs no new dependency.
 */
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";

/** The part of the bundled `ws` API used here. */
export interface Socket {
  readyState: number;
  send(data: unknown): void;
  close(): void;
  on(event: "message", listener: (data: unknown, isBinary: boolean) => void): void;
  on(event: "close" | "open", listener: () => void): void;
  on(event: "error", listener: (error: Error) => void): void;
}
export interface SocketServer {
  address(): AddressInfo;
  close(callback?: () => void): void;
  on(event: "connection", listener: (socket: Socket) => void): void;
  on(event: "listening", listener: () => void): void;
}
/** playwright-core's bundled `ws`: a client (`ws`) and a server (`wsServer`). */
export const bundledWebSocket = createRequire(import.meta.url)("playwright-core/lib/utilsBundle") as {
  ws: new (url: string, options?: Record<string, unknown>) => Socket;
  wsServer: new (options: Record<string, unknown>) => SocketServer;
};
const bundle = bundledWebSocket;
const maxPayload = 256 * 1024 * 1024;

/** One CDP frame as the client saw it. */
export interface Frame {
  /** `performance.now()` when the client sent it (commands) or got it (replies, events). */
  at: number;
  kind: "command" | "reply" | "event";
  id?: number;
  method?: string;
  sessionId?: string;
  /** A short label of what a `Runtime.*` command runs (its function or expression, cut). */
  detail?: string;
}

/** A running relay: its client URL, its log and its delay. */
export interface Relay {
  /** The URL to give `connectOverCDP`. */
  url: string;
  /** Every frame since the start, in the order the client saw them. */
  readonly frames: Frame[];
  /** Added delay per direction (ms); half the added round trip. */
  delayMs: number;
  /** Commands sent whose reply the client has not had yet. */
  outstanding(): number;
  /**
   * Called with each command the client sends, before it goes on: it may
   * change the command's params in place (send a mouse event elsewhere, say).
   */
  rewrite: ((command: { method?: string; sessionId?: string; params?: Record<string, unknown> }) => void) | undefined;
  /** Goes silent: from now on no frame passes either way and no socket closes — a dropped network. What the client sends is still logged, as unanswered commands. */
  drop(): void;
  /** Resolves once no frame has passed for `quietMs` and no command is outstanding. */
  quiet(quietMs: number): Promise<void>;
  close(): Promise<void>;
}

const text = (data: unknown) => (typeof data === "string" ? data : Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.concat(data as Buffer[]).toString("utf8"));

function describe(raw: string, at: number, fromClient: boolean): Frame {
  const message = JSON.parse(raw) as { id?: number; method?: string; sessionId?: string; params?: Record<string, unknown> };
  const kind = fromClient ? "command" : message.id !== undefined ? "reply" : "event";
  const frame: Frame = { at, kind };
  if (message.id !== undefined) frame.id = message.id;
  if (message.method !== undefined) frame.method = message.method;
  if (message.sessionId !== undefined) frame.sessionId = message.sessionId;
  if (fromClient) {
    const detail = runsCode(message.params);
    if (detail) frame.detail = detail.replace(/\s+/g, " ").trim().slice(0, 90);
  }
  return frame;
}

/**
 * What a `Runtime.evaluate` or `Runtime.callFunctionOn` runs. Playwright's
 * evaluations all call `utilityScript.evaluate(isFunction, returnByValue,
 * expression, …)`; for those, the expression passed is the telling part.
 */
function runsCode(params: Record<string, unknown> | undefined): string | undefined {
  const declaration = params?.functionDeclaration;
  if (typeof declaration === "string" && declaration.includes("utilityScript.evaluate(")) {
    const expression = (params?.arguments as Array<{ value?: unknown }> | undefined)?.[3]?.value;
    if (typeof expression === "string") return expression;
  }
  const code = declaration ?? params?.expression;
  return typeof code === "string" ? code : undefined;
}

/**
 * Serial round trips in `frames`: the depth of the command chain. A command
 * gets depth 1 + the deepest reply the client had received when it sent it
 * (commands sent together share a depth); the result is the largest depth.
 */
export function serialRoundTrips(frames: readonly Frame[]): number {
  const depthOf = new Map<number, number>();
  let received = 0;
  let deepest = 0;
  for (const frame of frames) {
    if (frame.id === undefined) continue;
    if (frame.kind === "command") {
      depthOf.set(frame.id, received + 1);
      deepest = Math.max(deepest, received + 1);
    } else if (frame.kind === "reply") {
      received = Math.max(received, depthOf.get(frame.id) ?? 0);
    }
  }
  return deepest;
}

/** Forwards frames from one socket to another after `delay()` ms, in order, logging each at hand-over or receipt. */
function pipe(from: Socket, send: (raw: string) => void, delay: () => number, log: (raw: string) => void, logOnReceipt: boolean, dropped: () => boolean): void {
  const queue: Array<{ due: number; raw: string }> = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const drain = () => {
    timer = undefined;
    while (queue.length && queue[0]!.due <= performance.now()) {
      const { raw } = queue.shift()!;
      if (dropped()) continue;
      if (!logOnReceipt) log(raw);
      send(raw);
    }
    if (queue.length) timer = setTimeout(drain, Math.max(0, queue[0]!.due - performance.now()));
  };
  from.on("message", (data) => {
    const raw = text(data);
    // Silent: what the client sends is still logged (so a test sees it went out), nothing is forwarded.
    if (dropped()) return logOnReceipt ? log(raw) : undefined;
    if (logOnReceipt) log(raw);
    const wait = delay();
    if (wait <= 0 && !queue.length) {
      if (!logOnReceipt) log(raw);
      send(raw);
      return;
    }
    queue.push({ due: performance.now() + wait, raw });
    timer ??= setTimeout(drain, wait);
  });
}

/** Starts a relay on 127.0.0.1 in front of `browserUrl` (Chromium's `ws://…/devtools/browser/…`). */
export async function startRelay(browserUrl: string): Promise<Relay> {
  const server = new bundle.wsServer({ host: "127.0.0.1", port: 0, maxPayload, perMessageDeflate: false });
  await new Promise<void>((resolve) => server.on("listening", resolve));
  const frames: Frame[] = [];
  const pending = new Set<number>();
  const sockets: Socket[] = [];
  let lastAt = performance.now();
  let dropped = false;
  const relay: Relay = {
    url: `ws://127.0.0.1:${server.address().port}${new URL(browserUrl).pathname}`,
    frames,
    delayMs: 0,
    rewrite: undefined,
    outstanding: () => pending.size,
    drop: () => void (dropped = true),
    async quiet(quietMs) {
      for (;;) {
        const idle = performance.now() - lastAt;
        if (idle >= quietMs && pending.size === 0) return;
        await new Promise((resolve) => setTimeout(resolve, Math.max(5, quietMs - idle)));
      }
    },
    close: () => {
      for (const socket of sockets) socket.close();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  const record = (fromClient: boolean) => (raw: string) => {
    const frame = describe(raw, performance.now(), fromClient);
    lastAt = frame.at;
    if (frame.kind === "command" && frame.id !== undefined) pending.add(frame.id);
    if (frame.kind === "reply" && frame.id !== undefined) pending.delete(frame.id);
    frames.push(frame);
  };
  server.on("connection", (client) => {
    const upstream = new bundle.ws(browserUrl, { maxPayload, perMessageDeflate: false });
    sockets.push(client, upstream);
    // Frames the client sends before the upstream is open wait for it.
    const early: string[] = [];
    upstream.on("open", () => {
      for (const raw of early.splice(0)) upstream.send(raw);
    });
    const rewritten = (raw: string) => {
      if (!relay.rewrite) return raw;
      const command = JSON.parse(raw) as { method?: string; sessionId?: string; params?: Record<string, unknown> };
      relay.rewrite(command);
      return JSON.stringify(command);
    };
    const toBrowser = (raw: string) => (upstream.readyState === 1 ? upstream.send(rewritten(raw)) : void early.push(rewritten(raw)));
    const toClient = (raw: string) => (client.readyState === 1 ? client.send(raw) : undefined);
    pipe(client, toBrowser, () => relay.delayMs, record(true), true, () => dropped);
    pipe(upstream, toClient, () => relay.delayMs, record(false), false, () => dropped);
    client.on("close", () => upstream.close());
    upstream.on("close", () => client.close());
    client.on("error", () => upstream.close());
    upstream.on("error", () => client.close());
  });
  return relay;
}
