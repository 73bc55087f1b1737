import type { CommandResult } from "../protocol/results.js";
import type { BrowserCommand } from "../protocol/commands.js";
import type { ToolContext } from "./define-tool.js";
import { failureReply } from "./failure.js";
import type { ToolReply } from "./reply.js";
import { onSession, runSteps, type ActionCommand, type RunOptions } from "./run-action.js";
import type { SessionEntry } from "./sessions.js";
import { heldRefusal } from "./takeover.js";

/** The backend call's options: the tool call's signal, when it has one. */
export const callOptions = (context: ToolContext) => (context.signal ? { signal: context.signal } : {});

/** The failure reply of a tool call about `action` (input fields under `input`, ids scrubbed). */
export const toolFailure = (context: ToolContext, error: unknown, action: string, mutating: boolean): ToolReply =>
  failureReply(error, { action, mutating, fieldRoot: "input", scrub: (text) => context.sessions.scrub(text) });

/**
 * Runs `work` on the session named by `alias` (or the only one); anything it
 * throws becomes a failure reply about `action`.
 */
export function tryOnSession(
  context: ToolContext,
  alias: string | undefined,
  action: string,
  work: (entry: SessionEntry) => Promise<ToolReply>,
  mutating = false,
): Promise<ToolReply> {
  return onSession(context, alias, async (entry) => {
    try {
      const refused = mutating ? await heldRefusal(context, entry) : undefined;
      return refused ?? (await work(entry));
    } catch (error) {
      return toolFailure(context, error, action, mutating);
    }
  });
}

/**
 * Runs one command that is not a page action (a read, a policy) and turns
 * its result into a reply with `describe` (see {@link tryOnSession}).
 */
export function runCommand<const Command extends BrowserCommand>(
  context: ToolContext,
  alias: string | undefined,
  command: Command,
  action: string,
  describe: (result: CommandResult<Command["op"]>, entry: SessionEntry) => ToolReply,
  mutating = false,
): Promise<ToolReply> {
  return tryOnSession(context, alias, action, async (entry) => describe(await context.backend.execute(entry.id, command, callOptions(context)), entry), mutating);
}

/** Runs one page action on the session named by `alias` (or the only one) and reports its outcome as `what`. */
export function runAction(
  context: ToolContext,
  alias: string | undefined,
  command: ActionCommand,
  what: string = command.op,
  runOptions: RunOptions = {},
): Promise<ToolReply> {
  return onSession(context, alias, (entry) => runSteps(context, entry, [{ command, label: what, fieldRoot: "input" }], what, runOptions));
}
