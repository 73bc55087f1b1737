/**
 * One CDP session: the browser's own (no session id) or one attached to a
 * target with `flatten: true`, whose commands and events share the
 * browser's socket, tagged with its session id. Child sessions (iframes out
 * of process, workers, popups under auto-attach) are made by the connection
 * as `Target.attachedToTarget` arrives, before anyone hears of the event.
 */
import { TimeoutError } from "../errors.js";
import { cancelledError, notSentError, waitEndedError, type CdpEnd } from "./call-errors.js";
import type { CdpEventName, CdpEvents, CdpMethod, CdpParams, CdpResult, TargetInfo } from "./protocol.js";

/** Per-call options. */
export interface CdpCallOptions {
  /** Time limit of this call (ms); default the connection's `callTimeoutMs`. */
  timeoutMs?: number;
  /** Cancels the call; a call cancelled after it was sent may still run ({@link mayHaveRun}). */
  signal?: AbortSignal;
}

/** Options of {@link CdpSession.waitForEvent}. */
export interface CdpWaitOptions<Params> {
  /** Only an event for which this returns true ends the wait. */
  predicate?: (params: Params) => boolean;
  /** Time limit (ms); default the connection's `callTimeoutMs`. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** What a session needs of its connection. */
export interface CdpLink {
  call(session: CdpSession, method: string, params: object, options: CdpCallOptions): Promise<unknown>;
  defaultTimeoutMs: number;
  listenerError(error: unknown, event: string): void;
  /** Detaches `session` (through its parent). */
  detach(session: CdpSession): Promise<void>;
}

type Listener = (params: never) => void;

/** A CDP session of a {@link CdpConnection}. */
export class CdpSession {
  /** The session id; undefined for the browser's own session. */
  readonly id: string | undefined;
  /** The target it is attached to, as it was when it attached; undefined for the browser's own session. */
  readonly targetInfo: TargetInfo | undefined;
  /** The session that attached it; undefined for the browser's own session. */
  readonly parent: CdpSession | undefined;
  /** Whether the target paused at start for `Runtime.runIfWaitingForDebugger` (auto-attach with `waitForDebuggerOnStart`). */
  readonly waitingForDebugger: boolean;
  readonly #link: CdpLink;
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #children = new Set<CdpSession>();
  readonly #endWatchers = new Set<(end: CdpEnd) => void>();
  #end: CdpEnd | undefined;

  /** @internal Made by the connection. */
  constructor(link: CdpLink, attached?: { id: string; targetInfo: TargetInfo; parent: CdpSession; waitingForDebugger: boolean }) {
    this.#link = link;
    this.id = attached?.id;
    this.targetInfo = attached?.targetInfo;
    this.parent = attached?.parent;
    this.waitingForDebugger = attached?.waitingForDebugger ?? false;
    if (attached) attached.parent.#children.add(this);
  }

  /** The sessions this one attached (auto-attached iframes, workers …) that are still attached. */
  get children(): CdpSession[] {
    return [...this.#children];
  }

  /** Why the session ended (detached, or its connection closed); undefined while it is attached. */
  get ended(): CdpEnd | undefined {
    return this.#end;
  }

  /**
   * Sends a command on this session and resolves with its result. Rejects with
   * a {@link CdpProtocolError} when the browser answers with an error, and with
   * an error for which {@link mayHaveRun} is true when the call was sent but
   * cut off (deadline, cancel, lost connection, detached session).
   *
   * @example
   * ```ts
   * const { result } = await page.send("Runtime.evaluate", { expression: "document.title", returnByValue: true });
   * ```
   */
  send<Method extends CdpMethod>(method: Method, ...args: {} extends CdpParams<Method> ? [params?: CdpParams<Method>, options?: CdpCallOptions] : [params: CdpParams<Method>, options?: CdpCallOptions]): Promise<CdpResult<Method>> {
    const [params, options] = args;
    if (this.#end) return Promise.reject(notSentError(method, this.id, this.#end));
    return this.#link.call(this, method, params ?? {}, options ?? {}) as Promise<CdpResult<Method>>;
  }

  /**
   * Calls `listener` with the params of every `event` on this session until
   * the returned function is called.
   *
   * @example
   * ```ts
   * const off = page.on("Page.loadEventFired", () => console.log("loaded"));
   * off();
   * ```
   */
  on<Event extends CdpEventName>(event: Event, listener: (params: CdpEvents[Event]) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    const entry = listener as Listener;
    set.add(entry);
    return () => void this.#listeners.get(event)?.delete(entry);
  }

  /**
   * Resolves with the params of the next `event` on this session (that
   * `predicate` accepts). Rejects with a {@link TimeoutError} past its time
   * limit, with a cancel error when `signal` aborts, and with a
   * `SessionClosedError` when the session ends first. Subscribe before
   * sending the command that causes the event.
   */
  waitForEvent<Event extends CdpEventName>(event: Event, options: CdpWaitOptions<CdpEvents[Event]> = {}): Promise<CdpEvents[Event]> {
    const label = `waiting for ${event}`;
    if (this.#end) return Promise.reject(waitEndedError(event, this.id, this.#end));
    if (options.signal?.aborted) return Promise.reject(cancelledError(label, this.id, false, options.signal.reason));
    const timeoutMs = options.timeoutMs ?? this.#link.defaultTimeoutMs;
    return new Promise((resolve, reject) => {
      const finish = (settle: () => void) => {
        off();
        clearTimeout(timer);
        this.#endWatchers.delete(onEnd);
        options.signal?.removeEventListener("abort", onAbort);
        settle();
      };
      const off = this.on(event, (params) => {
        if (options.predicate && !options.predicate(params)) return;
        finish(() => resolve(params));
      });
      const timer = setTimeout(() => finish(() => reject(new TimeoutError(`CDP ${event} did not arrive within ${timeoutMs} ms${this.id ? ` (session ${this.id})` : ""}`))), timeoutMs);
      const onEnd = (end: CdpEnd) => finish(() => reject(waitEndedError(event, this.id, end)));
      const onAbort = () => finish(() => reject(cancelledError(label, this.id, false, options.signal?.reason)));
      this.#endWatchers.add(onEnd);
      options.signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Detaches this session from its target (`Target.detachFromTarget`); the target keeps running. */
  detach(): Promise<void> {
    return this.#link.detach(this);
  }

  /** @internal Hands an event to this session's listeners. */
  dispatch(event: string, params: unknown): void {
    for (const listener of [...(this.#listeners.get(event) ?? [])]) {
      try {
        (listener as (params: unknown) => void)(params);
      } catch (error) {
        this.#link.listenerError(error, event);
      }
    }
  }

  /** @internal Ends this session and the ones it attached; later calls refuse at once. */
  end(end: CdpEnd): void {
    if (this.#end) return;
    this.#end = end;
    for (const child of this.#children) child.end(end);
    this.#children.clear();
    if (this.parent) this.parent.#children.delete(this);
    for (const watcher of [...this.#endWatchers]) watcher(end);
    this.#listeners.clear();
  }
}
