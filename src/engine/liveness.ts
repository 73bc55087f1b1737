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
 * is gone.
 */
import type { BrowserContext, CDPSession } from "playwright-core";
import { limits } from "../protocol/limits.js";

/** Probes one session's browser; one probe at a time. */
export class BrowserLiveness {
  private cdp: Promise<CDPSession> | undefined;
  private probing: Promise<string | undefined> | undefined;

  constructor(
    private readonly context: BrowserContext,
    private readonly timeoutMs: number = limits.liveness.probeTimeoutMs,
  ) {}

  /** Whether a probe is in flight. */
  get busy(): boolean {
    return this.probing !== undefined;
  }

  /**
   * Why the browser is gone, or `undefined` when it answered in time (or
   * cannot be asked: a persistent context has no browser object). A probe
   * already in flight is shared. Never throws.
   */
  check(): Promise<string | undefined> {
    this.probing ??= this.probe().finally(() => (this.probing = undefined));
    return this.probing;
  }

  /**
   * Probes every `intervalMs` until stopped; calls `onGone` once with the
   * reason when a probe says the browser is gone. A probe in flight when
   * stopped still reports.
   */
  watch(onGone: (reason: string) => void, intervalMs: number = limits.liveness.probeIntervalMs): () => void {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const next = () => {
      timer = setTimeout(() => {
        void this.check().then((reason) => {
          if (reason !== undefined) onGone(reason);
          else if (!stopped) next();
        });
      }, intervalMs);
    };
    next();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }

  private async probe(): Promise<string | undefined> {
    const browser = this.context.browser();
    if (!browser) return undefined;
    if (!browser.isConnected()) return "the browser connection is closed";
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`the browser did not answer a CDP probe (Browser.getVersion) within ${this.timeoutMs} ms`), this.timeoutMs);
    });
    const asked = (async () => {
      this.cdp ??= browser.newBrowserCDPSession();
      await (await this.cdp).send("Browser.getVersion");
      return undefined;
    })().catch((error: unknown) => {
      this.cdp = undefined;
      return `the browser connection failed (${(error instanceof Error ? error.message : String(error)).split("\n")[0]})`;
    });
    try {
      return await Promise.race([asked, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
