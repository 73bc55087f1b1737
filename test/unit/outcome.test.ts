import fc from "fast-check";
import { errors as playwrightErrors } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ActionFailedError, NotFoundError, ValidationError } from "../../src/errors.js";
import { inputMayHaveReached, settleFailure } from "../../src/engine/outcome.js";
import type { BrowserCommand } from "../../src/protocol/commands.js";

/**
 * The outcome classifier on call logs as Playwright 1.65 writes them (copied
 * from real runs against Chromium): `true` unless the log proves no input left.
 */
function playwrightFailure(log: string[], timeout = true, message = "Timeout 400ms exceeded."): Error {
  const error = timeout ? new playwrightErrors.TimeoutError(message) : new Error(message);
  return Object.assign(error, { log });
}

const click: BrowserCommand = { op: "click", target: { by: "selector", selector: "#go" } };
const fill: BrowserCommand = { op: "fill", target: { by: "selector", selector: "#d" }, value: "secret-value-1" };

const notVisible = [
  "  - waiting for locator('#hidden')",
  '    - locator resolved to <button id="hidden">H</button>',
  "  - attempting click action",
  "    2 × waiting for element to be visible, enabled and stable",
  "      - element is not visible",
  "    - retrying click action",
  "    - waiting 20ms",
];
const clicked = [
  "  - waiting for locator('#go')",
  '    - locator resolved to <button id="go">Go</button>',
  "  - attempting click action",
  "    - waiting for element to be visible, enabled and stable",
  "    - element is visible, enabled and stable",
  "    - scrolling into view if needed",
  "    - done scrolling",
  "    - performing click action",
  "    - click action done",
  "    - waiting for scheduled navigations to finish",
];

describe("inputMayHaveReached", () => {
  it("reads Playwright's call log: performing an action means input may have left; a missing state means none did", () => {
    expect(inputMayHaveReached(click, playwrightFailure(clicked))).toBe(true);
    expect(inputMayHaveReached(click, playwrightFailure(clicked.slice(0, 8)))).toBe(true);
    expect(inputMayHaveReached(click, playwrightFailure(clicked.slice(0, 7)))).toBe(false);
    expect(inputMayHaveReached(click, playwrightFailure(notVisible))).toBe(false);
    expect(inputMayHaveReached(click, playwrightFailure(["  - waiting for locator('#nope')"]))).toBe(false);
  });

  it("an atomic fill is unknown while its check-and-fill step was in flight, failed when the last step says what was missing", () => {
    const started = ["  - waiting for locator('#d')", '    - locator resolved to <input id="d"/>', '    - fill("secret-value-1")', "  - attempting fill action"];
    expect(inputMayHaveReached(fill, playwrightFailure(started))).toBe(false);
    expect(inputMayHaveReached(fill, playwrightFailure([...started, "    - waiting for element to be visible, enabled and editable"]))).toBe(true);
    expect(
      inputMayHaveReached(fill, playwrightFailure([...started, "    2 × waiting for element to be visible, enabled and editable", "      - element is not enabled"])),
    ).toBe(false);
    expect(inputMayHaveReached(fill, playwrightFailure(started, false, "Error: Element is not an <input>, <textarea> or [contenteditable] element"))).toBe(
      false,
    );
  });

  it("raw keyboard and mouse input, once started, may have reached the page", () => {
    expect(inputMayHaveReached({ op: "mouseClick", x: 1, y: 1 }, playwrightFailure([], false, "Target crashed"))).toBe(true);
    expect(inputMayHaveReached({ op: "type", text: "abc" }, playwrightFailure([], false, "Target crashed"))).toBe(true);
  });

  it("navigations: a timeout or a late network error may have reached the server; an error before sending did not", () => {
    const navigate: BrowserCommand = { op: "navigate", url: "http://127.0.0.1:9/" };
    expect(inputMayHaveReached(navigate, playwrightFailure([]))).toBe(true);
    expect(inputMayHaveReached(navigate, playwrightFailure([], false, "page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/"))).toBe(false);
    expect(inputMayHaveReached(navigate, playwrightFailure([], false, "page.goto: net::ERR_NAME_NOT_RESOLVED at http://x.invalid/"))).toBe(false);
    expect(inputMayHaveReached(navigate, playwrightFailure([], false, "page.goto: net::ERR_EMPTY_RESPONSE at http://127.0.0.1:9/"))).toBe(true);
    expect(inputMayHaveReached(navigate, playwrightFailure([], false, "page.goto: net::ERR_CONNECTION_RESET at http://127.0.0.1:9/"))).toBe(true);
  });

  it("our own refusals before dispatch never count as input", () => {
    expect(inputMayHaveReached(click, new NotFoundError("No element matches selector \"#go\""))).toBe(false);
    expect(inputMayHaveReached(click, new ValidationError("command.x", "outside the viewport"))).toBe(false);
  });

  it("property: any log holding a dispatched step is unknown, for every locator op, wherever the step sits", () => {
    const ops: BrowserCommand[] = [click, fill, { op: "hover", target: { by: "selector", selector: "#a" } }, { op: "check", target: { by: "selector", selector: "#a" } }];
    const dispatched = fc.constantFrom("    - performing click action", "    - click action done", '  - elementHandle.press("Enter")', "    - performing hover action");
    const other = fc.constantFrom(...notVisible, "    - waiting for element to be visible, enabled and editable");
    fc.assert(
      fc.property(fc.constantFrom(...ops), fc.array(other, { maxLength: 8 }), dispatched, fc.array(other, { maxLength: 8 }), (command, head, step, tail) => {
        expect(inputMayHaveReached(command, playwrightFailure([...head, step, ...tail]))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("settleFailure", () => {
  it("keeps a failure that sent nothing, and turns one that may have sent input into outcome unknown, saying what to check", () => {
    const kept = settleFailure(click, playwrightFailure(notVisible), { committed: false, url: "http://127.0.0.1/form" });
    expect(kept.code).toBe("timeout");
    const unknown = settleFailure(click, playwrightFailure(clicked), { committed: false, url: "http://127.0.0.1/form" });
    expect(unknown.code).toBe("outcome_unknown");
    expect(unknown.message).toContain("The selected page is now at http://127.0.0.1/form");
    expect(unknown.message).toMatch(/was the form sent/);
  });

  it("a committed navigation is unknown whatever ended it; for other ops a navigation alone is no evidence of input", () => {
    const navigate: BrowserCommand = { op: "navigate", url: "http://127.0.0.1:9/" };
    const refused = new ActionFailedError("navigate failed", { cause: playwrightFailure([], false, "net::ERR_CONNECTION_REFUSED") });
    expect(settleFailure(navigate, refused, { committed: true, url: undefined }).code).toBe("outcome_unknown");
    expect(settleFailure(navigate, refused, { committed: false, url: undefined }).code).toBe("action_failed");
    expect(settleFailure(click, new NotFoundError("gone"), { committed: true, url: undefined }).code).toBe("not_found");
  });

  it("never quotes the call log, which holds typed values", () => {
    const log = ["  - waiting for locator('#d')", '    - fill("secret-value-1")', "  - attempting fill action", "    - waiting for element to be visible, enabled and editable"];
    const settled = settleFailure(fill, playwrightFailure(log), { committed: false, url: undefined });
    expect(settled.code).toBe("outcome_unknown");
    expect(settled.message).not.toContain("secret-value-1");
  });
});
