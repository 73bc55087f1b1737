import type { Pacer } from "../access/pacing/pacer.js";
import { ActionFailedError } from "../errors.js";
import { commandBudgetMs } from "../protocol/budget.js";
import { keyDelaysTotalMs } from "../protocol/command-fields.js";
import type { BrowserCommand } from "../protocol/commands.js";
import type { ChallengeResult } from "../protocol/results.js";
import { waitOn, type Clock } from "./clock.js";
import type { SessionManagerEmitter } from "./events.js";

/** A paced action cleared to run: the command to send (with its typing cadence) and the time spent pacing it. */
export interface PacedStart {
  command: BrowserCommand;
  /** The wait for its turn plus the typing cadence it carries (ms). */
  pacedMs: number;
}

/**
 * Waits for a paced command's turn on the manager's clock, abortable by
 * `signal`, and counts it. Returns undefined for a command that is not paced
 * (observation, unpaced session). This wait and the typing cadence are the
 * only pauses in the action path.
 * @throws RateLimitedError when it may not run within its allowed wait (nothing was sent)
 * @throws ActionFailedError when `signal` aborts the wait (nothing was sent)
 */
export async function awaitTurn(
  pacer: Pacer,
  clock: Clock,
  events: SessionManagerEmitter,
  sessionId: string,
  command: BrowserCommand,
  signal: AbortSignal,
): Promise<PacedStart | undefined> {
  if (!pacer.paces(sessionId, command.op)) return undefined;
  const typed = withCadence(pacer, sessionId, command);
  const budgetMs = commandBudgetMs(command);
  let turn = pacer.turn(sessionId, command.op, budgetMs);
  const reasons = new Set(turn.reasons);
  const startedAt = clock.now();
  let waitedMs = 0;
  for (let round = 0; turn.waitMs > 0; round++) {
    // One event per action, and another only for a new reason (a pause begun meanwhile); a timer that fired a
    // little early (timers and the wall clock round apart) leaves a remainder that is waited quietly.
    const fresh = turn.reasons.filter((reason) => !reasons.has(reason));
    if (round === 0 || fresh.length > 0) events.emit("pacing-wait", { sessionId, op: command.op, waitMs: turn.waitMs, reasons: turn.reasons });
    for (const reason of turn.reasons) reasons.add(reason);
    if (!(await waitOn(clock, turn.waitMs, signal))) {
      throw new ActionFailedError(`${command.op} on session ${sessionId} was cancelled while it waited for its turn (pacing); nothing was sent to the page`);
    }
    waitedMs = Math.max(0, clock.now() - startedAt);
    // The action runs only when nothing more is owed within what is left of its budget.
    turn = pacer.turn(sessionId, command.op, Math.max(0, budgetMs - waitedMs));
  }
  const typingMs = keyDelaysTotalMs(typed as { keyDelaysMs?: number[] });
  pacer.take(sessionId, command.op, waitedMs, [...reasons], typingMs);
  return { command: typed, pacedMs: waitedMs + typingMs };
}

/** `fill` and `type` with the policy's typing cadence, when human typing is on and the caller set none. */
function withCadence(pacer: Pacer, sessionId: string, command: BrowserCommand): BrowserCommand {
  if (command.op === "fill" && command.keyDelaysMs === undefined) {
    const keyDelaysMs = pacer.keyDelays(sessionId, command.value);
    return keyDelaysMs ? { ...command, keyDelaysMs } : command;
  }
  if (command.op === "type" && command.keyDelaysMs === undefined && command.delayMs === undefined) {
    const keyDelaysMs = pacer.keyDelays(sessionId, command.text);
    return keyDelaysMs ? { ...command, keyDelaysMs } : command;
  }
  return command;
}

/**
 * The throttle signal in what an action returned or threw, as a reason and
 * the wait the site asked for: a result (or a `challenge` result itself)
 * whose challenge state is `rate_limited`, or a `RateLimitedError` that this
 * manager's pacer did not make. Undefined when there is none.
 */
export function throttleSignal(pacer: Pacer, outcome: unknown): { reason: string; atLeastMs: number } | undefined {
  if (typeof outcome !== "object" || outcome === null) return undefined;
  const error = outcome as { code?: unknown; retryAfterMs?: unknown };
  if (outcome instanceof Error || error.code !== undefined) {
    if (error.code !== "rate_limited" || pacer.isOwnRefusal(outcome)) return undefined;
    return { reason: "the site answered rate_limited", atLeastMs: typeof error.retryAfterMs === "number" ? error.retryAfterMs : 0 };
  }
  const challenge = ("state" in outcome ? outcome : (outcome as { challenge?: unknown }).challenge) as Partial<ChallengeResult> | undefined;
  if (challenge?.state !== "rate_limited") return undefined;
  return { reason: `the page is a rate_limited challenge${typeof challenge.vendor === "string" ? ` (${challenge.vendor})` : ""}`, atLeastMs: 0 };
}
