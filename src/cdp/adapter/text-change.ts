/**
 * `textChange: true` on the CDP engine's actions, as the Playwright engine
 * reports it: the selected page's visible text is read in the isolated world
 * before and after the action (one more round trip each), and the lines it
 * gained and lost come back in `textChange`. A text that cannot be read in
 * time (a page between documents) leaves `textChange` out; a navigation that
 * committed after the action's outcome was read, but before the text was,
 * is reported as a navigation, so the result agrees with the text it carries.
 * The read after carries the challenge signals too (as the Playwright
 * engine's does), so a page the action turned into a challenge without
 * navigating is seen at no extra round trip.
 */
import type { CommandOp } from "../../protocol/commands.js";
import { domSignalsWithTextExpression, type DomSignals } from "../../access/challenge-dom-signals.js";
import { limits } from "../../protocol/limits.js";
import { diffText } from "../../protocol/text-change.js";
import { sanitizeUrl } from "../../protocol/url-policy.js";
import { readVisibleTextAndTitle } from "../../protocol/visible-text-script.js";
import type { CdpCommandContext, CdpHandler } from "./context.js";
import type { CdpPage } from "./page.js";

/** Within `limits.textChange.readTimeoutMs` (and the budget), the deadline of a read of the text. */
const readDeadline = (context: CdpCommandContext) => Math.min(context.deadlineAt, Date.now() + limits.textChange.readTimeoutMs);

/** The page's visible text and title, or undefined when they cannot be read in time. */
async function readText(context: CdpCommandContext, page: CdpPage): Promise<{ text: string; title: string } | undefined> {
  const read = (await page.evaluateInWorld(`(${String(readVisibleTextAndTitle)})()`, readDeadline(context)).catch(() => undefined)) as { text?: unknown; title?: unknown } | undefined;
  if (typeof read?.text !== "string") return undefined;
  return { text: read.text, title: typeof read.title === "string" ? read.title : "" };
}

/** The same after the action, read with the challenge signals (noted as the document's classification). */
async function readTextAfter(context: CdpCommandContext, page: CdpPage): Promise<{ text: string; title: string } | undefined> {
  const navigations = page.navigations;
  const dom = (await page.evaluateInWorld(domSignalsWithTextExpression, readDeadline(context)).catch(() => undefined)) as DomSignals | undefined;
  if (typeof dom?.text !== "string") return undefined;
  page.noteDocument(dom, navigations);
  return { text: dom.text, title: typeof dom.title === "string" ? dom.title : "" };
}

/** `handler` with the change in visible text added to its result when the command asks for it. */
export function withTextChange<Op extends CommandOp>(handler: CdpHandler<Op>): CdpHandler<Op> {
  return async (context, command) => {
    if ((command as { textChange?: boolean }).textChange !== true) return handler(context, command);
    const before = await readText(context, context.page);
    const navigations = context.page.navigations;
    const result = await handler(context, command);
    if (before === undefined) return result;
    // After, the page selected now (a new page, or another selected, is read as the Playwright engine reads it).
    const after = await readTextAfter(context, context.pages.selected());
    if (after === undefined) return result;
    const described = result as { navigated?: boolean; url?: string; title?: string };
    const late = described.navigated === false && context.page.navigations > navigations;
    const where = late ? { url: sanitizeUrl(context.page.url), title: after.title, navigated: true } : {};
    return { ...result, ...where, textChange: diffText(before.text, after.text) };
  };
}
