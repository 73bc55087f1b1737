/**
 * click · fill · press on the CDP engine, each in as few serial round trips
 * as CDP allows: one call of the engine's script resolves and readies the
 * target (and reads the title), then the input events go out together; the
 * title is read again only if the page navigated.
 */
import type { CdpCallOptions } from "../session.js";
import { limits } from "../../protocol/limits.js";
import { domSignalsExpression, type DomSignals } from "../../access/challenge-dom-signals.js";
import { describeAction, markOf, sendInput, settleAfterInput, type CdpCommandContext, type CdpHandlers } from "./context.js";
import { callWithFrameWindows } from "./frame-windows.js";
import { inputSeenExpression, moveSeenExpression, watchInput, type InputWatch } from "./target-script.js";
import { typeByKey } from "../../protocol/typing-cadence.js";
import { modifierEvents, modifierMask, pressEvents, typeSteps } from "./keys.js";
import { buttonBits, mouseMovedTo } from "./mouse.js";
import { prepareTarget } from "./targets.js";

export const actionTimeout = (command: { timeoutMs?: number | undefined }) => command.timeoutMs ?? limits.actionTimeoutDefaultMs;


/** Longest wait of the answer sent with an action's input for the input's own events (ms), unless the adapter's options say otherwise. */
export const inputSeenFallbackMs = 1_000;

/** Sets up the watch for the input that follows, with no target to find; answers the title. */
export async function armWatch(context: CdpCommandContext, watch: InputWatch): Promise<string | undefined> {
  const title = await context.page.evaluateInWorld(callWithFrameWindows(watchInput, watch), context.deadlineAt);
  return typeof title === "string" ? title : undefined;
}

/**
 * Sends the input and, in the same round trip, the question answered once the
 * page has handled it ({@link inputSeenExpression}): by its answer, any
 * navigation the input requested has been announced. Answers the title then
 * (undefined when it could not be read).
 */
export async function sendInputAndWatch(context: CdpCommandContext, calls: Array<(options: CdpCallOptions) => Promise<unknown>>): Promise<string | undefined> {
  const title = await sendInputAndAsk(context, calls, inputSeenExpression);
  return typeof title === "string" ? title : undefined;
}

/**
 * Sends the input and, in the same round trip, `expression` (in the isolated
 * world); answers its value, undefined when its document went away. A
 * document whose challenge signals are not read yet (it navigated by itself
 * since the last action, say) is read with it, after the input as the
 * Playwright engine reads it, at no extra round trip.
 */
export async function sendInputAndAsk(context: CdpCommandContext, calls: Array<(options: CdpCallOptions) => Promise<unknown>>, expression: string): Promise<unknown> {
  const { page } = context;
  if (context.inputWorld) {
    // The watch is in a cross-origin frame's world: asked there; the page's document is read by the result's title.
    const sent = sendInput(context, calls);
    const seen = context.inputWorld(expression, context.deadlineAt).catch(() => undefined);
    await sent;
    // A title it answers is the frame's, not the page's: left out (the result reads the page's).
    const answer = await seen;
    if (typeof answer === "string") return undefined;
    if (typeof answer === "object" && answer !== null && "title" in answer) {
      const { title: _frameTitle, ...rest } = answer as Record<string, unknown>;
      return rest;
    }
    return answer;
  }
  const navigations = page.navigations;
  const readDocument = !page.challengeRead;
  const asked = readDocument ? `Promise.resolve(${expression}).then((answer) => ({ answer, document: ${domSignalsExpression} }))` : expression;
  const sent = sendInput(context, calls);
  // Its document gone (the input navigated), it is not asked again: the title is read from the new one.
  const seen = page.evaluateInWorld(asked, context.deadlineAt, true).catch(() => undefined);
  await sent;
  if (!readDocument) return seen;
  const answered = (await seen) as { answer?: unknown; document?: DomSignals } | undefined;
  if (typeof answered?.document === "object" && answered.document !== null) page.noteDocument(answered.document, navigations);
  return answered?.answer;
}

/** Sends the input; a document whose challenge signals are not read yet is read in the same round trip ({@link sendInputAndAsk}). */
export async function sendInputAndReadDocument(context: CdpCommandContext, calls: Array<(options: CdpCallOptions) => Promise<unknown>>): Promise<void> {
  if (context.page.challengeRead) await sendInput(context, calls);
  else await sendInputAndAsk(context, calls, "null");
}

/** How long each pointer move of {@link moveUntilSeen} is waited for in the frame (ms). */
const moveProbeMs = 250;

/**
 * Before a click (check, uncheck) or as a hover in a cross-origin frame:
 * moves the pointer to the point until the frame's document gets the move ({@link moveSeenExpression}),
 * so the press and release go where the move went. A frame that has just
 * loaded in its own process may not be in the browser's hit testing yet, and
 * input sent at once lands in its parent document: the click was lost, and
 * reported done. A move is sent again each {@link moveProbeMs} without an
 * answer, within the input-seen fallback in all (a page that stops the move's
 * propagation before the world's listener is clicked as before).
 */
export async function moveUntilSeen(context: CdpCommandContext, x: number, y: number, modifiers = 0): Promise<void> {
  const { session } = context.page;
  const until = Math.min(context.deadlineAt, Date.now() + context.inputSeenFallbackMs);
  for (;;) {
    const move = (options: CdpCallOptions) => session.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y, modifiers, button: "none" }, options);
    const seen = await sendInputAndAsk(context, [move], moveSeenExpression(moveProbeMs));
    if (seen !== false || Date.now() >= until) return;
  }
}

/** Types one character as Playwright's `pressSequentially` does (a key pressed, or the character inserted). */
export async function typeCharacter(context: CdpCommandContext, character: string): Promise<void> {
  const { session } = context.page;
  for (const step of typeSteps(character)) {
    if ("keys" in step) await sendInput(context, step.keys.map((event) => (options: CdpCallOptions) => session.send("Input.dispatchKeyEvent", event, options)));
    else await sendInput(context, [(options) => session.send("Input.insertText", { text: step.text }, options)]);
  }
}

/** click · fill · press */
export const interactionHandlers: CdpHandlers<"click" | "fill" | "press"> = {
  async click(context, command) {
    const { page } = context;
    const clicks = command.clickCount ?? 1;
    const ready = await prepareTarget(context, "click", command.target, { action: "click", timeoutMs: actionTimeout(command) }, { type: "mouseup", count: clicks, fallbackMs: context.inputSeenFallbackMs });
    const mark = markOf(page);
    const x = ready.x!;
    const y = ready.y!;
    const button = command.button ?? "left";
    const modifiers = command.modifiers ?? [];
    const mask = modifierMask(modifiers);
    const held = modifierEvents(modifiers);
    const send = page.session.send.bind(page.session);
    const calls: Array<(options: CdpCallOptions) => Promise<unknown>> = held.down.map((event) => (options) => send("Input.dispatchKeyEvent", event, options));
    calls.push((options) => send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y, modifiers: mask, button: "none" }, options));
    for (let clickCount = 1; clickCount <= clicks; clickCount++) {
      calls.push((options) => send("Input.dispatchMouseEvent", { type: "mousePressed", x, y, modifiers: mask, button, buttons: buttonBits[button], clickCount }, options));
      calls.push((options) => send("Input.dispatchMouseEvent", { type: "mouseReleased", x, y, modifiers: mask, button, buttons: 0, clickCount }, options));
    }
    for (const event of held.up) calls.push((options) => send("Input.dispatchKeyEvent", event, options));
    mouseMovedTo(page, { x, y });
    if (context.inputWorld) await moveUntilSeen(context, x, y, mask);
    const title = await sendInputAndWatch(context, calls);
    await settleAfterInput(context, mark);
    return describeAction(context, mark, title ?? ready.title);
  },

  async fill(context, command) {
    const { page } = context;
    const keyDelaysMs = command.keyDelaysMs;
    // Human typing: the field is cleared, then the value typed key by key with the pacing cadence (as the Playwright engine does).
    const ready = await prepareTarget(context, "fill", command.target, { action: "fill", value: keyDelaysMs ? "" : command.value, timeoutMs: actionTimeout(command) });
    const mark = markOf(page);
    if (keyDelaysMs) {
      if (ready.fill === "set") context.reached = true;
      else await sendInput(context, pressEvents("Delete").map((event) => (options) => page.session.send("Input.dispatchKeyEvent", event, options)));
      await typeByKey((character) => typeCharacter(context, character), command.value, keyDelaysMs, context.signal, true);
    } else if (ready.fill === "set") {
      // The script set the value of a date, colour or range input itself.
      context.reached = true;
    } else if (ready.fill === "insert") {
      await sendInputAndReadDocument(context, [(options) => page.session.send("Input.insertText", { text: command.value }, options)]);
    } else {
      await sendInputAndReadDocument(context, pressEvents("Delete").map((event) => (options) => page.session.send("Input.dispatchKeyEvent", event, options)));
    }
    await settleAfterInput(context, mark);
    return { ...(await describeAction(context, mark, ready.title)), sensitive: ready.sensitive ?? true };
  },

  async press(context, command) {
    const { page } = context;
    // A bad key is refused before the target is touched.
    const events = pressEvents(command.key);
    const watch = { type: "keyup", count: events.filter((event) => event.type === "keyUp").length, fallbackMs: context.inputSeenFallbackMs } as const;
    // Without a target, the watch alone is set up first (it must be in place before the keys arrive).
    const titleBefore = command.target
      ? (await prepareTarget(context, "press", command.target, { action: "focus", timeoutMs: actionTimeout(command) }, watch)).title
      : await armWatch(context, watch);
    const mark = markOf(page);
    const title = await sendInputAndWatch(context, events.map((event) => (options) => page.session.send("Input.dispatchKeyEvent", event, options)));
    await settleAfterInput(context, mark);
    return describeAction(context, mark, title ?? titleBefore);
  },
};
