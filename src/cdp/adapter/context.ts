/**
 * What a CDP engine command handler receives, and how an action's input is
 * sent and its result composed: the input events go out together (one serial
 * round trip), a navigation they started is waited for to commit, and the
 * title is read only when the page navigated.
 */
import { isTimeoutError } from "../../errors.js";
import type { CommandOf, CommandOp } from "../../protocol/commands.js";
import type { ActionResult, CommandResult, SolverSignal } from "../../protocol/results.js";
import { sanitizeUrl } from "../../protocol/url-policy.js";
import { cdpCallOf } from "../call-errors.js";
import type { CdpCallOptions, CdpSession } from "../session.js";
import { limits } from "../../protocol/limits.js";
import type { CdpPage } from "./page.js";
import type { CdpPages } from "./pages.js";
import type { SessionMark } from "./session-events.js";
import type { CdpDownloads } from "./downloads.js";
import type { StagedFiles } from "./staging.js";

/** What every handler receives. */
export interface CdpCommandContext {
  /** The page the command acts on: the selected page when it started. */
  page: CdpPage;
  /** Every page of the session. */
  pages: CdpPages;
  signal: AbortSignal | undefined;
  /** The files staged for the session (`stageFile`), for `upload { staged }`. */
  staged: StagedFiles;
  /** The session's downloads; absent when its provider has no downloads API. */
  downloads: CdpDownloads | undefined;
  /** The provider's name, for messages. */
  providerName: string;
  /** When the command's budget ends (epoch ms). */
  deadlineAt: number;
  /** Set once input or a navigation request may have reached the page: a failure from then on is an unknown outcome. */
  reached: boolean;
  /** Longest wait in the page for an action's own input events before its answer goes without them (ms). */
  inputSeenFallbackMs: number;
  /** Set when the action's target is in a cross-origin frame: asks an expression in that frame's world, where the input's watch is (cross-frames.ts). */
  inputWorld?: ((expression: string, deadlineAt: number) => Promise<unknown>) | undefined;
  /** Set with `inputWorld`: the session and context of that frame's world, where a staged upload takes its input's handle. */
  targetWorld?: { session: CdpSession; contextId(): Promise<number> } | undefined;
  /** The provider's captcha solver state for this session, where its API has one (Steel cloud); asked by `challenge` only. */
  solverStatus?: (() => Promise<SolverSignal | undefined>) | undefined;
}

/** A handler of one op. */
export type CdpHandler<Op extends CommandOp> = (context: CdpCommandContext, command: CommandOf<Op>) => Promise<CommandResult<Op>>;

/** Handlers keyed by op, one file per capability area. */
export type CdpHandlers<Ops extends CommandOp> = { [Op in Ops]: CdpHandler<Op> };

/** Where the page (and its session: dialogs, windows opened) stands before an action, to tell what the action changed. */
export interface ActionMark extends SessionMark {
  navigations: number;
  loaderId: string;
}

export const markOf = (page: CdpPage): ActionMark => ({ ...page.events.mark(), navigations: page.navigations, loaderId: page.loaderId });

/**
 * Sends input calls together (each is started at once, so they share one
 * round trip; the browser runs them in order). From the first send the input
 * may reach the page (`context.reached`), unless every call failed without
 * running (never sent, or refused by the browser).
 */
export async function sendInput(context: CdpCommandContext, calls: Array<(options: CdpCallOptions) => Promise<unknown>>): Promise<void> {
  context.reached = true;
  const options = { timeoutMs: Math.max(1, context.deadlineAt - Date.now()) };
  const settled = await Promise.allSettled(calls.map((call) => call(options)));
  const failures = settled.filter((entry): entry is PromiseRejectedResult => entry.status === "rejected");
  if (failures.length === 0) return;
  const noneRan = settled.every((entry) => {
    const info = entry.status === "rejected" ? cdpCallOf(entry.reason) : undefined;
    return info !== undefined && (!info.sent || info.answered);
  });
  if (noneRan) context.reached = false;
  throw failures[0]!.reason;
}

/**
 * Waits for what the input started: a main-frame navigation it requested, to
 * commit (or stop), then the new document's DOMContentLoaded (so its title is
 * parsed) while the budget lasts. Sends nothing.
 */
export async function settleAfterInput(context: CdpCommandContext, mark: ActionMark): Promise<void> {
  const { page } = context;
  if (page.navigationPending) {
    await page.until(() => (!page.navigationPending || page.navigations > mark.navigations ? true : undefined), context.deadlineAt, "waiting for the navigation the action started");
  }
  if (page.loaderId !== mark.loaderId && !page.fromCache) {
    const loaderId = page.loaderId;
    await page.until(() => (page.reached(loaderId, "DOMContentLoaded") ? true : undefined), context.deadlineAt, "waiting for the new document").catch((error: unknown) => {
      // Committed but slow to parse: the result says so with what the title is now.
      if (!isTimeoutError(error)) throw error;
    });
  }
}

/**
 * The result of an action: where the selected page is, its title (the one
 * the action's script read, unless the page navigated since), whether the
 * acted-on page navigated, the pages the site opened that no result reported
 * yet, and the dialog the action raised. A window the action's input
 * announced (`Page.windowOpen`) is waited for to arrive, and a window
 * reported for its document to be parsed (so its title is there), within the
 * budget and `limits.popupArrivalMaxMs` together; nothing is waited for when
 * there is neither.
 */
export async function describeAction(context: CdpCommandContext, mark: ActionMark, titleBefore?: string): Promise<ActionResult> {
  const { page, pages } = context;
  const navigated = page.navigations > mark.navigations;
  if (!navigated && titleBefore !== undefined) page.noteTitle(titleBefore, page.navigations);
  const settleBy = Math.min(Date.now() + limits.popupArrivalMaxMs, context.deadlineAt);
  await page.events.popupsArrived(mark, settleBy - Date.now());
  const current = pages.current() ?? page;
  const reported = pages.takeUnreported().map((each) => pages.describe(each, context.deadlineAt, settleBy));
  const [title, newPages] = await Promise.all([current.title(context.deadlineAt), Promise.all(reported)]);
  const dialog = page.events.dialogSince(mark);
  return { ok: true, url: sanitizeUrl(current.url), title, navigated, newPages, ...(dialog ? { dialog } : {}) };
}
