import { errors as playwrightErrors } from "playwright-core";
import {
  ActionFailedError,
  AmbiguousTargetError,
  SessionClosedError,
  StationBrowserError,
  TimeoutError,
  isStationBrowserError,
} from "../errors.js";

/** The first line of a Playwright message, without its call log. */
function headline(message: string): string {
  return (message.split("\n")[0] ?? message).trim();
}

/** How many elements a locator matched, when Playwright's strict mode refused it (`undefined` otherwise). */
export function strictModeCount(message: string): number | undefined {
  const strict = /strict mode violation: .* resolved to (\d+) elements/.exec(message);
  return strict ? Number(strict[1]) : undefined;
}

/**
 * Turns whatever Playwright threw into one of our errors, naming the command.
 * Our own errors pass through unchanged.
 */
export function toStationError(error: unknown, op: string): StationBrowserError {
  if (isStationBrowserError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const first = headline(message);
  if (error instanceof playwrightErrors.TimeoutError) {
    return new TimeoutError(`${op}: ${first}`, { cause: error });
  }
  const count = strictModeCount(message);
  if (count !== undefined) {
    return new AmbiguousTargetError(count, `${op}: target matched ${count} elements; give nth (0–${count - 1}) or a more specific target`, {
      cause: error,
    });
  }
  if (/Target page, context or browser has been closed|Browser has been closed|Target closed|browser has disconnected/i.test(message)) {
    return new SessionClosedError(`${op}: the page or browser was closed (${first})`, { cause: error });
  }
  if (error instanceof Error && error.name === "AbortError") {
    return new ActionFailedError(`${op}: cancelled`, { cause: error });
  }
  return new ActionFailedError(`${op}: ${first}`, { cause: error });
}
