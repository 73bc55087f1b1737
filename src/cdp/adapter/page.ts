/**
 * One page of a CDP session, as the CDP engine tracks it from the page's own
 * events, so that an action needs no round trip to learn where the page is:
 * the main frame's URL and loader, a count of its navigations, whether one is
 * pending, the lifecycle events of recent documents, the engine's isolated
 * world in the current document, and the title once read. Its dialogs are
 * answered at once as the session's policy decides, and the windows it opens
 * are announced to the session ({@link CdpSessionEvents}). The refs of its
 * latest accessibility snapshot live in the session's registry (`refs`),
 * dropped on every navigation.
 */
import { ActionFailedError, SessionClosedError, TimeoutError, isSessionClosedError } from "../../errors.js";
import { domSignalsExpression, signalsOf, type DomSignals } from "../../access/challenge-dom-signals.js";
import { judgeChallenge, type PageChallenge } from "../../access/page-challenge.js";
import type { DiagnosticsRing } from "../../protocol/diagnostics-ring.js";
import type { RefRegistry } from "../../protocol/refs.js";
import { limits } from "../../protocol/limits.js";
import { CdpProtocolError } from "../call-errors.js";
import type { CdpConnection } from "../connection.js";
import type { CdpSession } from "../session.js";
import { autoAttachParams, CdpFrameWorlds } from "./frame-worlds.js";
import { recordPageEvents } from "./page-events.js";
import type { CdpSessionEvents } from "./session-events.js";

/** The name of the engine's isolated world: page scripts cannot reach it, nor change the built-ins it uses. */
export const worldName = "__station_browser_use__";

/** Lifecycle events kept for this many recent documents. */
const loadersKept = 8;

/** Errors of a `Runtime.evaluate` whose context went away (a navigation): the call can be made again in the new document. */
const contextGone = /Cannot find context with specified id|Execution context was destroyed|Inspected target navigated or closed/;

/** A page the engine drives over its own flattened CDP session. */
export class CdpPage {
  readonly session: CdpSession;
  readonly targetId: string;
  readonly viewport: { width: number; height: number };
  /** What the session's pages share: the dialog policy, dialogs and windows seen. */
  readonly events: CdpSessionEvents;
  /** The page id the session gave it (`p1`, `p2` …; "" until it is registered). */
  pageId = "";
  /** The session's refs (one registry for all its pages, as under the Playwright engine: refs are session-unique). */
  get refs(): RefRegistry {
    return this.events.refs;
  }
  mainFrameId = "";
  /** The main frame's URL (unsanitised; callers sanitise what they report). */
  url = "about:blank";
  loaderId = "";
  /** Main-frame navigations so far, same-document ones included. */
  navigations = 0;
  /** The last document committed was restored from the back-forward cache (it fires no load events again). */
  fromCache = false;
  /** A main-frame navigation was requested and has neither committed nor stopped. */
  navigationPending = false;
  /** The session's ring of console messages, page errors, failed requests and dialogs (page-events.ts records into it). */
  get diagnostics(): DiagnosticsRing {
    return this.events.diagnostics;
  }
  /** Whether console messages and page errors are kept with their text (the session's `consoleText` open option). */
  get consoleText(): boolean {
    return this.events.consoleText;
  }
  /** The last main-frame document response: its status and headers (challenge detection reads them). */
  document?: { status: number; headers: Record<string, string> };
  /** Challenge detection on this page (see src/access/page-challenge.ts). */
  readonly challenge: PageChallenge = { stale: false };
  /** The engine's worlds in the page's cross-origin frames (in process or out of it). */
  readonly frames: CdpFrameWorlds;
  #title: { navigations: number; title: string } | undefined;
  #world: number | undefined;
  readonly #lifecycle = new Map<string, Set<string>>();
  readonly #watchers = new Set<() => void>();

  private constructor(session: CdpSession, targetId: string, viewport: { width: number; height: number }, events: CdpSessionEvents) {
    this.session = session;
    this.targetId = targetId;
    this.viewport = viewport;
    this.events = events;
    this.frames = new CdpFrameWorlds(session, (frame) => recordPageEvents(this, frame));
    this.#listen();
    recordPageEvents(this);
  }

  /** Creates a blank page target on `connection`, attaches to it and sets it up (viewport, events, the isolated world). */
  static async create(connection: CdpConnection, viewport: { width: number; height: number }, events: CdpSessionEvents): Promise<CdpPage> {
    const { targetId } = await connection.browser.send("Target.createTarget", { url: "about:blank" });
    return CdpPage.attach(connection, targetId, viewport, events);
  }

  /**
   * Attaches to a page target that exists already (a page the site opened)
   * and sets it up. A page still on its initial empty document (a popup
   * whose first navigation has not committed) is waited for until that
   * navigation commits, by `firstCommitBy` (epoch ms), as Playwright hands
   * out a popup only once it has navigated to its initial URL.
   */
  static async attach(
    connection: CdpConnection,
    targetId: string,
    viewport: { width: number; height: number },
    events: CdpSessionEvents,
    firstCommitBy?: number,
  ): Promise<CdpPage> {
    const session = await connection.attach(targetId);
    const page = new CdpPage(session, targetId, viewport, events);
    const [, , , , , , tree, world] = await Promise.all([
      session.send("Page.enable"),
      // Every page acts focused, as under Playwright (document.hasFocus(), the snapshot's [active]), however many share a browser.
      session.send("Emulation.setFocusEmulationEnabled", { enabled: true }),
      session.send("Runtime.enable"),
      session.send("Page.setLifecycleEventsEnabled", { enabled: true }),
      // An empty script in a named world: Chromium makes the world in every new document and announces its context.
      session.send("Page.addScriptToEvaluateOnNewDocument", { source: "", worldName }),
      session.send("Emulation.setDeviceMetricsOverride", { width: viewport.width, height: viewport.height, deviceScaleFactor: 1, mobile: false }),
      session.send("Page.getFrameTree"),
      // The world in the current document, in the same trip: a page target's main frame has the target's id.
      session.send("Page.createIsolatedWorld", { frameId: targetId, worldName, grantUniveralAccess: true }).then(
        ({ executionContextId }) => executionContextId,
        () => undefined,
      ),
      session.send("Network.enable"),
      session.send("Log.enable"),
      // Out-of-process (cross-site) iframes become child sessions of the page's.
      session.send("Target.setAutoAttach", autoAttachParams),
    ]);
    // A commit reported while the setup was under way is newer than the tree (answered from an older state).
    if (page.navigations === 0) {
      page.mainFrameId = tree.frameTree.frame.id;
      page.url = tree.frameTree.frame.url;
      page.loaderId = tree.frameTree.frame.loaderId;
    }
    // Made lazily instead if this one failed; one already gone with a navigation is found again when used.
    page.#world ??= world;
    if (firstCommitBy !== undefined && page.url === "") {
      // The browser's own word on the target's URL counts too: a commit just as the page was attached may not be reported to it.
      const off = connection.browser.on("Target.targetInfoChanged", ({ targetInfo }) => {
        if (targetInfo.targetId !== targetId || targetInfo.url === "" || page.url !== "") return;
        page.url = targetInfo.url;
        page.#notify();
      });
      await page
        .until(() => (page.url !== "" ? true : undefined), firstCommitBy, "waiting for the new page's first navigation")
        .catch((error: unknown) => {
          // Never committed in time: it is handed out on its initial document.
          if (!(error instanceof TimeoutError)) throw error;
        })
        .finally(off);
    }
    return page;
  }

  #listen(): void {
    const { session } = this;
    const isMain = (frameId: string) => frameId === this.mainFrameId;
    session.on("Page.frameNavigated", ({ frame, type }) => {
      if (frame.parentId !== undefined) return;
      this.fromCache = type === "BackForwardCacheRestore";
      this.mainFrameId = frame.id;
      this.url = frame.url;
      this.loaderId = frame.loaderId;
      this.navigations++;
      this.navigationPending = false;
      this.refs.invalidate(this.pageId, "the page navigated");
      this.#notify();
    });
    session.on("Page.navigatedWithinDocument", ({ frameId, url }) => {
      if (!isMain(frameId)) return;
      this.url = url;
      this.navigations++;
      this.refs.invalidate(this.pageId, "the page navigated");
      this.#notify();
    });
    session.on("Page.frameRequestedNavigation", ({ frameId, disposition }) => {
      if (isMain(frameId) && disposition === "currentTab") this.navigationPending = true;
      this.#notify();
    });
    session.on("Page.frameStartedNavigating", ({ frameId, navigationType }) => {
      if (isMain(frameId) && navigationType !== "sameDocument" && navigationType !== "historySameDocument") this.navigationPending = true;
      this.#notify();
    });
    session.on("Page.frameStoppedLoading", ({ frameId }) => {
      if (isMain(frameId)) this.navigationPending = false;
      this.#notify();
    });
    session.on("Page.lifecycleEvent", ({ frameId, loaderId, name }) => {
      if (!isMain(frameId)) return;
      let names = this.#lifecycle.get(loaderId);
      if (!names) {
        this.#lifecycle.set(loaderId, (names = new Set()));
        if (this.#lifecycle.size > loadersKept) this.#lifecycle.delete(this.#lifecycle.keys().next().value!);
      }
      names.add(name);
      this.#notify();
    });
    session.on("Runtime.executionContextCreated", ({ context }) => {
      const frameId = context.auxData?.frameId;
      if (context.name === worldName && (frameId === this.mainFrameId || this.mainFrameId === "")) this.#world = context.id;
      this.#notify();
    });
    session.on("Runtime.executionContextDestroyed", ({ executionContextId }) => {
      if (executionContextId === this.#world) this.#world = undefined;
    });
    session.on("Runtime.executionContextsCleared", () => {
      this.#world = undefined;
    });
    session.on("Page.javascriptDialogOpening", ({ type, message }) => {
      // Answered at once: by the one-shot policy if one is armed, else dismissed as unexpected (an out-of-process frame's too: they come here).
      session.send("Page.handleJavaScriptDialog", this.events.dialogOpened(type, message, this.pageId)).catch(() => undefined);
      this.#notify();
    });
    session.on("Page.windowOpen", () => this.events.windowOpened());
  }

  #notify(): void {
    for (const watcher of [...this.#watchers]) watcher();
  }

  /**
   * Resolves with what `check` returns once it returns something, checked now
   * and after each event of the page; rejects with a {@link TimeoutError} at
   * `deadlineAt` (epoch ms) and with a `SessionClosedError` when the session ends.
   */
  until<T>(check: () => T | undefined, deadlineAt: number, what: string): Promise<T> {
    const now = check();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise<T>((resolve, reject) => {
      const stop = new AbortController();
      const finish = (settle: () => void) => {
        this.#watchers.delete(watcher);
        clearTimeout(timer);
        stop.abort();
        settle();
      };
      const watcher = () => {
        const value = check();
        if (value !== undefined) finish(() => resolve(value));
      };
      const timer = setTimeout(() => finish(() => reject(new TimeoutError(`${what}: not within the time left`))), Math.max(0, deadlineAt - Date.now()));
      // A session that ends (or a page that crashes) sends no more events: the wait for a crash hears of both.
      this.session.waitForEvent("Inspector.targetCrashed", { signal: stop.signal, timeoutMs: limits.actionTimeoutMaxMs * 10 }).then(
        () => finish(() => reject(new SessionClosedError(`${what}: the page crashed`))),
        (error: unknown) => {
          if (isSessionClosedError(error)) finish(() => reject(error));
        },
      );
      this.#watchers.add(watcher);
    });
  }

  /** Whether the main frame's document of `loaderId` has fired lifecycle event `name` (`load`, `DOMContentLoaded`, `networkIdle`). */
  reached(loaderId: string, name: string): boolean {
    return this.#lifecycle.get(loaderId)?.has(name) === true;
  }

  /**
   * Waits until the current document has been parsed (its DOMContentLoaded),
   * at most until `by` (epoch ms); at once for a page on no document of the
   * web yet (blank, or not committed) or restored from the back-forward cache.
   * Never fails: past `by`, or when the page goes, the caller reads what is there.
   */
  async parsed(by: number): Promise<void> {
    const parsing = () => /^https?:/.test(this.url) && !this.fromCache && this.loaderId !== "" && !this.reached(this.loaderId, "DOMContentLoaded");
    if (!parsing()) return;
    await this.until(() => (parsing() ? undefined : true), by, "waiting for the new page's document").catch(() => undefined);
  }

  /** The context id of the engine's isolated world in the current document, made when there is none yet. */
  async world(): Promise<number> {
    if (this.#world !== undefined) return this.#world;
    const { executionContextId } = await this.session.send("Page.createIsolatedWorld", { frameId: this.mainFrameId, worldName, grantUniveralAccess: true });
    this.#world = executionContextId;
    return executionContextId;
  }

  /**
   * Evaluates `expression` in the isolated world (a promise awaited) and
   * returns its value. A context that went away with a navigation is found
   * again in the new document while time is left (unless `once`). A thrown
   * exception is an `ActionFailedError` with the exception's first line.
   */
  async evaluateInWorld(expression: string, deadlineAt: number, once = false): Promise<unknown> {
    for (;;) {
      const contextId = await this.world();
      const timeoutMs = Math.max(1, deadlineAt - Date.now());
      try {
        const { result, exceptionDetails } = await this.session.send(
          "Runtime.evaluate",
          { expression, contextId, returnByValue: true, awaitPromise: true },
          { timeoutMs },
        );
        if (exceptionDetails) throw new ActionFailedError(firstLine(exceptionDetails.exception?.description ?? exceptionDetails.text));
        return result.value;
      } catch (error) {
        const gone = error instanceof CdpProtocolError && contextGone.test(error.cdpMessage);
        if (gone && this.#world === contextId) this.#world = undefined;
        if (!gone || once || Date.now() >= deadlineAt) throw error;
      }
    }
  }

  /** Notes the title of the current document (read by a script in the isolated world). */
  noteTitle(title: string, navigations: number): void {
    if (navigations === this.navigations) this.#title = { navigations, title };
  }

  /**
   * Whether the challenge classification of the current document is known
   * and still holds: read on this document, and no response hinted at a
   * challenge since (as the Playwright engine's `titleOf` decides).
   */
  get challengeRead(): boolean {
    return this.challenge.last?.navigations === this.navigations && !this.challenge.stale;
  }

  /**
   * Keeps what one read of the DOM signals showed (`navigations` as when the
   * read began): the title, and the challenge classification of the
   * document. A read from a document since replaced is dropped; one of a
   * document still being parsed is read again by the next action.
   */
  noteDocument(dom: DomSignals, navigations: number): void {
    if (navigations !== this.navigations) return;
    this.noteTitle(dom.title, navigations);
    judgeChallenge(this.challenge, signalsOf(this, dom), navigations);
    if (dom.loading) this.challenge.stale = true;
  }

  /**
   * The current document's title: known already (unless `fresh`, or the
   * document's challenge signals are not read yet or a response hinted at a
   * challenge since), or read now in the isolated world with the challenge
   * signals, in one round trip (as the Playwright engine reads them with the
   * title, once per document).
   */
  async title(deadlineAt: number, fresh = false): Promise<string> {
    if (!fresh && this.challengeRead && this.#title?.navigations === this.navigations) return this.#title.title;
    const navigations = this.navigations;
    const dom = (await this.evaluateInWorld(domSignalsExpression, deadlineAt)) as DomSignals | null;
    if (typeof dom !== "object" || dom === null || typeof dom.title !== "string") {
      this.noteTitle("", navigations);
      return "";
    }
    this.noteDocument(dom, navigations);
    return dom.title;
  }
}

/** The first line of an exception's description (`Error: boom`, without its stack). */
export function firstLine(text: string): string {
  return (text.split("\n")[0] ?? text).trim();
}
