import type { BrowserCommand } from "./commands.js";
import { keyDelaysTotalMs } from "./command-fields.js";
import { callerLimits } from "./limits.js";

/** The time a command may take by its own timeouts, plus the typing cadence it carries (`keyDelaysMs`). */
export function commandBudgetMs(command: BrowserCommand): number {
  const own = "timeoutMs" in command ? command.timeoutMs : undefined;
  switch (command.op) {
    case "navigate":
    case "back":
    case "forward":
    case "reload":
    case "newPage":
      return own ?? callerLimits.navigationTimeoutDefaultMs;
    case "waitFor":
      return own ?? callerLimits.waitFor.timeoutDefaultMs;
    case "dialog":
      return callerLimits.actionTimeoutDefaultMs;
    case "drag":
      // Two targets are resolved, each within the timeout, then the drag itself.
      return 3 * (own ?? callerLimits.actionTimeoutDefaultMs);
    case "fill":
    case "type":
      return (own ?? callerLimits.actionTimeoutDefaultMs) + keyDelaysTotalMs(command);
    default:
      return own ?? callerLimits.actionTimeoutDefaultMs;
  }
}
