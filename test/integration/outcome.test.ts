import { createServer, type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { ActionFailedError, NotFoundError, OutcomeUnknownError, TimeoutError, isOutcomeUnknownError } from "../../src/errors.js";
import type { BrowserCommandInput } from "../../src/protocol/commands.js";
import { useHoldingBrowser } from "../helpers/holding-browser.js";

/**
 * The outcome rule on real Chromium: a mutating command is `failed` only when
 * no input can have reached the page; once input may have been dispatched, or
 * a navigation may have committed, it is outcome-unknown, whichever timeout
 * ended it. The server records each request and holds the answers under
 * /hold past every command's timeout.
 *
 * The "dispatched" cases give the command a few seconds: long enough for the
 * click itself to happen on a loaded machine, while the held answer never comes.
 */
const dispatchedTimeoutMs = 4000;
/**
 * The "never actionable" cases: nothing can make them act, but the timeout
 * must let a loaded machine find the element first (at 400 ms a loaded run
 * gave up before Playwright had resolved it, a not-found instead of a
 * not-actionable timeout).
 */
const refusedTimeoutMs = 2000;

const pages = {
  "/form": `<title>Form</title>
    <form method="post" action="/hold-submit"><input id="t" name="t"><input id="d" disabled><button id="go">Send</button></form>
    <button id="hidden" style="display:none">Hidden</button>
    <select id="s"><option>Red</option></select>
    <input type="checkbox" id="c" disabled>`,
  "/slow-load": `<title>Slow load</title><p>committed</p><img src="/hold-image">`,
};

const browser = useHoldingBrowser(pages);

async function onForm(): Promise<void> {
  await browser.adapter.execute(browser.handle, { op: "navigate", url: browser.server.url("/form") });
}

async function failure(command: BrowserCommandInput): Promise<unknown> {
  return browser.adapter.execute(browser.handle, command).then(
    () => new Error(`${command.op} unexpectedly succeeded`),
    (error: unknown) => error,
  );
}

/** A loopback port that was just free: nothing listens on it. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const posts = () => browser.server.requests.filter((request) => request === "POST /hold-submit").length;

describe("input that may have reached the page is outcome-unknown", () => {
  it("a click whose form POST reached the server, with the answer never coming, is unknown — not a timeout", async () => {
    await onForm();
    const before = posts();
    const error = await failure({ op: "click", selector: "#go", timeoutMs: dispatchedTimeoutMs });
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toMatch(/may have taken effect/);
    expect((error as Error).message).toMatch(/do not repeat it blindly/);
    expect(posts()).toBe(before + 1);
  });

  it("a press of Enter that submitted the form is unknown", async () => {
    await onForm();
    const before = posts();
    const error = await failure({ op: "press", target: { by: "selector", selector: "#t" }, key: "Enter", timeoutMs: dispatchedTimeoutMs });
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(posts()).toBe(before + 1);
  });

  it("a navigate whose document committed but whose load never fired is unknown, and the page is on the new document", async () => {
    const error = await failure({ op: "navigate", url: browser.server.url("/slow-load"), timeoutMs: dispatchedTimeoutMs });
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toMatch(/committed/);
    expect((error as Error).message).toContain(browser.server.url("/slow-load"));
    const { pages: open } = await browser.adapter.execute(browser.handle, { op: "pages" });
    expect(open.map((page) => page.url)).toContain(browser.server.url("/slow-load"));
  });

  it("a navigate whose request reached the server but was never answered is unknown", async () => {
    const error = await failure({ op: "navigate", url: browser.server.url("/hold-page"), timeoutMs: refusedTimeoutMs });
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toMatch(/request may already have reached the server/);
    expect(browser.server.requests).toContain("GET /hold-page");
  });

  it("an expression that started running and threw is unknown; one that never compiled failed", async () => {
    await onForm();
    const threw = await failure({ op: "evaluate", expression: "(() => { window.touched = 1; throw new TypeError('boom') })()" });
    expect(threw).toBeInstanceOf(OutcomeUnknownError);
    expect((threw as Error).message).toMatch(/boom/);
    // A page-made SyntaxError is not taken for a compile error: the expression ran.
    const fake = await failure({ op: "evaluate", expression: "(() => { throw new SyntaxError('looks like a parse error') })()" });
    expect(fake).toBeInstanceOf(OutcomeUnknownError);
    const syntax = await failure({ op: "evaluate", expression: "1 +" });
    expect(syntax).toBeInstanceOf(ActionFailedError);
    expect(isOutcomeUnknownError(syntax)).toBe(false);
  });
});

describe("input that cannot have reached the page failed", () => {
  // Pointer actions log "performing … action" strictly before their input, so a target that never becomes
  // actionable is a timeout whenever the timeout lands: these cases cannot race. Fill and select check and
  // act in one step, and a timeout inside that step is rightly unknown (test/unit/outcome.test.ts covers
  // those logs): for them, refusals Playwright raises before it touches the element.
  const refused: [string, BrowserCommandInput, typeof TimeoutError | typeof ActionFailedError][] = [
    ["a click on a button that never becomes visible", { op: "click", selector: "#hidden", timeoutMs: refusedTimeoutMs }, TimeoutError],
    ["a hover on a button that never becomes visible", { op: "hover", target: { by: "selector", selector: "#hidden" }, timeoutMs: refusedTimeoutMs }, TimeoutError],
    ["a check of a disabled checkbox", { op: "check", target: { by: "selector", selector: "#c" }, timeoutMs: refusedTimeoutMs }, TimeoutError],
    [
      "a drag from a source that never becomes visible",
      { op: "drag", from: { by: "selector", selector: "#hidden" }, to: { by: "selector", selector: "#go" }, timeoutMs: refusedTimeoutMs },
      TimeoutError,
    ],
    ["a fill of an element that is not a field", { op: "fill", selector: "#s", value: "never typed", timeoutMs: dispatchedTimeoutMs }, ActionFailedError],
    ["a select on an element that is not a select", { op: "select", target: { by: "selector", selector: "#t" }, value: "Blue", timeoutMs: dispatchedTimeoutMs }, ActionFailedError],
  ];
  for (const [what, command, expected] of refused) {
    it(`${what} failed (${expected.name}), not unknown, and sent nothing`, async () => {
      await onForm();
      const requestsBefore = browser.server.requests.length;
      const error = await failure(command);
      expect(error).toBeInstanceOf(expected);
      expect(isOutcomeUnknownError(error)).toBe(false);
      expect(browser.server.requests.length).toBe(requestsBefore);
    });
  }

  it("a missing target is not found", async () => {
    await onForm();
    expect(await failure({ op: "click", selector: "#absent", timeoutMs: refusedTimeoutMs })).toBeInstanceOf(NotFoundError);
  });

  it("a drag onto a drop target that is missing is not found, before the mouse goes down on the source", async () => {
    await onForm();
    const error = await failure({
      op: "drag",
      from: { by: "selector", selector: "#go" },
      to: { by: "selector", selector: "#absent" },
      timeoutMs: refusedTimeoutMs,
    });
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(/No element matches selector "#absent"/);
  });

  it("a navigate to a port nothing listens on failed, and a newPage to it leaves no page behind", async () => {
    await onForm();
    const refusedUrl = `http://127.0.0.1:${await closedPort()}/`;
    const navigate = await failure({ op: "navigate", url: refusedUrl });
    expect(navigate).toBeInstanceOf(ActionFailedError);
    expect((navigate as Error).message).toMatch(/ERR_CONNECTION_REFUSED/);
    const before = await browser.adapter.execute(browser.handle, { op: "pages" });
    const opened = await failure({ op: "newPage", url: refusedUrl });
    expect(opened).toBeInstanceOf(ActionFailedError);
    const after = await browser.adapter.execute(browser.handle, { op: "pages" });
    expect(after.pages.length).toBe(before.pages.length);
    expect(after.selectedPageId).toBe(before.selectedPageId);
  });
});
