/**
 * The windows an input watch listens on: the realm's own window and every
 * same-origin window in the frames below it. Input lands in the document
 * that has the focus (keys) or is under the pointer (mouse, drags), which
 * may be a frame's; the events of one document never reach another's
 * window, so a watch on the top window alone would miss them.
 *
 * {@link sameOriginWindows} must be self-contained: its source is sent to the page.
 */
import { limits } from "../../protocol/limits.js";

/** Runs in the page (isolated world). Self-contained. `root` and the same-origin windows of its frames, `depth` frames deep at most. */
export function sameOriginWindows(root: Window, depth: number): Window[] {
  const found: Window[] = [];
  const walk = (view: Window, left: number) => {
    found.push(view);
    if (left === 0) return;
    for (let index = 0; index < view.length; index++) {
      try {
        const child = view[index] as Window;
        // A cross-origin frame's document cannot be read: it is not walked.
        if (child.document) walk(child, left - 1);
      } catch {
        // Cross-origin.
      }
    }
  };
  walk(root, depth);
  return found;
}

/** The call of `run(argument, windows)` as an expression, `windows` being the realm's {@link sameOriginWindows} (frames as deep as a target's chain may go). */
export function callWithFrameWindows<A>(run: (argument: A, windows: Window[]) => unknown, argument: A): string {
  const shim = (source: string) => `((__name) => (${source}))((target) => target)`;
  return `${shim(run.toString())}(${JSON.stringify(argument)}, ${shim(sameOriginWindows.toString())}(globalThis, ${limits.frameChain}))`;
}
