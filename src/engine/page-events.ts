import type { BrowserContext, Page } from "playwright-core";

/** What Chromium says about a download of a page while its bytes arrive. */
export type DownloadProgressEvent =
  | { kind: "begin"; guid: string; url: string }
  | { kind: "progress"; guid: string; receivedBytes: number; totalBytes: number; state: "inProgress" | "completed" | "canceled" };

/**
 * Follows the downloads of `page` as they stream, over a CDP session of the
 * page (`Page.downloadWillBegin` / `Page.downloadProgress`): Playwright's
 * `Download` only says anything once the file is complete. Best effort: when
 * no CDP session can be made, nothing is reported (the size is then checked
 * when the download ends). The same session tells `windowOpened` each time
 * the page starts opening a window (`Page.windowOpen`: `window.open`, a
 * `target=_blank` link, a form into a new window), before the page of that
 * window surfaces.
 */
export async function watchDownloadProgress(
  context: BrowserContext,
  page: Page,
  report: (event: DownloadProgressEvent) => void,
  windowOpened: () => void = () => undefined,
): Promise<void> {
  try {
    const cdp = await context.newCDPSession(page);
    cdp.on("Page.downloadWillBegin", (event) => report({ kind: "begin", guid: event.guid, url: event.url }));
    cdp.on("Page.downloadProgress", (event) =>
      report({ kind: "progress", guid: event.guid, receivedBytes: event.receivedBytes, totalBytes: event.totalBytes, state: event.state }),
    );
    cdp.on("Page.windowOpen", () => windowOpened());
    await cdp.send("Page.enable");
  } catch {
    // The page closed first, or the browser offers no CDP session for it.
  }
}
