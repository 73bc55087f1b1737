import type { Locator, Page } from "playwright-core";
import { ValidationError } from "../../errors.js";
import { limits } from "../../protocol/limits.js";
import { actionTimeout, runAction, type CommandContext, type CommandHandlers } from "../command-context.js";
import type { PageState } from "../session.js";
import { mayHoldPassword, maxPasswordFieldsRead } from "../password-fields.js";
import { actOn, locateUnchecked } from "../targets.js";
import type { Target } from "../../protocol/target.js";
import { typeByKey } from "../../protocol/typing-cadence.js";

const withSignal = (context: CommandContext) => (context.signal ? { signal: context.signal } : {});

/** Runs `act` on the one element `target` names, within the command's action timeout. */
function actIn<T>(
  context: CommandContext,
  state: PageState,
  target: Target,
  command: { timeoutMs?: number | undefined },
  act: (locator: Locator) => Promise<T>,
): Promise<T> {
  return actOn(context.session, state, target, actionTimeout(command), act);
}

/** Options every locator action takes: its timeout and the caller's signal. */
interface LocatorActionOptions {
  timeout: number;
  signal?: AbortSignal;
}

/** An action on the command's one target, run and reported by {@link runAction}. */
function onTarget<Command extends { target: Target; timeoutMs?: number | undefined }>(
  act: (locator: Locator, options: LocatorActionOptions, command: Command) => Promise<unknown>,
) {
  return (context: CommandContext, command: Command) =>
    runAction(context, (state) =>
      actIn(context, state, command.target, command, async (locator) => {
        await act(locator, { timeout: actionTimeout(command), ...withSignal(context) }, command);
      }),
    );
}

/** Refuses points outside the main viewport (CSS pixels). */
function assertInViewport(page: Page, point: { x: number; y: number }, field: string): void {
  const viewport = page.viewportSize();
  if (!viewport) return;
  if (point.x >= viewport.width || point.y >= viewport.height) {
    throw new ValidationError(field, `(${point.x}, ${point.y}) is outside the ${viewport.width}×${viewport.height} viewport`);
  }
}

/** A key Playwright does not know is bad input, not a browser failure. */
async function pressKey(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    if (/Unknown key/.test(message)) {
      throw new ValidationError("command.key", `${/Unknown key: "[^"]*"/.exec(message)?.[0] ?? "unknown key"}; use names like Enter, Tab, ArrowDown, Control+A`);
    }
    throw error;
  }
}

/** Lets a programmatic scroll land before the result is read. */
const nextFrame = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined))));

/** click · fill · type · press · select · check · uncheck · hover · focus · scroll · waitFor · mouse · drag · dialog */
export const interactionHandlers: CommandHandlers<
  | "click"
  | "fill"
  | "type"
  | "press"
  | "select"
  | "check"
  | "uncheck"
  | "hover"
  | "focus"
  | "scroll"
  | "waitFor"
  | "mouseClick"
  | "mouseMove"
  | "drag"
  | "dragCoordinates"
  | "dialog"
> = {
  click: onTarget((locator, options, command) =>
    locator.click({
      ...options,
      ...(command.button ? { button: command.button } : {}),
      ...(command.clickCount ? { clickCount: command.clickCount } : {}),
      ...(command.modifiers ? { modifiers: command.modifiers } : {}),
    }),
  ),

  async fill(context, command) {
    let sensitive = true;
    const keyDelaysMs = command.keyDelaysMs;
    if (keyDelaysMs !== undefined) {
      // Human typing: the field is cleared, then the value typed key by key with the pacing cadence.
      const result = await runAction(context, async (state) => {
        const options = { timeout: actionTimeout(command), ...withSignal(context) };
        const locator = await actIn(context, state, command.target, command, async (locator) => {
          await locator.fill("", options);
          await typeByKey((character) => locator.pressSequentially(character, options), command.value, keyDelaysMs, context.signal, true);
          return locator;
        });
        sensitive = await mayHoldPassword(state.page, command.value, locator, state.probe);
      });
      return { ...result, sensitive };
    }
    const result = await runAction(context, async (state) => {
      // Asked before the fill, answered by the page as the text arrives (see MainFrameProbe.watchFill).
      const watch = command.value !== "" && state.page.frames().length === 1 ? state.probe?.watchFill(command.value, maxPasswordFieldsRead) : undefined;
      const locator = await actIn(context, state, command.target, command, async (locator) => {
        await locator.fill(command.value, { timeout: actionTimeout(command), ...withSignal(context) });
        return locator;
      }).catch((error: unknown) => {
        watch?.cancel();
        throw error;
      });
      sensitive = await mayHoldPassword(state.page, command.value, locator, watch ?? state.probe);
    });
    return { ...result, sensitive };
  },

  async type(context, command) {
    let sensitive = true;
    const result = await runAction(context, async (state) => {
      const delay = command.delayMs ?? 0;
      const keyDelaysMs = command.keyDelaysMs;
      if (command.target) {
        const options = { timeout: actionTimeout(command), ...withSignal(context) };
        const locator = await actIn(context, state, command.target, command, async (locator) => {
          if (keyDelaysMs) await typeByKey((character) => locator.pressSequentially(character, options), command.text, keyDelaysMs, context.signal);
          else await locator.pressSequentially(command.text, { delay, ...options });
          return locator;
        });
        sensitive = await mayHoldPassword(state.page, command.text, locator, state.probe);
      } else {
        if (keyDelaysMs) await typeByKey((character) => state.page.keyboard.type(character), command.text, keyDelaysMs, context.signal);
        else await state.page.keyboard.type(command.text, { delay });
        sensitive = await mayHoldPassword(state.page, command.text, undefined, state.probe);
      }
    });
    return { ...result, sensitive };
  },

  press: (context, command) =>
    runAction(context, async (state) => {
      if (command.target) {
        const target = command.target;
        await actIn(context, state, target, command, (locator) =>
          pressKey(() => locator.press(command.key, { timeout: actionTimeout(command), ...withSignal(context) })),
        );
      } else {
        await pressKey(() => state.page.keyboard.press(command.key));
      }
    }),

  async select(context, command) {
    let selected: string[] = [];
    const result = await runAction(context, async (state) => {
      const values = Array.isArray(command.value) ? command.value : [command.value];
      // Playwright matches each entry against option values, then labels.
      selected = await actIn(context, state, command.target, command, (locator) =>
        locator.selectOption(values, { timeout: actionTimeout(command), ...withSignal(context) }),
      );
    });
    return { ...result, selected };
  },

  check: onTarget((locator, options) => locator.check(options)),
  uncheck: onTarget((locator, options) => locator.uncheck(options)),
  hover: onTarget((locator, options) => locator.hover(options)),
  focus: onTarget((locator, options) => locator.focus(options)),

  scroll: (context, command) =>
    runAction(context, async (state) => {
      const deltaX = command.deltaX ?? 0;
      const deltaY = command.deltaY ?? 0;
      if (command.target) {
        await actIn(context, state, command.target, command, async (locator) => {
          if (deltaX === 0 && deltaY === 0) {
            await locator.scrollIntoViewIfNeeded({ timeout: actionTimeout(command), ...withSignal(context) });
          } else {
            await locator.evaluate((element, delta) => element.scrollBy(delta.x, delta.y), { x: deltaX, y: deltaY }, { timeout: actionTimeout(command) });
          }
        });
      } else {
        if (deltaX === 0 && deltaY === 0) throw new ValidationError("command.deltaY", "give a target to scroll into view, or a non-zero deltaX/deltaY");
        await state.page.mouse.wheel(deltaX, deltaY);
      }
      await nextFrame(state.page).catch(() => undefined);
    }),

  async waitFor(context, command) {
    const state = context.session.selected();
    const timeout = command.timeoutMs ?? limits.waitFor.timeoutDefaultMs;
    if (command.loadState) {
      await state.page.waitForLoadState(command.loadState, { timeout });
    } else if (command.text !== undefined) {
      await state.page.getByText(command.text).first().waitFor({ state: command.state ?? "visible", timeout });
    } else if (command.target) {
      const target = command.target;
      // Waiting for absence must not fail because the element is already gone.
      if (command.state === "hidden" || command.state === "detached") {
        if (target.by === "ref") throw new ValidationError("command.target", "waiting for a ref to disappear is not supported; use a selector or role");
        await locateUnchecked(state, target).first().waitFor({ state: command.state, timeout });
      } else {
        const visibility = command.state ?? "visible";
        await actOn(context.session, state, target, timeout, (locator) => locator.waitFor({ state: visibility, timeout }));
      }
    }
    const { url, title } = await context.session.describe(state);
    return { ok: true, url, title };
  },

  mouseClick: (context, command) =>
    runAction(context, async (state) => {
      assertInViewport(state.page, command, "command.x");
      await state.page.mouse.click(command.x, command.y, {
        ...(command.button ? { button: command.button } : {}),
        ...(command.clickCount ? { clickCount: command.clickCount } : {}),
      });
    }),

  mouseMove: (context, command) =>
    runAction(context, async (state) => {
      assertInViewport(state.page, command, "command.x");
      await state.page.mouse.move(command.x, command.y, { steps: command.steps ?? 1 });
    }),

  drag: (context, command) =>
    runAction(context, async (state) => {
      // The drop target must be there (and one) before the mouse goes down on the source.
      const to = await actIn(context, state, command.to, command, async (locator) => {
        await locator.waitFor({ state: "attached", timeout: actionTimeout(command) });
        return locator;
      });
      await actIn(context, state, command.from, command, (from) => from.dragTo(to, { timeout: actionTimeout(command), ...withSignal(context) }));
    }),

  dragCoordinates: (context, command) =>
    runAction(context, async (state) => {
      assertInViewport(state.page, command.from, "command.from");
      assertInViewport(state.page, command.to, "command.to");
      const mouse = state.page.mouse;
      await mouse.move(command.from.x, command.from.y);
      await mouse.down();
      try {
        await mouse.move(command.to.x, command.to.y, { steps: command.steps ?? limits.dragStepsDefault });
      } finally {
        await mouse.up();
      }
    }),

  async dialog(context, command) {
    context.session.assertOpen();
    const timeoutMs = command.timeoutMs ?? limits.dialog.policyDefaultMs;
    const expiresAt = context.session.setDialogPolicy(command.action, timeoutMs, command.promptText);
    return { ok: true, action: command.action, expiresAt: new Date(expiresAt).toISOString() };
  },
};
