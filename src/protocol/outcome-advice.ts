import type { CommandOp } from "./commands.js";

/** Commands that navigate: a failure once their request may have left is unknown. */
export const navigationOps: ReadonlySet<CommandOp> = new Set<CommandOp>(["navigate", "back", "forward", "reload", "newPage"]);

/** What the caller should look at before deciding, per op. */
function checkAdvice(op: CommandOp): string {
  if (navigationOps.has(op)) return "Observe the page (URL, content) before navigating again; do not repeat it blindly.";
  if (op === "evaluate") return "Observe the page before running the expression again; do not repeat it blindly.";
  return "Observe the page (was the form sent, the value set, the item added?) before acting again; do not repeat it blindly.";
}

/**
 * The message of an outcome-unknown failure, the same from both engines: what
 * failed, why it may still have taken effect, where the page is, what to check.
 */
export function unknownOutcomeMessage(op: CommandOp, failure: string, committed: boolean, url: string | undefined): string {
  const where = url === undefined ? "" : ` The selected page is now at ${url}.`;
  const why = committed ? "its navigation committed" : navigationOps.has(op) ? "its request may already have reached the server" : "its input may already have reached the page";
  return `${failure.replace(/\.$/, "")} — but ${why}, so it may have taken effect.${where} ${checkAdvice(op)}`;
}
