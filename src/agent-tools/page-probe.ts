import type { BrowserBackend } from "../protocol/backend.js";
import { callerLimits } from "../protocol/limits.js";
import type { TextChange } from "../protocol/text-change.js";
import { cutUtf8 } from "./fence.js";
import { agentToolLimits } from "./limits.js";

/**
 * Reads of the page that issue no refs and run no page code of ours. The visible
 * text comes from the protocol's read-only `text` command (`innerText` of the
 * selected page's main frame, which never contains input values): it is
 * allowed while a human holds control and journaled as an observation.
 * Whether typed text landed in a password field is not probed here: the
 * engine reports it in the `fill`/`type` result (`sensitive`), read outside
 * the page's reach, so typed text never goes to page code. An accessibility
 * snapshot is never used here: each one issues new refs and would make the
 * model's refs stale.
 */

/** Bytes of visible text a probe reads, before the tool's text budget applies. */
const probeTextBytes = Math.min(agentToolLimits.pageTextBytes, callerLimits.text.bytesMax);

/** Reads the visible text of the selected page. Throws what the backend throws (a navigating page, a closed session…). */
export async function readText(backend: BrowserBackend, sessionId: string, signal: AbortSignal | undefined): Promise<string> {
  const { text } = await backend.execute(sessionId, { op: "text", maxBytes: probeTextBytes }, signal ? { signal } : {});
  return text;
}

/** A change summary: a fact of our own for the outcome line (none after a navigation) and the changed page lines (website content, to be fenced). */
export interface ChangeSummary {
  /** `text unchanged`, `text: 2 lines added, 1 removed`, or undefined after a navigation (the outcome says `navigated`). */
  fact: string | undefined;
  lines: string;
}

const lineCount = (count: number, word: string) => `${count} line${count === 1 ? "" : "s"} ${word}`;

/**
 * The change an action result reports (`textChange`, computed by the engine
 * before and after the action): counts, then the added lines (`+ …`) and
 * removed lines (`- …`), at most `maxBytes` of them. After a navigation the
 * counts say nothing (the whole page changed): only the first few added lines
 * are listed, the lines the new page has that the old one had not (a message
 * on a page that re-rendered), and none at all with `preview: false` (the
 * caller's choice when a new URL or title already says where the page went).
 */
export function summarizeChange(change: TextChange, maxBytes: number, navigated = false, preview = true): ChangeSummary {
  const { added, removed, addedCount, removedCount } = change;
  if (navigated) {
    const [lineCap, byteCap] = agentToolLimits.changeSummaryNavigated;
    const lines = preview ? cutUtf8(added.slice(0, lineCap).map((line) => `+ ${line}`).join("\n"), Math.min(maxBytes, byteCap)) : "";
    return { fact: undefined, lines };
  }
  if (addedCount === 0 && removedCount === 0) return { fact: "text unchanged", lines: "" };
  const [addedCap, removedCap] = agentToolLimits.changeSummaryLines;
  const shown = [...added.slice(0, addedCap).map((line) => `+ ${line}`), ...removed.slice(0, removedCap).map((line) => `- ${line}`)];
  // "2 lines added, 1 removed", "1 line added", "3 lines removed".
  const counts = addedCount === 0 ? lineCount(removedCount, "removed") : `${lineCount(addedCount, "added")}${removedCount ? `, ${removedCount} removed` : ""}`;
  return { fact: `text: ${counts}`, lines: cutUtf8(shown.join("\n"), maxBytes) };
}
