/**
 * navigate · back · forward · reload on the CDP engine. The URL policy is the
 * protocol's own and is checked before anything is sent; a load state is
 * waited for from the page's lifecycle events.
 */
import { ActionFailedError, TimeoutError, isTimeoutError } from "../../errors.js";
import { notSentNetErrors } from "../../protocol/net-errors.js";
import { assertNavigableUrl, sanitizeUrl } from "../../protocol/url-policy.js";
import { limits } from "../../protocol/limits.js";
import type { ActionResult } from "../../protocol/results.js";
import { describeAction, markOf, type CdpCommandContext, type CdpHandlers } from "./context.js";
import type { CdpPage } from "./page.js";

type WaitUntil = "load" | "domcontentloaded" | "networkidle" | "commit";

/** The lifecycle event of each load state. */
const lifecycleName: Record<Exclude<WaitUntil, "commit">, string> = { load: "load", domcontentloaded: "DOMContentLoaded", networkidle: "networkIdle" };

export const navigationTimeout = (command: { timeoutMs?: number | undefined }) => command.timeoutMs ?? limits.navigationTimeoutDefaultMs;

/** Waits until the committed document of `loaderId` reached `waitUntil`. */
async function settle(page: CdpPage, loaderId: string, waitUntil: WaitUntil, deadlineAt: number): Promise<void> {
  if (waitUntil === "commit" || page.fromCache) return;
  const name = lifecycleName[waitUntil];
  await page.until(() => (page.reached(loaderId, name) ? true : undefined), deadlineAt, `waiting for ${waitUntil}`);
}

/** Runs `navigation` and turns a timeout into the navigation's own message, naming the URL without query or credentials. */
async function timed(what: string, timeoutMs: number, navigation: (waitsEndAt: number) => Promise<void>): Promise<void> {
  try {
    await navigation(Date.now() + timeoutMs);
  } catch (error) {
    if (isTimeoutError(error)) throw new TimeoutError(`${what} failed: Timeout ${timeoutMs}ms exceeded`, { cause: error });
    throw error;
  }
}

/** Navigates the context's page to `url` (the URL policy checked first) and waits for `waitUntil`. */
export async function goto(context: CdpCommandContext, url: string, waitUntil: WaitUntil, timeoutMs: number): Promise<void> {
  const { page } = context;
  assertNavigableUrl(url);
  const what = `navigate to ${sanitizeUrl(url)}`;
  await timed(what, timeoutMs, async (waitsEndAt) => {
    context.reached = true;
    const { loaderId, errorText } = await page.session.send("Page.navigate", { url }, { timeoutMs: Math.max(1, context.deadlineAt - Date.now()) });
    if (errorText) {
      // A network error raised before any request left did nothing anywhere.
      if (notSentNetErrors.has(errorText.replace(/^net::/, ""))) context.reached = false;
      throw new ActionFailedError(`${what} failed: ${errorText}`);
    }
    // No loader: a same-document navigation, done once it is reported.
    if (loaderId === undefined) return;
    await page.until(() => (page.loaderId === loaderId ? true : undefined), waitsEndAt, "waiting for the commit");
    await settle(page, loaderId, waitUntil, waitsEndAt);
  });
}

/** Goes `delta` entries through the session history; nothing happens at either end (as Playwright's goBack answers null). */
async function travel(context: CdpCommandContext, delta: -1 | 1, waitUntil: WaitUntil, timeoutMs: number): Promise<void> {
  const { page } = context;
  const { currentIndex, entries } = await page.session.send("Page.getNavigationHistory");
  const entry = entries[currentIndex + delta];
  if (!entry) return;
  const before = markOf(page);
  await timed(delta < 0 ? "back" : "forward", timeoutMs, async (waitsEndAt) => {
    context.reached = true;
    await page.session.send("Page.navigateToHistoryEntry", { entryId: entry.id }, { timeoutMs: Math.max(1, context.deadlineAt - Date.now()) });
    await page.until(() => (page.navigations > before.navigations ? true : undefined), waitsEndAt, "waiting for the history navigation");
    if (page.loaderId !== before.loaderId) await settle(page, page.loaderId, waitUntil, waitsEndAt);
  });
}

async function reload(context: CdpCommandContext, waitUntil: WaitUntil, timeoutMs: number): Promise<void> {
  const { page } = context;
  const before = page.loaderId;
  await timed("reload", timeoutMs, async (waitsEndAt) => {
    context.reached = true;
    await page.session.send("Page.reload", {}, { timeoutMs: Math.max(1, context.deadlineAt - Date.now()) });
    await page.until(() => (page.loaderId !== before ? true : undefined), waitsEndAt, "waiting for the reload to commit");
    await settle(page, page.loaderId, waitUntil, waitsEndAt);
  });
}

async function navigation(context: CdpCommandContext, run: () => Promise<void>): Promise<ActionResult> {
  const mark = markOf(context.page);
  await run();
  return describeAction(context, mark);
}

/** navigate · back · forward · reload */
export const navigationHandlers: CdpHandlers<"navigate" | "back" | "forward" | "reload"> = {
  navigate: (context, command) => navigation(context, () => goto(context, command.url, command.waitUntil ?? "load", navigationTimeout(command))),
  back: (context, command) => navigation(context, () => travel(context, -1, command.waitUntil ?? "load", navigationTimeout(command))),
  forward: (context, command) => navigation(context, () => travel(context, 1, command.waitUntil ?? "load", navigationTimeout(command))),
  reload: (context, command) => navigation(context, () => reload(context, command.waitUntil ?? "load", navigationTimeout(command))),
};
