import { limits } from "../protocol/limits.js";
import type { CommandOf } from "../protocol/commands.js";
import type { AccessibilityResult } from "../protocol/results.js";
import { truncateUtf8 } from "./diagnostics-ring.js";
import { renderAgentForm } from "./aria-shim.js";
import type { EngineSession, PageState } from "./session.js";

const refInText = /\[ref=((?:f\d+)?e\d+)\]/g;
/** Bytes kept free for the truncation marker. */
const truncationMarkerRoom = 96;

/** The ref of the first node of a snapshot (the main frame's root). */
function firstRef(nodes: unknown): string | undefined {
  const [first] = Array.isArray(nodes) ? nodes : [nodes];
  const ref = (first as { ref?: unknown } | undefined)?.ref;
  return typeof ref === "string" ? ref : undefined;
}

/**
 * Takes an ARIA snapshot of a page with refs. `agent` (default) is the compact
 * form built for models; `full` is Playwright's AI snapshot. Either way the
 * refs are renamed to fresh, session-unique ids, so refs of any older snapshot
 * of the page go stale.
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
  if (mode === "agent") {
    const nodes = await state.page.ariaSnapshotJSON({ mode: "ai", boxes, timeout: limits.actionTimeoutDefaultMs });
    const { mapRef, commit } = session.refs.beginSnapshot(state.id, firstRef(nodes));
    const rendered = renderAgentForm(nodes, { interactiveOnly: command.interactiveOnly ?? false, depth, maxBytes, boxes, mapRef });
    commit();
    return { snapshot: rendered.snapshot, truncated: rendered.truncated, bytes: rendered.bytes, mode, pageId: state.id };
  }
  const text = await state.page.ariaSnapshot({ mode: "ai", boxes, depth, timeout: limits.actionTimeoutDefaultMs });
  const { mapRef, commit } = session.refs.beginSnapshot(state.id, /\[ref=((?:f\d+)?e\d+)\]/.exec(text)?.[1]);
  // `interactiveOnly` shapes the agent form only; the full form is Playwright's, cut to size.
  const renamed = text.replace(refInText, (_match, playwrightRef: string) => `[ref=${mapRef(playwrightRef)}]`);
  commit();
  const cut = truncateUtf8(renamed, maxBytes - truncationMarkerRoom);
  const snapshot = cut.text;
  const marked = cut.truncated ? `${snapshot}\n[truncated: ${cut.bytes} bytes in full; take a smaller depth or use mode "agent"]` : snapshot;
  return { snapshot: marked, truncated: cut.truncated, bytes: new TextEncoder().encode(marked).length, mode, pageId: state.id };
}
