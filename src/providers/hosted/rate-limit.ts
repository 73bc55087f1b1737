/**
 * Bounded waiting on a provider's 429. A 429 is a definite refusal (nothing
 * was created), so repeating the call after the wait the provider asked for
 * is safe; past the cap, the caller gets a `CapacityError` with the
 * provider's own words. Neutral code.
 */
import { ActionFailedError } from "../../errors.js";
import type { ProviderFailure } from "./errors.js";

/** The shortest wait after a 429, whatever it asks (ms). */
const minimumWaitMs = 250;
/** Retries after 429s, at most. */
const maximumTries = 5;

/** A timer; tests pass a fake one. It rejects when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Options of {@link retryAfterWait}. */
export interface RateLimitOptions {
  /** Total time spent waiting on 429s before giving up (ms, default 10 000). */
  capMs?: number;
  /** Wait used when a 429 names none (ms, default 1000). */
  defaultWaitMs?: number;
  /** Timer (tests pass a fake). */
  sleep?: Sleep;
}

/** The wait a 429 asks for, in ms: `retry-after-ms`, else `retry-after` (seconds or an HTTP date). */
export function retryAfterMs(headers: Record<string, string>, now = Date.now()): number | undefined {
  const ms = headers["retry-after-ms"];
  if (ms !== undefined) {
    const value = Number.parseFloat(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers["retry-after"];
  if (after !== undefined) {
    const seconds = Number.parseFloat(after);
    if (Number.isFinite(seconds) && seconds >= 0 && /^\s*[\d.]+\s*$/.test(after)) return seconds * 1000;
    const date = Date.parse(after);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  return undefined;
}

/** Sleeps, ending early with an error when the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ActionFailedError("cancelled while waiting for provider capacity"));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ActionFailedError("cancelled while waiting for provider capacity"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs `call`; on a 429 (as read by `read`) waits what the provider asked
 * and tries again, until the waits would pass `capMs`. Any other failure,
 * and the last 429, are rethrown as they came.
 */
export async function retryAfterWait<T>(
  call: () => Promise<T>,
  read: (error: unknown) => ProviderFailure,
  options: RateLimitOptions & { signal?: AbortSignal | undefined } = {},
): Promise<T> {
  const capMs = options.capMs ?? 10_000;
  const sleep = options.sleep ?? abortableSleep;
  let waited = 0;
  let tries = 0;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      const failure = read(error);
      if (failure.kind !== "status" || failure.status !== 429) throw error;
      // A floor under every wait, counted against the cap, and a bounded number of tries:
      // `retry-after: 0` (or a past date) must not become a tight loop.
      const wait = Math.max(minimumWaitMs, retryAfterMs(failure.headers) ?? options.defaultWaitMs ?? 1000);
      if (waited + wait > capMs || ++tries > maximumTries) throw error;
      await sleep(wait, options.signal);
      waited += wait;
    }
  }
}
