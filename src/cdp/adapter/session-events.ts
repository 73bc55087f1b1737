/**
 * What happens across the pages of one CDP engine session that an action is
 * measured against, as the Playwright engine measures it: the one-shot
 * dialog policy and the dialogs seen (each handled at once), the windows the
 * pages announced opening (`Page.windowOpen`) and the pages the site opened
 * that arrived (set up, or closed at once past the page limit).
 */
import { DiagnosticsRing } from "../../protocol/diagnostics-ring.js";
import { limits } from "../../protocol/limits.js";
import type { DialogInfo } from "../../protocol/results.js";
import { RefRegistry } from "../../protocol/refs.js";

/** How the page answers a dialog: the decision made when it opened. */
export interface DialogDecision {
  accept: boolean;
  promptText?: string;
}

/** Counters taken before an action. */
export interface SessionMark {
  dialogs: number;
  windowOpens: number;
  arrivals: number;
}

const dialogTypes = new Set<DialogInfo["type"]>(["alert", "confirm", "prompt", "beforeunload"]);

/** The session-wide events of a CDP engine session. */
export class CdpSessionEvents {
  /** Refs of each page's latest accessibility snapshot, numbered across the session. */
  readonly refs = new RefRegistry();
  #dialogSeq = 0;
  #lastDialog: { seq: number; info: DialogInfo } | undefined;
  #policy: { action: "accept" | "dismiss"; promptText?: string; expiresAt: number } | undefined;
  #windowOpens = 0;
  #arrivals = 0;
  readonly #waiters = new Set<(force?: boolean) => void>();

  /** The session's ring of console messages, page errors, failed requests and dialogs, from all its pages. */
  readonly diagnostics = new DiagnosticsRing();

  /**
   * `now` is the clock the dialog policy expires against (ms since the epoch);
   * `consoleText` keeps console messages and page errors with their text.
   */
  constructor(
    readonly now: () => number,
    readonly consoleText = false,
  ) {}

  mark(): SessionMark {
    return { dialogs: this.#dialogSeq, windowOpens: this.#windowOpens, arrivals: this.#arrivals };
  }

  /** Arms the one-shot policy for the next dialog; answers when it expires (epoch ms, on `now`). */
  setDialogPolicy(action: "accept" | "dismiss", timeoutMs: number, promptText?: string): number {
    const expiresAt = this.now() + timeoutMs;
    this.#policy = { action, expiresAt, ...(promptText === undefined ? {} : { promptText }) };
    return expiresAt;
  }

  /** A dialog opened: decides with the policy (used up, armed or not) and records what was done. */
  dialogOpened(type: string, message: string, pageId: string): DialogDecision {
    const policy = this.#policy;
    this.#policy = undefined;
    const armed = policy !== undefined && policy.expiresAt > this.now();
    const accept = armed && policy.action === "accept";
    const info: DialogInfo = {
      type: dialogTypes.has(type as DialogInfo["type"]) ? (type as DialogInfo["type"]) : "alert",
      message: message.slice(0, limits.dialog.messageLength),
      handled: accept ? "accepted" : "dismissed",
      unexpected: !armed,
    };
    this.#lastDialog = { seq: ++this.#dialogSeq, info };
    this.diagnostics.push({ kind: "dialog", pageId, level: info.type, text: info.handled });
    return accept && policy.promptText !== undefined ? { accept, promptText: policy.promptText } : { accept };
  }

  /** The last dialog seen since `mark`, if any. */
  dialogSince(mark: { dialogs: number }): DialogInfo | undefined {
    return this.#lastDialog && this.#lastDialog.seq > mark.dialogs ? this.#lastDialog.info : undefined;
  }

  /** A page of the session announced it is opening a window. */
  windowOpened(): void {
    this.#windowOpens++;
    this.#wake();
  }

  /** A page the site opened arrived (set up, closed past the limit, or gone before it could be). */
  arrived(): void {
    this.#arrivals++;
    this.#wake();
  }

  /**
   * Waits until every window announced since `mark` has arrived, for at most
   * `ms`; returns at once when none is missing. A window opened later than
   * the action (from a timer, say) is not waited for: the next result reports it.
   */
  async popupsArrived(mark: SessionMark, ms: number): Promise<void> {
    const missing = () => this.#windowOpens - mark.windowOpens > this.#arrivals - mark.arrivals;
    if (!missing() || ms <= 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve();
      };
      const check = (force = false) => {
        if (force || !missing()) done();
      };
      const timer = setTimeout(done, ms);
      this.#waiters.add(check);
    });
  }

  /** Ends every wait (the session closes). */
  release(): void {
    for (const waiter of [...this.#waiters]) waiter(true);
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}
