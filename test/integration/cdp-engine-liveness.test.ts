/**
 * The CDP engine's liveness probe, against a real Chromium through the
 * counting relay: the relay goes silent (no frame passes, no socket closes)
 * while a command waits; the probe's timers run on a fake clock the test
 * moves, so the session is reported gone within the bounds (one probe
 * interval, then one probe timeout) without waiting them out. The command
 * fails as the Playwright engine's does, the manager emits `session-close`
 * (browserGone) with its slot free, and the provider's release is sent.
 */
import { describe, expect, it } from "vitest";
import { isOutcomeUnknownError, isSessionClosedError } from "../../src/errors.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import { limits } from "../../src/protocol/limits.js";
import { startRelay } from "../helpers/cdp-relay.js";
import { useCdpBrowser } from "../helpers/cdp-engine.js";
import { FakeClock } from "../helpers/fake-clock.js";

/** A fake clock that also says when the next timer is set. */
class ArmedClock extends FakeClock {
  #waiting: Array<() => void> = [];

  override setTimeout(callback: () => void, ms: number): unknown {
    const id = super.setTimeout(callback, ms);
    for (const resolve of this.#waiting.splice(0)) resolve();
    return id;
  }

  /** Resolves when a timer is next set. */
  nextTimer(): Promise<void> {
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
}

const clock = new ArmedClock();
const browser = useCdpBrowser({ liveness: { timers: clock } });
const { probeIntervalMs, probeTimeoutMs } = limits.liveness;

describe("CDP engine liveness (counting relay, real Chromium)", () => {
  it.each([
    ["evaluate", { op: "evaluate", expression: "new Promise(() => {})", timeoutMs: 60_000 }, isOutcomeUnknownError],
    ["waitFor", { op: "waitFor", selector: "#never", timeoutMs: 60_000 }, isSessionClosedError],
  ] as const)("ends a session whose connection went silent under %s, within one interval and one probe timeout", async (_op, command, expected) => {
    const relay = await startRelay(browser.chromium.wsUrl);
    browser.provider.cdpUrl = relay.url;
    const manager = new BrowserSessionManager(browser.adapter, 1);
    try {
      const { id } = await manager.open({ openTag: crypto.randomUUID() });
      await manager.execute(id, { op: "evaluate", expression: "document.readyState" });
      const closed = new Promise<string>((resolve) => manager.events.on("session-close", (event) => event.sessionId === id && resolve(event.reason)));
      const armed = clock.nextTimer();
      const outcome = manager.execute(id, command).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      await armed;
      relay.drop();
      const sent = relay.frames.length;
      const released = browser.provider.released.length;
      const probes = () => relay.frames.slice(sent).filter((frame) => frame.kind === "command" && frame.method === "Browser.getVersion");
      // Just short of the interval nothing is asked; at the interval the probe goes out.
      clock.advance(probeIntervalMs - 1);
      expect(probes()).toHaveLength(0);
      clock.advance(1);
      await expect.poll(() => probes().length).toBe(1);
      // The probe went out unanswered; just short of its bound the session is still open.
      clock.advance(probeTimeoutMs - 1);
      expect(manager.list()).toHaveLength(1);
      clock.advance(1);
      const error = await outcome;
      expect(expected(error)).toBe(true);
      expect(error?.message).toMatch(/its browser is gone: the browser did not answer a CDP probe \(Browser\.getVersion\) within 10000 ms/);
      expect(await closed).toBe("browserGone");
      expect(manager.list()).toEqual([]);
      expect(browser.provider.released).toHaveLength(released + 1);
      expect(relay.frames.slice(sent).filter((frame) => frame.kind !== "command")).toEqual([]);
      expect(await manager.close()).toEqual({ unreleased: [], uncertain: [] });
    } finally {
      await relay.close();
    }
  }, 60_000);
});
