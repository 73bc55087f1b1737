/**
 * Targets inside cross-origin iframes on the CDP engine (in the page's
 * process, or out of it under site isolation). The top world's call
 * (frame-script.ts) stops at the first cross-origin iframe of a chain and
 * keeps its element; the engine reads that iframe's frame id, finds the
 * engine's world in the frame (frame-worlds.ts) and runs the same target
 * script there with the rest of the chain, hop by hop. A ref of a
 * cross-origin frame's snapshot is looked for in that frame's world at
 * once. The point found is moved into the main viewport through each
 * cross-origin iframe, by a call in the iframe's own (parent) world that
 * also checks the iframe is not covered there ({@link placeThrough});
 * mouse input then goes to the page's session at that point, as Playwright
 * sends it, and keys to the focused frame through the page's session.
 *
 * Serial round trips for a click in one cross-site iframe: the top world's
 * call, the target script in the frame's world, the placement, a pointer
 * move until the frame gets it (interaction.ts), the input;
 * the first time the iframe is met, two more (its handle, its frame id,
 * then remembered in its parent's world), and the frame's world when it
 * was not announced.
 */
import { limits } from "../../protocol/limits.js";
import { isSessionClosedError } from "../../errors.js";
import { cdpCallOf, CdpProtocolError } from "../call-errors.js";
import type { CdpSession } from "../session.js";
import type { CdpCommandContext } from "./context.js";
import type { FrameAnswer } from "./frame-script.js";
import { contextGone, type FrameWorld } from "./frame-worlds.js";
import type { CdpPage } from "./page.js";
import type { ScriptAnswer } from "./target-script.js";
import { worldExpression } from "./targets.js";

/** Frame numbers (the `n` of a world ref `f<n>e<m>`) per world: a cross-origin frame's world `k` numbers its refs from `k × frameNumberSpan`. */
export const frameNumberSpan = 10_000;

/** The world number of a world ref: 0 for the top world's (`e5`, `f2e5`), `k` for cross-origin frame `k`'s. */
export const crossWorldOf = (ref: string): number => Math.floor(Number(/^f(\d+)e\d+$/.exec(ref)?.[1] ?? 0) / frameNumberSpan);

/** Where a cross-origin frame's world stands, as the latest snapshot entered it. */
export interface CrossFrameEntry {
  frameId: string;
  /** The world its iframe element is in: 0 for the top world. */
  parent: number;
  /** Its iframe's ref in that world. */
  iframeRef: string;
}

/** A world of the page the engine can run a script in. */
export interface WorldHandle {
  number: number;
  /** The frame's id; undefined for the top world. */
  frameId?: string;
  session: CdpSession;
  contextId(): Promise<number>;
  evaluate(expression: string, deadlineAt: number, once?: boolean): Promise<unknown>;
}

export const topWorld = (page: CdpPage): WorldHandle => ({
  number: 0,
  session: page.session,
  contextId: () => page.world(),
  evaluate: (expression, deadlineAt, once) => page.evaluateInWorld(expression, deadlineAt, once),
});

export const frameWorld = (page: CdpPage, world: FrameWorld, number: number): WorldHandle => ({
  number,
  frameId: world.frameId,
  session: world.session,
  contextId: () => Promise.resolve(world.contextId),
  evaluate: (expression, deadlineAt) => page.frames.evaluate(world, expression, deadlineAt),
});

/** The expression of the cross-origin iframe element a world's latest snapshot kept by `ref`. */
export const crossFrameElement = (ref: string) => `(globalThis.__stationCrossFrames?.get(${JSON.stringify(ref)}) ?? null)`;

/** The expression of the cross-origin iframe element a world's frame walk stopped at. */
const chainFrameElement = "(globalThis.__stationCrossFrame ?? null)";

/**
 * Runs in a world (isolated). Self-contained. Moves a point of `frame`'s
 * document into the viewport of its world's top document, through `frame`'s
 * content box and that of each same-origin iframe above it, checking at
 * each level that the iframe is there at that point (an iframe out of its
 * parent's view is scrolled into it first).
 */
export function placeThrough(frame: Element | null, x: number, y: number): { x: number; y: number } | { blocked: string } | { gone: true } {
  const describe = (element: Element | null) => (element ? `<${element.localName}${element.id ? `#${element.id}` : ""}>` : "nothing");
  let current: Element | null = frame;
  if (!current?.isConnected) return { gone: true };
  for (;;) {
    const parent: Document = current.ownerDocument;
    const view: Window = parent.defaultView!;
    const rect = current.getBoundingClientRect();
    const style = view.getComputedStyle(current);
    x += rect.left + current.clientLeft + (parseFloat(style.paddingLeft) || 0);
    y += rect.top + current.clientTop + (parseFloat(style.paddingTop) || 0);
    if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) {
      current.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      return { blocked: "element is outside of the viewport" };
    }
    let hit = parent.elementFromPoint(x, y);
    while (hit?.shadowRoot) {
      const deeper = hit.shadowRoot.elementFromPoint(x, y);
      if (!deeper || deeper === hit) break;
      hit = deeper;
    }
    if (hit !== current) return { blocked: `${describe(hit)} intercepts pointer events` };
    let owner: Element | null = null;
    try {
      owner = view.frameElement;
    } catch {
      owner = null;
    }
    if (!owner) return { x, y };
    current = owner;
  }
}

const placeExpression = (element: string, x: number, y: number) => `((__name) => (${placeThrough.toString()}))((target) => target)(${element}, ${x}, ${y})`;

/** What a cross-frame preparation needs of the target's call. */
export interface AcrossRequest {
  context: CdpCommandContext;
  /** The target script's source (`(timeoutMs) => answer`, with its watch). */
  source: string;
  timeoutMs: number;
  absentOk: boolean;
  /** A fill: the text goes into a frame, so the result is marked sensitive. */
  fill: boolean;
  /** Whether the world found becomes the one the input's answers are asked in (`inputWorld`, `targetWorld`); default true. */
  answers?: boolean;
  /** The globals a call in a same-origin frame below a world hands on to it (default: the input's answers'). */
  delegates?: string[] | undefined;
}

/** A hop of the way in: the cross-origin iframe element (an expression in `parent`) that shows the next world. */
interface Hop {
  parent: WorldHandle;
  element: string;
}

/** Whether `error` says a frame's document or its own session went away (it navigated, or moved to another process), the page's session still there. */
const frameChanged = (error: unknown, page: CdpPage) => {
  if (error instanceof CdpProtocolError) return contextGone.test(error.cdpMessage);
  const call = cdpCallOf(error);
  return call !== undefined && call.sessionId !== page.session.id && !page.session.ended && (isSessionClosedError(error) || isSessionClosedError((error as Error).cause));
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The expression that remembers, in a world, the frame id its iframe `element` shows (`__stationFrameIds`, read back by the in-page scripts). */
const rememberFrameId = (element: string, frameId: string) => `((globalThis.__stationFrameIds ??= new WeakMap()).set(${element}, ${JSON.stringify(frameId)}), true)`;

/**
 * The frame world behind the iframe `element` evaluates to in `parent`;
 * undefined when it shows no frame (yet). A frame id the world remembers
 * for the element (`known`) is used at once; otherwise (or if that frame is
 * gone) it is read from the element (two round trips), and remembered in
 * the parent world alongside the next call, at no extra round trip.
 */
export async function enter(page: CdpPage, parent: WorldHandle, element: string, deadlineAt: number, known?: string): Promise<WorldHandle | undefined> {
  if (known !== undefined) {
    const world = await page.frames.world(known, parent.session, deadlineAt, false).catch(() => undefined);
    if (world) return frameWorld(page, world, page.frames.numberOf(known));
  }
  const contextId = await parent.contextId();
  const frameId = await page.frames.frameIdOf(parent.session, contextId, element, deadlineAt);
  if (frameId === undefined) return undefined;
  parent.session
    .send("Runtime.evaluate", { expression: rememberFrameId(element, frameId), contextId, returnByValue: true }, { timeoutMs: Math.max(1, deadlineAt - Date.now()) })
    .catch(() => undefined);
  const world = await page.frames.world(frameId, parent.session, deadlineAt);
  return frameWorld(page, world, page.frames.numberOf(frameId));
}

/**
 * The answer of the target script in `world` moved into the main viewport
 * through `hops` (innermost last); a blocked placement is answered as a
 * reason, a gone iframe as undefined.
 */
async function placed(answer: Extract<ScriptAnswer, { status: "ok" }>, hops: Hop[], deadlineAt: number): Promise<Extract<ScriptAnswer, { status: "ok" }> | string | undefined> {
  if (answer.x === undefined || answer.y === undefined) return answer;
  let { x, y } = answer;
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = hops[index]!;
    const place = (await hop.parent.evaluate(placeExpression(hop.element, x, y), deadlineAt)) as { x: number; y: number } | { blocked: string } | { gone: true };
    if ("gone" in place) return undefined;
    if ("blocked" in place) return place.blocked;
    ({ x, y } = place);
  }
  return { ...answer, x, y };
}

/** Makes `world` the one the action's input answers are asked in (the watch, the checked probe are there). */
function answerIn(context: CdpCommandContext, world: WorldHandle): void {
  context.inputWorld = world.number === 0 ? undefined : (expression, deadlineAt) => world.evaluate(expression, deadlineAt, true);
  context.targetWorld = world.number === 0 ? undefined : world;
}

/**
 * Goes on with a frame chain whose iframe at `first.index` is cross-origin:
 * in that frame's world with the rest of the chain, and so on through each
 * cross-origin iframe, then places the point. Retries while the element is
 * covered or a frame is not there yet, within the action's timeout.
 */
export async function prepareAcrossChain(request: AcrossRequest, chain: string[], first: Extract<FrameAnswer, { status: "crossOrigin" }>): Promise<FrameAnswer> {
  const { context } = request;
  const { page } = context;
  const top = topWorld(page);
  const deadline = Math.min(context.deadlineAt, Date.now() + request.timeoutMs);
  const title = first.title;
  let answer: FrameAnswer = first;
  let blocked: string | undefined;
  for (let round = 0; ; round++) {
    if (round > 0) {
      if (Date.now() + 100 >= deadline) return blocked ? { status: "notActionable", reason: blocked } : request.absentOk ? { status: "ok", title } : { status: "notFound" };
      await pause(100);
      answer = (await top.evaluate(worldExpression(request.source, { chain }, Math.max(0, deadline - Date.now()), request.absentOk, request.delegates), context.deadlineAt)) as FrameAnswer;
    }
    const hops: Hop[] = [];
    let world = top;
    let ready: Extract<ScriptAnswer, { status: "ok" }> | string | undefined;
    try {
      let consumed = 0;
      while (answer.status === "crossOrigin") {
        // Its index is of the whole chain (a frame's answers are moved by what the worlds above took).
        const index = answer.index;
        const next = await enter(page, world, chainFrameElement, context.deadlineAt, answer.frameId);
        if (!next) break;
        hops.push({ parent: world, element: chainFrameElement });
        world = next;
        consumed = index + 1;
        const rest = chain.slice(consumed);
        answer = (await world.evaluate(worldExpression(request.source, { chain: rest }, Math.max(0, deadline - Date.now()), request.absentOk, request.delegates), context.deadlineAt)) as FrameAnswer;
        if ("index" in answer) answer = { ...answer, index: answer.index + consumed };
      }
      if (answer.status === "crossOrigin") continue;
      if (answer.status !== "ok") return answer;
      ready = await placed(answer, hops, context.deadlineAt);
    } catch (error) {
      // A frame whose document (or process) changed under the walk is walked again.
      if (frameChanged(error, page) && Date.now() + 100 < deadline) continue;
      throw error;
    }
    if (ready === undefined) continue;
    if (typeof ready === "string") {
      blocked = ready;
      continue;
    }
    if (request.answers !== false) answerIn(context, world);
    return { ...ready, title, ...(request.fill ? { sensitive: true } : {}) };
  }
}

/**
 * A ref of a cross-origin frame's world (`f<k × span + n>e<m>`): looked for
 * in that frame's world as its latest snapshot saw it, then placed through
 * each cross-origin iframe up to the top. A frame gone or navigated since
 * (its world or its iframe no longer there) makes the ref stale.
 */
export async function prepareByCrossRef(request: AcrossRequest, ref: string): Promise<FrameAnswer> {
  const { context } = request;
  const { page } = context;
  const deadline = Math.min(context.deadlineAt, Date.now() + request.timeoutMs);
  // The worlds from the top down to the ref's.
  const path: CrossFrameEntry[] = [];
  for (let number = crossWorldOf(ref); number !== 0 && path.length <= limits.frameChain; ) {
    const entry = page.frames.latest.get(number);
    if (!entry) return { status: "staleRef" };
    path.unshift(entry);
    number = entry.parent;
  }
  const worlds: WorldHandle[] = [topWorld(page)];
  const hops: Hop[] = [];
  try {
    for (const entry of path) {
      const parent = worlds[worlds.length - 1]!;
      const world = await page.frames.world(entry.frameId, parent.session, context.deadlineAt, false);
      worlds.push(frameWorld(page, world, page.frames.numberOf(entry.frameId)));
      hops.push({ parent, element: crossFrameElement(entry.iframeRef) });
    }
  } catch {
    return { status: "staleRef" };
  }
  const world = worlds[worlds.length - 1]!;
  const inRoot = Number(/^f(\d+)/.exec(ref)![1]) % frameNumberSpan === 0;
  // The page's title is read in the same trip as the first look.
  const title = topWorld(page).evaluate("document.title", context.deadlineAt).then(
    (value) => (typeof value === "string" ? value : ""),
    () => "",
  );
  let blocked: string | undefined;
  for (let round = 0; ; round++) {
    if (round > 0) {
      if (Date.now() + 100 >= deadline) return blocked ? { status: "notActionable", reason: blocked } : { status: "staleRef" };
      await pause(100);
    }
    let answer: FrameAnswer;
    try {
      answer = (await world.evaluate(worldExpression(request.source, inRoot ? undefined : { ref }, Math.max(0, deadline - Date.now()), request.absentOk, request.delegates), context.deadlineAt)) as FrameAnswer;
    } catch {
      // The frame's document went away: the ref went with it.
      return { status: "staleRef" };
    }
    if (answer.status !== "ok") return answer;
    const ready = await placed(answer, hops, context.deadlineAt);
    if (ready === undefined) return { status: "staleRef" };
    if (typeof ready === "string") {
      blocked = ready;
      continue;
    }
    if (request.answers !== false) answerIn(context, world);
    return { ...ready, title: await title, ...(request.fill ? { sensitive: true } : {}) };
  }
}
