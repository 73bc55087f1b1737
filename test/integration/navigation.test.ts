import { describe, expect, it } from "vitest";
import { isUrlPolicyError, UrlPolicyError } from "../../src/errors.js";
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
