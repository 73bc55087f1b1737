import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isStationBrowserError } from "../../src/errors.js";
import { commandOps, commandSchemas, safeParseCommand } from "../../src/protocol/index.js";
import { useBrowser } from "../helpers/browser.js";

const browser = useBrowser({ watchdogGraceMs: 1000 });

/** Commands as a model might send them: mostly well-formed, sometimes not. */
const target = fc.oneof(
  fc.record({ by: fc.constant("selector"), selector: fc.constantFrom("#user", "button", "#nope", "a", "[", "input") }),
  fc.record({ by: fc.constant("role"), role: fc.constantFrom("button", "link", "textbox", "checkbox"), name: fc.string({ minLength: 1, maxLength: 8 }) }),
  fc.record({ by: fc.constant("text"), value: fc.string({ minLength: 1, maxLength: 8 }), nth: fc.nat({ max: 3 }) }),
  fc.record({ by: fc.constant("ref"), ref: fc.nat({ max: 50 }).map((number) => `e${number}`) }),
  fc.record({ by: fc.constant("label"), value: fc.constantFrom("User name", "Password", "Nothing"), frame: fc.constant(["#none"]) }),
);
const fields = fc.record(
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

/** Keeps the fields the op accepts (so most commands parse), and now and then one it does not. */
const rarely = fc.integer({ min: 0, max: 5 }).map((roll) => roll === 0);
const command = fc.tuple(fields, rarely, rarely).map(([input, keepStray, dropTarget]) => {
  const accepted = Object.keys(commandSchemas[input.op].entries);
  const shaped: Record<string, unknown> = Object.fromEntries(Object.entries(input).filter(([key]) => accepted.includes(key) || (keepStray && key === "text")));
  if (dropTarget) delete shaped.target;
  if (input.op === "drag") Object.assign(shaped, { from: input.target, to: { by: "selector", selector: "#drop-zone" } });
  if (input.op === "dragCoordinates") Object.assign(shaped, { from: { x: input.x, y: input.y }, to: { x: 10, y: 10 } });
  if (input.op === "upload") shaped.files = [{ name: "a.txt", base64: "YQ==" }];
  return shaped;
});

describe("engine under random commands (real Chromium)", () => {
  it("answers every command with a result or a typed error, never anything else", async () => {
    const handle = await browser.open();
    let wellFormed = 0;
    await fc.assert(
      fc.asyncProperty(command, async (input) => {
        await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") }).catch(() => undefined);
        if (safeParseCommand(input).ok) wellFormed++;
        try {
          await browser.adapter.execute(handle, input as never);
        } catch (error) {
          expect(isStationBrowserError(error), `${String(error)} for ${JSON.stringify(input)}`).toBe(true);
        }
      }),
      { numRuns: 80 },
    );
    // Most generated commands reach the browser, not just the parser.
    expect(wellFormed).toBeGreaterThan(40);
    // The session is still usable afterwards.
    const result = await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    expect(result.title).toBe("Fixture home");
  }, 180_000);
});
