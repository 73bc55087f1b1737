/**
 * The adapter calls the manager's teardown makes (closing sessions,
 * settling uncertain opens, retrying releases), with `close` bounded in
 * time: a close that hangs on a dead connection or a provider that never
 * answers ends with a `TimeoutError` past `limits.teardown.closeMs`, so the
 * release is recorded as unconfirmed (`pendingReleases`, retried by
 * `reconcile()`) instead of holding up `closeSession` or `close()` forever.
 */
import { TimeoutError } from "../errors.js";
import type { BrowserAdapter } from "../protocol/adapter.js";
import { limits } from "../protocol/limits.js";
import { within, type Clock } from "./clock.js";

/** What teardown asks of an adapter. */
export type TeardownAdapter = Pick<BrowserAdapter, "find" | "adopt" | "close">;

/**
 * `adapter`'s `find`, `adopt` and a bounded `close`.
 *
 * @example
 * ```ts
 * const teardown = boundTeardown(adapter, systemClock);
 * await teardown.close(handle); // TimeoutError after limits.teardown.closeMs
 * ```
 */
export function boundTeardown(adapter: BrowserAdapter, clock: Clock, closeMs: number = limits.teardown.closeMs): TeardownAdapter {
  return {
    ...(adapter.find ? { find: (openTag) => adapter.find!(openTag) } : {}),
    ...(adapter.adopt ? { adopt: (found, options, signal) => adapter.adopt!(found, options, signal) } : {}),
    close: (handle) =>
      within(
        adapter.close(handle),
        closeMs,
        () => new TimeoutError(`Closing ${handle.provider} session ${handle.id} did not finish within ${closeMs} ms; its release is unconfirmed and it may still be running (reconcile() retries it)`),
        clock,
      ),
  };
}
