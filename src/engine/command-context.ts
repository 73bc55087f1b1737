import type { CommandOf, CommandOp } from "../protocol/commands.js";
import { limits } from "../protocol/limits.js";
import type { ActionResult, CommandResult, SolverSignal } from "../protocol/results.js";
import type { ActionMark, EngineSession, PageState } from "./session.js";
import { sanitizeUrl } from "../protocol/url-policy.js";
import { diffText } from "../protocol/text-change.js";
import { probeVisibleText, withinReadTimeout } from "./visible-text.js";
import { readDomSignalsOf } from "./challenge-signals.js";
import { reportable } from "../access/page-challenge.js";

/** What every command handler receives. */
export interface CommandContext {
  session: EngineSession;
  signal: AbortSignal | undefined;
  /** When the command's budget ends (epoch ms): waits for what an action caused end by then. */
  deadlineAt: number;
  /** The command asked for the change in visible text (`textChange: true`). */
  textChange: boolean;
  /** The provider's captcha solver state for this session, where it has an API for it (Steel). */
  solverStatus?: (() => Promise<SolverSignal | undefined>) | undefined;
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
 * only when the page announced it ({@link EngineSession.popupsArrived}), and
 * a window reported for its document to be parsed, both within
 * `limits.popupArrivalMaxMs`. An action that causes nothing returns at once.
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
  const settleBy = Math.min(Date.now() + limits.popupArrivalMaxMs, context.deadlineAt);
  await session.popupsArrived(mark, settleBy - Date.now());
  const result = await describeOutcome(context, state, mark, navigationsBefore, settleBy);
  if (textBefore === undefined) return withChallenge(context, result);
  const current = session.pages.get(session.selectedPageId) ?? state;
  const textAfter = await readTextAfter(context, current);
  if (textAfter === undefined) return withChallenge(context, result);
  // A navigation the action started may commit after the outcome was read and
  // before the text was: the text is then the new document's, so say so.
  const late = !result.navigated && state.navigations > navigationsBefore;
  const described = late ? { ...result, ...(await whereNow(context, state)), navigated: true } : result;
  return withChallenge(context, { ...described, textChange: diffText(textBefore, textAfter) });
}

/**
 * The selected page's visible text after an action, read with the challenge
 * signals in the same call (so a page the action turned into a challenge
 * without navigating is seen at no extra round trip), or `undefined` when it
 * cannot be read in time.
 */
async function readTextAfter(context: CommandContext, state: PageState): Promise<string | undefined> {
  const navigations = state.navigations;
  const dom = await withinReadTimeout(() => readDomSignalsOf(state.page, state.probe, true));
  if (dom === undefined) return undefined;
  context.session.noteDocument(state, dom, navigations);
  return dom.text;
}

/**
 * Adds what challenge detection last saw on the selected page's current
 * document, when it is worth reporting ({@link reportable}). It was read with
 * the title (once per document) or with the text after the action: no read of
 * its own. A challenge solved is reported once.
 */
function withChallenge(context: CommandContext, result: ActionResult): ActionResult {
  const current = context.session.pages.get(context.session.selectedPageId);
  const last = current?.challenge.last;
  if (!current || !last || last.navigations !== current.navigations || !reportable(last.result)) return result;
  const challenge = last.result;
  last.result = last.plain;
  return { ...result, challenge };
}

/** The selected page's URL and title now. */
async function whereNow(context: CommandContext, actedOn: PageState): Promise<{ url: string; title: string }> {
  const current = context.session.pages.get(context.session.selectedPageId) ?? actedOn;
  return { url: sanitizeUrl(current.page.url()), title: await context.session.titleOf(current) };
}

/**
 * Builds an {@link ActionResult} relative to a mark taken before the action.
 * A page the site opened is reported once its document is parsed (so with
 * its title), or as it is at `settleBy` (epoch ms).
 */
async function describeOutcome(
  context: CommandContext,
  actedOn: PageState,
  mark: ActionMark,
  navigationsBefore: number,
  settleBy: number,
): Promise<ActionResult> {
  const { session } = context;
  const newPages = await Promise.all(session.takeUnreportedPages().map((state) => session.describe(state, settleBy)));
  const dialog = session.dialogSince(mark.dialogSeq);
  return {
    ok: true,
    ...(await whereNow(context, actedOn)),
    navigated: actedOn.navigations > navigationsBefore,
    newPages,
    ...(dialog ? { dialog } : {}),
  };
}
