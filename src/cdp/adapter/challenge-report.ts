/**
 * `challenge` in the CDP engine's action results, as the Playwright engine
 * reports it (src/engine/command-context.ts): what challenge detection last
 * saw on the selected page's current document, when it is worth reporting
 * ({@link reportable}). It was read with the title (once per document, and
 * again after a response hinted at a challenge) or with the text after the
 * action: no read of its own. A challenge solved is reported once.
 */
import { reportable } from "../../access/page-challenge.js";
import type { CommandOp } from "../../protocol/commands.js";
import type { ActionResult } from "../../protocol/results.js";
import type { CdpCommandContext, CdpHandler } from "./context.js";

/** The ops whose result is an action result (those the Playwright engine runs through `runAction`). */
const actionOps = new Set<CommandOp>([
  "navigate",
  "back",
  "forward",
  "reload",
  "newPage",
  "selectPage",
  "closePage",
  "click",
  "fill",
  "type",
  "press",
  "select",
  "check",
  "uncheck",
  "hover",
  "focus",
  "scroll",
  "mouseClick",
  "mouseMove",
  "drag",
  "dragCoordinates",
  "upload",
]);

/** Adds the selected page's challenge to `result` when it is worth reporting; a solved one is reported once. */
export function addChallenge(context: CdpCommandContext, result: ActionResult): ActionResult {
  const current = context.pages.current();
  const last = current?.challenge.last;
  if (!current || !last || last.navigations !== current.navigations || !reportable(last.result)) return result;
  const challenge = last.result;
  last.result = last.plain;
  return { ...result, challenge };
}

/** `handler` with `challenge` added to its result, for the ops whose result is an action result. */
export function withChallenge<Op extends CommandOp>(handler: CdpHandler<Op>): CdpHandler<Op> {
  return async (context, command) => {
    const result = await handler(context, command);
    return actionOps.has(command.op) ? (addChallenge(context, result as ActionResult) as typeof result) : result;
  };
}
