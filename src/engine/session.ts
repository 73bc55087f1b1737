import type { BrowserContext, Dialog, Download, Page } from "playwright-core";
import { NotFoundError, SessionClosedError } from "../errors.js";
import { limits } from "../protocol/limits.js";
import type { DialogInfo, PageInfo } from "../protocol/results.js";
import { refusalReason, sanitizeUrl } from "../protocol/url-policy.js";
import type { PrivateNetworkGuard } from "./private-network-guard.js";
import { DiagnosticsRing } from "../protocol/diagnostics-ring.js";
import { watchPageEvents } from "./page-events.js";
import { DownloadStore } from "./downloads.js";
import { MainFrameProbe } from "./isolated-world.js";
import { isNavigationPending, PendingNavigation } from "./pending-navigation.js";
import { RefRegistry } from "../protocol/refs.js";
import { readDomSignalsOf, signalsOf, type DomSignals } from "./challenge-signals.js";
import { hintsChallenge, judgeChallenge, solverOfConsole, type PageChallenge } from "../access/page-challenge.js";

/** One page of a session, with the counters actions are measured against. */
export interface PageState {
  id: string;
  page: Page;
  /** Main-frame navigations so far. */
  navigations: number;
  /** The main-frame navigation in progress, if any (a page cannot be read meanwhile). */
  navigation: PendingNavigation;
  /** The title last read, until the page navigates or loads (action results reuse it). */
  title?: string | undefined;
  /** Reads of the main frame in the engine's own isolated world, over the page's CDP session. */
  probe?: MainFrameProbe;
  /** The last main-frame document response the network delivered (challenge detection reads its status and headers). */
  document?: { status: number; headers: Record<string, string> };
  /** Challenge detection on this page: read with the title, once per document (see {@link EngineSession.titleOf}). */
  challenge: PageChallenge;
}

/** Counters an action is measured against, taken before it runs. */
export interface ActionMark {
  dialogSeq: number;
  /** Windows the session's pages announced opening (`Page.windowOpen`). */
  windowOpens: number;
  /** Pages the site opened that arrived (popups, new tabs), counting those closed at once. */
  arrivals: number;
}

interface DialogPolicy {
  action: "accept" | "dismiss";
  promptText?: string;
  expiresAt: number;
}

/** Options a session is created with. */
export interface EngineSessionOptions {
  consoleText: boolean;
  downloadMaxBytes: number;
  /** The time the dialog policy expires against (ms since the epoch). */
  now: () => number;
  /** Called once when the browser context closes (the browser went away, or it was closed). */
  onClose?: () => void;
  /** The `blockPrivateNetworks` policy, when on. */
  privateNetworks?: PrivateNetworkGuard;
}

/**
 * The live state of one browser session: its pages (with stable ids), the
 * selected page, refs, the dialog policy, diagnostics and downloads. It also
 * enforces the URL guard on popups and page navigations.
 */
export class EngineSession {
  readonly refs = new RefRegistry();
  readonly diagnostics = new DiagnosticsRing();
  readonly downloads: DownloadStore;
  readonly pages = new Map<string, PageState>();
  closed = false;
  /** Files staged for this session (`stageFile`), by file id: where the browser reads each. */
  readonly staged = new Map<string, { name: string; size: number; path: string }>();
  tracing: { timer: ReturnType<typeof setTimeout> } | undefined;

  private selectedId = "";
  /** Told when another page is selected, or when the session closes (the live screencast follows). */
  private readonly selectionListeners = new Set<() => void>();
  private pageCounter = 0;
  /** Main-frame navigations of every page of the session to a real document so far. */
  navigationCount = 0;
  private readonly ownPages = new WeakSet<Page>();
  /** Pages the site opened (popups, new tabs) that no action result has reported yet. */
  private readonly unreportedPages = new Set<string>();
  private dialogPolicy: DialogPolicy | undefined;
  /** A blank page being opened because the last one closed. */
  private replacement: Promise<void> | undefined;
  private dialogSeq = 0;
  /** Pages the agent asked for that the browser has not handed over yet. */
  private pendingOwnPages = 0;
  private lastDialog: { seq: number; info: DialogInfo } | undefined;
  private windowOpens = 0;
  private arrivals = 0;
  /** Woken when a window is announced or a page arrives. */
  private readonly popupWaiters = new Set<() => void>();

  private constructor(
    readonly id: string,
    readonly context: BrowserContext,
    private readonly options: EngineSessionOptions,
  ) {
    this.downloads = new DownloadStore(options.downloadMaxBytes, (event) => this.diagnostics.push(event));
  }

  /** Wraps a connected context: registers its pages and makes sure one is selected. */
  static async create(id: string, context: BrowserContext, options: EngineSessionOptions): Promise<EngineSession> {
    const session = new EngineSession(id, context, options);
    await options.privateNetworks?.install(context, (url, reason) => session.diagnostics.push({ kind: "navigation-blocked", url: sanitizeUrl(url), text: reason }));
    context.setDefaultTimeout(limits.actionTimeoutDefaultMs);
    context.setDefaultNavigationTimeout(limits.navigationTimeoutDefaultMs);
    context.on("page", (page) => session.arrived(page));
    context.on("close", () => {
      session.markClosed();
      options.onClose?.();
    });
    for (const page of context.pages()) session.register(page);
    if (session.pages.size === 0) await session.openPage();
    const first = [...session.pages.values()][0];
    if (first) session.selectedPageId = first.id;
    return session;
  }

  /** The id of the selected page ("" while none is). */
  get selectedPageId(): string {
    return this.selectedId;
  }

  set selectedPageId(pageId: string) {
    if (pageId === this.selectedId) return;
    this.selectedId = pageId;
    for (const listener of [...this.selectionListeners]) listener();
  }

  /** Calls `listener` whenever the selected page changes and when the session closes; returns the unsubscribe. */
  onSelectionChange(listener: () => void): () => void {
    this.selectionListeners.add(listener);
    return () => this.selectionListeners.delete(listener);
  }

  /** Marks the session closed (idempotent) and tells the selection listeners. */
  markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of [...this.selectionListeners]) listener();
  }

  /** Refuses a private target of a navigation before it is sent (when `blockPrivateNetworks` is on). */
  async assertReachable(url: string): Promise<void> {
    await this.options.privateNetworks?.assertAllowed(url);
  }

  /** Waits for a replacement page, if the last page just closed. */
  async ready(): Promise<void> {
    await this.replacement;
  }

  /** Opens a page the agent asked for; it is selected. */
  async openPage(): Promise<PageState> {
    this.pendingOwnPages++;
    let page: Page;
    try {
      page = await this.context.newPage();
      this.ownPages.add(page);
    } finally {
      this.pendingOwnPages--;
      // Pages the site opened meanwhile were counted in; those past the limit go now (also when this failed).
      this.enforcePageLimit();
    }
    const state = this.stateOf(page) ?? this.register(page);
    this.unreportedPages.delete(state.id);
    this.selectedPageId = state.id;
    this.enforcePageLimit();
    return state;
  }

  /** The selected page. */
  selected(): PageState {
    this.assertOpen();
    const state = this.pages.get(this.selectedPageId);
    if (!state) throw new NotFoundError(`Session ${this.id} has no selected page`);
    return state;
  }

  /** The selected page's URL (sanitised), or `undefined` when there is none. */
  selectedUrl(): string | undefined {
    const state = this.pages.get(this.selectedPageId);
    return state && !state.page.isClosed() ? sanitizeUrl(state.page.url()) : undefined;
  }

  /**
   * Stops the selected page's navigation if one is still pending: after a
   * command failed, nothing waits for it any more, and until it ends the page
   * could not be read. The page stays on its committed document.
   */
  async stopPendingNavigation(): Promise<void> {
    await this.pages.get(this.selectedPageId)?.navigation.stop();
  }

  /** A page by id. */
  page(pageId: string): PageState {
    this.assertOpen();
    const state = this.pages.get(pageId);
    if (!state) throw new NotFoundError(`Page ${pageId} does not exist in session ${this.id}; list pages with { op: "pages" }`);
    return state;
  }

  assertOpen(): void {
    if (this.closed) throw new SessionClosedError(`Session ${this.id} is closed`);
  }

  /** Counters to measure an action against. */
  mark(): ActionMark {
    return { dialogSeq: this.dialogSeq, windowOpens: this.windowOpens, arrivals: this.arrivals };
  }

  /**
   * Waits until every window a page announced opening since `mark` has
   * arrived as a page, for at most `ms`; returns at once when none was
   * announced. Chromium announces a window (`Page.windowOpen`) while the
   * input that opens it is handled, before the action returns; the page
   * itself surfaces a little later. A window opened later than that (from a
   * timer, say) is not waited for: the next action result reports it.
   */
  async popupsArrived(mark: ActionMark, ms: number): Promise<void> {
    const missing = () => this.windowOpens - mark.windowOpens > this.arrivals - mark.arrivals && !this.closed;
    if (!missing() || ms <= 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.popupWaiters.delete(check);
        resolve();
      };
      const check = () => {
        if (!missing()) done();
      };
      const timer = setTimeout(done, ms);
      this.popupWaiters.add(check);
    });
  }

  /**
   * The title of `state` for an action result: read once per document (and
   * again once it loads), since only a navigation or a load changes it as a
   * rule. A page's script may still retitle it later; observations read it
   * fresh ({@link describe}). The same in-page call reads the challenge
   * signals (read again when a response hinted at a challenge since).
   */
  async titleOf(state: PageState): Promise<string> {
    const { last, stale } = state.challenge;
    if (state.title !== undefined && !stale && last?.navigations === state.navigations) return state.title;
    return (await this.readTitleOf(state)) ?? "";
  }

  /** Reads the title of `state` and keeps it, unless the page navigated meanwhile or it is empty (maybe not parsed yet). */
  private async readTitleOf(state: PageState): Promise<string | undefined> {
    const navigations = state.navigations;
    const dom = await readDocument(state);
    if (dom) this.noteDocument(state, dom, navigations);
    return dom?.title;
  }

  /**
   * Keeps what one read of a page's document showed (`navigations` as when
   * the read began): its title, unless empty (maybe not parsed yet), and its
   * challenge classification. A read from a document since replaced is dropped.
   */
  noteDocument(state: PageState, dom: DomSignals, navigations: number): void {
    if (state.navigations !== navigations) return;
    if (dom.title) state.title = dom.title;
    judgeChallenge(state.challenge, signalsOf(state, dom), navigations);
    // A document still being parsed is read again by the next action.
    if (dom.loading) state.challenge.stale = true;
  }

  private wakePopupWaiters(): void {
    for (const check of [...this.popupWaiters]) check();
  }

  /**
   * Pages the site opened that no action result has reported yet; each is
   * reported once, by the first action that ends after it appeared.
   */
  takeUnreportedPages(): PageState[] {
    const pages = [...this.unreportedPages].flatMap((pageId) => this.pages.get(pageId) ?? []);
    this.unreportedPages.clear();
    return pages;
  }

  /** The dialog seen since `mark`, if any. */
  dialogSince(dialogSeq: number): DialogInfo | undefined {
    return this.lastDialog && this.lastDialog.seq > dialogSeq ? this.lastDialog.info : undefined;
  }

  /**
   * A page as `pages` lists it and `newPages` reports it, its title read now.
   * With `parsedBy` (epoch ms), a page whose document is still being parsed
   * is waited for until its DOMContentLoaded or then, so that a window the
   * site just opened is reported with its title.
   */
  async describe(state: PageState, parsedBy?: number): Promise<PageInfo> {
    if (parsedBy !== undefined) await parsed(state, parsedBy);
    const title = await this.readTitleOf(state);
    return {
      pageId: state.id,
      url: sanitizeUrl(state.page.url()),
      title: title ?? "",
      selected: state.id === this.selectedPageId,
    };
  }

  /** Arms the one-shot dialog policy. */
  setDialogPolicy(action: "accept" | "dismiss", timeoutMs: number, promptText?: string): number {
    const expiresAt = this.options.now() + timeoutMs;
    this.dialogPolicy = { action, expiresAt, ...(promptText === undefined ? {} : { promptText }) };
    return expiresAt;
  }

  private stateOf(page: Page): PageState | undefined {
    for (const state of this.pages.values()) if (state.page === page) return state;
    return undefined;
  }

  /**
   * A page appeared in the context. One the site opened past the limit is closed at once. While the
   * agent's own new page is on its way, an arriving page may be that one: it is counted, and the limit
   * is applied once the agent's page is known.
   */
  private arrived(page: Page): void {
    if (this.stateOf(page)) return;
    if (!this.ownPages.has(page)) this.arrivals++;
    if (!this.ownPages.has(page) && this.pendingOwnPages === 0 && this.pages.size >= limits.pagesPerSession) {
      this.closePastLimit(page);
    } else {
      this.register(page);
    }
    this.wakePopupWaiters();
  }

  private register(page: Page): PageState {
    const existing = this.stateOf(page);
    if (existing) return existing;
    const state: PageState = { id: `p${++this.pageCounter}`, page, navigations: 0, navigation: new PendingNavigation(page), challenge: { stale: false } };
    this.pages.set(state.id, state);
    if (!this.ownPages.has(page) && this.selectedPageId !== "") this.unreportedPages.add(state.id);
    page.on("framenavigated", (frame) => {
      if (frame !== page.mainFrame()) return;
      state.navigations++;
      state.title = undefined;
      // A document from a server committed (not the blank start of a page, nor Chromium's error page).
      if (!/^(about:blank|chrome-error:)/.test(frame.url())) this.navigationCount++;
      this.refs.invalidate(state.id, "the page navigated");
      this.guard(state);
    });
    // A document's title is normally set by the time it has loaded.
    const loaded = () => (state.title = undefined);
    page.on("domcontentloaded", loaded);
    page.on("load", loaded);
    page.on("close", () => this.unregister(state));
    page.on("dialog", (dialog) => void this.handleDialog(state, dialog));
    page.on("download", (download: Download) => this.downloads.track(download, state.id));
    const cdp = watchPageEvents(this.context, page, {
      download: (event) => this.downloads.observe(event),
      windowOpened: () => {
        this.windowOpens++;
        this.wakePopupWaiters();
      },
    });
    state.probe = new MainFrameProbe(cdp);
    page.on("console", (message) => {
      // Chromium's own verbose hints ("[DOM] Input elements should have autocomplete…") are noise.
      const type: string = message.type();
      if (type === "debug" || type === "verbose") return;
      const solver = solverOfConsole(message.text());
      if (solver) state.challenge.solver = { ...solver, navigations: state.navigations };
      this.diagnostics.push({
        kind: "console",
        level: message.type(),
        pageId: state.id,
        url: sanitizeUrl(message.location().url || page.url()),
        ...(this.options.consoleText ? { text: message.text() } : {}),
      });
    });
    page.on("pageerror", (error) => {
      this.diagnostics.push({ kind: "pageerror", pageId: state.id, ...(this.options.consoleText ? { text: error.message } : {}) });
    });
    page.on("requestfailed", (request) => {
      this.diagnostics.push({
        kind: "request-failed",
        pageId: state.id,
        url: sanitizeUrl(request.url()),
        text: request.failure()?.errorText ?? "failed",
      });
    });
    page.on("response", (response) => {
      const request = response.request();
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
        state.document = { status: response.status(), headers: response.headers() };
      } else if (hintsChallenge(request.resourceType(), response.status(), response.headers())) {
        state.challenge.stale = true;
      }
      if (response.status() >= 400) {
        this.diagnostics.push({ kind: "response-error", pageId: state.id, url: sanitizeUrl(response.url()), status: response.status() });
      }
    });
    this.guard(state);
    return state;
  }

  /** Closes the newest pages the site opened while the session has more than `limits.pagesPerSession`. */
  private enforcePageLimit(): void {
    if (this.pendingOwnPages > 0) return;
    const excess = this.pages.size - limits.pagesPerSession;
    if (excess <= 0) return;
    const popups = [...this.pages.values()].filter((state) => !this.ownPages.has(state.page)).slice(-excess);
    for (const state of popups) {
      this.unregister(state);
      this.unreportedPages.delete(state.id);
      this.closePastLimit(state.page, state.id);
    }
  }

  private closePastLimit(page: Page, pageId?: string): void {
    this.diagnostics.push({
      kind: "popup-closed",
      ...(pageId ? { pageId } : {}),
      url: sanitizeUrl(page.url()),
      text: `the session already has ${limits.pagesPerSession} pages, its limit`,
    });
    page.close().catch(() => undefined);
  }

  private unregister(state: PageState): void {
    this.pages.delete(state.id);
    this.refs.invalidate(state.id, "the page was closed");
    if (this.selectedPageId !== state.id) return;
    const remaining = [...this.pages.values()];
    const last = remaining[remaining.length - 1];
    if (last) {
      this.selectedPageId = last.id;
    } else if (!this.closed) {
      // The last page closed (by the agent or by the site): keep the session usable with a blank one.
      this.selectedPageId = "";
      const replacement = this.openPage().then(
        () => undefined,
        () => undefined,
      );
      this.replacement = replacement;
      void replacement.then(() => {
        if (this.replacement === replacement) this.replacement = undefined;
      });
    }
  }

  /** Closes popups that land on a non-web URL; sends other pages back to about:blank. */
  private guard(state: PageState): void {
    const url = state.page.url();
    // Chromium shows its own error page after a failed navigation; that is not a navigation target.
    const reason = url === "" || url.startsWith("chrome-error://") ? undefined : refusalReason(url);
    if (reason === undefined) return;
    if (!this.ownPages.has(state.page)) {
      this.diagnostics.push({ kind: "popup-closed", pageId: state.id, url: sanitizeUrl(url), text: reason });
      state.page.close().catch(() => undefined);
      return;
    }
    this.diagnostics.push({ kind: "navigation-blocked", pageId: state.id, url: sanitizeUrl(url), text: reason });
    state.page.goto("about:blank").catch(() => undefined);
  }

  private async handleDialog(state: PageState, dialog: Dialog): Promise<void> {
    const policy = this.dialogPolicy;
    const armed = policy !== undefined && policy.expiresAt > this.options.now();
    this.dialogPolicy = undefined;
    const accept = armed && policy.action === "accept";
    const info: DialogInfo = {
      type: dialog.type() as DialogInfo["type"],
      message: dialog.message().slice(0, limits.dialog.messageLength),
      handled: accept ? "accepted" : "dismissed",
      unexpected: !armed,
    };
    this.lastDialog = { seq: ++this.dialogSeq, info };
    this.diagnostics.push({ kind: "dialog", pageId: state.id, level: info.type, text: info.handled });
    try {
      if (accept) await dialog.accept(policy.promptText);
      else await dialog.dismiss();
    } catch {
      // The page went away with its dialog; nothing left to handle.
    }
  }
}

/**
 * The title and challenge signals of a page's document in one call, or
 * `undefined` when it cannot be read now (between documents, or the page went
 * away). Read in the engine's own isolated world when it can be (no Playwright
 * script to set up in a new document), else through Playwright.
 */
async function readDocument(state: PageState): Promise<DomSignals | undefined> {
  const { page } = state;
  if (isNavigationPending(page)) return undefined;
  try {
    return await readDomSignalsOf(page, state.probe);
  } catch {
    return undefined;
  }
}

/**
 * Waits until the page's document has been parsed (its DOMContentLoaded), at
 * most until `by` (epoch ms); at once for a page on no document of the web
 * (blank). Never fails: past `by`, or when the page goes, the caller reads
 * what is there.
 */
async function parsed(state: PageState, by: number): Promise<void> {
  const timeout = by - Date.now();
  // Playwright reads a timeout of 0 as none.
  if (timeout < 1 || !/^https?:/.test(state.page.url())) return;
  await state.page.waitForLoadState("domcontentloaded", { timeout }).catch(() => undefined);
}
