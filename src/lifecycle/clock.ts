/** Time as the manager sees it: passed in, so tests can drive it. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

/** The real clock: `Date.now` and the global timers. Timers do not keep a Node process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    const timer = globalThis.setTimeout(callback, ms) as unknown as { unref?: () => void };
    timer.unref?.();
    return timer;
  },
  clearTimeout: (timer) => globalThis.clearTimeout(timer as Parameters<typeof globalThis.clearTimeout>[0]),
};
