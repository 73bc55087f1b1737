import type { Page } from "playwright-core";
import { ActionFailedError, CapacityError } from "../../errors.js";
import { limits } from "../../protocol/limits.js";
import { assertNavigableUrl, sanitizeUrl } from "../../protocol/url-policy.js";
import { inputMayHaveReached } from "../outcome.js";
import { navigationTimeout, runAction, type CommandContext, type CommandHandlers } from "../command-context.js";

type WaitUntil = "load" | "domcontentloaded" | "networkidle" | "commit";

async function goto(context: CommandContext, page: Page, url: string, waitUntil: WaitUntil, timeout: number): Promise<void> {
  const { signal } = context;
  assertNavigableUrl(url);
  await context.session.assertReachable(url);
  try {
    await page.goto(url, { waitUntil, timeout, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const reason = /net::[A-Z_]+/.exec(message)?.[0] ?? (/Timeout \d+ms exceeded/.exec(message)?.[0] ?? "navigation failed");
    // Playwright's message repeats the full URL; ours names it without query or credentials.
    throw new ActionFailedError(`navigate to ${sanitizeUrl(url)} failed: ${reason}`, { cause: error });
  }
}

function waitUntilOf(command: { waitUntil?: WaitUntil | undefined }): WaitUntil {
  return command.waitUntil ?? "load";
}

function historyOptions(context: CommandContext, command: { waitUntil?: WaitUntil | undefined; timeoutMs?: number | undefined }) {
  return { waitUntil: waitUntilOf(command), timeout: navigationTimeout(command), ...(context.signal ? { signal: context.signal } : {}) };
}

/** navigate · back · forward · reload · newPage · pages · selectPage · closePage */
export const navigationHandlers: CommandHandlers<
  "navigate" | "back" | "forward" | "reload" | "newPage" | "pages" | "selectPage" | "closePage"
> = {
  navigate: (context, command) =>
    runAction(context, (state) => goto(context, state.page, command.url, waitUntilOf(command), navigationTimeout(command))),

  back: (context, command) => runAction(context, async (state) => void (await state.page.goBack(historyOptions(context, command)))),

  forward: (context, command) =>
    runAction(context, async (state) => void (await state.page.goForward(historyOptions(context, command)))),

  reload: (context, command) => runAction(context, async (state) => void (await state.page.reload(historyOptions(context, command)))),

  async newPage(context, command) {
    if (command.url !== undefined) assertNavigableUrl(command.url);
    if (context.session.pages.size >= limits.pagesPerSession) {
      throw new CapacityError(`Session ${context.session.id} already has ${limits.pagesPerSession} pages; close one first`);
    }
    const { session } = context;
    const previous = session.selectedPageId;
    const state = await session.openPage();
    try {
      const result = await runAction(context, async (selected) => {
        if (command.url !== undefined) await goto(context, selected.page, command.url, "load", navigationTimeout(command));
      });
      return { ...result, pageId: state.id };
    } catch (error) {
      // Failed before any request left: leave the session as it was, without a half-opened page.
      if (!inputMayHaveReached(command, error)) {
        await state.page.close().catch(() => undefined);
        if (session.pages.has(previous)) session.selectedPageId = previous;
      }
      throw error;
    }
  },

  async pages(context) {
    const { session } = context;
    session.assertOpen();
    const pages = await Promise.all([...session.pages.values()].map((state) => session.describe(state)));
    return { pages, selectedPageId: session.selectedPageId };
  },

  async selectPage(context, command) {
    const state = context.session.page(command.pageId);
    context.session.selectedPageId = state.id;
    return runAction(context, async () => void (await state.page.bringToFront()));
  },

  async closePage(context, command) {
    const { session } = context;
    const state = command.pageId === undefined ? session.selected() : session.page(command.pageId);
    return runAction(context, async () => {
      await state.page.close();
      await session.ready();
    });
  },
};
