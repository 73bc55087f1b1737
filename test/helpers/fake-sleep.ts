/**
 * Fake timers for a provider's `sleep` option, so tests never wait on the
 * clock: `fakeSleep` returns at once, `heldSleep` holds each wait until the
 * test lets it go (or its signal aborts).
 */
import { ActionFailedError } from "../../src/errors.js";

type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Records each wait and returns at once (or throws when cancelled). */
export function fakeSleep(): { waits: number[]; sleep: Sleep } {
  const waits: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal) => {
    if (signal?.aborted) throw new ActionFailedError("cancelled");
    waits.push(ms);
  };
  return { waits, sleep };
}

/** Holds every wait: `nextWait()` resolves when one starts, `proceed()` ends the waits in progress; an abort rejects them. */
export function heldSleep(): { waits: number[]; sleep: Sleep; nextWait(): Promise<void>; proceed(): void } {
  const waits: number[] = [];
  let held: (() => void)[] = [];
  let onWait: (() => void)[] = [];
  const sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new ActionFailedError("cancelled"));
      waits.push(ms);
      held.push(resolve);
      signal?.addEventListener("abort", () => reject(new ActionFailedError("cancelled")), { once: true });
      for (const notify of onWait.splice(0)) notify();
    });
  return {
    waits,
    sleep,
    nextWait: () => new Promise<void>((resolve) => onWait.push(resolve)),
    proceed() {
      const waiting = held;
      held = [];
      for (const resolve of waiting) resolve();
    },
  };
}
