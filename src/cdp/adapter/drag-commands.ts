/**
 * drag · dragCoordinates on the CDP engine, as Playwright's Chromium mouse
 * drags: the button goes down at the start and the pointer moves with
 * Chromium's drag interception on. If the page started an HTML drag (a
 * `dragstart` it did not cancel), the drag's data arrives in
 * `Input.dragIntercepted` and is dropped at the end point with
 * `Input.dispatchDragEvent` (dragEnter, drop), which is all Playwright sends
 * for it; otherwise the button is released there. Points are in top-level
 * viewport coordinates: an end inside an iframe is found and readied in its
 * frame (`targets.ts`; a cross-origin one in that frame's own world,
 * `cross-frames.ts`, where the source's drag watch is then asked), and a
 * drag may start or end in one. The interception and the drag events go to
 * the page's session, as Playwright sends them, whichever frame is under the
 * point.
 */
import { limits } from "../../protocol/limits.js";
import type { ActionResult } from "../../protocol/results.js";
import type { DragData } from "../protocol.js";
import type { CdpCallOptions } from "../session.js";
import { describeAction, markOf, sendInput, settleAfterInput, type CdpCommandContext, type CdpHandlers } from "./context.js";
import { dragStartedExpression, watchDrag } from "./drag-watch.js";
import { callWithFrameWindows } from "./frame-windows.js";
import { actionTimeout } from "./interaction.js";
import { assertInViewport, buttonBits, mouseMovedTo, stepsBetween, type Point } from "./mouse.js";
import { prepareTarget } from "./targets.js";

type InputCall = (options: CdpCallOptions) => Promise<unknown>;

/**
 * Presses at `from`, moves through `moves` (the last is the end point) with
 * the drag interception on, then drops the drag the page started there, or
 * releases the button. The watch of {@link watchDrag} must be set up first.
 */
async function dragThrough(context: CdpCommandContext, from: Point, moves: Point[], titleBefore: string | undefined): Promise<ActionResult> {
  const { page } = context;
  const { session } = page;
  const send = session.send.bind(session);
  const to = moves[moves.length - 1]!;
  const mark = markOf(page);
  let data: DragData | undefined;
  const stopListening = session.on("Input.dragIntercepted", (event) => {
    data = event.data;
  });
  let intercepting = true;
  const interceptOff: InputCall = (options) => {
    intercepting = false;
    return send("Input.setInterceptDrags", { enabled: false }, options);
  };
  try {
    mouseMovedTo(page, to);
    await sendInput(context, [
      (options) => send("Input.dispatchMouseEvent", { type: "mouseMoved", ...from, button: "none" }, options),
      (options) => send("Input.dispatchMouseEvent", { type: "mousePressed", ...from, button: "left", buttons: buttonBits.left, clickCount: 1 }, options),
      (options) => send("Input.setInterceptDrags", { enabled: true }, options),
      ...moves.map((point): InputCall => (options) => send("Input.dispatchMouseEvent", { type: "mouseMoved", ...point, button: "left", buttons: buttonBits.left }, options)),
    ]);
    // The interception stays on until the drag's data is in: turned off sooner, a drag the browser has not
    // intercepted yet (a loaded machine) would run as a real one and never be reported.
    const last: InputCall[] = [interceptOff];
    if (data === undefined) {
      // No drag data yet: the page says whether it started a drag, whose data is then still on its way.
      // Asked where the source's watch is: the top world, or the cross-origin frame's world the source is in.
      const started = await (context.inputWorld ? context.inputWorld(dragStartedExpression, context.deadlineAt) : page.evaluateInWorld(dragStartedExpression, context.deadlineAt, true));
      if (started === true && data === undefined) {
        data = (await session.waitForEvent("Input.dragIntercepted", { timeoutMs: Math.max(1, context.deadlineAt - Date.now()) })).data;
      }
    }
    const dropped = data;
    if (dropped) {
      last.push((options) => send("Input.dispatchDragEvent", { type: "dragEnter", ...to, data: dropped }, options));
      last.push((options) => send("Input.dispatchDragEvent", { type: "drop", ...to, data: dropped }, options));
    } else {
      last.push((options) => send("Input.dispatchMouseEvent", { type: "mouseReleased", ...to, button: "left", buttons: 0, clickCount: 1 }, options));
    }
    await sendInput(context, last);
  } finally {
    stopListening();
    // A drag cut short must not leave later ones intercepted.
    if (intercepting) send("Input.setInterceptDrags", { enabled: false }).catch(() => undefined);
  }
  await settleAfterInput(context, mark);
  return describeAction(context, mark, titleBefore);
}

/** drag · dragCoordinates */
export const dragHandlers: CdpHandlers<"drag" | "dragCoordinates"> = {
  async drag(context, command) {
    const timeoutMs = actionTimeout(command);
    // Both ends in one round trip, each ready for the pointer; the source's call sets up the drag's watch.
    const [to, from] = await Promise.allSettled([
      prepareTarget(context, "drag", command.to, { action: "hover", timeoutMs }),
      prepareTarget(context, "drag", command.from, { action: "hover", timeoutMs }, callWithFrameWindows(watchDrag, undefined)),
    ]);
    // The drop target is checked first, as the Playwright engine does.
    if (to.status === "rejected") throw to.reason;
    if (from.status === "rejected") throw from.reason;
    return dragThrough(context, { x: from.value.x!, y: from.value.y! }, [{ x: to.value.x!, y: to.value.y! }], from.value.title);
  },

  async dragCoordinates(context, command) {
    const { page } = context;
    assertInViewport(page, command.from, "command.from");
    assertInViewport(page, command.to, "command.to");
    const title = await page.evaluateInWorld(callWithFrameWindows(watchDrag, undefined), context.deadlineAt);
    const moves = stepsBetween(command.from, command.to, command.steps ?? limits.dragStepsDefault);
    return dragThrough(context, command.from, moves, typeof title === "string" ? title : undefined);
  },
};
