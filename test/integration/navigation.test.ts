import { describe, expect, it } from "vitest";
import { CapacityError, isUrlPolicyError, UrlPolicyError } from "../../src/errors.js";
import { limits } from "../../src/protocol/limits.js";
import { useBrowser } from "../helpers/browser.js";

const browser = useBrowser();

describe("navigation (real Chromium)", () => {
  it("navigates, goes back and forward, reloads, and reports what happened", async () => {
    const handle = await browser.open();
    const home = await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    expect(home).toMatchObject({ ok: true, title: "Fixture home", navigated: true, newPages: [] });
    expect(home.url).toBe(browser.server.url("/index.html"));

    const clicked = await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "link", name: "Second page" } });
    expect(clicked).toMatchObject({ title: "Second page", navigated: true });

    const back = await browser.adapter.execute(handle, { op: "back" });
    expect(back).toMatchObject({ title: "Fixture home", navigated: true });
    const forward = await browser.adapter.execute(handle, { op: "forward" });
    expect(forward).toMatchObject({ title: "Second page", navigated: true });
    const reload = await browser.adapter.execute(handle, { op: "reload" });
    expect(reload).toMatchObject({ title: "Second page", navigated: true });

    const hover = await browser.adapter.execute(handle, { op: "hover", target: { by: "text", value: "Back home" } });
    expect(hover.navigated).toBe(false);
    await browser.adapter.close(handle);
  });

  it("strips query and fragment from reported URLs", async () => {
    const handle = await browser.open();
    const result = await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html?token=s3cret#frag") });
    expect(result.url).toBe(browser.server.url("/index.html"));
    expect(JSON.stringify(result)).not.toContain("s3cret");
    await browser.adapter.close(handle);
  });

  it.each([
    "file:///etc/passwd",
    "data:text/html,<p>hi</p>",
    "javascript:alert(1)",
    "chrome://settings",
    "view-source:http://127.0.0.1/",
    "http://user:pass@127.0.0.1/",
  ])("refuses %s before any navigation", async (url) => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const before = browser.server.requests.length;
    const error = await browser.adapter.execute(handle, { op: "navigate", url }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UrlPolicyError);
    expect(isUrlPolicyError(error)).toBe(true);
    expect((error as Error).message).toMatch(/refused/);
    expect((error as Error).message).not.toContain("pass@");
    const { value } = await browser.adapter.execute(handle, { op: "evaluate", expression: "location.pathname" });
    expect(value).toBe("/index.html");
    expect(browser.server.requests.length).toBe(before);
    // newPage is guarded the same way.
    await expect(browser.adapter.execute(handle, { op: "newPage", url })).rejects.toBeInstanceOf(UrlPolicyError);
    await browser.adapter.close(handle);
  });

  it("manages pages: new, list, select, close, and popups reported as new pages", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const opened = await browser.adapter.execute(handle, { op: "newPage", url: browser.server.url("/second.html") });
    expect(opened).toMatchObject({ pageId: "p2", title: "Second page" });

    let pages = await browser.adapter.execute(handle, { op: "pages" });
    expect(pages.selectedPageId).toBe("p2");
    expect(pages.pages.map((page) => page.title)).toEqual(["Fixture home", "Second page"]);

    const selected = await browser.adapter.execute(handle, { op: "selectPage", pageId: "p1" });
    expect(selected.title).toBe("Fixture home");

    // The page announces the window while the click is handled: the click waits for it and reports it, once.
    const popup = await browser.adapter.execute(handle, { op: "click", selector: "#popup-link" });
    expect(popup.navigated).toBe(false);
    expect(popup.newPages).toHaveLength(1);
    expect(popup.newPages[0]).toMatchObject({ pageId: "p3", selected: false });
    expect((await browser.adapter.execute(handle, { op: "hover", selector: "#popup-link" })).newPages).toEqual([]);

    const closed = await browser.adapter.execute(handle, { op: "closePage", pageId: "p2" });
    expect(closed.ok).toBe(true);
    pages = await browser.adapter.execute(handle, { op: "pages" });
    expect(pages.pages.map((page) => page.pageId)).toEqual(["p1", "p3"]);

    await expect(browser.adapter.execute(handle, { op: "selectPage", pageId: "p9" })).rejects.toThrow(/Page p9 does not exist/);
    await browser.adapter.close(handle);
  });

  it("reports a popup its page opens a little after the click, by the next result, exactly once", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });
    // The click handler opens the window from a 30 ms timer: the click does not wait for what it did not announce.
    const click = await browser.adapter.execute(handle, { op: "click", selector: "#late-popup" });
    await expect.poll(async () => (await browser.adapter.execute(handle, { op: "pages" })).pages.length).toBe(2);
    const next = await browser.adapter.execute(handle, { op: "hover", selector: "#late-popup" });
    const reported = [...click.newPages, ...next.newPages];
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ pageId: "p2", title: "Second page", selected: false });
    expect((await browser.adapter.execute(handle, { op: "hover", selector: "#late-popup" })).newPages).toEqual([]);
    await browser.adapter.close(handle);
  });

  it("refuses a new page past the per-session page limit", async () => {
    const handle = await browser.open();
    for (let count = 1; count < limits.pagesPerSession; count++) await browser.adapter.execute(handle, { op: "newPage" });
    const error = await browser.adapter.execute(handle, { op: "newPage" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CapacityError);
    expect((error as Error).message).toMatch(/already has 16 pages/);
    expect((await browser.adapter.execute(handle, { op: "pages" })).pages).toHaveLength(limits.pagesPerSession);
    await browser.adapter.close(handle);
  });

  it("counts the pages a site opens itself: those past the limit are closed and recorded", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const evaluate = async (expression: string) => (await browser.adapter.execute(handle, { op: "evaluate", expression })).value;
    await evaluate("window.opened = Array.from({ length: 50 }, () => window.open('/second.html')), window.opened.every(Boolean)");
    const pastLimit = 50 - (limits.pagesPerSession - 1);
    // The opener sees the browser close each window past the limit.
    await expect.poll(() => evaluate("window.opened.filter((opened) => opened.closed).length"), { timeout: 20_000 }).toBe(pastLimit);
    expect((await browser.adapter.execute(handle, { op: "pages" })).pages).toHaveLength(limits.pagesPerSession);
    const { events } = await browser.adapter.execute(handle, { op: "diagnostics" });
    const closed = events.filter((event) => event.kind === "popup-closed" && /already has 16 pages, its limit/.test(event.text ?? ""));
    expect(closed).toHaveLength(pastLimit);
    await expect(browser.adapter.execute(handle, { op: "newPage" })).rejects.toBeInstanceOf(CapacityError);
    await browser.adapter.close(handle);
  });

  it("closes a popup that lands on a non-web URL and records it", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });
    const result = await browser.adapter.execute(handle, { op: "click", selector: "#blob-popup" });
    expect(result.navigated).toBe(false);
    await expect
      .poll(async () => (await browser.adapter.execute(handle, { op: "pages" })).pages.length, { timeout: 5000 })
      .toBe(1);
    const { events } = await browser.adapter.execute(handle, { op: "diagnostics" });
    expect(events.some((event) => event.kind === "popup-closed" && event.url === "blob:…")).toBe(true);
    await browser.adapter.close(handle);
  });

  it("sends a page that navigates itself to a refused URL back to about:blank", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const withCredentials = browser.server.url("/second.html").replace("http://", "http://user:pw@");
    await browser.adapter.execute(handle, { op: "evaluate", expression: `location.href = ${JSON.stringify(withCredentials)}, true` });
    await expect
      .poll(async () => (await browser.adapter.execute(handle, { op: "pages" })).pages[0]?.url, { timeout: 5000 })
      .toBe("about:blank");
    const { events } = await browser.adapter.execute(handle, { op: "diagnostics" });
    const blocked = events.find((event) => event.kind === "navigation-blocked");
    expect(blocked).toMatchObject({ url: browser.server.url("/second.html"), text: "URLs with embedded credentials are not allowed" });
    expect(JSON.stringify(events)).not.toContain("user:pw");
    await browser.adapter.close(handle);
  });

  it("reports a failed navigation without the query string", async () => {
    const handle = await browser.open();
    const error = await browser.adapter
      .execute(handle, { op: "navigate", url: "http://127.0.0.1:1/nothing?key=s3cret" })
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/navigate to http:\/\/127\.0\.0\.1:1\/nothing failed: net::ERR_/);
    expect((error as Error).message).not.toContain("s3cret");
    await browser.adapter.close(handle);
  });
});

describe("closing the last page", () => {
  it("leaves the session usable on a fresh blank page", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const closed = await browser.adapter.execute(handle, { op: "closePage" });
    expect(closed.url).toBe("about:blank");
    const pages = await browser.adapter.execute(handle, { op: "pages" });
    expect(pages.pages).toHaveLength(1);
    expect(pages.selectedPageId).toBe(pages.pages[0]!.pageId);
    expect(pages.selectedPageId).not.toBe("p1");
    const again = await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/second.html") });
    expect(again.title).toBe("Second page");
    await browser.adapter.close(handle);
  });

  it("also when the site closes its own last page", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });
    await browser.adapter.execute(handle, { op: "click", selector: "#window-open" });
    await expect.poll(async () => (await browser.adapter.execute(handle, { op: "pages" })).pages.length).toBe(2);
    await browser.adapter.execute(handle, { op: "closePage", pageId: "p1" });
    const { selectedPageId } = await browser.adapter.execute(handle, { op: "pages" });
    expect(selectedPageId).toBe("p2");
    // Scripts may close windows they opened: the popup closes itself, the last page of the session.
    await browser.adapter.execute(handle, { op: "evaluate", expression: "window.close(), true" }).catch(() => undefined);
    await expect.poll(async () => (await browser.adapter.execute(handle, { op: "pages" })).pages.map((page) => page.url)).toEqual(["about:blank"]);
    const again = await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/second.html") });
    expect(again.title).toBe("Second page");
    await browser.adapter.close(handle);
  });
});
