import { beforeEach, describe, expect, it } from "vitest";
import { limits } from "../../src/protocol/limits.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { useBrowser } from "../helpers/browser.js";
import { FakeClock } from "../helpers/fake-clock.js";

/** The engine's clock for the dialog policy: it moves only when a test advances it. */
const clock = new FakeClock();
const browser = useBrowser({ clock });
let handle: BrowserHandle;

const read = async (expression: string) => (await browser.adapter.execute(handle, { op: "evaluate", expression })).value;
const text = (selector: string) => read(`document.querySelector(${JSON.stringify(selector)}).textContent`);

/**
 * The Playwright engine's dialog policies (on an injected clock). Typing,
 * keys, select, check, hover, scroll, waitFor, the mouse and drags are in the
 * engine contract suite (engine-contract.test.ts), run against both engines.
 */
describe("interaction (real Chromium)", () => {
  beforeEach(async () => {
    handle ??= await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });
  });

  it("dismisses unexpected dialogs at once and reports them", async () => {
    const result = await browser.adapter.execute(handle, { op: "click", selector: "#confirm-button" });
    expect(result.dialog).toEqual({ type: "confirm", message: "Proceed?", handled: "dismissed", unexpected: true });
    expect(await text("#dialog-log")).toBe("confirm:false");
  });

  it("applies a one-shot dialog policy, with prompt text", async () => {
    const policy = await browser.adapter.execute(handle, { op: "dialog", action: "accept", promptText: "Grace" });
    // The policy lasts the default span from when it was set, on the engine's clock.
    expect(Date.parse(policy.expiresAt)).toBe(clock.now() + limits.dialog.policyDefaultMs);
    const prompted = await browser.adapter.execute(handle, { op: "click", selector: "#prompt-button" });
    expect(prompted.dialog).toMatchObject({ type: "prompt", handled: "accepted", unexpected: false });
    expect(await text("#dialog-log")).toBe("prompt:Grace");
    // One shot: the next dialog is dismissed again.
    const next = await browser.adapter.execute(handle, { op: "click", selector: "#confirm-button" });
    expect(next.dialog).toMatchObject({ handled: "dismissed", unexpected: true });
    expect(await text("#dialog-log")).toBe("confirm:false");
  });

  it("lets a dialog policy expire", async () => {
    // Just before its end the policy still holds...
    await browser.adapter.execute(handle, { op: "dialog", action: "accept", timeoutMs: 50 });
    clock.advance(49);
    const inTime = await browser.adapter.execute(handle, { op: "click", selector: "#confirm-button" });
    expect(inTime.dialog).toMatchObject({ handled: "accepted", unexpected: false });
    expect(await text("#dialog-log")).toBe("confirm:true");
    // ...and at its end it no longer does.
    await browser.adapter.execute(handle, { op: "dialog", action: "accept", timeoutMs: 50 });
    clock.advance(50);
    const late = await browser.adapter.execute(handle, { op: "click", selector: "#confirm-button" });
    expect(late.dialog).toMatchObject({ handled: "dismissed", unexpected: true });
    expect(await text("#dialog-log")).toBe("confirm:false");
  });
});
