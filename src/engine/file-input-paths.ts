import type { CDPSession, Locator, Page } from "playwright-core";
import { ActionFailedError } from "../errors.js";

const markerAttribute = "data-station-upload";

/**
 * Sets `paths` — paths on the browser's own machine, as the provider's file
 * API answered them — into the file input `locator` names, with CDP
 * `DOM.setFileInputFiles`. Playwright's `setInputFiles(path)` would stat and
 * resolve the path on this host's disk (and refuses buffers of 50 MB or
 * more), which is wrong for a remote browser over `connectOverCDP`. The input
 * is found for CDP by a one-off marker attribute, removed after, in the CDP
 * session of its frame's process: the page's, or an out-of-process
 * (cross-site) iframe's own. Chromium fires `input` and `change`; nothing is
 * clicked or submitted.
 */
export async function setFileInputPaths(page: Page, locator: Locator, paths: string[], timeoutMs: number): Promise<void> {
  const marker = crypto.randomUUID();
  await locator.evaluate((element, [name, value]) => element.setAttribute(name, value), [markerAttribute, marker] as const, { timeout: timeoutMs });
  const cdp = await sessionOfInput(page, locator, timeoutMs);
  try {
    await cdp.send("DOM.getDocument", { depth: 0 });
    const { searchId, resultCount } = await cdp.send("DOM.performSearch", { query: `[${markerAttribute}="${marker}"]` });
    try {
      if (resultCount !== 1) throw new ActionFailedError(`upload: the file input was not found again for CDP (${resultCount} matches); no files were set`);
      const { nodeIds } = await cdp.send("DOM.getSearchResults", { searchId, fromIndex: 0, toIndex: 1 });
      await cdp.send("DOM.setFileInputFiles", { files: paths, nodeId: nodeIds[0]! });
    } finally {
      await cdp.send("DOM.discardSearchResults", { searchId }).catch(() => undefined);
    }
  } finally {
    await cdp.detach().catch(() => undefined);
    await locator.evaluate((element, name) => element.removeAttribute(name), markerAttribute, { timeout: timeoutMs }).catch(() => undefined);
  }
}

/**
 * A CDP session whose DOM holds the input: that of the nearest frame, from
 * the input's own up, with a session of its own (an out-of-process iframe),
 * else the page's, which holds every frame of its process.
 */
async function sessionOfInput(page: Page, locator: Locator, timeoutMs: number): Promise<CDPSession> {
  const handle = await locator.elementHandle({ timeout: timeoutMs });
  let frame = await handle.ownerFrame();
  await handle.dispose();
  for (; frame && frame !== page.mainFrame(); frame = frame.parentFrame()) {
    try {
      return await page.context().newCDPSession(frame);
    } catch (error) {
      // A frame in its parent's process has no session of its own.
      if (!/does not have a separate CDP session/.test(String((error as Error)?.message))) throw error;
    }
  }
  return page.context().newCDPSession(page);
}
