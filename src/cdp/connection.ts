/**
 * A browser-level CDP connection over one WebSocket: message ids, the
 * pending calls with their deadlines and cancels, the flattened sessions
 * (made from `Target.attachedToTarget`, ended by `Target.detachedFromTarget`),
 * the bound on incoming messages, and disconnect detection: a close or an
 * error fails every pending call, naming its method, and later calls refuse
 * at once; a crashed target (`Inspector.targetCrashed`) fails its session's
 * pending calls, which Chromium would never answer.
 */
import { ActionFailedError, SessionClosedError, TimeoutError, ValidationError } from "../errors.js";
import { sanitizeUrl } from "../protocol/url-policy.js";
import { CdpProtocolError, cancelledError, cutOffError, deadlineError, notSentError, type CdpEnd } from "./call-errors.js";
import { resolveCdpOptions, type CdpConnectOptions, type ResolvedCdpOptions } from "./options.js";
import type { CdpEvents, TargetInfo } from "./protocol.js";
import { CdpSession, type CdpCallOptions, type CdpLink } from "./session.js";
import { closeCodeTooBig, readMessage, socketOpen, type CdpWebSocket } from "./websocket.js";

interface Pending {
  method: string;
  sessionId: string | undefined;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

interface Incoming {
  id?: unknown;
  method?: unknown;
  sessionId?: unknown;
  params?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/** The error `ws` raises for a frame over its `maxPayload`, before buffering it. */
const wsTooLarge = "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH";

/**
 * A live CDP connection to a browser's DevTools endpoint. Made by
 * {@link connectCdp}; `browser` is the browser's own session.
 */
export class CdpConnection {
  /** The browser's own session (Target.*, Browser.*). */
  readonly browser: CdpSession;
  /** Resolves once the connection has ended, with why. */
  readonly closed: Promise<CdpEnd>;
  readonly #socket: CdpWebSocket;
  readonly #options: ResolvedCdpOptions;
  readonly #pending = new Map<number, Pending>();
  readonly #sessions = new Map<string, CdpSession>();
  readonly #link: CdpLink;
  #nextId = 1;
  #end: CdpEnd | undefined;
  #socketError: unknown;
  #resolveClosed!: (end: CdpEnd) => void;

  /** @internal Use {@link connectCdp}. */
  constructor(socket: CdpWebSocket, options: ResolvedCdpOptions) {
    this.#socket = socket;
    this.#options = options;
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
    this.#link = {
      call: (session, method, params, callOptions) => this.#call(session.id, method, params, callOptions),
      defaultTimeoutMs: options.callTimeoutMs,
      listenerError: options.onListenerError,
      detach: async (session) => {
        if (session.id === undefined || session.ended) return;
        await (session.parent ?? this.browser).send("Target.detachFromTarget", { sessionId: session.id });
      },
    };
    this.browser = new CdpSession(this.#link);
    socket.addEventListener("message", (event) => this.#receive(event.data));
    socket.addEventListener("error", (event) => {
      this.#socketError = event.error ?? event.message;
      if ((event.error as { code?: unknown } | undefined)?.code === wsTooLarge) {
        this.#finish({ reason: `an incoming CDP message exceeded the limit of ${options.maxMessageBytes} bytes; the connection was closed`, tooLarge: true, cause: event.error });
      } else if (socket.readyState === 3) {
        this.#finish({ reason: "the CDP connection failed", cause: this.#socketError });
      }
    });
    socket.addEventListener("close", (event) => {
      if (event.code === closeCodeTooBig) {
        this.#finish({ reason: `an incoming CDP message exceeded the limit of ${options.maxMessageBytes} bytes; the connection was closed (code 1009)`, tooLarge: true });
      } else {
        this.#finish({ reason: `the CDP connection closed (code ${event.code}${event.reason ? `: ${event.reason}` : ""})`, cause: this.#socketError });
      }
    });
  }

  /** Why the connection ended; undefined while it is open. */
  get ended(): CdpEnd | undefined {
    return this.#end;
  }

  /** The attached session with this id, if any. */
  session(sessionId: string): CdpSession | undefined {
    return this.#sessions.get(sessionId);
  }

  /** Every attached session (not the browser's own). */
  sessions(): CdpSession[] {
    return [...this.#sessions.values()];
  }

  /**
   * Attaches to a target with `flatten: true` and returns its session.
   *
   * @example
   * ```ts
   * const { targetId } = await connection.browser.send("Target.createTarget", { url: "about:blank" });
   * const page = await connection.attach(targetId);
   * ```
   */
  async attach(targetId: string, options: CdpCallOptions = {}): Promise<CdpSession> {
    const { sessionId } = await this.browser.send("Target.attachToTarget", { targetId, flatten: true }, options);
    const session = this.#sessions.get(sessionId);
    // Target.attachedToTarget comes before the answer; a session gone already detached in between.
    if (!session) throw new SessionClosedError(`CDP session ${sessionId} of target ${targetId} detached as it attached`);
    return session;
  }

  /** Closes the connection; pending calls fail as cut off, with `reason` as why. Resolves once it has ended. */
  async close(reason = "the CDP connection was closed by this client"): Promise<void> {
    if (!this.#end) {
      this.#finish({ reason });
    }
    await this.closed;
  }

  #call(sessionId: string | undefined, method: string, params: object, options: CdpCallOptions): Promise<unknown> {
    if (this.#end) return Promise.reject(notSentError(method, sessionId, this.#end));
    if (options.signal?.aborted) return Promise.reject(cancelledError(method, sessionId, false, options.signal.reason));
    if (options.timeoutMs !== undefined && !(Number.isInteger(options.timeoutMs) && options.timeoutMs > 0)) {
      return Promise.reject(new ValidationError("options.timeoutMs", `expected a positive integer (ms) for ${method}`));
    }
    const timeoutMs = Math.min(options.timeoutMs ?? this.#options.callTimeoutMs, this.#options.callTimeoutMaxMs);
    const id = this.#nextId++;
    const frame = JSON.stringify(sessionId === undefined ? { id, method, params } : { id, method, params, sessionId });
    return new Promise((resolve, reject) => {
      const done = () => {
        this.#pending.delete(id);
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        done();
        reject(cancelledError(method, sessionId, true, options.signal?.reason));
      };
      const timer = setTimeout(() => {
        done();
        reject(deadlineError(method, sessionId, timeoutMs));
      }, timeoutMs);
      this.#pending.set(id, {
        method,
        sessionId,
        resolve: (result) => (done(), resolve(result)),
        reject: (error) => (done(), reject(error)),
      });
      options.signal?.addEventListener("abort", onAbort, { once: true });
      try {
        this.#socket.send(frame);
      } catch (error) {
        done();
        reject(notSentError(method, sessionId, { reason: "the socket refused it", cause: error }));
      }
    });
  }

  #receive(data: unknown): void {
    if (this.#end) return;
    const read = readMessage(data, this.#options.maxMessageBytes);
    if ("tooLarge" in read) {
      this.#finish({
        reason: `an incoming CDP message of ${read.tooLarge} bytes exceeds the limit of ${this.#options.maxMessageBytes} bytes; the connection was closed`,
        tooLarge: true,
      });
      return;
    }
    let message: Incoming;
    try {
      message = JSON.parse(read.text) as Incoming;
      if (typeof message !== "object" || message === null) throw new Error("not an object");
    } catch (error) {
      this.#finish({ reason: "the browser sent a CDP message that is not a JSON object; the connection was closed", cause: error });
      return;
    }
    if (typeof message.id === "number") {
      const pending = this.#pending.get(message.id);
      // An answer to a call already cut off (deadline, cancel) is dropped.
      if (!pending) return;
      if (message.error) pending.reject(new CdpProtocolError(pending.method, pending.sessionId, message.error));
      else pending.resolve(message.result ?? {});
      return;
    }
    if (typeof message.method !== "string") return;
    const session = typeof message.sessionId === "string" ? this.#sessions.get(message.sessionId) : this.browser;
    // Events of a session already detached are dropped.
    if (!session) return;
    this.#track(session, message.method, message.params);
    session.dispatch(message.method, message.params ?? {});
  }

  /** Makes and ends the flattened sessions as their events arrive, before the events are handed out. */
  #track(parent: CdpSession, method: string, params: unknown): void {
    if (method === "Target.attachedToTarget") {
      const { sessionId, targetInfo, waitingForDebugger } = params as CdpEvents["Target.attachedToTarget"];
      if (this.#sessions.has(sessionId)) return;
      const session = new CdpSession(this.#link, { id: sessionId, targetInfo: targetInfo as TargetInfo, parent, waitingForDebugger: waitingForDebugger === true });
      this.#sessions.set(sessionId, session);
    } else if (method === "Inspector.targetCrashed") {
      // Chromium never answers what a crashed renderer had pending; the session stays (the target can load again).
      const end = { reason: `the target of CDP session ${parent.id} crashed` };
      for (const pending of [...this.#pending.values()]) {
        if (pending.sessionId === parent.id) pending.reject(cutOffError(pending.method, pending.sessionId, end));
      }
    } else if (method === "Target.detachedFromTarget") {
      const { sessionId } = params as CdpEvents["Target.detachedFromTarget"];
      const session = this.#sessions.get(sessionId);
      if (session) this.#endSession(session, { reason: `CDP session ${sessionId} (target ${session.targetInfo?.targetId}) detached` });
    }
  }

  #endSession(session: CdpSession, end: CdpEnd): void {
    const ending = [session];
    for (let index = 0; index < ending.length; index++) ending.push(...ending[index]!.children);
    const ids = new Set(ending.map((each) => each.id));
    for (const each of ending) if (each.id !== undefined) this.#sessions.delete(each.id);
    session.end(end);
    for (const pending of [...this.#pending.values()]) {
      if (ids.has(pending.sessionId)) pending.reject(cutOffError(pending.method, pending.sessionId, end));
    }
  }

  #finish(end: CdpEnd): void {
    if (this.#end) return;
    this.#end = end;
    for (const pending of [...this.#pending.values()]) pending.reject(cutOffError(pending.method, pending.sessionId, end));
    for (const session of this.#sessions.values()) session.end(end);
    this.#sessions.clear();
    this.browser.end(end);
    if (this.#socket.readyState <= socketOpen) {
      try {
        // 1000: the standard WebSocket refuses any other code below 3000 (1009 among them).
        this.#socket.close(1000);
      } catch {
        // Already closing.
      }
    }
    this.#resolveClosed(end);
  }
}

/**
 * Opens a browser-level CDP connection to `url` (a `ws:`/`wss:` DevTools
 * URL, e.g. Chromium's `ws://127.0.0.1:9222/devtools/browser/<id>` or a
 * hosted provider's `cdpUrl`). The URL's query (where providers put keys)
 * never appears in an error.
 *
 * @example
 * ```ts
 * const connection = await connectCdp(cdpUrl); // standard WebSocket
 * const connection20 = await connectCdp(cdpUrl, { webSocket: nodeWebSocket }); // Node 20
 * ```
 */
export async function connectCdp(url: string, options: CdpConnectOptions = {}): Promise<CdpConnection> {
  const resolved = resolveCdpOptions(url, options);
  const where = sanitizeUrl(url);
  const cancelled = (reason: unknown) => new ActionFailedError(`the CDP connection to ${where} was cancelled before it opened`, { cause: reason });
  if (options.signal?.aborted) throw cancelled(options.signal.reason);
  let socket: CdpWebSocket;
  try {
    socket = resolved.webSocket(url, { maxMessageBytes: resolved.maxMessageBytes });
    socket.binaryType = "arraybuffer";
  } catch (error) {
    throw new SessionClosedError(`could not open a CDP connection to ${where}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  await new Promise<void>((resolve, reject) => {
    let error: unknown;
    let settled = false;
    const settle = (outcome: Error | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (outcome === undefined) return resolve();
      try {
        socket.close();
      } catch {
        // Not open.
      }
      reject(outcome);
    };
    const onAbort = () => settle(cancelled(options.signal?.reason));
    const timer = setTimeout(() => settle(new TimeoutError(`the CDP connection to ${where} did not open within ${resolved.connectTimeoutMs} ms`)), resolved.connectTimeoutMs);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    socket.addEventListener("open", () => settle(undefined));
    // A factory may hand over a socket that is open already.
    if (socket.readyState === socketOpen) settle(undefined);
    socket.addEventListener("error", (event) => (error = event.error ?? event.message));
    socket.addEventListener("close", (event) =>
      settle(new SessionClosedError(`the CDP connection to ${where} closed before it opened (code ${event.code})`, { cause: error })),
    );
  });
  return new CdpConnection(socket, resolved);
}
