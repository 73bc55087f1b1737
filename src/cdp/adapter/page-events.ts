/**
 * What a CDP engine page records from its own events for `diagnostics` and
 * challenge detection, as the Playwright engine records from Playwright's
 * (src/engine/session.ts): console messages (the console API and the
 * browser's log; debug and verbose ones left out), uncaught page errors,
 * failed requests and responses ≥ 400 into the session's ring, with URLs
 * sanitised and console text only when enabled; and the main document's
 * status and headers, Browserbase's solver markers from the console, and
 * responses that hint at a challenge. Sends nothing.
 */
import { hintsChallenge, solverOfConsole, type PageChallenge } from "../../access/page-challenge.js";
import type { DiagnosticsRing } from "../../protocol/diagnostics-ring.js";
import { sanitizeUrl } from "../../protocol/url-policy.js";
import type { CdpSession } from "../session.js";
import { consoleTextOf, pageErrorMessageOf } from "./console-text.js";

/** URLs of requests in flight kept for their failure's report, at most. */
const requestsKept = 1000;

/** The part of a page its events are recorded into. */
export interface RecordedPage {
  readonly session: CdpSession;
  readonly pageId: string;
  readonly url: string;
  readonly mainFrameId: string;
  readonly navigations: number;
  readonly diagnostics: DiagnosticsRing;
  readonly consoleText: boolean;
  /** The last main-frame document response (challenge detection reads its status and headers). */
  document?: { status: number; headers: Record<string, string> };
  readonly challenge: PageChallenge;
}

/** Playwright's resource types, by CDP's (`Document` → `document`, `XHR` → `xhr`). */
const resourceTypeOf = (type: string | undefined) => (type ?? "other").toLowerCase();

/**
 * Starts recording the events of `page`, or of `session`, one of its
 * out-of-process frames (its documents are never the main one); they arrive
 * with the Runtime, Log and Network domains enabled.
 */
export function recordPageEvents(page: RecordedPage, session: CdpSession = page.session): void {
  const { diagnostics } = page;
  const requests = new Map<string, string>();
  const recordConsole = (level: string, text: string, url: string | undefined) => {
    if (level === "debug" || level === "verbose") return;
    const solver = solverOfConsole(text);
    if (solver) page.challenge.solver = { ...solver, navigations: page.navigations };
    diagnostics.push({ kind: "console", level, pageId: page.pageId, url: sanitizeUrl(url || page.url), ...(page.consoleText ? { text } : {}) });
  };
  session.on("Runtime.consoleAPICalled", ({ type, args, stackTrace }) => {
    recordConsole(type, consoleTextOf(args), stackTrace?.callFrames[0]?.url);
  });
  session.on("Log.entryAdded", ({ entry }) => {
    if (entry.source !== "worker") recordConsole(entry.level, entry.text, entry.url);
  });
  session.on("Runtime.exceptionThrown", ({ exceptionDetails }) => {
    diagnostics.push({ kind: "pageerror", pageId: page.pageId, ...(page.consoleText ? { text: pageErrorMessageOf(exceptionDetails) } : {}) });
  });
  session.on("Network.requestWillBeSent", ({ requestId, request }) => {
    requests.delete(requestId);
    requests.set(requestId, request.url);
    if (requests.size > requestsKept) requests.delete(requests.keys().next().value!);
  });
  session.on("Network.loadingFinished", ({ requestId }) => {
    requests.delete(requestId);
  });
  session.on("Network.loadingFailed", ({ requestId, errorText, blockedReason }) => {
    const url = requests.get(requestId);
    requests.delete(requestId);
    if (url === undefined) return;
    diagnostics.push({ kind: "request-failed", pageId: page.pageId, url: sanitizeUrl(url), text: errorText || blockedReason || "failed" });
  });
  session.on("Network.responseReceived", ({ requestId, loaderId, frameId, type, response }) => {
    const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]));
    if (type === "Document" && requestId === loaderId && frameId === page.mainFrameId) {
      page.document = { status: response.status, headers };
    } else if (hintsChallenge(resourceTypeOf(type), response.status, headers)) {
      page.challenge.stale = true;
    }
    if (response.status >= 400) diagnostics.push({ kind: "response-error", pageId: page.pageId, url: sanitizeUrl(response.url), status: response.status });
  });
}
