/**
 * Same-origin iframes in the CDP engine's ARIA snapshot: {@link snapshotFrames}
 * runs the snapshot script in the top document, then in each iframe it shows,
 * and merges each frame's nodes into its iframe's node, as Playwright's
 * `ariaSnapshotJSON` merges child frames' snapshots. Part of the same one
 * call (`ariaSnapshotExpression` in aria-script.ts composes it).
 *
 * {@link snapshotFrames} must be self-contained: its source is sent to the page.
 */
import type { AriaSnapshotAnswer, AriaSnapshotRequest } from "./aria-script.js";

/**
 * Runs in the top document (isolated world). Self-contained. Takes the
 * snapshot with `take` there, then in each same-origin iframe it shows, in
 * that frame's own realm of the world (`source` is `take`'s source,
 * compiled by the frame's `eval`), with refs prefixed `f<n>` (one number
 * per frame document), and puts each frame's nodes in its iframe's node, as
 * Playwright merges child frames' snapshots. The depth left to a frame's
 * snapshot is Playwright's: the depth less the iframe's, less one. A
 * iframe whose snapshot fails stays a leaf; a cross-origin one is answered
 * (`cross`), its element kept as `__stationCrossFrames`, for the engine to
 * snapshot in its own world (cross-frames.ts). The iframe chain of each
 * prefix is kept for the target script (`__stationAriaFrames`).
 */
export function snapshotFrames(take: (request: AriaSnapshotRequest) => AriaSnapshotAnswer, source: string, request: AriaSnapshotRequest): AriaSnapshotAnswer {
  const top = globalThis as unknown as Record<string, unknown>;
  const numbers = (top["__stationFrameNumbers"] ??= new WeakMap<Document, number>()) as WeakMap<Document, number>;
  const chains = new Map<string, Element[]>();
  const passwords: string[] = [];
  const cross: Array<{ ref: string; depth?: number | undefined; frameId?: string }> = [];
  const crossFrames = new Map<string, Element>();
  const inFrame = (run: typeof take, frameRequest: AriaSnapshotRequest, refs: () => Map<string, Element> | undefined, chain: Element[]): unknown[] => {
    const answer = run(frameRequest);
    passwords.push(...answer.passwords);
    const shown = refs();
    const children = new Map<string, unknown[]>();
    for (const { ref, depth } of answer.frames ?? []) {
      const frame = shown?.get(ref) as HTMLIFrameElement | undefined;
      let inner: (Window & typeof globalThis & Record<string, unknown>) | undefined;
      const childDepth = frameRequest.depth ? frameRequest.depth - depth - 1 : undefined;
      let crossOrigin = false;
      try {
        const view = frame?.contentWindow as (Window & typeof globalThis & Record<string, unknown>) | null | undefined;
        // A shown frame always has a document: none to this world is another origin's.
        if (view && !frame!.contentDocument) crossOrigin = true;
        else if (view?.document?.body) inner = view;
      } catch {
        crossOrigin = !!frame;
      }
      if (crossOrigin) {
        // The engine snapshots it in its own world, and merges it where this iframe's node is.
        const frameId = (top["__stationFrameIds"] as WeakMap<Element, string> | undefined)?.get(frame!);
        cross.push({ ref, depth: childDepth, ...(frameId ? { frameId } : {}) });
        crossFrames.set(ref, frame!);
        continue;
      }
      if (!frame || !inner) continue;
      let number = numbers.get(inner.document);
      if (number === undefined) {
        const count = ((top["__stationFrameCount"] as number | undefined) ?? 0) + 1;
        top["__stationFrameCount"] = count;
        number = (request.frameBase ?? 0) + count;
        numbers.set(inner.document, number);
      }
      const prefix = `f${number}`;
      const path = [...chain, frame];
      chains.set(prefix, path);
      const own = inner;
      try {
        const childRun = own.eval(source) as typeof take;
        children.set(ref, inFrame(childRun, { ...frameRequest, depth: childDepth, refPrefix: prefix }, () => own["__stationAriaRefs"] as Map<string, Element> | undefined, path));
      } catch {
        children.set(ref, []);
      }
    }
    const merge = (node: unknown) => {
      if (typeof node !== "object" || node === null) return;
      const each = node as { role?: string; ref?: string; text?: string; children?: unknown[] };
      if (each.role === "iframe" && typeof each.ref === "string") {
        const inside = children.get(each.ref);
        if (inside?.length) {
          delete each.text;
          each.children = inside;
        }
        return;
      }
      each.children?.forEach(merge);
    };
    answer.nodes.forEach(merge);
    return answer.nodes;
  };
  const nodes = inFrame(take, { ...request, refPrefix: request.refPrefix ?? "" }, () => top["__stationAriaRefs"] as Map<string, Element> | undefined, []);
  top["__stationAriaFrames"] = chains;
  top["__stationCrossFrames"] = crossFrames;
  return { nodes, passwords, ...(cross.length ? { cross } : {}) };
}
