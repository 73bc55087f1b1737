import { callerLimits } from "./limits.js";
import type { TextChange } from "./results.js";

/**
 * What changed in a page's visible text across an action, as lines added and
 * removed (repeats counted), bounded. Computed by the engine when an action
 * asks for it (`textChange: true`), so a caller learns what its action did in
 * the same answer instead of reading the page before and after.
 */

/** The change in visible text that an action result carries (declared in `results.ts`). */
export type { TextChange };

/** Lines of visible text, whitespace collapsed, empty lines dropped. */
function textLines(text: string): string[] {
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

const clip = (line: string) => (line.length > callerLimits.textChange.lineLength ? `${line.slice(0, callerLimits.textChange.lineLength - 1)}…` : line);

/** The change from `before` to `after` (both visible text), bounded. */
export function diffText(before: string, after: string): TextChange {
  const beforeLines = textLines(before);
  const afterLines = textLines(after);
  const added = missingFrom(afterLines, beforeLines);
  const removed = missingFrom(beforeLines, afterLines);
  return {
    added: added.slice(0, callerLimits.textChange.lines).map(clip),
    removed: removed.slice(0, callerLimits.textChange.lines).map(clip),
    addedCount: added.length,
    removedCount: removed.length,
  };
}

/**
 * The net change of several actions in a row: a line one step added and a
 * later one removed (or the reverse) cancels out.
 */
export function combineTextChanges(changes: readonly TextChange[]): TextChange {
  const [first, ...rest] = changes;
  if (!first) return { added: [], removed: [], addedCount: 0, removedCount: 0 };
  let added = [...first.added];
  let removed = [...first.removed];
  let addedCount = first.addedCount;
  let removedCount = first.removedCount;
  for (const change of rest) {
    const cancelledAdds = added.length - missingFrom(added, change.removed).length;
    const cancelledRemoves = removed.length - missingFrom(removed, change.added).length;
    const newlyRemoved = missingFrom(change.removed, added);
    const newlyAdded = missingFrom(change.added, removed);
    added = [...missingFrom(added, change.removed), ...newlyAdded];
    removed = [...missingFrom(removed, change.added), ...newlyRemoved];
    addedCount += change.addedCount - cancelledAdds - cancelledRemoves;
    removedCount += change.removedCount - cancelledAdds - cancelledRemoves;
  }
  return {
    added: added.slice(0, callerLimits.textChange.lines),
    removed: removed.slice(0, callerLimits.textChange.lines),
    addedCount: Math.max(addedCount, added.length),
    removedCount: Math.max(removedCount, removed.length),
  };
}
