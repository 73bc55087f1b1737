import { describe, expect, it } from "vitest";
import { ActionFailedError, isOutcomeUnknownError, isTimeoutError } from "../../src/errors.js";
import { useHoldingBrowser } from "../helpers/holding-browser.js";

/**
 * A main-frame navigation whose server never answers leaves the page between
 * documents: Chromium runs no script in it meanwhile. Observations must still
 * answer (from the committed document) or say at once how to move on — never
 * sit out their whole budget. The server holds every answer under /hold.
 */
const pages = { "/home": "<title>Home</title><p>committed text</p><button>Go</button>" };

const browser = useHoldingBrowser(pages);

/** What an observation ended with: its result, or its error. */
const settle = <T>(work: Promise<T>) => work.then((value) => ({ value }), (error: unknown) => ({ error }));

describe("observations after a navigation that never answered", () => {
  it("a navigate that timed out is stopped: screenshot, text and accessibility answer from the committed document", async () => {
    await browser.adapter.execute(browser.handle, { op: "navigate", url: browser.server.url("/home") });
    const arrived = browser.server.arrived("GET /hold-navigate");
    // Its error class is the outcome rule's business; here only what follows matters.
    await settle(browser.adapter.execute(browser.handle, { op: "navigate", url: browser.server.url("/hold-navigate"), timeoutMs: 1000 }));
    await arrived;

    const text = await browser.adapter.execute(browser.handle, { op: "text" });
    expect(text).toMatchObject({ url: browser.server.url("/home"), title: "Home" });
    expect(text.text).toContain("committed text");
    const shot = await browser.adapter.execute(browser.handle, { op: "screenshot" });
    expect(shot.mimeType).toBe("image/png");
    expect((await browser.adapter.execute(browser.handle, { op: "accessibility" })).snapshot).toMatch(/button "Go"/);
    expect((await browser.adapter.execute(browser.handle, { op: "pages" })).pages[0]).toMatchObject({ url: browser.server.url("/home"), title: "Home" });
  });

  it("a navigation the page started itself: reads fail at once with a clear error saying to navigate away; navigating away ends it", async () => {
    await browser.adapter.execute(browser.handle, { op: "navigate", url: browser.server.url("/home") });
    const arrived = browser.server.arrived("GET /hold-script");
    await browser.adapter.execute(browser.handle, { op: "evaluate", expression: "setTimeout(() => { location.href = '/hold-script'; }, 0), true" });
    await arrived;

    for (const op of ["screenshot", "text", "accessibility"] as const) {
      const { error } = (await settle(browser.adapter.execute(browser.handle, { op }))) as { error?: unknown };
      expect(error, op).toBeInstanceOf(ActionFailedError);
      expect(isTimeoutError(error), op).toBe(false);
      expect((error as Error).message).toMatch(new RegExp(`^${op}: page p\\d+ is waiting for its navigation to ${browser.server.url("/hold-script")}, .*Navigate elsewhere \\(or to about:blank\\)`));
    }
    // The page's title is not readable meanwhile: listed as empty, at once.
    expect((await browser.adapter.execute(browser.handle, { op: "pages" })).pages[0]).toMatchObject({ url: browser.server.url("/home"), title: "" });
    // An expression is not run while the page cannot run one: failed, not unknown.
    const evaluated = (await settle(browser.adapter.execute(browser.handle, { op: "evaluate", expression: "1" }))) as { error?: unknown };
    expect(evaluated.error).toBeInstanceOf(ActionFailedError);
    expect(isOutcomeUnknownError(evaluated.error)).toBe(false);

    await browser.adapter.execute(browser.handle, { op: "navigate", url: "about:blank" });
    expect((await browser.adapter.execute(browser.handle, { op: "text" })).url).toBe("about:blank");
    expect((await browser.adapter.execute(browser.handle, { op: "screenshot" })).mimeType).toBe("image/png");
  });
});
