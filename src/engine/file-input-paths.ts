import type { Locator, Page } from "playwright-core";
import { ActionFailedError } from "../errors.js";

const markerAttribute = "data-station-upload";

/**
 * Sets `paths` — paths on the browser's own machine, as the provider's file
 * API answered them — into the file input `locator` names, with CDP
 * `DOM.setFileInputFiles`. Playwright's `setInputFiles(path)` would stat and
 * resolve the path on this host's disk (and refuses buffers of 50 MB or
 * more), which is wrong for a remote browser over `connectOverCDP`. The input
 * is found for CDP by a one-off marker attribute, removed after. Chromium
 * fires `input` and `change`; nothing is clicked or submitted.
 */
export async function setFileInputPaths(page: Page, locator: Locator, paths: string[], timeoutMs: number): Promise<void> {
  const marker = crypto.randomUUID();
  await locator.evaluate((element, [name, value]) => element.setAttribute(name, value), [markerAttribute, marker] as const, { timeout: timeoutMs });
  const cdp = await page.context().newCDPSession(page);
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
