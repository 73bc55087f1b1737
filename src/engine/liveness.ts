/**
 * Whether a session's browser still answers over CDP. A connection can die
 * without Playwright hearing of it: a network that drops silently sends no
 * FIN, so the socket never closes, and every command on it waits out its
 * whole deadline while the session (and its slot, and the provider's bill)
 * stays open. While a command runs, the engine asks the browser
 * `Browser.getVersion` (answered by the browser process, not the page, so a
 * page stuck in a script still counts as alive) every
 * `limits.liveness.probeIntervalMs`; no answer within
 * `limits.liveness.probeTimeoutMs`, or a probe that fails, means the browser
 * is gone. The timing is the neutral {@link LivenessProbe}'s.
 */
import type { BrowserContext, CDPSession } from "playwright-core";
import { LivenessProbe } from "../protocol/liveness.js";

/** Probes one session's browser through Playwright; one probe at a time. */
export class BrowserLiveness extends LivenessProbe {
  constructor(context: BrowserContext, timeoutMs?: number) {
    let cdp: Promise<CDPSession> | undefined;
    super(
      async () => {
        const browser = context.browser();
        // A persistent context has no browser object: it cannot be asked.
        if (!browser) return undefined;
        if (!browser.isConnected()) return "the browser connection is closed";
        try {
          cdp ??= browser.newBrowserCDPSession();
          await (await cdp).send("Browser.getVersion");
          return undefined;
        } catch (error) {
          cdp = undefined;
          throw error;
        }
      },
      timeoutMs === undefined ? {} : { timeoutMs },
    );
  }
}
