import { ActionFailedError, NotImplementedError, OutcomeUnknownError } from "../../errors.js";
import { limits } from "../../protocol/limits.js";
import { sanitizeUrl } from "../../protocol/url-policy.js";
import { snapshotAccessibility } from "../accessibility.js";
import { safeTitle } from "../session.js";
import type { CommandHandlers } from "../command-context.js";
import { truncateUtf8 } from "../diagnostics-ring.js";
import { inspectPage } from "../inspect.js";
import { captureScreenshot } from "../screenshot.js";

/** Why a value is not plain JSON, or `undefined` when it is. */
export function jsonProblem(value: unknown, path = "$"): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `${String(value)} at ${path}`;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const problem = jsonProblem(value[index], `${path}[${index}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (typeof value === "object") {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return `${value.constructor?.name ?? "object"} at ${path}`;
    for (const [key, entry] of Object.entries(value)) {
      if (entry === undefined) continue;
      const problem = jsonProblem(entry, `${path}.${key}`);
      if (problem) return problem;
    }
    return undefined;
  }
  return `${typeof value} at ${path}`;
}

/**
 * Reads the visible text of the main frame: `innerText` of the body, which
 * leaves out hidden elements, scripts, styles and form field values. Runs as
 * a plain function, never the caller's code; a document without a body reads
 * as empty.
 */
function readVisibleText(): string {
  const body = document.body;
  return body ? String(body.innerText) : "";
}

/** An evaluate whose expression ran but whose result cannot be returned: its effects, if any, stand. */
function resultRefused(problem: string): OutcomeUnknownError {
  return new OutcomeUnknownError(
    `evaluate: the expression ran, but its result ${problem}. Whatever it changed on the page has taken effect; observe before running it again.`,
  );
}

/** inspect · accessibility · screenshot · text · content · evaluate · diagnostics · challenge */
export const observationHandlers: CommandHandlers<
  "inspect" | "accessibility" | "screenshot" | "text" | "content" | "evaluate" | "diagnostics" | "challenge"
> = {
  async inspect(context, command) {
    const state = context.session.selected();
    return inspectPage(
      state.page,
      command.maxElements ?? limits.inspect.elementsDefault,
      command.maxTextLength ?? limits.inspect.textLengthDefault,
    );
  },

  async accessibility(context, command) {
    const { session } = context;
    return snapshotAccessibility(session, session.selected(), command);
  },

  async screenshot(context, command) {
    return captureScreenshot(context.session.selected().page, command.format ?? "png", command.quality);
  },

  // Reads only: issues no refs and leaves those of the last accessibility snapshot valid.
  async text(context, command) {
    const state = context.session.selected();
    const visible = await state.page.evaluate(readVisibleText);
    const cut = truncateUtf8(visible, command.maxBytes ?? limits.text.bytesDefault);
    return { text: cut.text, truncated: cut.truncated, url: sanitizeUrl(state.page.url()), title: await safeTitle(state.page) };
  },

  async content(context, command) {
    const state = context.session.selected();
    const html = await state.page.content();
    const cut = truncateUtf8(html, command.maxBytes ?? limits.contentBytes);
    return { html: cut.text, truncated: cut.truncated, bytes: cut.bytes, url: sanitizeUrl(state.page.url()) };
  },

  async evaluate(context, command) {
    const state = context.session.selected();
    let value: unknown;
    try {
      value = await state.page.evaluate(command.expression);
    } catch (error) {
      const message = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
      throw new ActionFailedError(`evaluate: ${message.replace(/^page\.evaluate: /, "")}`, { cause: error });
    }
    // A bare `undefined` (a statement, a void call) reads as null, as JSON would have it.
    if (value === undefined) value = null;
    // The expression has run by now: whatever it did stands, even if its result cannot be returned.
    const problem = jsonProblem(value);
    if (problem) throw resultRefused(`is not JSON-compatible (${problem}); return plain data`);
    const json = JSON.stringify(value);
    const bytes = new TextEncoder().encode(json).length;
    if (bytes > limits.evaluateResultBytes) {
      throw resultRefused(`is ${bytes} bytes of JSON, above the ${limits.evaluateResultBytes}-byte limit`);
    }
    return { value: JSON.parse(json) as unknown };
  },

  async diagnostics(context, command) {
    context.session.assertOpen();
    return context.session.diagnostics.read(command.since);
  },

  async challenge() {
    throw new NotImplementedError("challenge: challenge detection is not implemented yet (planned with the access layer)");
  },
};
