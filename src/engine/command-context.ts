import type { CommandOf, CommandOp } from "../protocol/commands.js";
import { limits } from "../protocol/limits.js";
import type { ActionResult, CommandResult } from "../protocol/results.js";
import type { ActionMark, EngineSession, PageState } from "./session.js";
import { sanitizeUrl } from "../protocol/url-policy.js";
import { diffText } from "../protocol/text-change.js";
import { probeVisibleText } from "./visible-text.js";

/** What every command handler receives. */
export interface CommandContext {
  session: EngineSession;
  signal: AbortSignal | undefined;
  /** When the command's budget ends (epoch ms): waits for what an action caused end by then. */
  deadlineAt: number;
  /** The command asked for the change in visible text (`textChange: true`). */
  textChange: boolean;
}

/** A command handler. */
export type CommandHandler<Op extends CommandOp> = (context: CommandContext, command: CommandOf<Op>) => Promise<CommandResult<Op>>;

/** Handlers keyed by op; one file per capability area contributes a part. */
export type CommandHandlers<Ops extends CommandOp> = { [Op in Ops]: CommandHandler<Op> };

/** The action timeout of a command. */
export const actionTimeout = (command: { timeoutMs?: number | undefined }) => command.timeoutMs ?? limits.actionTimeoutDefaultMs;

/** The navigation timeout of a command. */
export const navigationTimeout = (command: { timeoutMs?: number | undefined }) =>
  command.timeoutMs ?? limits.navigationTimeoutDefaultMs;

/**
 * Runs a mutating action on the selected page and reports what happened:
 * where the selected page is now, whether the acted-on page navigated, pages
 * the site opened (each reported once, even if it surfaced after the previous
 * result), and a dialog that appeared.
 *
 * Nothing here sleeps: Playwright's click and press wait for a navigation
 * they started, a dialog is handled (and recorded) before the action that
 * raised it returns, and a window the action's input opened is waited for
 * only when the page announced it ({@link EngineSession.popupsArrived}). An
 * action that causes nothing returns at once.
 */
export async function runAction(
  context: CommandContext,
  body: (state: PageState) => Promise<void>,
): Promise<ActionResult> {
  const { session } = context;
  const state = session.selected();
  const mark = session.mark();
  const navigationsBefore = state.navigations;
  const textBefore = context.textChange ? await probeVisibleText(state.page, state.probe) : undefined;
  await body(state);
  await session.popupsArrived(mark, Math.min(limits.popupArrivalMaxMs, context.deadlineAt - Date.now()));
  const result = await describeOutcome(context, state, mark, navigationsBefore);
  if (textBefore === undefined) return result;
  const current = session.pages.get(session.selectedPageId) ?? state;
  const textAfter = await probeVisibleText(current.page, current.probe);
  if (textAfter === undefined) return result;
  // A navigation the action started may commit after the outcome was read and
  // before the text was: the text is then the new document's, so say so.
  const late = !result.navigated && state.navigations > navigationsBefore;
  const described = late ? { ...result, ...(await whereNow(context, state)), navigated: true } : result;
  return { ...described, textChange: diffText(textBefore, textAfter) };
}

/** The selected page's URL and title now. */
async function whereNow(context: CommandContext, actedOn: PageState): Promise<{ url: string; title: string }> {
  const current = context.session.pages.get(context.session.selectedPageId) ?? actedOn;
  return { url: sanitizeUrl(current.page.url()), title: await context.session.titleOf(current) };
}

/** Builds an {@link ActionResult} relative to a mark taken before the action. */
export async function describeOutcome(
  context: CommandContext,
  actedOn: PageState,
  mark: ActionMark,
  navigationsBefore: number,
): Promise<ActionResult> {
  const { session } = context;
  const newPages = await Promise.all(session.takeUnreportedPages().map((state) => session.describe(state)));
  const dialog = session.dialogSince(mark.dialogSeq);
  return {
    ok: true,
    ...(await whereNow(context, actedOn)),
    navigated: actedOn.navigations > navigationsBefore,
    newPages,
    ...(dialog ? { dialog } : {}),
  };
}
