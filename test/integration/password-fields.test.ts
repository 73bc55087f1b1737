/**
 * The engine says, in each fill/type result, whether the text may sit in a
 * password field (`sensitive`), read in Playwright's utility world: the
 * page's own overrides of activeElement and querySelectorAll change nothing,
 * and no page code sees the text (real Chromium).
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import type { BrowserCommandInput } from "../../src/protocol/commands.js";
import { useBrowser } from "../helpers/browser.js";

const browser = useBrowser();
let handle: BrowserHandle;

const sensitive = async (command: BrowserCommandInput) => ((await browser.adapter.execute(handle, command)) as { sensitive?: unknown }).sensitive;
const navigate = (path: string) => browser.adapter.execute(handle, { op: "navigate", url: browser.server.url(path) });

describe("sensitive in fill and type results (real Chromium)", () => {
  beforeEach(async () => {
    handle ??= await browser.open();
  });

  it("is true for a password field, by target or by focus, and false for a plain one", async () => {
    await navigate("/form.html");
    expect(await sensitive({ op: "fill", target: { by: "label", value: "User name" }, value: "ada-lovelace" })).toBe(false);
    expect(await sensitive({ op: "fill", selector: "#pass", value: "pass-word-1" })).toBe(true);
    expect(await sensitive({ op: "type", selector: "#pass", text: "-more" })).toBe(true);
    // Keys into the focused element: the password field still has focus.
    expect(await sensitive({ op: "type", text: "-keys" })).toBe(true);
    expect(await sensitive({ op: "type", selector: "#notes", text: "free text" })).toBe(false);
    // A label that Playwright follows to its control.
    expect(await sensitive({ op: "fill", selector: "label:has(#pass)", value: "via-label-1" })).toBe(true);
  });

  it("is true when the page moved focus on but a password field holds the text", async () => {
    await navigate("/agent-tools-pin.html");
    expect(await sensitive({ op: "fill", selector: "#pin", value: "zq7731" })).toBe(true);
    expect(await browser.adapter.execute(handle, { op: "evaluate", expression: "document.activeElement.id" })).toEqual({ value: "note" });
    expect(await sensitive({ op: "type", text: "an ordinary note" })).toBe(false);
  });

  it("is true for a password field in a cross-origin iframe, even when the top page fakes focus and queries", async () => {
    const frame = browser.server.url("/frame-password.html").replace("127.0.0.1", "localhost");
    await navigate(`/hostile-top.html?mode=fake&frame=${encodeURIComponent(frame)}`);
    expect(await sensitive({ op: "fill", selector: "#pw", value: "top-secret-1" })).toBe(true);
    expect(await sensitive({ op: "fill", target: { by: "selector", selector: "#fpw", frame: ["#login"] }, value: "frame-secret-1" })).toBe(true);
    expect(await sensitive({ op: "type", text: "-typed" })).toBe(true);
    expect(await sensitive({ op: "fill", selector: "#decoy", value: "plain-words" })).toBe(false);
  });

  it("is true for a password field in a shadow root of a page that hides it from its own queries", async () => {
    await navigate("/visible-text.html");
    expect(await sensitive({ op: "fill", selector: "#name", value: "plain" })).toBe(false);
    // A new document: what was counted on the last one says nothing about this one.
    await navigate("/shadow-password.html");
    expect(await sensitive({ op: "fill", selector: "#secret", value: "shadow-secret-1" })).toBe(true);
    expect(await sensitive({ op: "type", text: "-typed" })).toBe(true);
    expect(await sensitive({ op: "fill", selector: "#user", value: "ada" })).toBe(false);
  });

  it("is true for a field the page makes a password field as the text arrives, also when it stops the input event", async () => {
    await navigate("/turns-password.html");
    expect(await sensitive({ op: "fill", selector: "#plain", value: "plain words" })).toBe(false);
    // Counted after the page's own input listener ran (it made the field a password field).
    expect(await sensitive({ op: "fill", selector: "#reveal", value: "revealed-secret-1" })).toBe(true);
    // The input event never reaches the window: counted once the fill returned.
    expect(await sensitive({ op: "fill", selector: "#quiet", value: "quiet-secret-1" })).toBe(true);
    expect(await browser.adapter.execute(handle, { op: "evaluate", expression: "[...document.querySelectorAll('input')].map((input) => input.type).join()" })).toEqual({
      value: "text,password,password",
    });
  });

  it("is true again on a page it went back to", async () => {
    await navigate("/form.html");
    expect(await sensitive({ op: "fill", selector: "#user", value: "ada" })).toBe(false);
    await navigate("/visible-text.html");
    expect(await sensitive({ op: "fill", selector: "#name", value: "plain" })).toBe(false);
    await browser.adapter.execute(handle, { op: "back" });
    expect(await sensitive({ op: "fill", selector: "#pass", value: "back-secret-1" })).toBe(true);
  });
});
