import type { CDPSession, Frame, Page } from "playwright-core";
import { CapacityError } from "../errors.js";
import type { ScreencastFrame, ScreencastListener, ScreencastWatch } from "../protocol/adapter.js";
import { liveViewServing, limits } from "../protocol/limits.js";
import { imageSize } from "./screenshot.js";
import type { EngineSession } from "./session.js";

/** The screencast running on one page. */
interface Cast {
  pageId: string;
  cdp: CDPSession;
  /** Removes the page listeners that retry a refused start. */
  unwatch: () => void;
}

/** `Page.startScreencast`: JPEG, capped at the agent screenshot size, every frame. */
function startParams() {
  const { agentMaxWidth: maxWidth, agentMaxHeight: maxHeight } = limits.screenshot;
  return { format: "jpeg" as const, quality: liveViewServing.jpegQuality, maxWidth, maxHeight, everyNthFrame: 1 };
}

/**
 * The live screencast of one session, shared by its viewers (at most
 * `liveViewServing.viewersPerSession`): one CDP `Page.startScreencast` (JPEG,
 * capped at 1280×800) on the selected page, each frame acknowledged
 * (`Page.screencastFrameAck`) and handed to every viewer. It follows the
 * selection to another page, stops when the last viewer leaves, and ends every
 * watch when the session closes. A viewer joining gets the latest frame at
 * once (Chromium sends frames only when the page repaints).
 */
export class SessionScreencast {
  private readonly viewers = new Set<ScreencastListener>();
  private cast: Cast | undefined;
  private latest: ScreencastFrame | undefined;
  /** Switches run one after another: starting and stopping are CDP round trips. */
  private switching: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly session: EngineSession) {}

  /** @throws {CapacityError} when the session already has its limit of viewers. */
  async watch(listener: ScreencastListener): Promise<ScreencastWatch> {
    const max = liveViewServing.viewersPerSession;
    if (this.viewers.size >= max) {
      throw new CapacityError(`Session ${this.session.id} already has ${max} live viewers, its limit; close one first`);
    }
    this.session.assertOpen();
    this.viewers.add(listener);
    this.unsubscribe ??= this.session.onSelectionChange(() => void this.follow());
    if (this.latest && this.latest.pageId === this.session.selectedPageId) listener.frame(this.latest);
    try {
      await this.follow();
    } catch (error) {
      this.viewers.delete(listener);
      throw error;
    }
    let stopped = false;
    return {
      stop: async () => {
        if (stopped) return;
        stopped = true;
        this.viewers.delete(listener);
        await this.follow();
      },
    };
  }

  /** Puts the screencast on the page it should show now: the selected one while anyone watches, none otherwise. */
  private follow(): Promise<void> {
    const next = this.switching.then(() => this.switchTo());
    this.switching = next.catch(() => undefined);
    return next;
  }

  private async switchTo(): Promise<void> {
    if (this.session.closed) return this.end();
    const wanted = this.viewers.size > 0 ? this.session.pages.get(this.session.selectedPageId) : undefined;
    if (wanted && this.cast?.pageId === wanted.id) return;
    this.stopCast();
    if (!wanted || wanted.page.isClosed()) return;
    const cdp = await this.session.context.newCDPSession(wanted.page);
    const cast: Cast = { pageId: wanted.id, cdp, unwatch: () => undefined };
    this.cast = cast;
    cdp.on("Page.screencastFrame", (event) => {
      cdp.send("Page.screencastFrameAck", { sessionId: event.sessionId }).catch(() => undefined);
      if (this.cast !== cast) return;
      const { metadata } = event;
      const frame: ScreencastFrame = {
        mimeType: "image/jpeg",
        base64: event.data,
        ...(imageSize(Buffer.from(event.data, "base64")) ?? { width: 0, height: 0 }),
        viewportWidth: metadata.deviceWidth,
        viewportHeight: metadata.deviceHeight,
        pageId: cast.pageId,
      };
      this.latest = frame;
      for (const viewer of [...this.viewers]) viewer.frame(frame);
    });
    await this.start(cast, wanted.page);
  }

  /**
   * Starts Chromium's screencast for `cast` (it then lasts across the page's
   * documents). Chromium refuses while the page is between documents ("Not
   * attached to an active page": the old one is no longer active, the new one
   * not attached yet); the same CDP session asks again once the page has
   * committed or loaded a document, counted from before each request, so a
   * commit that overtakes the refusal's answer is not missed.
   */
  private start(cast: Cast, page: Page): Promise<void> {
    let moved = false;
    let refused = false;
    const attempt = async (): Promise<void> => {
      if (this.cast !== cast) return;
      moved = false;
      try {
        await cast.cdp.send("Page.startScreencast", startParams());
        cast.unwatch();
      } catch {
        if (this.cast !== cast) return;
        if (moved) return attempt();
        refused = true;
      }
    };
    const onMove = () => {
      moved = true;
      if (!refused) return;
      refused = false;
      void attempt();
    };
    const onCommit = (frame: Frame) => {
      if (!frame.parentFrame()) onMove();
    };
    page.on("framenavigated", onCommit).on("domcontentloaded", onMove).on("load", onMove);
    cast.unwatch = () => void page.off("framenavigated", onCommit).off("domcontentloaded", onMove).off("load", onMove);
    return attempt();
  }

  /**
   * Stops the running screencast. Not awaited: Chromium answers the detach
   * only once a navigation pending on that page commits, and the screencast
   * must follow the selection now.
   */
  private stopCast(): void {
    const cast = this.cast;
    this.cast = undefined;
    if (!cast) return;
    cast.unwatch();
    void cast.cdp
      .send("Page.stopScreencast")
      .catch(() => undefined)
      .then(() => cast.cdp.detach())
      .catch(() => undefined);
  }

  /** The session closed: every watch ends. */
  private async end(): Promise<void> {
    const viewers = [...this.viewers];
    this.viewers.clear();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.cast = undefined;
    for (const viewer of viewers) viewer.end("closed");
  }
}
