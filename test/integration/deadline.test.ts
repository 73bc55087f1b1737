import { describe, expect, it } from "vitest";
import { ActionFailedError, OutcomeUnknownError, TimeoutError } from "../../src/errors.js";
import { useBrowser } from "../helpers/browser.js";
import { listenedTo } from "../helpers/signal-watch.js";

const browser = useBrowser({ watchdogGraceMs: 300 });

describe("watchdog and cancellation (real Chromium)", () => {
  it("reports a mutating command stuck in the page as outcome unknown, and the session still closes", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const error = await browser.adapter
      .execute(handle, { op: "evaluate", expression: "(() => { while (true) {} })()", timeoutMs: 300 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toMatch(/evaluate did not finish within \d+ ms; it may have taken effect/);
    await browser.adapter.close(handle);
    await expect(browser.adapter.execute(handle, { op: "pages" })).rejects.toThrow(/not open/);
  });

  it("reports a cancelled navigation as outcome unknown", async () => {
    const handle = await browser.open();
    const controller = new AbortController();
    // Cancelled once its request is out (the page answers 3 s later).
    const sent = browser.server.nextRequest("/slow");
    const pending = browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/slow?ms=3000") }, controller.signal);
    await sent;
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toMatch(/navigate was cancelled/);
    await browser.adapter.close(handle);
  });

  it("reports a cancelled observation as a plain failure, and refuses work after an early abort", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const controller = new AbortController();
    const watched = listenedTo(controller.signal);
    const pending = browser.adapter.execute(handle, { op: "waitFor", text: "never appears", timeoutMs: 5000 }, controller.signal);
    await watched;
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ActionFailedError);
    expect(error).not.toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toMatch(/waitFor was cancelled/);
    await expect(browser.adapter.execute(handle, { op: "pages" }, controller.signal)).rejects.toThrow(/cancelled before it started/);
    await browser.adapter.close(handle);
  });

  it("reports an observation that runs out of time as a timeout", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    await expect(browser.adapter.execute(handle, { op: "waitFor", text: "never appears", timeoutMs: 100 })).rejects.toBeInstanceOf(TimeoutError);
    await browser.adapter.close(handle);
  });
});
