import { beforeAll, describe, expect, it } from "vitest";
import { ActionFailedError, AmbiguousTargetError, OutcomeUnknownError, TimeoutError, ValidationError } from "../../src/errors.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { useCdpBrowser } from "../helpers/cdp-engine.js";

/**
 * click, fill and press on the CDP engine (src/cdp/adapter) against a real
 * local Chromium: targets by selector, role, text, label, placeholder and test
 * id with `exact` and `nth`, ambiguity, open shadow DOM, actionability, keys,
 * dialogs, and the outcome rule. What both engines do alike is in the
 * engine contract suite (engine-contract.test.ts); this file holds what is
 * the CDP engine's own or goes further.
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

  it("matches a role name without exact as a case-insensitive part, and counts every match", async () => {
    await load();
    const loose = await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "save" } }).catch((caught: unknown) => caught);
    expect(loose).toBeInstanceOf(AmbiguousTargetError);
    expect((loose as AmbiguousTargetError).count).toBe(3);
    expect(await log()).toBe("");
    await browser.adapter.execute(handle, { op: "click", selector: "button:nth-of-type(2)" });
    expect(await log()).toBe("save-2");
  });

  it("does not click into an iframe something covers, and moves its point through each frame into the main viewport", async () => {
    await load();
    const innerLog = "document.querySelector('#outer').contentDocument.querySelector('#inner').contentDocument.querySelector('#inner-log').textContent";
    const frame = ["#outer", "#inner"];
    // A scrolled page and a bordered, padded frame: the point still lands on the button.
    await browser.adapter.execute(handle, { op: "evaluate", expression: "document.querySelector('#outer').style.cssText = 'border: 7px solid; padding: 11px; margin-top: 900px'; true" });
    await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "Pay", frame } });
    expect(await read(innerLog)).toBe("inner:");
    await browser.adapter.execute(handle, {
      op: "evaluate",
      expression:
        "(() => { const outer = document.querySelector('#outer'); outer.contentDocument.querySelector('#inner').contentDocument.querySelector('#inner-log').textContent = ''; const box = outer.getBoundingClientRect(); const cover = document.createElement('div'); cover.id = 'cover'; cover.style.cssText = `position:absolute;left:${box.left + scrollX}px;top:${box.top + scrollY}px;width:${box.width}px;height:${box.height}px;background:rgba(0,0,0,.1)`; document.body.append(cover); return true; })()",
    });
    const covered = await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "Pay", frame }, timeoutMs: 300 }).catch((caught: unknown) => caught);
    expect(covered).toBeInstanceOf(TimeoutError);
    expect((covered as Error).message).toMatch(/<div#cover> intercepts pointer events/);
    expect(await read(innerLog)).toBe("");
  });

  it("refuses an iframe selector it cannot use as bad input naming its place in the chain", async () => {
    await load();
    const error = await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "Pay", frame: ["#outer", "[[nope"] } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(/command\.target\.frame\[1\]/);
  });

  it("enters an iframe whose content security policy forbids eval (the isolated world is not bound by it)", async () => {
    await load();
    await browser.adapter.execute(handle, {
      op: "evaluate",
      expression: `new Promise((resolve) => { const frame = document.createElement('iframe'); frame.id = 'strict'; frame.srcdoc = '<meta http-equiv="Content-Security-Policy" content="script-src \\'none\\'"><p id="strict-log"></p><button>Strict</button>'; frame.onload = () => { frame.contentDocument.querySelector('button').addEventListener('click', () => { frame.contentDocument.querySelector('#strict-log').textContent = 'strict'; }); resolve(true); }; document.body.prepend(frame); })`,
    });
    const { snapshot } = await browser.adapter.execute(handle, { op: "accessibility" });
    expect(snapshot).toMatch(/^iframe:\n button "Strict" \[f\d+e\d+\]$/m);
    await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "Strict", frame: ["#strict"] } });
    expect(await read("document.querySelector('#strict').contentDocument.querySelector('#strict-log').textContent")).toBe("strict");
  });

  it("refuses a selector it cannot use as bad input naming the field", async () => {
    await load();
    const bad = await browser.adapter.execute(handle, { op: "click", selector: "button[" }).catch((caught: unknown) => caught);
    expect(bad).toBeInstanceOf(ValidationError);
    expect((bad as ValidationError).field).toBe("command.target.selector");
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

  it("says why a select or a wait ran out of time, without input", async () => {
    await load();
    const missing = await browser.adapter.execute(handle, { op: "select", selector: "#colour", value: ["Purple"], timeoutMs: 300 }).catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(TimeoutError);
    expect((missing as Error).message).toMatch(/^select: Timeout 300ms exceeded waiting for selector "#colour": did not find some options \("Purple"\)/);
    const hidden = await browser.adapter.execute(handle, { op: "waitFor", selector: "#hover-tip", timeoutMs: 150 }).catch((caught: unknown) => caught);
    expect(hidden).toBeInstanceOf(TimeoutError);
    expect((hidden as Error).message).toMatch(/element is not visible/);
    const gone = await browser.adapter.execute(handle, { op: "waitFor", selector: "#pad", state: "detached", timeoutMs: 150 }).catch((caught: unknown) => caught);
    expect((gone as Error).message).toMatch(/element is still attached/);
  });

  it("stops typing slowly when the command's time is up, as an unknown outcome", async () => {
    await load();
    // 100 characters at 100 ms a key cannot fit in 1.5 s and its answer margin; 1.5 s leaves a loaded machine time to type the first.
    const slow = await browser.adapter.execute(handle, { op: "type", selector: "#user", text: "x".repeat(100), delayMs: 100, timeoutMs: 1500 }).catch((caught: unknown) => caught);
    expect(slow).toBeInstanceOf(OutcomeUnknownError);
    // The loop stops at the deadline, or the key it sent last runs out of time for its answer: unknown either way.
    expect((slow as Error).message).toMatch(/the time ran out while typing|Input\.dispatchKeyEvent .* got no answer within/);
    const typed = (await read("document.querySelector('#user').value")) as string;
    expect(typed.length).toBeGreaterThan(0);
    expect(typed.length).toBeLessThan(100);
    // The command ended with its loop: nothing more arrives.
    await browser.adapter.execute(handle, { op: "press", selector: "#notes", key: "a" });
    expect(await read("document.querySelector('#user').value")).toBe(typed);
  });

  it("says whether typed text may sit in a password field", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/visible-text.html") });
    expect(await browser.adapter.execute(handle, { op: "type", selector: "#name", text: "plain" })).toMatchObject({ sensitive: false, title: "Visible text" });
    expect(await browser.adapter.execute(handle, { op: "type", text: "more" })).toMatchObject({ sensitive: false });
    expect(await read("document.querySelector('#name').value")).toBe("plainmorefield-value-text");
    await load();
    expect(await browser.adapter.execute(handle, { op: "type", selector: "#pass", text: "hunter2" })).toMatchObject({ sensitive: true });
    expect(await browser.adapter.execute(handle, { op: "type", text: "3" })).toMatchObject({ sensitive: true });
  });

  it("reports a select whose script never answered as an unknown outcome, and a focus as failed", async () => {
    const hung = await browser.open();
    await browser.adapter.execute(hung, { op: "navigate", url: browser.server.url("/form.html") });
    // The script selects, then the page's change handler never returns: the selection may have happened.
    await browser.adapter.execute(hung, { op: "evaluate", expression: "document.querySelector('#colour').addEventListener('change', () => { for (;;) {} }), true" });
    const selected = await browser.adapter.execute(hung, { op: "select", selector: "#colour", value: "Blue", timeoutMs: 500 }).catch((caught: unknown) => caught);
    expect(selected).toBeInstanceOf(OutcomeUnknownError);
    await browser.adapter.close(hung);

    const stuck = await browser.open();
    await browser.adapter.execute(stuck, { op: "navigate", url: browser.server.url("/form.html") });
    // A focus script only focuses: losing its answer is a failure, not an unknown outcome.
    await browser.adapter.execute(stuck, { op: "evaluate", expression: "document.querySelector('#notes').addEventListener('focus', () => { for (;;) {} }), true" });
    const focused = await browser.adapter.execute(stuck, { op: "focus", selector: "#notes", timeoutMs: 500 }).catch((caught: unknown) => caught);
    expect(focused).toBeInstanceOf(TimeoutError);
    expect(focused).not.toBeInstanceOf(OutcomeUnknownError);
    await browser.adapter.close(stuck);
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
