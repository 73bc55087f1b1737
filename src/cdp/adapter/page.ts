/**
 * One page of a CDP session, as the CDP engine tracks it from the page's own
 * events, so that an action needs no round trip to learn where the page is:
 * the main frame's URL and loader, a count of its navigations, whether one is
 * pending, the lifecycle events of recent documents, the engine's isolated
 * world in the current document, the title once read, the refs of its latest
 * accessibility snapshot, and dialogs (each dismissed at once: the engine has
 * no dialog policy yet).
 */
import { ActionFailedError, SessionClosedError, TimeoutError, isSessionClosedError } from "../../errors.js";
import type { PageChallenge } from "../../access/page-challenge.js";
import { DiagnosticsRing } from "../../protocol/diagnostics-ring.js";
import type { DialogInfo } from "../../protocol/results.js";
import { RefRegistry } from "../../protocol/refs.js";
import { limits } from "../../protocol/limits.js";
import { CdpProtocolError } from "../call-errors.js";
import type { CdpConnection } from "../connection.js";
import type { CdpSession } from "../session.js";
import { recordPageEvents } from "./page-events.js";

/** What a page records beyond its own state: into which diagnostics ring (its session's), and whether with console text. */
export interface CdpPageOptions {
  diagnostics?: DiagnosticsRing;
  consoleText?: boolean;
}

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
  /** The page's id, as results and refs name it (one page per session: the Playwright engine's first page id). */
  readonly id = "p1";
  /** Refs of the latest accessibility snapshot; dropped on every navigation. */
  readonly refs = new RefRegistry();
  /** Dialogs seen, oldest first (each was dismissed at once). */
  readonly dialogs: DialogInfo[] = [];
  /** The session's ring of console messages, page errors, failed requests and dialogs (page-events.ts records into it). */
  readonly diagnostics: DiagnosticsRing;
  /** Whether console messages and page errors are kept with their text (the `consoleText` open option). */
  readonly consoleText: boolean;
  /** The last main-frame document response: its status and headers (challenge detection reads them). */
  document?: { status: number; headers: Record<string, string> };
  /** Challenge detection on this page (see src/access/page-challenge.ts). */
  readonly challenge: PageChallenge = { stale: false };
  #title: { navigations: number; title: string } | undefined;
  #world: number | undefined;
  readonly #lifecycle = new Map<string, Set<string>>();
  readonly #watchers = new Set<() => void>();

  private constructor(session: CdpSession, targetId: string, viewport: { width: number; height: number }, options: CdpPageOptions) {
    this.session = session;
    this.targetId = targetId;
    this.viewport = viewport;
    this.diagnostics = options.diagnostics ?? new DiagnosticsRing();
    this.consoleText = options.consoleText ?? false;
    this.#listen();
    recordPageEvents(this);
  }

  /** Creates a blank page target on `connection`, attaches to it and sets it up (viewport, events, the isolated world). */
  static async create(connection: CdpConnection, viewport: { width: number; height: number }, options: CdpPageOptions = {}): Promise<CdpPage> {
    const { targetId } = await connection.browser.send("Target.createTarget", { url: "about:blank" });
    const session = await connection.attach(targetId);
    const page = new CdpPage(session, targetId, viewport, options);
    const [, , , , , , tree] = await Promise.all([
      session.send("Page.enable"),
      // Every page acts focused, as under Playwright (document.hasFocus(), the snapshot's [active]), however many share a browser.
      session.send("Emulation.setFocusEmulationEnabled", { enabled: true }),
      session.send("Runtime.enable"),
      session.send("Page.setLifecycleEventsEnabled", { enabled: true }),
      // An empty script in a named world: Chromium makes the world in every new document and announces its context.
      session.send("Page.addScriptToEvaluateOnNewDocument", { source: "", worldName }),
      session.send("Emulation.setDeviceMetricsOverride", { width: viewport.width, height: viewport.height, deviceScaleFactor: 1, mobile: false }),
      session.send("Page.getFrameTree"),
      // What diagnostics and challenge detection record (page-events.ts).
      session.send("Network.enable"),
      session.send("Log.enable"),
    ]);
    page.mainFrameId = tree.frameTree.frame.id;
    page.url = tree.frameTree.frame.url;
    page.loaderId = tree.frameTree.frame.loaderId;
    await page.world();
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
      this.refs.invalidate(this.id, "the page navigated");
      this.#notify();
    });
    session.on("Page.navigatedWithinDocument", ({ frameId, url }) => {
      if (!isMain(frameId)) return;
      this.url = url;
      this.navigations++;
      this.refs.invalidate(this.id, "the page navigated");
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
      // No dialog policy yet: every dialog is unexpected and dismissed at once, as the design has it.
      session.send("Page.handleJavaScriptDialog", { accept: false }).catch(() => undefined);
      const kind = type === "alert" || type === "confirm" || type === "prompt" || type === "beforeunload" ? type : "alert";
      this.dialogs.push({ type: kind, message: message.slice(0, limits.dialog.messageLength), handled: "dismissed", unexpected: true });
      if (this.dialogs.length > limits.diagnostics.ring) this.dialogs.shift();
      this.diagnostics.push({ kind: "dialog", pageId: this.id, level: kind, text: "dismissed" });
      this.#notify();
    });
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

  /** The current document's title: known already, or read now in the isolated world (one round trip). */
  async title(deadlineAt: number): Promise<string> {
    if (this.#title?.navigations === this.navigations) return this.#title.title;
    const navigations = this.navigations;
    const title = await this.evaluateInWorld("document.title", deadlineAt);
    const text = typeof title === "string" ? title : "";
    this.noteTitle(text, navigations);
    return text;
  }
}

/** The first line of an exception's description (`Error: boom`, without its stack). */
export function firstLine(text: string): string {
  return (text.split("\n")[0] ?? text).trim();
}
