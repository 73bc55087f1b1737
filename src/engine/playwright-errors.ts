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

/** Playwright's call log of a failed call, one step a line (empty when it has none). */
export function callLog(error: unknown): string[] {
  const log = (error as { log?: unknown } | undefined)?.log;
  return Array.isArray(log) ? log.filter((line): line is string => typeof line === "string") : [];
}

/** A call-log line without its indentation, bullet and `2 ×` repeat count. */
export function step(line: string): string {
  return line.trim().replace(/^- /, "").replace(/^\d+ × /, "");
}

/**
 * Why an action waited until its time ran out, from the last step of its
 * call log that says it (`element is not enabled`, `<img#logo> intercepts
 * pointer events`), as the CDP engine says it. An element is named by its tag,
 * id and first two classes only: Playwright's preview of it carries all its
 * attributes, a value among them.
 */
export function waitedFor(error: unknown): string | undefined {
  const steps = callLog(error).map(step);
  for (let index = steps.length - 1; index >= 0; index--) {
    const line = steps[index]!;
    if (/^element is (not [a-z, ]{1,40}|outside of the viewport)$/.test(line)) return line;
    const covered = /^<([a-zA-Z][\w-]{0,40})(?:\s[^>]*?)?\/?>.* intercepts pointer events$/.exec(line);
    if (covered) {
      const id = /^<[^>]*?\sid="([^"]{1,60})"/.exec(line)?.[1];
      const classes = (/^<[^>]*?\sclass="([^"]{1,200})"/.exec(line)?.[1] ?? "").split(/\s+/).filter(Boolean).slice(0, 2);
      return `<${covered[1]!.toLowerCase()}${id ? `#${id}` : ""}${classes.map((name) => `.${name}`).join("")}> intercepts pointer events`;
    }
  }
  return undefined;
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
    const why = waitedFor(error);
    return new TimeoutError(`${op}: ${first}${why ? ` (${why})` : ""}`, { cause: error });
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
