/**
 * newPage · pages · selectPage · closePage · dialog on the CDP engine, with
 * the Playwright engine's results, errors and page limit.
 */
import { CapacityError } from "../../errors.js";
import { limits } from "../../protocol/limits.js";
import { assertNavigableUrl } from "../../protocol/url-policy.js";
import { describeAction, markOf, type CdpCommandContext, type CdpHandlers } from "./context.js";
import { goto, navigationTimeout } from "./navigation.js";
import type { CdpPage } from "./page.js";

/** Runs `body` on `page` (now the page acted on) and describes what happened. */
async function actOn(context: CdpCommandContext, page: CdpPage, body: () => Promise<void>) {
  context.page = page;
  const mark = markOf(page);
  await body();
  return describeAction(context, mark);
}

/** newPage · pages · selectPage · closePage · dialog */
export const pageHandlers: CdpHandlers<"newPage" | "pages" | "selectPage" | "closePage" | "dialog"> = {
  async newPage(context, command) {
    const { pages } = context;
    if (command.url !== undefined) assertNavigableUrl(command.url);
    if (pages.all.length >= limits.pagesPerSession) {
      throw new CapacityError(`Session ${pages.sessionId} already has ${limits.pagesPerSession} pages; close one first`);
    }
    const previous = pages.current();
    const page = await pages.openPage();
    try {
      const result = await actOn(context, page, async () => {
        if (command.url !== undefined) await goto(context, command.url, "load", navigationTimeout(command));
      });
      return { ...result, pageId: page.pageId };
    } catch (error) {
      // Failed before any request left: the session is left as it was, without a half-opened page.
      if (!context.reached) {
        await pages.closePage(page).catch(() => undefined);
        if (previous) pages.select(previous);
      }
      throw error;
    }
  },

  async pages(context) {
    const { pages } = context;
    const described = await Promise.all(pages.all.map((page) => pages.describe(page, context.deadlineAt)));
    return { pages: described, selectedPageId: pages.selectedId };
  },

  async selectPage(context, command) {
    const { pages } = context;
    const page = pages.page(command.pageId);
    pages.select(page);
    return actOn(context, page, async () => {
      await page.session.send("Page.bringToFront", {}, { timeoutMs: Math.max(1, context.deadlineAt - Date.now()) });
    });
  },

  async closePage(context, command) {
    const { pages } = context;
    const page = command.pageId === undefined ? pages.selected() : pages.page(command.pageId);
    return actOn(context, context.page, async () => {
      context.reached = true;
      await pages.closePage(page);
    });
  },

  async dialog(context, command) {
    const expiresAt = context.page.events.setDialogPolicy(command.action, command.timeoutMs ?? limits.dialog.policyDefaultMs, command.promptText);
    return { ok: true, action: command.action, expiresAt: new Date(expiresAt).toISOString() };
  },
};
