/**
 * Teardown never hangs: an adapter whose `close` never settles (a dead CDP
 * connection, a provider that never answers) ends `closeSession` with a
 * `TimeoutError` past `limits.teardown.closeMs`, the session's slot and its
 * `session-close` event are not held up, the release is owed
 * (`pendingReleases`), and `manager.close()` returns and reports it.
 */
import { describe, expect, it } from "vitest";
import { isTimeoutError } from "../../src/errors.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { limits } from "../../src/protocol/limits.js";
import { FakeAdapter } from "../helpers/fake-adapter.js";
import { FakeClock } from "../helpers/fake-clock.js";

/** A fake adapter whose `close` never settles; `closing()` resolves when the next close starts. */
class HangingCloseAdapter extends FakeAdapter {
  private started: (() => void) | undefined;
  closing(): Promise<void> {
    return new Promise((resolve) => (this.started = resolve));
  }
  override close(handle: BrowserHandle): Promise<void> {
    this.closed.push(handle.id);
    this.started?.();
    return new Promise(() => undefined);
  }
}

describe("bounded teardown", () => {
  it("ends a close that never settles, owes its release, and manager.close() returns with it reported", async () => {
    const clock = new FakeClock();
    const adapter = new HangingCloseAdapter();
    const manager = new BrowserSessionManager(adapter, 1, { clock });
    const closes: string[] = [];
    manager.events.on("session-close", (event) => closes.push(`${event.sessionId}:${event.reason}`));
    const { id, provider } = await manager.open();
    const handleId = adapter.openSessions()[0]!;

    let closing = adapter.closing();
    const closed = manager.closeSession(id).then(
      () => undefined,
      (error: unknown) => error,
    );
    await closing;
    clock.advance(limits.teardown.closeMs);
    const error = await closed;
    expect(isTimeoutError(error)).toBe(true);
    expect((error as Error).message).toMatch(new RegExp(`${provider} session ${handleId} did not finish within ${limits.teardown.closeMs} ms.*reconcile\\(\\) retries it`));
    expect(closes).toEqual([`${id}:closed`]);
    expect(manager.list()).toEqual([]);
    expect(manager.pendingReleases().map((release) => release.providerSessionId)).toEqual([handleId]);

    // close() retries the owed release once; that hangs too, and is bounded the same way.
    closing = adapter.closing();
    const report = manager.close();
    await closing;
    clock.advance(limits.teardown.closeMs);
    expect((await report).unreleased.map((release) => release.providerSessionId)).toEqual([handleId]);
    expect(adapter.closed).toEqual([handleId, handleId]);
  });
});
