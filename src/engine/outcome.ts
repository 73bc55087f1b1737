import { errors as playwrightErrors } from "playwright-core";
import { OutcomeUnknownError, isStationBrowserError, type StationBrowserError } from "../errors.js";
import type { BrowserCommand, CommandOp } from "../protocol/commands.js";
import { notSentNetErrors } from "../protocol/net-errors.js";
import { navigationOps, unknownOutcomeMessage } from "../protocol/outcome-advice.js";
import { callLog, step, toStationError } from "./playwright-errors.js";

/**
 * The outcome rule for mutating commands: a failure is `failed` only when no
 * input can have reached the page — the target was missing or never
 * actionable, or the command was refused before dispatch. Once input may have
 * been dispatched, or a navigation may have committed, the outcome is
 * unknown ({@link OutcomeUnknownError}), whichever timeout or error ended it.
 *
 * The evidence is Playwright's own call log (`error.log`), which states each
 * step of an action: pointer actions log `performing click action` right
 * before the input, the atomic fill/select/upload steps log the state that
 * stopped them (`element is not enabled`) when they did not act.
 */

/** What a failed mutating command leaves behind, for the error message. */
export interface FailureEvidence {
  /** A main-frame navigation of the session committed while the command ran (counts for navigation ops). */
  committed: boolean;
  /** Where the selected page is now (sanitised), to tell the caller what to check. */
  url: string | undefined;
}

/** The error a failed mutating command is reported with: its own, or {@link OutcomeUnknownError}. */
export function settleFailure(command: BrowserCommand, error: unknown, evidence: FailureEvidence): StationBrowserError {
  const { op } = command;
  const failure = toStationError(error, op);
  if (failure.code === "outcome_unknown") return failure;
  // A navigation that committed has reached a server whatever ended its wait; for other ops the call log decides.
  const committed = evidence.committed && navigationOps.has(op);
  if (!committed && !inputMayHaveReached(command, error)) return failure;
  return new OutcomeUnknownError(unknownOutcomeMessage(op, failure.message, committed, evidence.url), { cause: error });
}

/** Keyboard and mouse input sent straight to the page: any failure once it began may have left input behind. */
const rawInputOps = new Set<CommandOp>(["mouseClick", "mouseMove", "dragCoordinates", "scroll", "type", "press"]);

/** The Playwright error under one of ours (our wrappers keep it as `cause`). */
function playwrightCause(error: unknown): unknown {
  if (isStationBrowserError(error)) return error.cause;
  return error;
}

/** Steps logged once input was (or was about to be) sent. */
const dispatchedStep = /^(performing .+ action|.+ action done|waiting for scheduled navigations|navigations have finished|elementHandle\.(press|type)\(|selected specified option|navigated to )/;

/** Steps after which an action stopped without acting: the state that was missing, or the wait before a retry. */
const stoppedStep =
  /^(element is not |element is outside of the viewport|did not find some options|option being selected is not enabled|.+ intercepts pointer events|retrying .+ action|waiting \d+ms|waiting for locator\(|locator resolved to |attempting .+ action|fill\()/;

/** Refusals Playwright's injected script raises before it touches the element. */
const refusedBeforeInput =
  /strict mode violation|Element is not an <input>|cannot be filled|Malformed value|Not a checkbox or radio button|Element is not a <select> element|Cannot uncheck radio button|Node is not an HTMLInputElement|Non-multiple file input can only accept single file/;

/** Pointer actions (click, hover, check, drag…) log `performing … action` strictly before their input. */
const pointerAttempt = /^attempting (click|dblclick|hover|tap|move and down|move and up) action/;

/**
 * Whether any input of a failed command may have reached the page. `false`
 * only with positive evidence that nothing was dispatched.
 */
export function inputMayHaveReached(command: BrowserCommand, error: unknown): boolean {
  const { op } = command;
  const cause = playwrightCause(error);
  // Our own refusals (target not found, ambiguous, stale ref, bad input, URL policy) happen before any dispatch.
  if (isStationBrowserError(error) && cause === undefined) return false;
  if (cause === undefined) return true;
  if (navigationOps.has(op)) return navigationMayHaveBeenSent(cause);
  if (command.op === "evaluate") return !neverRan(cause, command.expression);
  const steps = callLog(cause).map(step);
  if (steps.some((line) => dispatchedStep.test(line))) return true;
  if (refusedBeforeInput.test(cause instanceof Error ? cause.message : String(cause))) return false;
  if (steps.length === 0 || rawInputOps.has(op) && !steps.some((line) => line.startsWith("waiting for locator("))) return true;
  if (steps.some((line) => pointerAttempt.test(line))) return false;
  const last = steps[steps.length - 1] ?? "";
  return !stoppedStep.test(last);
}

function isTimeout(error: unknown): boolean {
  return error instanceof playwrightErrors.TimeoutError;
}

/** A navigation that failed with a network error raised before any request was sent did nothing. */
function navigationMayHaveBeenSent(error: unknown): boolean {
  if (isTimeout(error)) return true;
  const message = error instanceof Error ? error.message : String(error);
  const code = /net::(ERR_[A-Z_]+)/.exec(message)?.[1];
  return code === undefined || !notSentNetErrors.has(code);
}

/**
 * An expression that failed to compile never ran. The page's word alone is
 * not trusted (a page can throw anything named SyntaxError): the expression
 * must also fail to compile here.
 */
function neverRan(error: unknown, expression: string): boolean {
  const message = error instanceof Error ? error.message : String(error);
  if (/Passed function is not well-serializable/.test(message)) return true;
  if (!/^(page\.evaluate: )?SyntaxError\b/.test(message)) return false;
  return !compiles(expression);
}

/** Whether `expression` parses as a script (Function compiles without running it). */
function compiles(expression: string): boolean {
  try {
    new Function(expression);
    return true;
  } catch {
    try {
      new Function(`return (${expression})`);
      return true;
    } catch {
      return false;
    }
  }
}
