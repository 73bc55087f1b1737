import type { BrowserBackend } from "../protocol/backend.js";
import { limits } from "../protocol/limits.js";
import { cutUtf8 } from "./fence.js";
import { agentToolLimits } from "./limits.js";

/**
 * Probes of the page that issue no refs. The visible text comes from the
 * protocol's read-only `text` command (`innerText` of the selected page's main
 * frame, which never contains input values): it is allowed while a human holds
 * control and journaled as an observation. Whether the focused field is a
 * password input is read with `evaluate` and a fixed expression of ours (never
 * the model's), only after the model typed something. An accessibility
 * snapshot is never used here: each one issues new refs and would make the
 * model's refs stale.
 */

/** What a probe should read. */
export interface ProbeRequest {
  /** The visible text of the selected page. */
  text: boolean;
  /** Text just typed: whether it may sit in a password field. */
  password?: string;
}

/** What a probe read; a part not asked for, or whose read failed, is `undefined`. */
export interface PageProbe {
  /** Visible text of the selected page's main frame (bounded). */
  text: string | undefined;
  /** The focused element is a password input, or sits in a frame that cannot be looked into. */
  passwordFocused: boolean | undefined;
}

/** Bytes of visible text a probe reads, before the tool's text budget applies. */
const probeTextBytes = Math.min(agentToolLimits.pageTextBytes, limits.text.bytesMax);

/**
 * The password expression: runs in the page, returns `true` when the typed
 * text may sit in a password field — the focused field is one (or is in a
 * frame that cannot be looked into), or any password input of the page holds
 * part of it (a PIN box that moved focus on, a field that lost focus).
 */
function passwordExpression(typed: string): string {
  return `((typed) => {
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
  if (unsure || (!!element && element.tagName === "INPUT" && String(element.type).toLowerCase() === "password")) return true;
  for (const field of document.querySelectorAll("input[type=password i]")) {
    const value = String(field.value || "");
    if (value && (typed.includes(value) || value.includes(typed))) return true;
  }
  return false;
})(${JSON.stringify(typed)})`;
}

/** Reads the visible text of the selected page. Throws what the backend throws (a navigating page, a closed session…). */
export async function readText(backend: BrowserBackend, sessionId: string, signal: AbortSignal | undefined): Promise<string> {
  const { text } = await backend.execute(sessionId, { op: "text", maxBytes: probeTextBytes }, signal ? { signal } : {});
  return text;
}

/** Whether the focused element is (or may be) a password input. Throws what the backend throws. */
export async function readPasswordFocused(backend: BrowserBackend, sessionId: string, typed: string, signal: AbortSignal | undefined): Promise<boolean> {
  const { value } = await backend.execute(
    sessionId,
    { op: "evaluate", expression: passwordExpression(typed), timeoutMs: agentToolLimits.probeTimeoutMs },
    signal ? { signal } : {},
  );
  return value !== false;
}

/**
 * Reads what `wanted` asks for, one command after the other (a session runs
 * one command at a time). A part that fails is `undefined`; a caller treats
 * an unknown password state as a password.
 */
export async function probePage(
  backend: BrowserBackend,
  sessionId: string,
  wanted: ProbeRequest,
  signal: AbortSignal | undefined,
): Promise<PageProbe> {
  const passwordFocused =
    wanted.password === undefined ? undefined : await readPasswordFocused(backend, sessionId, wanted.password, signal).catch(() => undefined);
  let text: string | undefined;
  if (wanted.text) {
    const bounded = AbortSignal.timeout(agentToolLimits.probeTimeoutMs);
    text = await readText(backend, sessionId, signal ? AbortSignal.any([signal, bounded]) : bounded).catch(() => undefined);
  }
  return { text, passwordFocused };
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
