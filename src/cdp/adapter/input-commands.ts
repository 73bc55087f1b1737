/**
 * type · select · check · uncheck · hover · focus · scroll · waitFor ·
 * mouseClick · mouseMove on the CDP engine, with the Playwright engine's
 * results, checks and errors. One call of the engine's script finds and
 * readies the target (`target-script.ts` with `input-readiness.ts`); the
 * input events then go out together, with the question answered once the
 * page handled them. `select`, `focus` and a `scroll` of an element are done
 * by the script itself; `waitFor` is one call that waits in the page.
 */
import { ActionFailedError, TimeoutError, ValidationError, isNotFoundError, isTimeoutError } from "../../errors.js";
import { callInPage } from "../../protocol/evaluate-encoding.js";
import { limits } from "../../protocol/limits.js";
import type { Target } from "../../protocol/target.js";
import { sanitizeUrl } from "../../protocol/url-policy.js";
import type { CdpCallOptions } from "../session.js";
import { describeAction, markOf, sendInput, settleAfterInput, type CdpCommandContext, type CdpHandlers } from "./context.js";
import { checkedProbe, focusedMaySeePassword } from "./input-readiness.js";
import { typeByKey } from "../../protocol/typing-cadence.js";
import { actionTimeout, armWatch, moveUntilSeen, sendInputAndAsk, sendInputAndReadDocument, sendInputAndWatch, typeCharacter } from "./interaction.js";
import { typeSteps } from "./keys.js";
import { assertInViewport, buttonBits, mouseAt, mouseMovedTo, stepsBetween } from "./mouse.js";
import { callWithFrameWindows } from "./frame-windows.js";
import { inputSeenExpression, watchInput, type InputWatch } from "./target-script.js";
import { prepareTarget } from "./targets.js";

type InputCall = (options: CdpCallOptions) => Promise<unknown>;

/** The answer to a check's click: the title once the page handled it, and the box's state then (the probe its readiness left). */
const checkedSeenExpression = `Promise.resolve(${inputSeenExpression}).then((title) => ({ title, checked: typeof globalThis.${checkedProbe} === "function" ? globalThis.${checkedProbe}() : undefined }))`;

/** A frame (or 100 ms, for a page that paints none) after a wheel, so the scroll has landed; answers the title. */
const scrolledExpression = "new Promise((resolve) => { requestAnimationFrame(() => resolve(document.title)); setTimeout(() => resolve(document.title), 100); })";

const lifecycleNames = { load: "load", domcontentloaded: "DOMContentLoaded", networkidle: "networkIdle" } as const;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The mouse events of a click at `point` (the move, then each press and release), as Playwright's `mouse.click`. */
function clickEvents(context: CdpCommandContext, point: { x: number; y: number }, button: "left" | "right" | "middle", clicks: number): InputCall[] {
  const { session } = context.page;
  const { x, y } = point;
  const calls: InputCall[] = [(options) => session.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y, button: "none" }, options)];
  for (let clickCount = 1; clickCount <= clicks; clickCount++) {
    calls.push((options) => session.send("Input.dispatchMouseEvent", { type: "mousePressed", x, y, button, buttons: buttonBits[button], clickCount }, options));
    calls.push((options) => session.send("Input.dispatchMouseEvent", { type: "mouseReleased", x, y, button, buttons: 0, clickCount }, options));
  }
  mouseMovedTo(context.page, point);
  return calls;
}

/** check · uncheck: nothing to do when already so; else a click, verified with its answer. */
async function setChecked(context: CdpCommandContext, op: "check" | "uncheck", command: { target: Target; timeoutMs?: number | undefined; textChange?: boolean | undefined }) {
  const { page } = context;
  const mark = markOf(page);
  const watch: InputWatch = { type: "mouseup", count: 1, fallbackMs: context.inputSeenFallbackMs };
  const ready = await prepareTarget(context, op, command.target, { action: op, timeoutMs: actionTimeout(command) }, watch);
  if (ready.done) return describeAction(context, mark, ready.title);
  if (context.inputWorld) await moveUntilSeen(context, ready.x!, ready.y!);
  const answer = (await sendInputAndAsk(context, clickEvents(context, { x: ready.x!, y: ready.y! }, "left", 1), checkedSeenExpression)) as { title?: unknown; checked?: unknown } | undefined;
  if (answer?.checked !== (op === "check")) throw new ActionFailedError(`${op}: Clicking the checkbox did not change its state`);
  await settleAfterInput(context, mark);
  return describeAction(context, mark, typeof answer.title === "string" ? answer.title : ready.title);
}

/** Types `calls` one step at a time with `delayMs` between, as Playwright's `type` with `delay` (a key's up follows its down after the delay). */
async function typeSlowly(context: CdpCommandContext, steps: InputCall[][], delayMs: number): Promise<void> {
  // A command cut off (cancelled, or past its budget) types no further.
  const goOn = () => {
    if (context.signal?.aborted) throw new ActionFailedError("type: cancelled while typing");
    if (Date.now() >= context.deadlineAt) throw new TimeoutError("type: the time ran out while typing");
  };
  for (const step of steps) {
    if (step.length === 1) await pause(delayMs);
    for (const [index, call] of step.entries()) {
      if (index > 0) await pause(delayMs);
      goOn();
      await sendInput(context, [call]);
    }
  }
}

/** type · select · check · uncheck · hover · focus · scroll · waitFor · mouseClick · mouseMove */
export const inputHandlers: CdpHandlers<"type" | "select" | "check" | "uncheck" | "hover" | "focus" | "scroll" | "waitFor" | "mouseClick" | "mouseMove"> = {
  async type(context, command) {
    const { page } = context;
    const send = page.session.send.bind(page.session);
    const steps: InputCall[][] = typeSteps(command.text).map((step) =>
      "keys" in step ? step.keys.map((event) => (options: CdpCallOptions) => send("Input.dispatchKeyEvent", event, options)) : [(options: CdpCallOptions) => send("Input.insertText", { text: step.text }, options)],
    );
    const keys = steps.filter((step) => step.length === 2).length;
    const watch: InputWatch | undefined = keys > 0 ? { type: "keyup", count: keys, fallbackMs: context.inputSeenFallbackMs } : undefined;
    let titleBefore: string | undefined;
    let sensitive: boolean;
    if (command.target) {
      const ready = await prepareTarget(context, "type", command.target, { action: "type", timeoutMs: actionTimeout(command) }, watch);
      titleBefore = ready.title;
      sensitive = ready.sensitive ?? true;
    } else {
      // Without a target the text goes to the focused element: the watch is set up and the field's kind read in one call.
      const armed = (await page.evaluateInWorld(`({ title: ${watch ? callWithFrameWindows(watchInput, watch) : "document.title"}, sensitive: ${callInPage(focusedMaySeePassword, undefined)} })`, context.deadlineAt)) as
        | { title?: unknown; sensitive?: unknown }
        | undefined;
      titleBefore = typeof armed?.title === "string" ? armed.title : undefined;
      sensitive = armed?.sensitive !== false;
    }
    const mark = markOf(page);
    const delayMs = command.delayMs ?? 0;
    let title: string | undefined;
    if (command.keyDelaysMs) {
      // Human typing: key by key with the pacing cadence.
      await typeByKey((character) => typeCharacter(context, character), command.text, command.keyDelaysMs, context.signal);
      if (watch) title = await sendInputAndWatch(context, []);
    } else if (delayMs > 0) {
      await typeSlowly(context, steps, delayMs);
      if (watch) title = await sendInputAndWatch(context, []);
    } else if (watch) {
      title = await sendInputAndWatch(context, steps.flat());
    } else if (steps.length > 0) {
      await sendInput(context, steps.flat());
    }
    await settleAfterInput(context, mark);
    return { ...(await describeAction(context, mark, title ?? titleBefore)), sensitive };
  },

  async select(context, command) {
    const { page } = context;
    const mark = markOf(page);
    const options = Array.isArray(command.value) ? command.value : [command.value];
    const ready = await prepareTarget(context, "select", command.target, { action: "select", options, timeoutMs: actionTimeout(command) });
    // The script selected the options and fired input and change.
    context.reached = true;
    await settleAfterInput(context, mark);
    return { ...(await describeAction(context, mark, ready.title)), selected: ready.selected ?? [] };
  },

  check: (context, command) => setChecked(context, "check", command),
  uncheck: (context, command) => setChecked(context, "uncheck", command),

  async hover(context, command) {
    const { page } = context;
    // The watch lets a hover in a cross-origin frame wait for the frame to get its move, as a click there does.
    const watch: InputWatch = { type: "mousemove", count: 1, fallbackMs: context.inputSeenFallbackMs };
    const ready = await prepareTarget(context, "hover", command.target, { action: "hover", timeoutMs: actionTimeout(command) }, watch);
    const mark = markOf(page);
    const point = { x: ready.x!, y: ready.y! };
    mouseMovedTo(page, point);
    if (context.inputWorld) await moveUntilSeen(context, point.x, point.y);
    else await sendInputAndReadDocument(context, [(options) => page.session.send("Input.dispatchMouseEvent", { type: "mouseMoved", ...point, button: "none" }, options)]);
    await settleAfterInput(context, mark);
    return describeAction(context, mark, ready.title);
  },

  async focus(context, command) {
    const mark = markOf(context.page);
    const ready = await prepareTarget(context, "focus", command.target, { action: "focus", timeoutMs: actionTimeout(command) });
    await settleAfterInput(context, mark);
    return describeAction(context, mark, ready.title);
  },

  async scroll(context, command) {
    const { page } = context;
    const deltaX = command.deltaX ?? 0;
    const deltaY = command.deltaY ?? 0;
    const mark = markOf(page);
    if (command.target) {
      const ready = await prepareTarget(context, "scroll", command.target, { action: "scroll", deltaX, deltaY, timeoutMs: actionTimeout(command) });
      return describeAction(context, mark, ready.title);
    }
    if (deltaX === 0 && deltaY === 0) throw new ValidationError("command.deltaY", "give a target to scroll into view, or a non-zero deltaX/deltaY");
    // The wheel turns where the mouse is, as Playwright's mouse.wheel.
    const { x, y } = mouseAt(page);
    const title = await sendInputAndAsk(context, [(options) => page.session.send("Input.dispatchMouseEvent", { type: "mouseWheel", x, y, deltaX, deltaY }, options)], scrolledExpression);
    return describeAction(context, mark, typeof title === "string" ? title : undefined);
  },

  async waitFor(context, command) {
    const { page } = context;
    const timeoutMs = command.timeoutMs ?? limits.waitFor.timeoutDefaultMs;
    let title: string | undefined;
    if (command.loadState) {
      const name = lifecycleNames[command.loadState];
      // The first, empty document of a page fires no lifecycle events: it is loaded as it is.
      const initial = () => page.navigations === 0 && !page.navigationPending && page.url === "about:blank";
      await page.until(() => (page.reached(page.loaderId, name) || initial() ? true : undefined), Date.now() + timeoutMs, "waitFor").catch((error: unknown) => {
        throw isTimeoutError(error) ? new TimeoutError(`waitFor: Timeout ${timeoutMs}ms exceeded waiting for the "${command.loadState}" load state`, { cause: error }) : error;
      });
    } else if (command.text !== undefined || command.target) {
      const state = command.state ?? "visible";
      const absent = state === "hidden" || state === "detached";
      // Text first, as the Playwright engine has it.
      const given = command.text === undefined ? command.target : undefined;
      if (absent && given?.by === "ref") throw new ValidationError("command.target", "waiting for a ref to disappear is not supported; use a selector or role");
      // Text, and an element to disappear, are the first match (as Playwright's locator.first()); a target to appear is strict.
      const target: Target = !given ? { by: "text", value: command.text!, nth: 0 } : absent && given.by !== "ref" ? { ...given, nth: given.nth ?? 0 } : given;
      const ready = await prepareTarget(context, "waitFor", target, { action: "waitFor", state, absentOk: absent, timeoutMs }).catch((error: unknown) => {
        if (given || !isNotFoundError(error)) throw error;
        throw new TimeoutError(`waitFor: Timeout ${timeoutMs}ms exceeded waiting for text ${JSON.stringify(command.text)} to be ${state}`, { cause: error });
      });
      title = ready.title;
      page.noteTitle(ready.title, page.navigations);
    }
    return { ok: true, url: sanitizeUrl(page.url), title: title ?? (await page.title(context.deadlineAt)) };
  },

  async mouseClick(context, command) {
    const { page } = context;
    assertInViewport(page, command, "command.x");
    const clicks = command.clickCount ?? 1;
    const titleBefore = await armWatch(context, { type: "mouseup", count: clicks, fallbackMs: context.inputSeenFallbackMs });
    const mark = markOf(page);
    const title = await sendInputAndWatch(context, clickEvents(context, command, command.button ?? "left", clicks));
    await settleAfterInput(context, mark);
    return describeAction(context, mark, title ?? titleBefore);
  },

  async mouseMove(context, command) {
    const { page } = context;
    assertInViewport(page, command, "command.x");
    const mark = markOf(page);
    const points = stepsBetween(mouseAt(page), command, command.steps ?? 1);
    mouseMovedTo(page, command);
    await sendInput(context, points.map((point) => (options: CdpCallOptions) => page.session.send("Input.dispatchMouseEvent", { type: "mouseMoved", ...point, button: "none" }, options)));
    await settleAfterInput(context, mark);
    return describeAction(context, mark);
  },
};
