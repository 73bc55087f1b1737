import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isStationBrowserError } from "../../src/errors.js";
import { commandOps } from "../../src/protocol/commands.js";
import { useBrowser } from "../helpers/browser.js";

const browser = useBrowser({ watchdogGraceMs: 1000, settleMs: 0 });

/** Commands as a model might send them: mostly well-formed, sometimes not. */
const target = fc.oneof(
  fc.record({ by: fc.constant("selector"), selector: fc.constantFrom("#user", "button", "#nope", "a", "[", "input") }),
  fc.record({ by: fc.constant("role"), role: fc.constantFrom("button", "link", "textbox", "checkbox"), name: fc.string({ maxLength: 8 }) }),
  fc.record({ by: fc.constant("text"), value: fc.string({ minLength: 1, maxLength: 8 }), nth: fc.nat({ max: 3 }) }),
  fc.record({ by: fc.constant("ref"), ref: fc.nat({ max: 50 }).map((number) => `e${number}`) }),
  fc.record({ by: fc.constant("label"), value: fc.constantFrom("User name", "Password", "Nothing"), frame: fc.constant(["#none"]) }),
);
const command = fc.record(
  {
    op: fc.constantFrom(...commandOps.filter((op) => op !== "traceStart" && op !== "traceStop")),
    target,
    url: fc.constantFrom("about:blank", "file:///etc/passwd", "http://127.0.0.1:1/", "javascript:1", "not a url"),
    value: fc.oneof(fc.string({ maxLength: 10 }), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 })),
    text: fc.string({ maxLength: 10 }),
    key: fc.constantFrom("Enter", "Tab", "a", "NotAKey"),
    x: fc.integer({ min: -5, max: 2000 }),
    y: fc.integer({ min: -5, max: 1200 }),
    expression: fc.constantFrom("1 + 1", "document.title", "new Date()", "throw new Error('x')", "window"),
    pageId: fc.constantFrom("p1", "p2", "p7"),
    downloadId: fc.constantFrom("d1", "d9"),
    action: fc.constantFrom("accept", "dismiss"),
    timeoutMs: fc.constant(200),
  },
  { requiredKeys: ["op"] },
);

describe("engine under random commands (real Chromium)", () => {
  it("answers every command with a result or a typed error, never anything else", async () => {
    const handle = await browser.open();
    await fc.assert(
      fc.asyncProperty(command, async (input) => {
        await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") }).catch(() => undefined);
        try {
          await browser.adapter.execute(handle, input as never);
        } catch (error) {
          expect(isStationBrowserError(error), `${String(error)} for ${JSON.stringify(input)}`).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
    // The session is still usable afterwards.
    const result = await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    expect(result.title).toBe("Fixture home");
  }, 180_000);
});
