/**
 * Cross-origin iframes in the CDP engine's ARIA snapshot (in the page's
 * process or out of it): the top world's snapshot answers the ones it could
 * not enter (`cross`, aria-frames.ts); each is snapshotted in its frame's own
 * world (frame-worlds.ts) with refs numbered from its world's base
 * (`f<k × span>e<n>`, cross-frames.ts), and its nodes put in its iframe's
 * node, as Playwright merges child frames' snapshots. A page without such
 * frames costs nothing more; one with them costs, per level of them, their
 * snapshots, each level's frames side by side (the first time an iframe is
 * met, two more: its handle and its frame id, then remembered in its world).
 */
import { limits } from "../../protocol/limits.js";
import { ariaSnapshotExpression, type AriaSnapshotAnswer, type AriaSnapshotRequest } from "./aria-script.js";
import { crossFrameElement, enter as enterFrame, frameNumberSpan, topWorld, type CrossFrameEntry, type WorldHandle } from "./cross-frames.js";
import type { CdpPage } from "./page.js";

/** Puts `inside` in the node of iframe `ref` (its text dropped), as the in-page merge does. */
function mergeInto(nodes: unknown[], ref: string, inside: unknown[]): boolean {
  for (const node of nodes) {
    if (typeof node !== "object" || node === null) continue;
    const each = node as { role?: string; ref?: string; text?: string; children?: unknown[] };
    if (each.role === "iframe" && each.ref === ref) {
      if (inside.length) {
        delete each.text;
        each.children = inside;
      }
      return true;
    }
    if (each.children && mergeInto(each.children, ref, inside)) return true;
  }
  return false;
}

/**
 * The snapshot `answer` of the top world with the cross-origin frames it
 * shows merged in (depth first, up to the frame chain limit); the frames
 * entered are kept as the page's latest (`page.frames.latest`). A frame
 * that cannot be read (gone, still loading past the budget, showing the
 * browser's error page) stays a leaf.
 */
export async function withCrossFrames(page: CdpPage, answer: AriaSnapshotAnswer, request: AriaSnapshotRequest, waitMs: number, deadlineAt: number): Promise<AriaSnapshotAnswer> {
  const latest = new Map<number, CrossFrameEntry>();
  const passwords = [...answer.passwords];
  const enter = async (parent: WorldHandle, shown: AriaSnapshotAnswer, level: number): Promise<void> => {
    if (!shown.cross?.length || level > limits.frameChain) return;
    await Promise.all(
      shown.cross.map(async ({ ref, depth, frameId: known }) => {
        try {
          const world = await enterFrame(page, parent, crossFrameElement(ref), deadlineAt, known);
          if (!world) return;
          const base = world.number * frameNumberSpan;
          const wait = Math.max(0, Math.min(waitMs, deadlineAt - Date.now() - 1_000));
          // A frame showing the browser's error page (its load failed) stays a leaf, as under Playwright.
          const expression = `(location.protocol === "chrome-error:" ? null : ${ariaSnapshotExpression({ ...request, depth, refPrefix: `f${base}`, frameBase: base }, wait)})`;
          const inner = (await world.evaluate(expression, deadlineAt)) as AriaSnapshotAnswer | null;
          if (!inner) return;
          latest.set(world.number, { frameId: world.frameId!, parent: parent.number, iframeRef: ref });
          passwords.push(...inner.passwords);
          await enter(world, inner, level + 1);
          mergeInto(shown.nodes, ref, inner.nodes);
        } catch {
          // Gone or unreadable: its node stays a leaf.
        }
      }),
    );
  };
  await enter(topWorld(page), answer, 1);
  page.frames.latest = latest;
  return { nodes: answer.nodes, passwords };
}
