import { beforeAll, describe, expect, it } from "vitest";
import { ActionFailedError, AmbiguousTargetError, NotFoundError, OutcomeUnknownError, TimeoutError, ValidationError } from "../../src/errors.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { useCdpBrowser } from "../helpers/cdp-engine.js";

/**
 * click, fill and press on the CDP engine (src/cdp/adapter) against a real
 * local Chromium: targets by selector, role, text, label, placeholder and test
 * id with `exact` and `nth`, ambiguity, open shadow DOM, actionability, keys,
 * dialogs, and the outcome rule. The assertions are the Playwright engine's
 * (targets.test.ts, interaction.test.ts) where the command is the same.
 */
const browser = useCdpBrowser();
let handle: BrowserHandle;

const read = async (expression: string) => (await browser.adapter.execute(handle, { op: "evaluate", expression })).value;
const log = (selector = "#log") => read(`document.querySelector(${JSON.stringify(selector)}).textContent`);

beforeAll(async () => {
  handle = await browser.open();
});

describe("CDP engine: targets (real Chromium)", () => {
  const load = () => browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/targets.html") });

  it("finds elements by selector, role, text, label, placeholder and test id", async () => {
    await load();
    await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "Save draft" } });
    expect(await log()).toBe("save-3");
    await browser.adapter.execute(handle, { op: "click", target: { by: "testId", value: "submit-order" } });
    expect(await log()).toBe("order");
    await browser.adapter.execute(handle, { op: "fill", target: { by: "label", value: "Email address" }, value: "a@b.c" });
    await browser.adapter.execute(handle, { op: "fill", target: { by: "placeholder", value: "you@example.com" }, value: "x@y.z" });
    expect(await read("document.querySelector('#email').value")).toBe("x@y.z");
    await browser.adapter.execute(handle, { op: "fill", target: { by: "label", value: "Code", exact: true }, value: "42" });
    expect(await read("document.querySelector('#code').value")).toBe("42");
    await browser.adapter.execute(handle, { op: "click", target: { by: "text", value: "Order", exact: true } });
    expect(await log()).toBe("order");
    await browser.adapter.execute(handle, { op: "click", selector: "button:nth-of-type(2)" });
    expect(await log()).toBe("save-2");
  });

  it("fails on ambiguity, saying how many matched, and honours nth", async () => {
    await load();
    const error = await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "Save", exact: true } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AmbiguousTargetError);
    expect((error as AmbiguousTargetError).count).toBe(2);
    expect((error as Error).message).toMatch(/matched 2 elements/);
    expect(await log()).toBe("");
    // Without exact, "Save" is a case-insensitive substring: "Save draft" matches too.
    const loose = await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "save" } }).catch((caught: unknown) => caught);
    expect((loose as AmbiguousTargetError).count).toBe(3);

    await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "Save", exact: true, nth: 1 } });
    expect(await log()).toBe("save-2");
    await expect(
      browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "Save", exact: true, nth: 5 } }),
    ).rejects.toThrow(/matched 2 elements; nth 5 is out of range/);
  });

  it("reports a missing element clearly, and a selector it cannot use as bad input", async () => {
    await load();
    const error = await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "Nope" }, timeoutMs: 200 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(/No element matches role button named "Nope"/);
    const bad = await browser.adapter.execute(handle, { op: "click", selector: "button[" }).catch((caught: unknown) => caught);
    expect(bad).toBeInstanceOf(ValidationError);
    expect((bad as ValidationError).field).toBe("command.target.selector");
  });

  it("pierces open shadow DOM", async () => {
    await load();
    await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "Shadow action" } });
    expect(await log()).toBe("shadow");
    await browser.adapter.execute(handle, { op: "evaluate", expression: "document.querySelector('#log').textContent = ''" });
    await browser.adapter.execute(handle, { op: "click", selector: "#shadow-button" });
    expect(await log()).toBe("shadow");
    await browser.adapter.execute(handle, { op: "fill", target: { by: "label", value: "Shadow field" }, value: "deep" });
    expect(await read("document.querySelector('#host').shadowRoot.querySelector('input').value")).toBe("deep");
  });
});

describe("CDP engine: interaction (real Chromium)", () => {
  const load = () => browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });

  it("fills, presses and submits a form", async () => {
    await load();
    const filled = await browser.adapter.execute(handle, { op: "fill", target: { by: "label", value: "User name" }, value: "ada!" });
    expect(filled).toMatchObject({ ok: true, title: "Form", navigated: false, newPages: [], sensitive: true });
    expect(await read("document.querySelector('#user').value")).toBe("ada!");
    // Filling replaces what was there.
    await browser.adapter.execute(handle, { op: "fill", selector: "#user", value: "adax" });
    await browser.adapter.execute(handle, { op: "press", selector: "#user", key: "Backspace" });
    expect(await read("document.querySelector('#user').value")).toBe("ada");
    expect(await log("#keys")).toBe("Backspace,");
    await browser.adapter.execute(handle, { op: "press", selector: "#user", key: "Shift+A" });
    expect(await read("document.querySelector('#user').value")).toBe("adaA");
    await browser.adapter.execute(handle, { op: "press", key: "Enter" });
    expect(await log("#submitted")).toBe("submitted:adaA");
    await browser.adapter.execute(handle, { op: "fill", selector: "#user", value: "" });
    expect(await read("document.querySelector('#user').value")).toBe("");
  });

  it("says whether filled text may sit in a password field", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/visible-text.html") });
    expect(await browser.adapter.execute(handle, { op: "fill", selector: "#name", value: "plain words" })).toMatchObject({ sensitive: false, title: "Visible text" });
    await load();
    expect(await browser.adapter.execute(handle, { op: "fill", selector: "#pass", value: "hunter2" })).toMatchObject({ sensitive: true });
  });

  it("names an unknown key as a validation error", async () => {
    const error = await browser.adapter.execute(handle, { op: "press", key: "Nonsense" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("command.key");
  });

  it("clicks at the element's centre and reports the title the click left", async () => {
    await load();
    await browser.adapter.execute(handle, { op: "click", selector: "#pad" });
    // The pad is 300×150 inside a 1 px border: its centre is (151, 76) of the border box.
    expect(await log("#pad-log")).toBe("down@151,76;up@151,76;click@151,76;");
    const retitled = await browser.adapter.execute(handle, { op: "click", selector: "#retitle" });
    expect(retitled).toMatchObject({ title: "Retitled", navigated: false });
  });

  it("waits for an element to become actionable, and fails without input when it never does", async () => {
    await load();
    await browser.adapter.execute(handle, {
      op: "evaluate",
      expression:
        "(() => { const b = document.createElement('button'); b.id = 'later'; b.disabled = true; b.onclick = () => { b.textContent = 'clicked'; }; b.textContent = 'Later'; document.body.prepend(b); setTimeout(() => { b.disabled = false; }, 50); return true; })()",
    });
    await browser.adapter.execute(handle, { op: "click", selector: "#later" });
    expect(await log("#later")).toBe("clicked");

    await browser.adapter.execute(handle, {
      op: "evaluate",
      expression:
        "(() => { const cover = document.createElement('div'); cover.id = 'cover'; cover.style.cssText = 'position:fixed;inset:0;background:rgba(0,0,0,.1)'; document.body.append(cover); return true; })()",
    });
    const covered = await browser.adapter.execute(handle, { op: "click", selector: "#pad", timeoutMs: 300 }).catch((caught: unknown) => caught);
    expect(covered).toBeInstanceOf(TimeoutError);
    expect((covered as Error).message).toMatch(/<div#cover> intercepts pointer events/);
    expect(await log("#pad-log")).toBe("");

    const checkbox = await browser.adapter.execute(handle, { op: "fill", selector: "#remember", value: "x" }).catch((caught: unknown) => caught);
    expect(checkbox).toBeInstanceOf(ActionFailedError);
    expect((checkbox as Error).message).toMatch(/Input of type "checkbox" cannot be filled/);
  });

  it("dismisses unexpected dialogs at once and reports them", async () => {
    await load();
    const result = await browser.adapter.execute(handle, { op: "click", selector: "#confirm-button" });
    expect(result.dialog).toEqual({ type: "confirm", message: "Proceed?", handled: "dismissed", unexpected: true });
    expect(await log("#dialog-log")).toBe("confirm:false");
  });

  it("reports an action whose input was sent but whose answer never came as an unknown outcome", async () => {
    const hung = await browser.open();
    await browser.adapter.execute(hung, { op: "navigate", url: browser.server.url("/form.html") });
    // The click's handler never returns: the browser never answers the input it was sent.
    await browser.adapter.execute(hung, {
      op: "evaluate",
      expression: "document.querySelector('#pad').addEventListener('mousedown', () => { for (;;) {} }), true",
    });
    const error = await browser.adapter.execute(hung, { op: "click", selector: "#pad", timeoutMs: 500 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toMatch(/its input may already have reached the page, so it may have taken effect/);
    await browser.adapter.close(hung);
  });
});
