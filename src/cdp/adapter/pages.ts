/**
 * The pages of one CDP engine session, with the page ids, selection, page
 * limit and popup tracking of the Playwright engine: pages the agent opens,
 * and pages the session's own pages open (`window.open`, `target=_blank`),
 * found by their opener among the browser's targets (`Target.setDiscoverTargets`
 * on the connection's browser session; the browser may be shared, so only
 * targets opened by this session's pages are taken). A page the site opens
 * past `limits.pagesPerSession` is closed at once, and so is one on a URL
 * the URL policy refuses (a page of the agent's is sent back to
 * about:blank instead); the last page closing leaves a fresh blank one;
 * closing the session closes every page, those still arriving too.
 */
import { NotFoundError, SessionClosedError } from "../../errors.js";
import { limits } from "../../protocol/limits.js";
import type { PageInfo } from "../../protocol/results.js";
import { refusalReason, sanitizeUrl } from "../../protocol/url-policy.js";
import type { CdpConnection } from "../connection.js";
import type { TargetInfo } from "../protocol.js";
import { CdpPage } from "./page.js";
import type { CdpSessionEvents } from "./session-events.js";

/** The pages of a session. */
export class CdpPages {
  readonly connection: CdpConnection;
  readonly events: CdpSessionEvents;
  /** The session's id (the provider's), for messages. */
  readonly sessionId: string;
  readonly #viewport: { width: number; height: number };
  /** Registered pages by page id, oldest first. */
  readonly #pages = new Map<string, CdpPage>();
  /** Every target of this session (pages, popups being set up or closed past the limit): an opener among them makes a popup ours. */
  readonly #ours = new Set<string>();
  /** Popups being attached and set up, by target id. */
  readonly #arriving = new Map<string, Promise<void>>();
  /** Targets being closed (past the limit, or as the session closes). */
  readonly #closing = new Set<Promise<void>>();
  /** Pages the site opened (not the agent). */
  readonly #opened = new WeakSet<CdpPage>();
  /** Pages the site opened that no action result has reported yet. */
  readonly #unreported = new Set<string>();
  #selectedId = "";
  #counter = 0;
  #ownPending = 0;
  #replacement: Promise<void> | undefined;
  #closed = false;

  private constructor(sessionId: string, connection: CdpConnection, viewport: { width: number; height: number }, events: CdpSessionEvents) {
    this.sessionId = sessionId;
    this.connection = connection;
    this.#viewport = viewport;
    this.events = events;
    const { browser } = connection;
    browser.on("Target.targetCreated", ({ targetInfo }) => this.#created(targetInfo));
    browser.on("Target.targetDestroyed", ({ targetId }) => this.#gone(targetId));
    // The browser's word on where a window the site opened is, also when the page's events missed a commit (one just as it was attached).
    browser.on("Target.targetInfoChanged", ({ targetInfo }) => {
      const page = this.all.find((each) => each.targetId === targetInfo.targetId);
      if (page && this.#opened.has(page)) this.#guard(page, targetInfo.url);
    });
    browser.on("Target.detachedFromTarget", ({ sessionId: detached }) => {
      for (const page of this.#pages.values()) if (page.session.id === detached) this.#gone(page.targetId);
    });
  }

  /** Opens the session's first page, with the discovery of the targets its pages open. */
  static async open(sessionId: string, connection: CdpConnection, viewport: { width: number; height: number }, events: CdpSessionEvents): Promise<CdpPages> {
    const pages = new CdpPages(sessionId, connection, viewport, events);
    await Promise.all([connection.browser.send("Target.setDiscoverTargets", { discover: true }), pages.openPage()]);
    return pages;
  }

  /** Registered pages, oldest first. */
  get all(): CdpPage[] {
    return [...this.#pages.values()];
  }

  get selectedId(): string {
    return this.#selectedId;
  }

  /** The selected page. */
  selected(): CdpPage {
    this.#assertOpen();
    const page = this.#pages.get(this.#selectedId);
    if (!page) throw new NotFoundError(`Session ${this.sessionId} has no selected page`);
    return page;
  }

  /** The selected page, if there is one. */
  current(): CdpPage | undefined {
    return this.#pages.get(this.#selectedId);
  }

  /** A page by id; a closed page's id is never given again. */
  page(pageId: string): CdpPage {
    this.#assertOpen();
    const page = this.#pages.get(pageId);
    if (!page) throw new NotFoundError(`Page ${pageId} does not exist in session ${this.sessionId}; list pages with { op: "pages" }`);
    return page;
  }

  select(page: CdpPage): void {
    if (this.#pages.get(page.pageId) === page) this.#selectedId = page.pageId;
  }

  /** Waits for the blank page that replaces the last one, if the last page just closed. */
  async ready(): Promise<void> {
    await this.#replacement;
  }

  /** Opens a blank page the agent asked for; it is selected. */
  async openPage(): Promise<CdpPage> {
    this.#assertOpen();
    this.#ownPending++;
    let page: CdpPage;
    try {
      // A blank page runs nothing of the site's until it is navigated: its target id is known before it can open a window.
      page = await CdpPage.create(this.connection, this.#viewport, this.events);
      this.#ours.add(page.targetId);
    } finally {
      this.#ownPending--;
    }
    if (this.#closed) {
      await this.#close(page.targetId);
      throw new SessionClosedError(`Session ${this.sessionId} closed while a page was being opened`);
    }
    this.#register(page);
    this.#selectedId = page.pageId;
    return page;
  }

  /** Closes a page and waits until the browser says it is gone (bounded), then for a replacement if it was the last. */
  async closePage(page: CdpPage): Promise<void> {
    await this.#close(page.targetId);
    this.#gone(page.targetId);
    await this.ready();
  }

  /** Pages the site opened that no action result reported yet; each is reported once. */
  takeUnreported(): CdpPage[] {
    const pages = [...this.#unreported].flatMap((pageId) => this.#pages.get(pageId) ?? []);
    this.#unreported.clear();
    return pages;
  }

  /**
   * A page as `pages` lists it and `newPages` reports it; its title is read
   * now, as observations read it (empty when it cannot be). With `parsedBy`
   * (epoch ms), a page whose document is still being parsed is waited for
   * until its DOMContentLoaded or then, so that a window the site just opened
   * is reported with its title.
   */
  async describe(page: CdpPage, deadlineAt: number, parsedBy?: number): Promise<PageInfo> {
    if (parsedBy !== undefined) await page.parsed(Math.min(parsedBy, deadlineAt));
    const title = await page.title(deadlineAt, true).catch(() => "");
    return { pageId: page.pageId, url: sanitizeUrl(page.url), title, selected: page.pageId === this.#selectedId };
  }

  /** Closes every page of the session, the pages still arriving too, and waits until the browser has closed them. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    this.events.release();
    // Windows still arriving are closed too (one may be waiting for its first navigation to commit).
    await Promise.all([...this.all.map((page) => page.targetId), ...this.#arriving.keys()].map((targetId) => this.#close(targetId)));
    // A popup set up meanwhile closes itself as it arrives (the session is closed); so do late ones.
    while (this.#arriving.size > 0 || this.#closing.size > 0) await Promise.allSettled([...this.#arriving.values(), ...this.#closing]);
    this.#pages.clear();
  }

  #assertOpen(): void {
    if (this.#closed) throw new SessionClosedError(`Session ${this.sessionId} is closed`);
  }

  #register(page: CdpPage, popup = false): void {
    page.pageId = `p${++this.#counter}`;
    this.#pages.set(page.pageId, page);
    if (popup) {
      this.#opened.add(page);
      this.#unreported.add(page.pageId);
    }
    // After the page's own listener: its URL is the new document's.
    page.session.on("Page.frameNavigated", ({ frame }) => {
      if (frame.parentId === undefined) this.#guard(page);
    });
  }

  /**
   * The URL policy on a page's own navigations: a page the site opened that
   * lands on a refused URL (blob:, file: …) is closed; a page of the agent's
   * is sent back to about:blank. Chromium's own error page is no target.
   */
  #guard(page: CdpPage, url = page.url): void {
    if (!refused(url)) return;
    const text = refusalReason(url)!;
    if (this.#opened.has(page)) {
      this.events.diagnostics.push({ kind: "popup-closed", pageId: page.pageId, url: sanitizeUrl(url), text });
      void this.#close(page.targetId).then(() => this.#gone(page.targetId));
    } else {
      this.events.diagnostics.push({ kind: "navigation-blocked", pageId: page.pageId, url: sanitizeUrl(url), text });
      page.session.send("Page.navigate", { url: "about:blank" }).catch(() => undefined);
    }
  }

  /** Notes a window closed as it arrived because the session already has its limit of pages. */
  #closedPastLimit(url: string): void {
    this.events.diagnostics.push({ kind: "popup-closed", url: sanitizeUrl(url), text: `the session already has ${limits.pagesPerSession} pages, its limit` });
  }

  /** A target appeared in the browser: one opened by a page of this session is ours. */
  #created(info: TargetInfo): void {
    if (info.type !== "page" || info.openerId === undefined || !this.#ours.has(info.openerId) || this.#ours.has(info.targetId)) return;
    this.#ours.add(info.targetId);
    if (this.#closed || this.#pages.size + this.#arriving.size + this.#ownPending >= limits.pagesPerSession) {
      if (!this.#closed) this.#closedPastLimit(info.url);
      void this.#close(info.targetId);
      this.events.arrived();
      return;
    }
    const arrival = this.#adopt(info.targetId).finally(() => {
      this.#arriving.delete(info.targetId);
      this.events.arrived();
    });
    this.#arriving.set(info.targetId, arrival);
  }

  async #adopt(targetId: string): Promise<void> {
    let page: CdpPage;
    try {
      page = await CdpPage.attach(this.connection, targetId, this.#viewport, this.events, Date.now() + limits.navigationTimeoutMaxMs);
    } catch {
      // Gone before it could be set up (it closed itself, or the session closed it).
      if (this.#closed) await this.#close(targetId);
      return;
    }
    if (this.#closed || page.session.ended || refused(page.url) || this.#pages.size + this.#ownPending >= limits.pagesPerSession) {
      if (!this.#closed && !page.session.ended) {
        const reason = refused(page.url) ? refusalReason(page.url) : undefined;
        if (reason === undefined) this.#closedPastLimit(page.url);
        else this.events.diagnostics.push({ kind: "popup-closed", url: sanitizeUrl(page.url), text: reason });
      }
      await this.#close(targetId);
      return;
    }
    this.#register(page, true);
  }

  /** Closes a target and waits for the browser to say it is gone (bounded: a dead link never says). */
  #close(targetId: string): Promise<void> {
    const { browser } = this.connection;
    const gone = browser
      .waitForEvent("Target.targetDestroyed", { predicate: (event) => event.targetId === targetId, timeoutMs: limits.teardown.disconnectMs })
      .then(
        () => undefined,
        () => undefined,
      );
    const closing = browser.send("Target.closeTarget", { targetId }).then(
      () => gone,
      () => undefined,
    );
    this.#closing.add(closing);
    void closing.finally(() => this.#closing.delete(closing));
    return closing;
  }

  /** A page of the session is gone: it is forgotten; the selection moves to the newest page left, or to a fresh blank one. */
  #gone(targetId: string): void {
    const page = this.all.find((each) => each.targetId === targetId);
    if (!page) return;
    this.#pages.delete(page.pageId);
    this.#unreported.delete(page.pageId);
    if (this.#selectedId !== page.pageId) return;
    const last = this.all.at(-1);
    if (last) {
      this.#selectedId = last.pageId;
    } else if (!this.#closed) {
      this.#selectedId = "";
      const replacement = this.openPage().then(
        () => undefined,
        () => undefined,
      );
      this.#replacement = replacement;
      void replacement.then(() => {
        if (this.#replacement === replacement) this.#replacement = undefined;
      });
    }
  }
}

/** Whether the URL policy refuses a page's URL (its initial empty document and Chromium's error page are no navigation targets). */
function refused(url: string): boolean {
  return url !== "" && !url.startsWith("chrome-error://") && refusalReason(url) !== undefined;
}
