import { limits } from "../protocol/limits.js";
import type { CommandOf } from "../protocol/commands.js";
import type { AccessibilityResult } from "../protocol/results.js";
import { renderAgentForm } from "../protocol/aria/agent-form.js";
import { renderFullForm } from "../protocol/aria/full-form.js";
import { hideValues } from "../protocol/aria/hide-values.js";
import { passwordRefs } from "./password-refs.js";
import type { EngineSession, PageState } from "./session.js";

/** The ref of the first node of a snapshot (the main frame's root). */
function firstRef(nodes: unknown): string | undefined {
  const [first] = Array.isArray(nodes) ? nodes : [nodes];
  const ref = (first as { ref?: unknown } | undefined)?.ref;
  return typeof ref === "string" ? ref : undefined;
}

/**
 * Takes an ARIA snapshot of a page with refs. `agent` (default) is the compact
 * form built for models; `full` is Playwright's AI snapshot. Both are rendered
 * from the snapshot's JSON, so only real refs are renamed (page text cannot
 * forge one), password values read `(hidden)`, and every snapshot issues
 * fresh session-unique refs, so refs of any older snapshot of the page go stale.
 */
export async function snapshotAccessibility(
  session: EngineSession,
  state: PageState,
  command: CommandOf<"accessibility">,
): Promise<AccessibilityResult> {
  const mode = command.mode ?? "agent";
  const maxBytes = command.maxBytes ?? limits.accessibility.bytesDefault;
  const depth = command.depth ?? limits.accessibility.depthDefault;
  const boxes = command.boxes ?? false;
  // The agent form limits depth itself (it flattens containers first); the full form is Playwright's tree cut at depth.
  const raw = await state.page.ariaSnapshotJSON({
    mode: "ai",
    boxes,
    ...(mode === "full" ? { depth } : {}),
    timeout: limits.actionTimeoutDefaultMs,
  });
  const nodes = hideValues(raw, await passwordRefs(state.page, raw));
  const { mapRef, commit } = session.refs.beginSnapshot(state.id, firstRef(raw));
  const rendered =
    mode === "agent"
      ? renderAgentForm(nodes, { interactiveOnly: command.interactiveOnly ?? false, depth, maxBytes, boxes, mapRef })
      : renderFullForm(nodes, { maxBytes, mapRef });
  commit();
  return { snapshot: rendered.snapshot, truncated: rendered.truncated, bytes: rendered.bytes, mode, pageId: state.id };
}
