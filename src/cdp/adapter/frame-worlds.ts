/**
 * The engine's isolated world in the frames a page's top world cannot walk
 * into: cross-origin iframes, in the page's process (same site, another
 * origin) or out of it (another site: site isolation gives each its own
 * target, auto-attached to the page's session as a flattened child session,
 * whose own cross-site frames attach to it in turn). Each world is known
 * from `Runtime.executionContextCreated` of its session (the page's empty
 * script in the named world makes one in every new document), or made with
 * `Page.createIsolatedWorld` by frame id; a frame's id is read from its
 * iframe element (`DOM.describeNode`).
 */
import { ActionFailedError } from "../../errors.js";
import { CdpProtocolError } from "../call-errors.js";
import type { CdpSession } from "../session.js";
import type { CrossFrameEntry } from "./cross-frames.js";
import { firstLine, worldName } from "./page.js";

/** One frame's isolated world: the session it lives in and its context. */
export interface FrameWorld {
  frameId: string;
  session: CdpSession;
  contextId: number;
}

/** Errors of a call whose context (or frame) went away: its document was replaced or removed. */
export const contextGone = /Cannot find context with specified id|Execution context was destroyed|Inspected target navigated or closed|No frame for given id found|Frame with the given id was not found/;

/** The auto-attach of a page's (or frame's) session: its out-of-process iframes become child sessions, never paused. */
export const autoAttachParams = { autoAttach: true, waitForDebuggerOnStart: false, flatten: true } as const;

/** The isolated worlds of one page's cross-origin frames. */
export class CdpFrameWorlds {
  readonly #page: CdpSession;
  /** Per session: frame id → context id of the engine's world in the frame's current document. */
  readonly #contexts = new Map<CdpSession, Map<string, number>>();
  readonly #numbers = new Map<string, number>();
  /** The cross-origin frames the latest snapshot entered, by world number (cross-frames.ts). */
  latest = new Map<number, CrossFrameEntry>();

  readonly #record: (session: CdpSession) => void;

  /** `record` starts recording an out-of-process frame's events (console, errors, requests) for the page, as it does the page's own. */
  constructor(page: CdpSession, record: (session: CdpSession) => void) {
    this.#page = page;
    this.#record = record;
    this.#watch(page);
  }

  #watch(session: CdpSession): void {
    const contexts = new Map<string, number>();
    this.#contexts.set(session, contexts);
    session.on("Runtime.executionContextCreated", ({ context }) => {
      const frameId = context.auxData?.frameId;
      if (context.name === worldName && typeof frameId === "string") contexts.set(frameId, context.id);
    });
    session.on("Runtime.executionContextDestroyed", ({ executionContextId }) => {
      for (const [frameId, id] of contexts) if (id === executionContextId) contexts.delete(frameId);
    });
    session.on("Runtime.executionContextsCleared", () => contexts.clear());
    // A frame's session gone (the frame navigated back in process, or was removed): its worlds with it.
    session.on("Target.detachedFromTarget", ({ sessionId }) => {
      for (const known of this.#contexts.keys()) if (known.id === sessionId) this.#contexts.delete(known);
    });
    session.on("Target.attachedToTarget", ({ sessionId, targetInfo }) => {
      if (targetInfo.type !== "iframe") return;
      const child = session.children.find((each) => each.id === sessionId);
      if (child) this.#adopt(child);
    });
  }

  /**
   * Sets up an out-of-process frame's session as the page's own: the world
   * in every new document, its own cross-site frames attached, its console,
   * errors and requests recorded into the page's diagnostics (as Playwright's
   * page events include every frame's). Its dialogs come to the page's
   * session, answered there.
   */
  #adopt(child: CdpSession): void {
    this.#watch(child);
    this.#record(child);
    void Promise.all([
      child.send("Page.enable"),
      child.send("Runtime.enable"),
      child.send("Network.enable"),
      child.send("Log.enable"),
      child.send("Page.addScriptToEvaluateOnNewDocument", { source: "", worldName }),
      child.send("Target.setAutoAttach", autoAttachParams),
      child.send("Runtime.runIfWaitingForDebugger"),
    ]).catch(() => undefined);
  }

  /** The attached session of an out-of-process frame (its target id is the frame's id), if any. */
  #sessionOf(frameId: string, from: CdpSession = this.#page): CdpSession | undefined {
    for (const child of from.children) {
      if (child.ended) continue;
      if (child.targetInfo?.type === "iframe" && child.targetInfo.targetId === frameId) return child;
      const deeper = this.#sessionOf(frameId, child);
      if (deeper) return deeper;
    }
    return undefined;
  }

  /**
   * The engine's world in frame `frameId`, whose iframe element lives in
   * `owner`'s session: the frame's own session when it is out of process,
   * else `owner`'s. A frame still becoming out of process (its session not
   * attached yet) is waited for a moment, unless `awaitAttach` is false (a
   * frame that may be gone).
   */
  async world(frameId: string, owner: CdpSession, deadlineAt: number, awaitAttach = true): Promise<FrameWorld> {
    for (;;) {
      const session = this.#sessionOf(frameId) ?? owner;
      const known = this.#contexts.get(session)?.get(frameId);
      if (known !== undefined) return { frameId, session, contextId: known };
      const timeoutMs = Math.max(1, deadlineAt - Date.now());
      try {
        const { executionContextId } = await session.send("Page.createIsolatedWorld", { frameId, worldName, grantUniveralAccess: true }, { timeoutMs });
        this.#contexts.get(session)?.set(frameId, executionContextId);
        return { frameId, session, contextId: executionContextId };
      } catch (error) {
        if (!awaitAttach || session !== owner || !(error instanceof CdpProtocolError) || Date.now() >= deadlineAt || this.#sessionOf(frameId)) throw error;
        // Not a frame of the owner's process (its iframe element was just read): its own session is on its way.
        const attached = await owner.waitForEvent("Target.attachedToTarget", { predicate: ({ targetInfo }) => targetInfo.targetId === frameId, timeoutMs: Math.min(timeoutMs, frameAttachWaitMs) }).then(
          () => true,
          () => false,
        );
        if (!attached) throw error;
        awaitAttach = false;
      }
    }
  }

  /** The world number of frame `frameId` (1, 2 …), kept for the page's life: its refs are numbered from it. */
  numberOf(frameId: string): number {
    let number = this.#numbers.get(frameId);
    if (number === undefined) this.#numbers.set(frameId, (number = this.#numbers.size + 1));
    return number;
  }

  /** Forgets a world whose context went away. */
  forget(world: FrameWorld): void {
    const contexts = this.#contexts.get(world.session);
    if (contexts?.get(world.frameId) === world.contextId) contexts.delete(world.frameId);
  }

  /**
   * Evaluates `expression` in `world` (a promise awaited) and returns its
   * value. A thrown exception is an `ActionFailedError` with its first line;
   * a context gone is forgotten and its error thrown.
   */
  async evaluate(world: FrameWorld, expression: string, deadlineAt: number): Promise<unknown> {
    try {
      const { result, exceptionDetails } = await world.session.send(
        "Runtime.evaluate",
        { expression, contextId: world.contextId, returnByValue: true, awaitPromise: true },
        { timeoutMs: Math.max(1, deadlineAt - Date.now()) },
      );
      if (exceptionDetails) throw new ActionFailedError(firstLine(exceptionDetails.exception?.description ?? exceptionDetails.text));
      return result.value;
    } catch (error) {
      if (error instanceof CdpProtocolError && contextGone.test(error.cdpMessage)) this.forget(world);
      throw error;
    }
  }

  /**
   * The id of the frame shown by the iframe element that `expression`
   * evaluates to in the world `contextId` of `session` (two round trips: the
   * element's handle, then its description); undefined when it is no iframe
   * showing a frame.
   */
  async frameIdOf(session: CdpSession, contextId: number, expression: string, deadlineAt: number): Promise<string | undefined> {
    const timeoutMs = Math.max(1, deadlineAt - Date.now());
    const { result } = await session.send("Runtime.evaluate", { expression, contextId, returnByValue: false, objectGroup: frameHandles }, { timeoutMs });
    if (!result.objectId) return undefined;
    // The handle is released in the same trip, after the description (a session runs its calls in order).
    const described = session.send("DOM.describeNode", { objectId: result.objectId }, { timeoutMs: Math.max(1, deadlineAt - Date.now()) });
    session.send("Runtime.releaseObjectGroup", { objectGroup: frameHandles }).catch(() => undefined);
    return (await described).node.frameId;
  }
}

/** Longest wait for the session of an out-of-process frame whose iframe was just read (ms): it is announced as the frame is made. */
const frameAttachWaitMs = 2_000;

/** The object group of the iframe handles read for their frame ids. */
const frameHandles = "station-frame-owners";
