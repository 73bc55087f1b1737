/**
 * accessibility on the CDP engine: one call of the engine's ARIA snapshot
 * script in the isolated world ({@link ariaSnapshotExpression}; cross-origin
 * iframes are snapshotted after, each in its own world: aria-cross.ts), rendered by
 * the renderers the Playwright engine uses (src/protocol/aria), with refs
 * renamed through the page's registry: session-unique `e<n>`, every snapshot
 * a fresh set, so the refs of any older snapshot go stale.
 */
import { limits } from "../../protocol/limits.js";
import { renderAgentForm } from "../../protocol/aria/agent-form.js";
import { renderFullForm } from "../../protocol/aria/full-form.js";
import { hiddenValue, hideValues } from "../../protocol/aria/hide-values.js";
import type { CdpHandlers } from "./context.js";

/** Time kept back from the command's budget for the snapshot's answer (ms). */
const answerMarginMs = 1_000;
import { ariaSnapshotExpression, type AriaSnapshotAnswer } from "./aria-script.js";
import { withCrossFrames } from "./aria-cross.js";

/** accessibility */
export const accessibilityHandlers: CdpHandlers<"accessibility"> = {
  async accessibility(context, command) {
    const { page } = context;
    const mode = command.mode ?? "agent";
    const maxBytes = command.maxBytes ?? limits.accessibility.bytesDefault;
    const depth = command.depth ?? limits.accessibility.depthDefault;
    const boxes = command.boxes ?? false;
    const navigations = page.navigations;
    // The agent form limits depth itself (it flattens containers first); the full form is the tree cut at depth.
    const waitMs = Math.min(limits.actionTimeoutDefaultMs, context.deadlineAt - Date.now() - answerMarginMs);
    const request = { boxes, hiddenText: hiddenValue, ...(mode === "full" ? { depth } : {}) };
    const top = (await page.evaluateInWorld(ariaSnapshotExpression(request, waitMs), context.deadlineAt)) as AriaSnapshotAnswer;
    // Cross-origin iframes are snapshotted in their own worlds (none: nothing more is sent).
    const answer = top.cross?.length ? await withCrossFrames(page, top, request, waitMs, context.deadlineAt) : top;
    if (!top.cross?.length) page.frames.latest = new Map();
    const nodes = hideValues(answer.nodes, new Set(answer.passwords));
    const { mapRef, commit } = page.refs.beginSnapshot(page.pageId, undefined);
    const rendered =
      mode === "agent"
        ? renderAgentForm(nodes, { interactiveOnly: command.interactiveOnly ?? false, depth, maxBytes, boxes, mapRef })
        : renderFullForm(nodes, { maxBytes, mapRef });
    commit();
    // A document that went away while the snapshot was taken took its elements along.
    if (page.navigations !== navigations) page.refs.invalidate(page.pageId, "the page navigated");
    return { snapshot: rendered.snapshot, truncated: rendered.truncated, bytes: rendered.bytes, mode, pageId: page.pageId };
  },
};
