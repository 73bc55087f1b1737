import type { BrowserContext, CDPSession, Page } from "playwright-core";

/** What Chromium says about a download of a page while its bytes arrive. */
export type DownloadProgressEvent =
  | { kind: "begin"; guid: string; url: string }
  | { kind: "progress"; guid: string; receivedBytes: number; totalBytes: number; state: "inProgress" | "completed" | "canceled" };

/** What {@link watchPageEvents} tells. */
export interface PageEventListeners {
  /** A download's bytes as they arrive. */
  download: (event: DownloadProgressEvent) => void;
  /** The page started opening a window. */
  windowOpened: () => void;
}

/**
 * Follows what Playwright does not say in time, over one CDP session of the
 * page: the downloads of `page` as they stream (`Page.downloadWillBegin` /
 * `Page.downloadProgress`; Playwright's `Download` only says anything once
 * the file is complete), and each window the page starts opening
 * (`Page.windowOpen`: `window.open`, a `target=_blank` link, a form into a new
 * window), before the page of that window surfaces. Best effort: when no CDP
 * session can be made, nothing is reported (a download's size is then checked
 * when it ends; a popup is reported when it surfaces). Resolves to the CDP
 * session (its Page domain enabled), for other uses of the page's one session.
 */
export async function watchPageEvents(context: BrowserContext, page: Page, listeners: PageEventListeners): Promise<CDPSession | undefined> {
  try {
    const cdp = await context.newCDPSession(page);
    cdp.on("Page.downloadWillBegin", (event) => listeners.download({ kind: "begin", guid: event.guid, url: event.url }));
    cdp.on("Page.downloadProgress", (event) =>
      listeners.download({ kind: "progress", guid: event.guid, receivedBytes: event.receivedBytes, totalBytes: event.totalBytes, state: event.state }),
    );
    cdp.on("Page.windowOpen", () => listeners.windowOpened());
    await cdp.send("Page.enable");
    return cdp;
  } catch {
    // The page closed first, or the browser offers no CDP session for it.
    return undefined;
  }
}
