import { isStationBrowserError, isValidationError, type StationBrowserErrorCode } from "../errors.js";
import { addPage, outcomeReply, textReply, type ToolReply } from "./reply.js";
import { describeThrown } from "./thrown.js";

/** What a failed call was about. */
export interface FailureContext {
  /** The step in words, e.g. `click`, `fill of field 2`. */
  action: string;
  /** True when the step may change the page (its outcome can then be unknown). */
  mutating: boolean;
  /** Where `command.*` fields of a protocol ValidationError sit in the tool input, e.g. `input.fields[1]`. */
  fieldRoot: string;
  /** Replaces backend ids with the toolset's aliases. */
  scrub: (text: string) => string;
  /** A command on the page: an unknown outcome then quotes the engine's word on where the page is and what to check. */
  pageAction?: boolean;
  /** The call's signal: a cancelled call says so. */
  signal?: AbortSignal | undefined;
}

/** Error codes whose message may quote the page (Playwright logs, provider bodies): shown fenced. */
const pageQuotingCodes = new Set<StationBrowserErrorCode>(["action_failed", "timeout", "internal", "provider"]);

/**
 * Codes whose message says all there is: no hint follows it. Every code of
 * the family is here or in `failureHints`; the type checker holds a new code
 * until it is put in one of them.
 */
export const unhintedCodes = [
  "validation",
  "not_found",
  "outcome_unknown",
  "provider",
  "timeout",
  "profile",
  "browser_not_found",
  "action_failed",
  "not_implemented",
  "journal",
  "unauthorized",
  "forbidden",
  "payload_too_large",
  "draining",
  "internal",
] as const satisfies readonly StationBrowserErrorCode[];

/** What to do next after a failure of each other code, told to the model after the message. */
export const failureHints: Record<Exclude<StationBrowserErrorCode, (typeof unhintedCodes)[number]>, string> = {
  stale_ref: "Refs are replaced by every observe and dropped when the page navigates: call station_browser_observe and use its new refs.",
  ambiguous_target: "Use a ref from station_browser_observe, or add nth to the target.",
  control_lease: "A human is controlling this session: do not act now. Wait, then observe before continuing.",
  busy: "Another call on this session is still running; wait for its result.",
  capacity: "Close a session or page you no longer need first.",
  rate_limited: "This profile is paced to protect the account: nothing was done. Wait at least the time given before acting again; do not retry at once.",
  session_closed: "The session is gone; open a new one with station_browser_open if you still need a browser.",
  profile_in_use: "This profile is already open somewhere else; use the session that has it, or close that one first.",
  reconcile_required: "An earlier open has an unknown outcome; no new session can be opened until the host reconciles it.",
  url_policy: "Only http(s) URLs without credentials, and about:blank, can be opened.",
};

const unknownAdvice =
  "It may or may not have taken effect. Call station_browser_observe to see the page before deciding; do not repeat it blindly.";

/**
 * The reply of a call that may or may not have taken effect: cancelled while
 * it ran, or its answer lost. `advice` says what to do next.
 */
export const unknownReply = (action: string, cancelled: boolean, advice: string): ToolReply =>
  outcomeReply("unknown", `${action}: ${cancelled ? "the call was cancelled while it ran" : "its completion could not be confirmed"}.`, advice);

/** A `ValidationError` of the protocol, with `command.*` renamed to where the field sits in the tool input. */
export function renameField(field: string, fieldRoot: string): string {
  return field === "command" || field.startsWith("command.") || field.startsWith("command[") ? fieldRoot + field.slice("command".length) : field;
}

/** The message of an invalid-input error result: `error: input.fields[0].target.ref: expected …`. */
export function invalidInputReply(message: string): ToolReply {
  return textReply([`error: ${message}`], true);
}

/**
 * Turns anything a backend threw into an error reply: outcome `failed`, or
 * `unknown` when the step may have happened (an `OutcomeUnknownError`, or a
 * mutating step cancelled midway). Never throws.
 */
export function failureReply(error: unknown, context: FailureContext): ToolReply {
  const reply = describeFailure(error, context);
  if (isStationBrowserError(error)) reply.code = error.code;
  return reply;
}

function describeFailure(error: unknown, context: FailureContext): ToolReply {
  if (isValidationError(error)) {
    const field = renameField(error.field, context.fieldRoot);
    const problem = error.message.startsWith(`${error.field}: `) ? error.message.slice(error.field.length + 2) : error.message;
    return invalidInputReply(context.scrub(`${field}: ${problem}`));
  }
  const code: StationBrowserErrorCode | undefined = isStationBrowserError(error) ? error.code : undefined;
  const message = context.scrub(describeThrown(error));
  const cancelled = context.signal?.aborted === true;
  // "before it started" (manager), "before it was sent" (client): it never ran.
  const notStarted = /before it (started|was sent)/.test(message);
  // Reading has no effect, so a read whose answer was lost simply failed.
  const unknown = context.mutating && (code === "outcome_unknown" || (cancelled && !notStarted));
  if (unknown) {
    const reply = unknownReply(context.action, cancelled, unknownAdvice);
    // What the browser said: where the page is now and what to check (it may quote the page, so it is fenced).
    if (code === "outcome_unknown" && context.pageAction) addPage(reply, message);
    return reply;
  }
  if (cancelled) return outcomeReply("failed", `${context.action} was cancelled${notStarted ? " before it ran" : ""}.`);
  const hint = code ? (failureHints as Partial<Record<StationBrowserErrorCode, string>>)[code] : undefined;
  const label = code ?? "error";
  if (code === undefined || pageQuotingCodes.has(code)) {
    const reply = outcomeReply("failed", `${context.action} (${label}); details from the browser:`);
    addPage(reply, message);
    if (hint) reply.parts.push({ kind: "text", text: hint });
    return reply;
  }
  return outcomeReply("failed", `${context.action} (${label}): ${message}`, ...(hint ? [hint] : []));
}
