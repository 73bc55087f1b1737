import type { BrowserBackend } from "../protocol/backend.js";
import { cutUtf8 } from "./fence.js";
import { agentToolLimits } from "./limits.js";

/**
 * Probes of the page that issue no refs: the protocol's `evaluate` with a
 * fixed expression of ours (never the model's), reading the visible text
 * (`innerText`, which never contains input values) and whether the focused
 * field is a password input. An accessibility snapshot is never used here:
 * each one issues new refs and would make the model's refs stale.
 */

/** What a probe read. */
export interface PageProbe {
  /** Visible text of the selected page's main frame (bounded), when asked for. */
  text: string | undefined;
  /** The focused element is a password input, or sits in a frame that cannot be looked into. */
  passwordFocused: boolean;
}

/** The expression: runs in the page, returns `{ text, password }`. */
function probeExpression(withText: boolean): string {
  return `(() => {
  let element = document.activeElement, unsure = false;
  for (let depth = 0; element && depth < 16; depth++) {
    if (element.shadowRoot && element.shadowRoot.activeElement) { element = element.shadowRoot.activeElement; continue; }
    if (element.tagName === "IFRAME" || element.tagName === "FRAME") {
      let inner = null;
      try { inner = element.contentDocument && element.contentDocument.activeElement; } catch (error) { inner = null; }
      if (!inner) { unsure = true; break; }
      element = inner;
      continue;
    }
    break;
  }
  const password = unsure || (!!element && element.tagName === "INPUT" && String(element.type).toLowerCase() === "password");
  ${withText ? `const text = document.body ? String(document.body.innerText) : "";
  return { password, text: text.length > ${agentToolLimits.pageTextChars} ? text.slice(0, ${agentToolLimits.pageTextChars}) : text };` : "return { password };"}
})()`;
}

/** Reads the page. Throws what the backend throws (a navigating page, a refusal under a human lease…). */
export async function readPage(backend: BrowserBackend, sessionId: string, withText: boolean, signal: AbortSignal | undefined): Promise<PageProbe> {
  const { value } = await backend.execute(
    sessionId,
    { op: "evaluate", expression: probeExpression(withText), timeoutMs: agentToolLimits.probeTimeoutMs },
    signal ? { signal } : {},
  );
  const read = (value ?? {}) as { text?: unknown; password?: unknown };
  return { text: typeof read.text === "string" ? read.text : undefined, passwordFocused: read.password !== false };
}

/** Like {@link readPage}, `undefined` when the probe failed. */
export async function probePage(
  backend: BrowserBackend,
  sessionId: string,
  withText: boolean,
  signal: AbortSignal | undefined,
): Promise<PageProbe | undefined> {
  return readPage(backend, sessionId, withText, signal).catch(() => undefined);
}

/** Lines of visible text, whitespace collapsed, empty lines dropped. */
export function textLines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line !== "");
}

/** The lines of `from` that `other` does not have (counting repeats). */
function missingFrom(from: readonly string[], other: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const line of other) counts.set(line, (counts.get(line) ?? 0) + 1);
  return from.filter((line) => {
    const left = counts.get(line) ?? 0;
    if (left === 0) return true;
    counts.set(line, left - 1);
    return false;
  });
}

/** A change summary: a line of our own and the changed page lines (website content, to be fenced). */
export interface ChangeSummary {
  headline: string;
  lines: string;
}

const longestLine = 240;

/**
 * What changed in the visible text between two probes: counts, then the
 * added lines (`+ …`) and removed lines (`- …`), at most `maxBytes` of them.
 * After a navigation only the first few added lines are listed: the model
 * observes the new page anyway.
 */
export function summarizeChange(before: string, after: string, maxBytes: number, navigated = false): ChangeSummary {
  const beforeLines = textLines(before);
  const afterLines = textLines(after);
  const added = missingFrom(afterLines, beforeLines);
  const removed = missingFrom(beforeLines, afterLines);
  if (added.length === 0 && removed.length === 0) return { headline: "page text: unchanged", lines: "" };
  const clip = (line: string) => (line.length > longestLine ? `${line.slice(0, longestLine - 1)}…` : line);
  const shown = navigated
    ? added.slice(0, agentToolLimits.changeSummaryLinesNavigated).map((line) => `+ ${clip(line)}`)
    : [
        ...added.slice(0, agentToolLimits.changeSummaryLines).map((line) => `+ ${clip(line)}`),
        ...removed.slice(0, agentToolLimits.changeSummaryLines).map((line) => `- ${clip(line)}`),
      ];
  const lines = cutUtf8(shown.join("\n"), maxBytes);
  const listed = lines === "" ? 0 : lines.split("\n").length;
  const hidden = added.length + removed.length - listed;
  return {
    headline: `page text: ${added.length} line${added.length === 1 ? "" : "s"} added, ${removed.length} removed${hidden > 0 ? ` (${hidden} not shown)` : ""}`,
    lines,
  };
}
