import { errors as playwrightErrors } from "playwright-core";
import { describe, expect, it } from "vitest";
import { toStationError, waitedFor } from "../../src/engine/playwright-errors.js";

/** Call logs as Playwright 1.65 writes them for an action that timed out (copied from real runs against Chromium). */
const covered = [
  "  - waiting for locator('#b')",
  '    - locator resolved to <button id="b">Go</button>',
  "  - attempting click action",
  "    2 × waiting for element to be visible, enabled and stable",
  "      - element is visible, enabled and stable",
  "      - scrolling into view if needed",
  "      - done scrolling",
  '      - <img id="i" alt="cover" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="/> intercepts pointer events',
  "    - retrying click action",
  "    - waiting 20ms",
];
const disabled = [
  "  - waiting for locator('#b')",
  '    - locator resolved to <button id="b" disabled>Go</button>',
  '    - fill("x")',
  "  - attempting fill action",
  "    2 × waiting for element to be visible, enabled and editable",
  "      - element is not enabled",
  "    - retrying fill action",
  "      - waiting 100ms",
];

const timedOut = (log: string[]) => Object.assign(new playwrightErrors.TimeoutError("locator.click: Timeout 700ms exceeded.\nCall log:\n" + log.join("\n")), { log });

describe("why a Playwright action waited until its time ran out", () => {
  it("names what covers the target by tag, id and two classes, never its other attributes", () => {
    expect(waitedFor(timedOut(covered))).toBe("<img#i> intercepts pointer events");
    const input = '      - <input class="mask  full wide" type="password" value="hunter2-secret"/> from <div class="modal">…</div> subtree intercepts pointer events';
    expect(waitedFor(timedOut([...covered.slice(0, 7), input]))).toBe("<input.mask.full> intercepts pointer events");
  });

  it("names the state the target lacked, the last one logged", () => {
    expect(waitedFor(timedOut(disabled))).toBe("element is not enabled");
    expect(waitedFor(timedOut([...disabled, "      - element is not visible", "    - waiting 500ms"]))).toBe("element is not visible");
  });

  it("says nothing when the log does not say why (the target never resolved, or no log)", () => {
    expect(waitedFor(timedOut(["  - waiting for locator('#absent')"]))).toBeUndefined();
    expect(waitedFor(new Error("plain"))).toBeUndefined();
  });

  it("puts the reason into the timeout's message, after Playwright's first line", () => {
    const error = toStationError(timedOut(covered), "click");
    expect(error.code).toBe("timeout");
    expect(error.message).toBe("click: locator.click: Timeout 700ms exceeded. (<img#i> intercepts pointer events)");
    expect(toStationError(timedOut([...covered.slice(0, 7), '      - <input type="password" value="hunter2-secret"/> intercepts pointer events']), "click").message).not.toContain("hunter2");
  });
});
