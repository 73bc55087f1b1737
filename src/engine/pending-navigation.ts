import type { Frame, Page, Request } from "playwright-core";
import { ActionFailedError, OutcomeUnknownError } from "../errors.js";
import { limits } from "../protocol/limits.js";
import { sanitizeUrl } from "../protocol/url-policy.js";

/**
 * A page's main-frame navigation from its request until it commits or ends.
 * While one is pending, Chromium runs no script in the page's current
 * document (CDP `Runtime.evaluate` waits), so every read of the page —
 * title, text, accessibility, screenshot — would sit out its whole timeout
 * behind a server that does not answer. Reads run {@link guarded}; a failed
 * mutating command {@link stop}s what it left pending, so the page stays on
 * its committed document.
 */
export class PendingNavigation {
  private request: Request | undefined;
  private readonly waiters = new Set<() => void>();
  /** Called when a navigation starts, with a function called when it ends. */
  private readonly starts = new Set<() => () => void>();
  private ends: (() => void)[] = [];

  constructor(private readonly page: Page) {
    pendingOf.set(page, this);
    page.on("request", (request) => {
      if (!request.isNavigationRequest() || frameOf(request) !== page.mainFrame()) return;
      const wasPending = this.request !== undefined;
      this.request = request;
      if (!wasPending) this.ends = [...this.starts].map((start) => start());
    });
    page.on("framenavigated", (frame: Frame) => {
      if (frame === page.mainFrame()) this.end(undefined);
    });
    // A navigation that ends without a document (aborted, stopped, a download, a 204) ends here.
    page.on("requestfailed", (request) => this.end(request));
    page.on("requestfinished", (request) => this.end(request));
    page.on("close", () => this.end(undefined));
  }

  /** The URL (sanitised) of the navigation in progress, or undefined when none is. */
  get url(): string | undefined {
    return this.request ? sanitizeUrl(this.request.url()) : undefined;
  }

  /** Resolves `true` once no navigation is pending, or `false` after `ms` if one still is. */
  settled(ms: number): Promise<boolean> {
    if (!this.request) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(value);
      };
      const wake = () => done(true);
      const timer = setTimeout(() => done(false), ms);
      this.waiters.add(wake);
    });
  }

  /**
   * Runs `read`, a read of the page, unless a main-frame navigation — pending
   * before it or starting while it runs — stays uncommitted for longer than
   * `pendingNavigationGraceMs`. A read cut off this way keeps running until
   * that navigation ends; its result is dropped.
   *
   * @param mutating whether `read` may change the page (`evaluate`): cut off
   *   once it ran, its outcome is unknown.
   * @throws {ActionFailedError} when the page waited that long before `read`
   *   began, or while a read-only `read` ran: it cannot be read until the
   *   navigation ends, and the message says how to move on.
   * @throws {OutcomeUnknownError} when a mutating `read` was cut off.
   */
  async guarded<T>(op: string, pageId: string, mutating: boolean, read: () => Promise<T>): Promise<T> {
    const grace = limits.pendingNavigationGraceMs;
    if (!(await this.settled(grace))) throw this.stalled(op, pageId);
    let fail: (error: Error) => void = () => undefined;
    const cutOff = new Promise<never>((_resolve, reject) => (fail = reject));
    const start = () => {
      const timer = setTimeout(() => {
        const stalled = this.stalled(op, pageId);
        fail(mutating ? new OutcomeUnknownError(`${stalled.message} It had started running, so it may have taken effect.`) : stalled);
      }, grace);
      return () => clearTimeout(timer);
    };
    this.starts.add(start);
    if (this.request) this.ends.push(start());
    const work = read();
    work.catch(() => undefined);
    try {
      return await Promise.race([work, cutOff]);
    } finally {
      this.starts.delete(start);
    }
  }

  private stalled(op: string, pageId: string): ActionFailedError {
    return new ActionFailedError(
      `${op}: page ${pageId} is waiting for its navigation to ${this.url ?? "a new document"}, which has not answered within ` +
        `${limits.pendingNavigationGraceMs} ms; the page cannot be read until it does. Navigate elsewhere (or to about:blank), or go back, to move on.`,
    );
  }

  /** Stops a pending navigation (as the browser's stop button does), leaving the committed document. */
  async stop(): Promise<void> {
    if (!this.request || this.page.isClosed()) return;
    try {
      const cdp = await this.page.context().newCDPSession(this.page);
      try {
        await cdp.send("Page.stopLoading");
      } finally {
        await cdp.detach().catch(() => undefined);
      }
    } catch {
      // The page went away meanwhile: nothing is left to stop.
      return;
    }
    await this.settled(limits.pendingNavigationGraceMs);
  }

  private end(request: Request | undefined): void {
    if (request !== undefined && request !== this.request) return;
    if (this.request === undefined) return;
    this.request = undefined;
    for (const end of this.ends.splice(0)) end();
    for (const wake of [...this.waiters]) wake();
  }
}

const pendingOf = new WeakMap<Page, PendingNavigation>();

/** True while `page` has a main-frame navigation that has not committed (its title cannot be read). */
export function isNavigationPending(page: Page): boolean {
  return pendingOf.get(page)?.url !== undefined;
}

/** A request's frame; service-worker requests have none. */
function frameOf(request: Request): Frame | undefined {
  try {
    return request.frame();
  } catch {
    return undefined;
  }
}
