/**
 * The live screencast while a page's navigation is pending (its server holds
 * the answer): Chromium answers a CDP detach from that page only once the
 * navigation commits, so following the selection must not wait for it.
 */
import { describe, expect, it } from "vitest";
import { useHoldingBrowser } from "../helpers/holding-browser.js";
import { screencastViewer } from "../helpers/screencast-viewer.js";

const browser = useHoldingBrowser({
  "/one": "<title>One</title><p style='font-size: 40px'>one</p>",
  "/two": "<title>Two</title><p style='font-size: 40px'>two</p>",
});

describe("PlaywrightBrowserAdapter.screencast with a navigation pending", () => {
  it("follows the selection away from a page whose navigation the server holds, and back to it", async () => {
    const { adapter, handle, server } = browser;
    await adapter.execute(handle, { op: "navigate", url: server.url("/one") });
    const watching = screencastViewer();
    const watch = await adapter.screencast(handle, watching.listener);
    await watching.next((frame) => frame.pageId === "p1");

    const arrived = server.arrived("GET /hold-leaving");
    await adapter.execute(handle, { op: "evaluate", expression: "setTimeout(() => { location.href = '/hold-leaving'; }, 0), true" });
    await arrived;
    await adapter.execute(handle, { op: "newPage", url: server.url("/two") });
    await watching.next((frame) => frame.pageId === "p2");

    // Back on the page still waiting for its answer: it shows its committed document.
    const back = watching.frames.length;
    await adapter.execute(handle, { op: "selectPage", pageId: "p1" });
    await watching.next((frame) => frame.pageId === "p1" && watching.frames.indexOf(frame) >= back);
    const again = watching.frames.length;
    await adapter.execute(handle, { op: "selectPage", pageId: "p2" });
    const last = await watching.next((frame) => frame.pageId === "p2" && watching.frames.indexOf(frame) >= again);
    expect(last.mimeType).toBe("image/jpeg");
    await watch.stop();
  });
});
