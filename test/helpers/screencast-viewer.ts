import type { ScreencastFrame, ScreencastListener } from "../../src/protocol/adapter.js";

/** A live screencast viewer that keeps its frames and can wait for one that matches. */
export function screencastViewer() {
  const frames: ScreencastFrame[] = [];
  const waiters: { test: (frame: ScreencastFrame) => boolean; resolve: (frame: ScreencastFrame) => void }[] = [];
  let resolveEnd: (reason: string) => void = () => undefined;
  const ended = new Promise<string>((resolve) => (resolveEnd = resolve));
  const listener: ScreencastListener = {
    frame(frame) {
      frames.push(frame);
      for (const waiter of [...waiters]) if (waiter.test(frame)) waiters.splice(waiters.indexOf(waiter), 1) && waiter.resolve(frame);
    },
    end: (reason) => resolveEnd(reason),
  };
  /** The first frame so far or to come that passes `test`. */
  const next = (test: (frame: ScreencastFrame) => boolean = () => true) =>
    new Promise<ScreencastFrame>((resolve) => {
      const seen = frames.find(test);
      if (seen) resolve(seen);
      else waiters.push({ test, resolve });
    });
  return { listener, frames, next, ended };
}
