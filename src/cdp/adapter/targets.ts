/**
 * Resolves a command's target with the engine's in-page script
 * ({@link findAndPrepare}) in one call, and maps its answer to the error
 * family: not found, ambiguous (with the count), `nth` out of range, not
 * actionable in time, a stale ref. A ref is looked up in the page's
 * registry first (stale after a newer snapshot or a navigation, not found if
 * never issued), with nothing sent. A target inside same-origin iframes (a
 * `frame` chain, or a frame-qualified ref) is found in the same one call
 * ({@link enterFrames}), its point in top-level viewport coordinates; one in
 * a cross-origin iframe (in the page's process or out of it) goes on in that
 * frame's own world (cross-frames.ts).
 */
import { ActionFailedError, AmbiguousTargetError, NotFoundError, NotImplementedError, StaleRefError, TimeoutError, ValidationError } from "../../errors.js";
import { describeTarget, type Target } from "../../protocol/target.js";
import type { CdpCommandContext } from "./context.js";
import type { CdpPage } from "./page.js";
import { enterFrames, type FrameAnswer, type FrameEntry } from "./frame-script.js";
import { checkedProbe, readyForInput } from "./input-readiness.js";
import { dragStartedGlobal } from "./drag-watch.js";
import { readyUpload } from "./upload-script.js";
import { callWithFrameWindows } from "./frame-windows.js";
import { crossWorldOf, prepareAcrossChain, prepareByCrossRef } from "./cross-frames.js";
import { findAndPrepare, watchInput, type InputWatch, type ScriptAnswer, type ScriptRequest, type ScriptTarget } from "./target-script.js";

/** A frame-qualified ref of the world (`f3e7`): its element is in an iframe. */
const inFrameRef = /^f\d+e\d+$/;

/** The globals a frame's script leaves for the answers that follow the input (see {@link FrameEntry.delegates}): the input watch's (with its move probe), the checked probe, the drag's watch. */
const frameDelegates = ["__stationInputSeen", "__stationMoveSeen", checkedProbe, dragStartedGlobal];

/**
 * The target as the script takes it, and the frames it is in: a ref becomes
 * the isolated world's own ref of the latest snapshot (frame-qualified when
 * its element is in an iframe); a `frame` chain is entered by
 * {@link enterFrames}.
 *
 * @throws {StaleRefError} for a ref of an older snapshot or from before a navigation.
 * @throws {NotFoundError} for a ref never issued.
 */
export function scriptTarget(target: Target, page: CdpPage): { target: ScriptTarget; frames?: Pick<FrameEntry, "chain" | "ref"> } {
  if (target.by === "ref") {
    const ref = page.refs.resolve(page.pageId, target.ref);
    return { target: { by: "ref", ref }, ...(inFrameRef.test(ref) ? { frames: { ref } } : {}) };
  }
  const { frame, ...rest } = target;
  return { target: rest, ...(frame !== undefined && frame.length > 0 ? { frames: { chain: frame } } : {}) };
}

/** The target script's call as `(timeoutMs) => answer`: the actions it does not ready itself take a readiness script along ({@link readyForInput}, {@link readyUpload}). */
function findSource(request: ScriptRequest): string {
  const shim = (source: string) => `((__name) => (${source}))((target) => target)`;
  const { timeoutMs: _timeoutMs, ...rest } = request;
  const readiness = request.action === "click" || request.action === "fill" || request.action === "focus" ? "" : `, ${shim((request.action === "upload" ? readyUpload : readyForInput).toString())}`;
  return `(timeoutMs) => ${shim(findAndPrepare.toString())}(Object.assign(${JSON.stringify(rest)}, { timeoutMs })${readiness})`;
}

/** The target script's source as `(timeoutMs) => answer`; `watch` is set up in the same call once the element is ready. */
function targetSource(request: ScriptRequest, watch: InputWatch | string | undefined): string {
  const find = findSource(request);
  return watch ? `(timeoutMs) => (${find})(timeoutMs).then((answer) => { if (answer.status === "ok") ${typeof watch === "string" ? watch : callWithFrameWindows(watchInput, watch)}; return answer; })` : find;
}

/**
 * The call of `source` in one world: in its top document, or through the
 * same-origin iframes `frames` names ({@link enterFrames}). A call in a frame
 * hands the frame's `delegates` on to the top world, where the answers that
 * follow the input ask for them.
 */
export function worldExpression(source: string, frames: Pick<FrameEntry, "chain" | "ref"> | undefined, timeoutMs: number, absentOk: boolean, delegates: string[] = frameDelegates): string {
  if (!frames || (frames.chain !== undefined && frames.chain.length === 0)) return `(${source})(${timeoutMs})`;
  const entry: FrameEntry = { ...frames, timeoutMs, delegates, ...(absentOk ? { absentOk: true } : {}) };
  return `((__name) => (${enterFrames.toString()}))((target) => target)(${JSON.stringify(entry)}, ${JSON.stringify(`(${source})`)})`;
}

/**
 * The target script's call as an expression, where the target is: in the
 * main document, or through its same-origin frames ({@link enterFrames}).
 * `watch` is set up in the same call once the element is ready: the watch of
 * the input that follows, or an expression of its own. By default only a
 * call that sets up a watch hands the frame's delegates on (a drag's two ends
 * are readied at once, and the drop target's call must not undo the
 * source's). A ref of a cross-origin frame's world is refused for `op`: this
 * call runs in the top world, which has no way into that frame's (its
 * callers go there through {@link prepareTarget} instead).
 */
export function targetExpression(
  page: CdpPage,
  op: string,
  target: Target,
  request: Omit<ScriptRequest, "target">,
  watch?: InputWatch | string,
  delegates: string[] = watch ? frameDelegates : [],
): string {
  const resolved = scriptTarget(target, page);
  if (resolved.frames?.ref !== undefined && crossWorldOf(resolved.frames.ref) > 0) throw notAcross(op);
  return worldExpression(targetSource({ ...request, target: resolved.target }, watch), resolved.frames, request.timeoutMs, request.absentOk === true, delegates);
}

/** What an op that cannot reach into a cross-origin iframe's world refuses with. */
function notAcross(op: string): NotImplementedError {
  return new NotImplementedError(`${op}: a target inside a cross-origin iframe is not implemented by the CDP engine yet`);
}

/** The answer of a ready element; each other answer is thrown as its error, before any input. `watch` as for {@link targetExpression}. */
export async function prepareTarget(
  context: CdpCommandContext,
  op: string,
  target: Target,
  request: Omit<ScriptRequest, "target">,
  watch?: InputWatch | string,
  delegates: string[] = watch ? frameDelegates : [],
): Promise<Extract<ScriptAnswer, { status: "ok" }>> {
  const resolved = scriptTarget(target, context.page);
  const source = targetSource({ ...request, target: resolved.target }, watch);
  // Only a call that sets up a watch or hands globals on makes its world the one the input's answers are asked in (a drag's drop target does not).
  const answers = watch !== undefined || delegates.length > 0;
  const across = { context, source, timeoutMs: request.timeoutMs, absentOk: request.absentOk === true, fill: request.action === "fill", answers, ...(delegates.length > 0 ? { delegates } : {}) };
  // A ref of a cross-origin frame's world is looked for in that world.
  if (resolved.frames?.ref !== undefined && crossWorldOf(resolved.frames.ref) > 0) return readyAnswer(context, op, target, request, await prepareByCrossRef(across, resolved.frames.ref));
  let answer = (await context.page.evaluateInWorld(worldExpression(source, resolved.frames, request.timeoutMs, request.absentOk === true, delegates), context.deadlineAt)) as FrameAnswer;
  // A chain into a cross-origin iframe goes on in that frame's world.
  if (answer.status === "crossOrigin" && resolved.frames?.chain) answer = await prepareAcrossChain(across, resolved.frames.chain, answer);
  return readyAnswer(context, op, target, request, answer);
}

/** The answer of the target script when it is `ok`; each other answer is thrown as its error. */
export function readyAnswer(
  context: CdpCommandContext,
  op: string,
  target: Target,
  request: Omit<ScriptRequest, "target">,
  answer: FrameAnswer,
): Extract<ScriptAnswer, { status: "ok" }> {
  const described = describeTarget(target);
  const chain = target.by === "ref" ? undefined : target.frame;
  const within = chain?.length ? ` inside frame ${chain.join(" > ")}` : "";
  switch (answer.status) {
    case "ok":
      return answer;
    case "notFound":
      throw new NotFoundError(`No element matches ${described}${within} (waited ${request.timeoutMs} ms)`);
    case "ambiguous":
      throw new AmbiguousTargetError(answer.count, `${described} matched ${answer.count} elements; give nth (0–${answer.count - 1}) or a more specific target`);
    case "nthOutOfRange":
      throw new NotFoundError(`${described} matched ${answer.count} element${answer.count === 1 ? "" : "s"}; nth ${target.by === "ref" ? "" : target.nth} is out of range`);
    case "staleRef": {
      const ref = target.by === "ref" ? target.ref : described;
      throw new StaleRefError(ref, `Ref ${ref} no longer matches an element on page ${context.page.pageId}; take a new accessibility snapshot.`);
    }
    case "notActionable":
      throw new TimeoutError(`${op}: Timeout ${request.timeoutMs}ms exceeded waiting for ${described}: ${answer.reason}`);
    case "refused":
      throw new ActionFailedError(`${op}: ${answer.reason}`);
    case "frameAmbiguous":
      throw new AmbiguousTargetError(answer.count, `command.target.frame[${answer.index}] (${chain?.[answer.index]}) matched ${answer.count} iframes; give a more specific iframe selector`);
    case "crossOrigin":
      // Only when no frame id could be read for it (answered by cross-frames.ts).
      throw new ActionFailedError(`${op}: command.target.frame[${answer.index}] (${chain?.[answer.index]}) is a cross-origin iframe whose frame could not be reached`);
    case "badFrameSelector":
      throw new ValidationError(`command.target.frame[${answer.index}]`, `not a CSS selector the CDP engine can use (${answer.reason})`);
    case "invalid":
      throw new ValidationError(answer.field, answer.reason);
    case "badSelector":
      throw new ValidationError("command.target.selector", `not a CSS selector the CDP engine can use (${answer.reason})`);
    default:
      throw new ActionFailedError(`${op}: the page answered the target script with something unexpected`);
  }
}
