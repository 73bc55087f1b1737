/**
 * The engine's live screencast (CDP `Page.startScreencast`) on real Chromium:
 * frames capped at 1280×800 with the viewport they show, following the
 * selected page, a bounded number of viewers, and an end when the session closes.
 */
import { describe, expect, it } from "vitest";
import { isCapacityError } from "../../src/errors.js";
import { useBrowser } from "../helpers/browser.js";
import { failure } from "../helpers/failure.js";
import { screencastViewer } from "../helpers/screencast-viewer.js";

const browser = useBrowser();

describe("PlaywrightBrowserAdapter.screencast", () => {
  it("sends JPEG frames capped at 1280×800 with the viewport they show, and follows the selected page", async () => {
    const handle = await browser.adapter.open({ viewport: { width: 1600, height: 1000 } });
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/live-target.html") });
    const watching = screencastViewer();
    const watch = await browser.adapter.screencast(handle, watching.listener);
    const first = await watching.next();
    expect(first).toMatchObject({ mimeType: "image/jpeg", pageId: "p1", viewportWidth: 1600, viewportHeight: 1000 });
    expect(first.width).toBeLessThanOrEqual(1280);
    expect(first.height).toBeLessThanOrEqual(800);
    expect(first.width / first.height).toBeCloseTo(1.6, 1);
    expect(Buffer.from(first.base64, "base64").subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));

    await browser.adapter.execute(handle, { op: "newPage", url: browser.server.url("/index.html") });
    const second = await watching.next((frame) => frame.pageId === "p2");
    expect(second.viewportWidth).toBe(1600);
    // Any frame of p1 from here on shows the screencast followed the selection back.
    const back = watching.frames.length;
    await browser.adapter.execute(handle, { op: "selectPage", pageId: "p1" });
    await watching.next((frame) => frame.pageId === "p1" && watching.frames.indexOf(frame) >= back);
    await watch.stop();
    await browser.adapter.close(handle);
  });

  it("admits a bounded number of viewers, lets a new one in when one leaves, and ends every watch when the session closes", async () => {
    const handle = await browser.adapter.open();
    const viewers = [screencastViewer(), screencastViewer(), screencastViewer()];
    const watches = await Promise.all(viewers.map((each) => browser.adapter.screencast(handle, each.listener)));
    await Promise.all(viewers.map((each) => each.next()));
    const refused = await failure(browser.adapter.screencast(handle, screencastViewer().listener));
    expect(isCapacityError(refused), String(refused)).toBe(true);
    expect(refused.message).toContain("3 live viewers");
    await watches[0]!.stop();
    const late = screencastViewer();
    await browser.adapter.screencast(handle, late.listener);
    // A viewer joining gets the latest frame at once, even if the page does not repaint.
    await late.next();
    await browser.adapter.close(handle);
    expect(await Promise.all([viewers[1]!.ended, viewers[2]!.ended, late.ended])).toEqual(["closed", "closed", "closed"]);
  });
});
