import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActionFailedError, isOutcomeUnknownError, isTimeoutError } from "../../src/errors.js";
import { PlaywrightBrowserAdapter } from "../../src/engine/adapter.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { startHoldingServer, type HoldingServer } from "../helpers/holding-server.js";

/**
 * A main-frame navigation whose server never answers leaves the page between
 * documents: Chromium runs no script in it meanwhile. Observations must still
 * answer (from the committed document) or say at once how to move on — never
 * sit out their whole budget. The server holds every answer under /hold.
 */
const pages = { "/home": "<title>Home</title><p>committed text</p><button>Go</button>" };

let server: HoldingServer;
let adapter: PlaywrightBrowserAdapter;
let handle: BrowserHandle;

beforeAll(async () => {
  server = await startHoldingServer(pages);
  adapter = new PlaywrightBrowserAdapter();
  handle = await adapter.open();
});
afterAll(async () => {
  await adapter.shutdown();
  await server.close();
});

/** What an observation ended with: its result, or its error. */
const settle = <T>(work: Promise<T>) => work.then((value) => ({ value }), (error: unknown) => ({ error }));

describe("observations after a navigation that never answered", () => {
  it("a navigate that timed out is stopped: screenshot, text and accessibility answer from the committed document", async () => {
    await adapter.execute(handle, { op: "navigate", url: server.url("/home") });
    const arrived = server.arrived("GET /hold-navigate");
    // Its error class is the outcome rule's business; here only what follows matters.
    await settle(adapter.execute(handle, { op: "navigate", url: server.url("/hold-navigate"), timeoutMs: 1000 }));
    await arrived;

    const text = await adapter.execute(handle, { op: "text" });
    expect(text).toMatchObject({ url: server.url("/home"), title: "Home" });
    expect(text.text).toContain("committed text");
    const shot = await adapter.execute(handle, { op: "screenshot" });
    expect(shot.mimeType).toBe("image/png");
    expect((await adapter.execute(handle, { op: "accessibility" })).snapshot).toMatch(/button "Go"/);
    expect((await adapter.execute(handle, { op: "pages" })).pages[0]).toMatchObject({ url: server.url("/home"), title: "Home" });
  });

  it("a navigation the page started itself: reads fail at once with a clear error saying to navigate away; navigating away ends it", async () => {
    await adapter.execute(handle, { op: "navigate", url: server.url("/home") });
    const arrived = server.arrived("GET /hold-script");
    await adapter.execute(handle, { op: "evaluate", expression: "setTimeout(() => { location.href = '/hold-script'; }, 0), true" });
    await arrived;

    for (const op of ["screenshot", "text", "accessibility"] as const) {
      const { error } = (await settle(adapter.execute(handle, { op }))) as { error?: unknown };
      expect(error, op).toBeInstanceOf(ActionFailedError);
      expect(isTimeoutError(error), op).toBe(false);
      expect((error as Error).message).toMatch(new RegExp(`^${op}: page p\\d+ is waiting for its navigation to ${server.url("/hold-script")}, .*Navigate elsewhere \\(or to about:blank\\)`));
    }
    // The page's title is not readable meanwhile: listed as empty, at once.
    expect((await adapter.execute(handle, { op: "pages" })).pages[0]).toMatchObject({ url: server.url("/home"), title: "" });
    // An expression is not run while the page cannot run one: failed, not unknown.
    const evaluated = (await settle(adapter.execute(handle, { op: "evaluate", expression: "1" }))) as { error?: unknown };
    expect(evaluated.error).toBeInstanceOf(ActionFailedError);
    expect(isOutcomeUnknownError(evaluated.error)).toBe(false);

    await adapter.execute(handle, { op: "navigate", url: "about:blank" });
    expect((await adapter.execute(handle, { op: "text" })).url).toBe("about:blank");
    expect((await adapter.execute(handle, { op: "screenshot" })).mimeType).toBe("image/png");
  });
});
