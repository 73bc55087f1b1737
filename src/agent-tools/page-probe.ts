import type { BrowserBackend } from "../protocol/backend.js";
import { limits } from "../protocol/limits.js";
import { cutUtf8 } from "./fence.js";
import { agentToolLimits } from "./limits.js";

/**
 * Probes of the page that issue no refs and run no page code. The visible
 * text comes from the protocol's read-only `text` command (`innerText` of the
 * selected page's main frame, which never contains input values): it is
 * allowed while a human holds control and journaled as an observation.
 * Whether typed text landed in a password field is not probed here: the
 * engine reports it in the `fill`/`type` result (`sensitive`), read outside
 * the page's reach, so typed text never goes to page code. An accessibility
 * snapshot is never used here: each one issues new refs and would make the
 * model's refs stale.
 */

/** What a probe should read. */
export interface ProbeRequest {
  /** The visible text of the selected page. */
  text: boolean;
}

/** What a probe read; a part not asked for, or whose read failed, is `undefined`. */
export interface PageProbe {
  /** Visible text of the selected page's main frame (bounded). */
  text: string | undefined;
}

/** Bytes of visible text a probe reads, before the tool's text budget applies. */
const probeTextBytes = Math.min(agentToolLimits.pageTextBytes, limits.text.bytesMax);

/** Reads the visible text of the selected page. Throws what the backend throws (a navigating page, a closed session…). */
export async function readText(backend: BrowserBackend, sessionId: string, signal: AbortSignal | undefined): Promise<string> {
  const { text } = await backend.execute(sessionId, { op: "text", maxBytes: probeTextBytes }, signal ? { signal } : {});
  return text;
}

/** Reads what `wanted` asks for. A part that fails is `undefined`. */
export async function probePage(
  backend: BrowserBackend,
  sessionId: string,
  wanted: ProbeRequest,
  signal: AbortSignal | undefined,
): Promise<PageProbe> {
  let text: string | undefined;
  if (wanted.text) {
    const bounded = AbortSignal.timeout(agentToolLimits.probeTimeoutMs);
    text = await readText(backend, sessionId, signal ? AbortSignal.any([signal, bounded]) : bounded).catch(() => undefined);
  }
  return { text };
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
