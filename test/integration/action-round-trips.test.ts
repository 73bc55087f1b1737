import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { BrowserContext, CDPSession, Locator, Page } from "playwright-core";
import { AmbiguousTargetError, NotFoundError } from "../../src/errors.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { createLocalProvider, type PlaywrightProvider } from "../../src/providers/local/index.js";
import { useBrowser } from "../helpers/browser.js";

/** The local provider, keeping the contexts it connects so the test can reach Playwright's classes. */
const contexts: BrowserContext[] = [];
const local = createLocalProvider();
const provider: PlaywrightProvider = {
  ...local,
  async connect(session, signal) {
    const context = await local.connect(session, signal);
    contexts.push(context);
    return context;
  },
};
const browser = useBrowser({ provider });
let handle: BrowserHandle;
let pagePrototype: Page;
let locatorPrototype: Locator;
let cdpPrototype: CDPSession;

describe("round trips of an action (real Chromium)", () => {
  beforeAll(async () => {
    handle = await browser.open();
    const page = contexts[0]!.pages()[0]!;
    pagePrototype = Object.getPrototypeOf(page) as Page;
    locatorPrototype = Object.getPrototypeOf(page.locator("body")) as Locator;
    const cdp = await contexts[0]!.newCDPSession(page);
    cdpPrototype = Object.getPrototypeOf(cdp) as CDPSession;
    await cdp.detach();
  });
  afterEach(() => vi.restoreAllMocks());

  const spies = () => {
    const send = vi.spyOn(cdpPrototype, "send");
    return {
      title: vi.spyOn(pagePrototype, "title"),
      count: vi.spyOn(locatorPrototype, "count"),
      // Reads of the title in the engine's own isolated world (one call with the challenge signals).
      titleReads: () =>
        send.mock.calls.filter(([method, params]) => method === "Runtime.evaluate" && /^\(function readDomSignals\(/.test((params as { expression?: string })?.expression ?? "")).length,
    };
  };

  it("actions that change nothing read no title and count no matches, and still report the title", async () => {
    const loaded = await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });
    expect(loaded.title).toBe("Form");
    const { title, count, titleReads } = spies();
    const clicked = await browser.adapter.execute(handle, { op: "click", selector: "#console-button" });
    const pressed = await browser.adapter.execute(handle, { op: "press", target: { by: "selector", selector: "#console-button" }, key: "Shift" });
    const hovered = await browser.adapter.execute(handle, { op: "hover", selector: "#console-button" });
    for (const result of [clicked, pressed, hovered]) expect(result).toMatchObject({ navigated: false, title: "Form", newPages: [] });
    expect(title).not.toHaveBeenCalled();
    expect(titleReads()).toBe(0);
    expect(count).not.toHaveBeenCalled();
  });

  it("fill and type on a page without password fields count them once per frame and read no value", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/visible-text.html") });
    const { title, count, titleReads } = spies();
    const inputValue = vi.spyOn(locatorPrototype, "inputValue");
    const send = vi.mocked(cdpPrototype.send);
    const requests = (method: string) => send.mock.calls.filter(([sent]) => sent === method).length;
    const evaluations = () => requests("Runtime.evaluate");
    // What the engine had asked its isolated world when Playwright's fill returned.
    let askedBeforeFillEnded = -1;
    const fill = locatorPrototype.fill;
    vi.spyOn(locatorPrototype, "fill").mockImplementation(async function (this: Locator, ...args: Parameters<Locator["fill"]>) {
      await fill.apply(this, args);
      askedBeforeFillEnded = requests("Runtime.callFunctionOn");
    });
    const filled = await browser.adapter.execute(handle, { op: "fill", selector: "#name", value: "plain words" });
    expect(filled).toMatchObject({ sensitive: false, title: "Visible text" });
    // A page of one frame: the count is one CDP request in the engine's own isolated world, sent
    // before the fill and answered as its text arrives; no Playwright count.
    expect(askedBeforeFillEnded).toBe(1);
    // One more (a read now, which ends the wait) only if that answer had not come in when the fill
    // returned, as on a loaded machine; never a Playwright count.
    expect(requests("Runtime.callFunctionOn")).toBeGreaterThanOrEqual(1);
    expect(requests("Runtime.callFunctionOn")).toBeLessThanOrEqual(2);
    // A count after the fill only if that answer had not come in first.
    const afterFill = evaluations();
    expect(afterFill).toBeLessThanOrEqual(1);
    const typed = await browser.adapter.execute(handle, { op: "type", text: " more" });
    expect(typed).toMatchObject({ sensitive: false });
    expect(evaluations()).toBe(afterFill + 1);
    expect(count).not.toHaveBeenCalled();
    expect(inputValue).not.toHaveBeenCalled();
    expect(title).not.toHaveBeenCalled();
    expect(titleReads()).toBe(0);
    // Three frames (the page, an iframe and the iframe's own): one count each.
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/targets.html") });
    count.mockClear();
    expect(await browser.adapter.execute(handle, { op: "fill", selector: "#code", value: "1234" })).toMatchObject({ sensitive: false });
    expect(count).toHaveBeenCalledTimes(3);
    expect(inputValue).not.toHaveBeenCalled();
  });

  it("fill on a page of one frame with password fields reads their focus and values with the count, in the engine's own world", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });
    const { count } = spies();
    const inputValue = vi.spyOn(locatorPrototype, "inputValue");
    // The password field holds the text (and has focus): nothing is left to read through Playwright.
    expect(await browser.adapter.execute(handle, { op: "fill", selector: "#pass", value: "pass-word-1" })).toMatchObject({ sensitive: true });
    expect(count).not.toHaveBeenCalled();
    // A plain field on the same page: only whether the target is a password field is counted.
    expect(await browser.adapter.execute(handle, { op: "fill", selector: "#user", value: "ada" })).toMatchObject({ sensitive: false });
    expect(count).toHaveBeenCalledTimes(1);
    expect(inputValue).not.toHaveBeenCalled();
  });

  it("reads a page's text and title in one call", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });
    await browser.adapter.execute(handle, { op: "click", selector: "#retitle" });
    const { title, titleReads } = spies();
    const send = vi.mocked(cdpPrototype.send);
    const evaluate = vi.spyOn(pagePrototype, "evaluate");
    const read = await browser.adapter.execute(handle, { op: "text" });
    expect(read).toMatchObject({ title: "Retitled", truncated: false });
    expect(read.text).toContain("Hover me");
    // One CDP request in the engine's own isolated world; Playwright runs nothing in the page.
    expect(send.mock.calls.filter(([method]) => method === "Runtime.evaluate")).toHaveLength(1);
    expect(evaluate).not.toHaveBeenCalled();
    expect(title).not.toHaveBeenCalled();
    expect(titleReads()).toBe(0);
  });

  it("an accessibility snapshot checks its filled fields for passwords in one count per frame", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/targets.html") });
    await browser.adapter.execute(handle, { op: "fill", selector: "#email", value: "ada@example.com" });
    await browser.adapter.execute(handle, { op: "fill", selector: "#code", value: "1234" });
    await browser.adapter.execute(handle, { op: "fill", target: { by: "selector", selector: "#card", frame: ["#outer", "#inner"] }, value: "4242" });
    const { count } = spies();
    const evaluate = vi.spyOn(locatorPrototype, "evaluate");
    const { snapshot } = await browser.adapter.execute(handle, { op: "accessibility" });
    for (const value of ["ada@example.com", "1234", "4242"]) expect(snapshot).toContain(value);
    // Two frames hold filled fields (the page and the inner iframe): one count each.
    expect(count).toHaveBeenCalledTimes(2);
    expect(evaluate).not.toHaveBeenCalled();
  });

  it("reads the title again once the page navigated", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const { title, titleReads } = spies();
    const clicked = await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "link", name: "Second page" } });
    expect(clicked).toMatchObject({ navigated: true, title: "Second page" });
    // In the engine's own isolated world, made as the document committed: Playwright sets up nothing for it.
    expect(titleReads()).toBeGreaterThan(0);
    expect(title).not.toHaveBeenCalled();
  });

  it("shows a title a script set without navigating in pages at once", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });
    await browser.adapter.execute(handle, { op: "click", selector: "#retitle" });
    const { pages } = await browser.adapter.execute(handle, { op: "pages" });
    expect(pages.map((page) => page.title)).toEqual(["Retitled"]);
    // What pages read is what the next action result reports.
    expect((await browser.adapter.execute(handle, { op: "hover", selector: "#retitle" })).title).toBe("Retitled");
  });

  it("refuses an ambiguous target from Playwright's strict mode, without counting first", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/targets.html") });
    const { count } = spies();
    const error = await browser.adapter
      .execute(handle, { op: "click", target: { by: "role", role: "button", name: "Save", exact: true } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AmbiguousTargetError);
    expect((error as AmbiguousTargetError).count).toBe(2);
    expect((error as Error).message).toMatch(/role button named "Save" matched 2 elements; give nth \(0–1\)/);
    expect(count).not.toHaveBeenCalled();
    const missing = await browser.adapter
      .execute(handle, { op: "click", target: { by: "role", role: "button", name: "Nope" }, timeoutMs: 300 })
      .catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(count).not.toHaveBeenCalled();
  });
});
