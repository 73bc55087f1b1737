/**
 * Resolves a command's target with the engine's in-page script
 * ({@link findAndPrepare}) in one call, and maps its answer to the error
 * family: not found, ambiguous (with the count), `nth` out of range, not
 * actionable in time, a stale ref. A ref is looked up in the page's
 * registry first (stale after a newer snapshot or a navigation, not found if
 * never issued), with nothing sent; frame chains are refused as not
 * implemented.
 */
import { ActionFailedError, AmbiguousTargetError, NotFoundError, NotImplementedError, StaleRefError, TimeoutError, ValidationError } from "../../errors.js";
import { callInPage } from "../../protocol/evaluate-encoding.js";
import { describeTarget, type Target } from "../../protocol/target.js";
import type { CdpCommandContext } from "./context.js";
import { readyForInput } from "./input-readiness.js";
import type { CdpPage } from "./page.js";
import { readyUpload } from "./upload-script.js";
import { findAndPrepare, watchInput, type InputWatch, type ScriptAnswer, type ScriptRequest, type ScriptTarget } from "./target-script.js";

/**
 * The target as the script takes it: a ref becomes the isolated world's own
 * ref of the latest snapshot. Frame chains are not implemented yet.
 *
 * @throws {StaleRefError} for a ref of an older snapshot or from before a navigation.
 * @throws {NotFoundError} for a ref never issued.
 */
export function scriptTarget(op: string, target: Target, page: CdpPage): ScriptTarget {
  if (target.by === "ref") return { by: "ref", ref: page.refs.resolve(page.pageId, target.ref) };
  if (target.frame !== undefined && target.frame.length > 0) {
    throw new NotImplementedError(`${op}: command.target.frame (iframe chains) is not implemented by the CDP engine yet`);
  }
  const { frame: _frame, ...rest } = target;
  return rest;
}

/** The target script's call: the actions it does not ready itself take the readiness script ({@link readyForInput}) along. */
export function findExpression(request: ScriptRequest): string {
  if (request.action === "click" || request.action === "fill" || request.action === "focus") return callInPage(findAndPrepare, request);
  const shim = (source: string) => `((__name) => (${source}))((target) => target)`;
  const readiness = request.action === "upload" ? readyUpload : readyForInput;
  return `${shim(findAndPrepare.toString())}(${JSON.stringify(request)}, ${shim(readiness.toString())})`;
}

/**
 * The answer of a ready element; each other answer is thrown as its error,
 * before any input. `watch` is set up in the same call once the element is
 * ready: the watch of the input that follows, or an expression of its own.
 */
export async function prepareTarget(
  context: CdpCommandContext,
  op: string,
  target: Target,
  request: Omit<ScriptRequest, "target">,
  watch?: InputWatch | string,
): Promise<Extract<ScriptAnswer, { status: "ok" }>> {
  const resolved = scriptTarget(op, target, context.page);
  const find = findExpression({ ...request, target: resolved });
  // Ready: the watch for the input that follows starts in the same call.
  const expression = watch ? `(${find}).then((answer) => { if (answer.status === "ok") ${typeof watch === "string" ? watch : callInPage(watchInput, watch)}; return answer; })` : find;
  const answer = (await context.page.evaluateInWorld(expression, context.deadlineAt)) as ScriptAnswer;
  return readyAnswer(context, op, target, request, answer);
}

/** The answer of the target script when it is `ok`; each other answer is thrown as its error. */
export function readyAnswer(
  context: CdpCommandContext,
  op: string,
  target: Target,
  request: Omit<ScriptRequest, "target">,
  answer: ScriptAnswer,
): Extract<ScriptAnswer, { status: "ok" }> {
  const described = describeTarget(target);
  switch (answer.status) {
    case "ok":
      return answer;
    case "notFound":
      throw new NotFoundError(`No element matches ${described} (waited ${request.timeoutMs} ms)`);
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
    case "invalid":
      throw new ValidationError(answer.field, answer.reason);
    case "badSelector":
      throw new ValidationError("command.target.selector", `not a CSS selector the CDP engine can use (${answer.reason})`);
    default:
      throw new ActionFailedError(`${op}: the page answered the target script with something unexpected`);
  }
}
