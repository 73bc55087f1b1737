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

/**
 * Waits `ms` on `clock`; resolves `true` when the time passed, `false` at
 * once when `signal` aborts first (the timer is cleared).
 */
export function waitOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clock.clearTimeout(timer);
      resolve(false);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * `work`'s own outcome when it settles within `ms` on `clock`; otherwise a
 * rejection with `late()` once the time passes (`work` may still settle
 * later; its outcome is then dropped). Teardown steps use it so that closing
 * never waits forever on a dead connection.
 *
 * @example
 * ```ts
 * await within(browser.close(), 5_000, () => new TimeoutError("disconnect did not finish"));
 * ```
 */
export function within<T>(work: Promise<T>, ms: number, late: () => Error, clock: Clock = systemClock): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(late()), ms);
    work.then(
      (value) => {
        clock.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clock.clearTimeout(timer);
        reject(error);
      },
    );
  });
}
