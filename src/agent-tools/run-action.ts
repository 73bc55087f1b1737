import { isStationBrowserError, type StationBrowserErrorCode } from "../errors.js";
import type { CommandOf, CommandOp } from "../protocol/commands.js";
import type { ActionResult, DialogInfo, PageInfo } from "../protocol/results.js";
import { combineTextChanges, type TextChange } from "../protocol/text-change.js";
import type { ToolContext } from "./define-tool.js";
import { failureReply } from "./failure.js";
import { agentToolLimits } from "./limits.js";
import { summarizeChange, type ChangeSummary } from "./page-probe.js";
import { addPage, addText, outcomeReply, type ToolReply } from "./reply.js";
import { CancelledError, isRefusal, refusalReply, type SeenPage, type SessionEntry } from "./sessions.js";
import { heldRefusal, holdSession, holdsSession } from "./takeover.js";

/**
 * Runs `work` on the session named by `alias` (or the only one), after the
 * session's earlier calls. An unknown alias is an input error naming
 * `input.session`.
 */
export async function onSession(
  context: ToolContext,
  alias: string | undefined,
  work: (entry: SessionEntry) => Promise<ToolReply>,
): Promise<ToolReply> {
  const entry = context.sessions.get(alias);
  if (isRefusal(entry)) return refusalReply(entry);
  let reply: ToolReply;
  try {
    reply = await context.sessions.exclusive(entry, context.signal, () => work(entry));
  } catch (error) {
    if (error instanceof CancelledError) return outcomeReply("failed", "cancelled before it started.");
    throw error;
  }
  if (reply.code === "not_found" && (await sessionGone(context, entry))) {
    context.sessions.remove(entry);
    addText(reply, `session ${entry.alias} no longer exists; its slot is free.`);
  }
  return reply;
}

/** Whether the backend's list proves the session gone (a not-found can also be a page, a ref or an element). */
async function sessionGone(context: ToolContext, entry: SessionEntry): Promise<boolean> {
  try {
    return !(await context.backend.list()).some((info) => info.id === entry.id);
  } catch {
    return false;
  }
}

/**
 * A command that can report the change in visible text (`textChange`): every
 * action a tool runs. Tools build it from input their schema parsed with the
 * protocol's own field schemas; the backend parses the whole command again.
 */
export type ActionCommand = { [Op in CommandOp]: "textChange" extends keyof CommandOf<Op> ? CommandOf<Op> : never }[CommandOp];

/** One backend command of a tool call. */
export interface Step {
  command: ActionCommand;
  /** Words for results: `click`, `field 2`. */
  label: string;
  /** Where the command's fields sit in the tool input (`input`, `input.fields[1]`). */
  fieldRoot: string;
  /** Text this step types (`fill`/`type`): redacted from now on unless the result says it is in no password field. */
  typed?: string;
}

/** The part of a result every action shares: outcome, where the page is and what changed. */
type ActionLike = Partial<ActionResult> & { url: string; title: string; challenge?: unknown; sensitive?: unknown };

/** How {@link runSteps} words its result. */
export interface RunOptions {
  /** A note for the outcome line, from the last result (`page p2 is selected`, `files set: …`). */
  note?: (result: unknown) => string | undefined;
  /** The URL the model asked for: the result repeats the URL only when the page ended elsewhere. */
  requestedUrl?: string;
}

/** `url` as results show URLs (the protocol's `sanitizeUrl`: no query or fragment; the navigate command already refused credentials). */
function withoutQuery(url: string): string {
  const parsed = new URL(url);
  parsed.search = parsed.hash = "";
  return parsed.href;
}

/** Commands that load a page the model asked for: after them no page text is previewed (the model observes the new page). */
const loadingOps = new Set<CommandOp>(["navigate", "back", "forward", "reload", "newPage"]);

/**
 * Runs the steps of one tool call in order on one session and reports the
 * outcome of the last, with a bounded summary of the change in visible text.
 * Stops at the first failure; an unknown outcome is reported as unknown,
 * never retried. Facts the model already has (the URL and title it last saw)
 * are not repeated; when nothing changed, the outcome line says so and no
 * page content follows.
 */
export async function runSteps(context: ToolContext, entry: SessionEntry, steps: readonly Step[], what: string, runOptions: RunOptions = {}): Promise<ToolReply> {
  const { backend, options, signal } = context;
  const refused = await heldRefusal(context, entry);
  if (refused) return refused;
  const summarize = options.changeSummaryBytes > 0;
  let last: ActionLike | undefined;
  let done = 0;
  // One backend call a step: the engine reports the change in visible text in the action's own result.
  const changes: (TextChange | undefined)[] = [];
  for (const [index, step] of steps.entries()) {
    try {
      last = (await backend.execute(entry.id, summarize ? { ...step.command, textChange: true } : step.command, signal ? { signal } : {})) as ActionLike;
      changes.push(last.textChange);
    } catch (error) {
      // Part of the text may have landed before the failure, and no result says where: treat it as a password.
      if (step.typed !== undefined && !nothingTyped(error)) rememberPassword(context, step.typed);
      // The page may have moved: the next result says where it is again.
      entry.seen = undefined;
      const reply = failureReply(error, {
        action: steps.length > 1 ? `${what}, ${step.label}` : what,
        mutating: true,
        pageAction: true,
        fieldRoot: step.fieldRoot,
        scrub: (text) => context.sessions.scrub(text),
        signal,
      });
      if (index > 0) addText(reply, `steps done before it: ${steps.slice(0, index).map((done) => done.label).join(", ")}`);
      return reply;
    }
    // The engine says whether the text may sit in a password field; a result that does not say counts as yes.
    if (step.typed !== undefined && last.sensitive !== false) rememberPassword(context, step.typed);
    done = index + 1;
    // The site owns the page now: no further step.
    if (holdsSession(context, last.challenge)) break;
  }
  if (last === undefined) return outcomeReply("ok", what);
  const extra = runOptions.note?.(last);
  const known = runOptions.requestedUrl === undefined ? entry.seen : { url: withoutQuery(runOptions.requestedUrl), title: entry.seen?.title ?? "" };
  // After a navigation a new URL or title says where the page went; lines are previewed only when
  // neither changed (a page that re-rendered, e.g. with a message) and the model did not ask for the page.
  const moved = last.url !== known?.url || last.title !== known?.title;
  const preview = !moved && !loadingOps.has(steps[steps.length - 1]!.command.op);
  const change = summarize ? describeChange(changes, last.navigated === true, options.changeSummaryBytes, preview) : undefined;
  const facts = actionFacts(last, known, change);
  entry.seen = { url: last.url, title: last.title };
  const outcome = [`${what}`, extra, facts.outcome].filter((part) => part !== undefined && part !== "").join("; ");
  const reply = addPage(outcomeReply("ok", outcome, ...facts.lines), facts.page.join("\n"));
  if (!holdsSession(context, last.challenge)) return reply;
  const { line, notice } = await holdSession(context, entry, last.challenge);
  addText(reply, done < steps.length ? `${line} Steps not run: ${steps.slice(done).map((step) => step.label).join(", ")}.` : line);
  return { ...reply, takeover: notice };
}

/** Failures raised before any key can reach the page: a refused call, a target that did not resolve. */
const refusedCodes = new Set<StationBrowserErrorCode>(["validation", "not_found", "stale_ref", "ambiguous_target", "busy", "control_lease"]);
const nothingTyped = (error: unknown) => isStationBrowserError(error) && refusedCodes.has(error.code);

function rememberPassword(context: ToolContext, typed: string): void {
  if (typed.length >= agentToolLimits.typedPasswordMin) context.redactor.add(typed, "[redacted]");
}

/**
 * Where the page is after an action, told against what the model already saw
 * (`known`): facts for the outcome line (`navigated`, new pages, dialog, the
 * text change, or `nothing changed`), lines of our own (a challenge), and
 * website content for the fence (the URL and title when they differ from
 * `known`, new pages, a dialog's message, changed lines).
 */
export function actionFacts(result: ActionLike, known: SeenPage | undefined, change?: ChangeSummary): { outcome: string; lines: string[]; page: string[] } {
  const newPages = result.newPages ?? [];
  const page: string[] = [];
  if (result.url !== known?.url) page.push(`url: ${result.url}`);
  if (result.title !== known?.title) page.push(`title: ${JSON.stringify(result.title)}`);
  const facts = [
    result.navigated ? "navigated" : undefined,
    newPages.length ? `new pages: ${newPages.map((opened) => opened.pageId).join(", ")}` : undefined,
    result.dialog ? `dialog: ${describeDialog(result.dialog)}` : undefined,
  ].filter((fact) => fact !== undefined);
  const unchanged = facts.length === 0 && page.length === 0 && change?.fact === "text unchanged";
  if (change?.fact !== undefined && !unchanged) facts.push(change.fact);
  for (const opened of newPages) page.push(describePage(opened, "new page"));
  if (result.dialog?.message) page.push(`dialog message: ${JSON.stringify(result.dialog.message)}`);
  if (change?.lines) page.push(change.lines);
  const solved = describeSolved(result.challenge);
  return { outcome: unchanged ? "nothing changed" : facts.join("; "), lines: solved ? [solved] : [], page };
}

/** Notes the selected page of a page list the model was shown as what it last saw. */
export function noteSelected(entry: SessionEntry, pages: readonly PageInfo[]): void {
  const selected = pages.find((page) => page.selected);
  entry.seen = selected ? { url: selected.url, title: selected.title } : undefined;
}

/** One page as `p2 (selected): url … title "…"` (website content: goes in a page part). */
export function describePage(page: PageInfo, label = "page"): string {
  return `${label} ${page.pageId}${page.selected ? " (selected)" : ""}: ${page.url} ${JSON.stringify(page.title)}`;
}

function describeDialog(dialog: DialogInfo): string {
  const article = /^[aeiou]/.test(dialog.type) ? "an" : "a";
  return `${article} ${dialog.type} appeared and was ${dialog.handled}${dialog.unexpected ? " at once (no dialog policy was set; use station_browser_dialog before the action to accept one)" : " by your dialog policy"}`;
}

/** A challenge the page navigated past (the site let the browser in); one that owns the page is a takeover (takeover.ts). */
function describeSolved(challenge: unknown): string | undefined {
  const solved = (challenge as { solved?: { state?: unknown } } | undefined)?.solved;
  return typeof solved?.state === "string" ? `challenge: the page is past the ${solved.state.replace("_", " ")} it showed; the site let the browser in.` : undefined;
}

/** The change summary: a fact of ours and the changed lines (website content). */
function describeChange(changes: readonly (TextChange | undefined)[], navigated: boolean, maxBytes: number, preview: boolean): ChangeSummary {
  const known = changes.filter((change): change is TextChange => change !== undefined);
  if (known.length === 0 || known.length !== changes.length) return { fact: navigated ? undefined : "text change not available", lines: "" };
  return summarizeChange(combineTextChanges(known), maxBytes, navigated, preview);
}
