import { describe, expect, it } from "vitest";
import { AmbiguousTargetError, NotFoundError, OutcomeUnknownError, StaleRefError, UrlPolicyError, ValidationError } from "../../src/errors.js";
import type { BrowserAdapter, BrowserHandle } from "../../src/protocol/adapter.js";
import { imageSize } from "../../src/protocol/image-size.js";
import { limits } from "../../src/protocol/limits.js";
import { useBrowser } from "../helpers/browser.js";
import { useCdpBrowser } from "../helpers/cdp-engine.js";
import type { FixtureServer } from "../helpers/fixture-server.js";
import { refOf } from "../helpers/snapshot-refs.js";

/**
 * The engine contract, run against both engines: the Playwright engine
 * (src/engine) and the CDP engine (src/cdp/adapter), each on a real local
 * Chromium with pages on 127.0.0.1, with the same commands and the same
 * assertions. What the CDP engine does not implement yet is listed at the
 * end as skips that say why (it refuses those with NotImplementedError,
 * tested in cdp-engine.test.ts).
 */
interface EngineFixture {
  adapter: BrowserAdapter;
  server: FixtureServer;
  open(): Promise<BrowserHandle>;
}

const engines: Array<[string, () => EngineFixture]> = [
  ["Playwright engine", () => useBrowser()],
  ["CDP engine", () => useCdpBrowser()],
];

describe.each(engines)("%s: the engine contract (real Chromium)", (_name, use) => {
  const browser = use();
  const run = <Command extends Parameters<BrowserAdapter["execute"]>[1]>(handle: BrowserHandle, command: Command) => browser.adapter.execute(handle, command);
  const value = async (handle: BrowserHandle, expression: string) => (await run(handle, { op: "evaluate", expression })).value;

  it("navigates, follows a link, goes back and forward, reloads, and reports what happened", async () => {
    const handle = await browser.open();
    const home = await run(handle, { op: "navigate", url: browser.server.url("/index.html?token=s3cret#frag") });
    expect(home).toMatchObject({ ok: true, title: "Fixture home", navigated: true, newPages: [], url: browser.server.url("/index.html") });
    expect(JSON.stringify(home)).not.toContain("s3cret");
    expect(await run(handle, { op: "click", target: { by: "role", role: "link", name: "Second page" } })).toMatchObject({ title: "Second page", navigated: true });
    expect(await run(handle, { op: "back" })).toMatchObject({ title: "Fixture home", navigated: true });
    expect(await run(handle, { op: "forward" })).toMatchObject({ title: "Second page", navigated: true });
    expect(await run(handle, { op: "reload" })).toMatchObject({ title: "Second page", navigated: true });
    await browser.adapter.close(handle);
  });

  it.each(["file:///etc/passwd", "data:text/html,<p>hi</p>", "javascript:alert(1)", "chrome://settings", "http://user:pass@127.0.0.1/"])(
    "refuses %s before any navigation",
    async (url) => {
      const handle = await browser.open();
      await run(handle, { op: "navigate", url: browser.server.url("/index.html") });
      const before = browser.server.requests.length;
      const error = await run(handle, { op: "navigate", url }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UrlPolicyError);
      expect((error as Error).message).not.toContain("pass@");
      expect(await value(handle, "location.pathname")).toBe("/index.html");
      expect(browser.server.requests.length).toBe(before);
      await browser.adapter.close(handle);
    },
  );

  it("reports a refused connection as a failed navigation, without the query", async () => {
    const handle = await browser.open();
    const error = await run(handle, { op: "navigate", url: "http://127.0.0.1:1/nothing?key=s3cret" }).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/navigate to http:\/\/127\.0\.0\.1:1\/nothing failed: net::ERR_/);
    expect((error as Error).message).not.toContain("s3cret");
    expect(error).not.toBeInstanceOf(OutcomeUnknownError);
    await browser.adapter.close(handle);
  });

  it("takes PNG and JPEG viewport screenshots with their real size", async () => {
    const handle = await browser.open();
    await run(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const png = await run(handle, { op: "screenshot" });
    expect(png).toMatchObject({ mimeType: "image/png", width: 1280, height: 800, scale: 1 });
    expect(imageSize(Buffer.from(png.base64, "base64"))).toEqual({ width: 1280, height: 800 });
    const jpeg = await run(handle, { op: "screenshot", format: "jpeg", quality: 50 });
    expect(imageSize(Buffer.from(jpeg.base64, "base64"))).toEqual({ width: 1280, height: 800 });
    await browser.adapter.close(handle);
  });

  it("evaluates to JSON values, and applies the outcome rule to what throws", async () => {
    const handle = await browser.open();
    await run(handle, { op: "navigate", url: browser.server.url("/index.html") });
    expect(await value(handle, "({ a: [1, 'two', null], b: { c: true } })")).toEqual({ a: [1, "two", null], b: { c: true } });
    expect(await value(handle, "Promise.resolve(7)")).toBe(7);
    expect(await value(handle, "undefined")).toBe(null);
    await expect(run(handle, { op: "evaluate", expression: "({ when: new Date() })" })).rejects.toThrow(/it is not JSON-compatible \(Date at \$\.when\)/);
    const thrown = await run(handle, { op: "evaluate", expression: "(() => { throw new Error('boom') })()" }).catch((caught: unknown) => caught);
    expect((thrown as Error).message).toMatch(/boom/);
    expect(thrown).toBeInstanceOf(OutcomeUnknownError);
    const broken = await run(handle, { op: "evaluate", expression: "({" }).catch((caught: unknown) => caught);
    expect((broken as Error).message).toMatch(/^evaluate: SyntaxError/);
    expect(broken).not.toBeInstanceOf(OutcomeUnknownError);
    await browser.adapter.close(handle);
  });

  it("reads the visible text and title past the page's own overrides, bounded on a UTF-8 boundary", async () => {
    const handle = await browser.open();
    await run(handle, { op: "navigate", url: browser.server.url("/visible-text.html") });
    await run(handle, { op: "fill", selector: "#name", value: "typed-field-text" });
    await run(handle, {
      op: "evaluate",
      expression: "Object.defineProperty(HTMLElement.prototype, 'innerText', { get: () => 'forged text' }); Object.defineProperty(Document.prototype, 'title', { get: () => 'forged title' }); true",
    });
    const result = await run(handle, { op: "text" });
    expect(result).toMatchObject({ truncated: false, title: "Visible text" });
    expect(result.text).toMatch(/^€uro 😀 Grüße\n/);
    for (const hidden of ["display-none-text", "script-body-text", "typed-field-text", "forged"]) expect(JSON.stringify(result)).not.toContain(hidden);
    expect(await run(handle, { op: "text", maxBytes: 9 })).toMatchObject({ text: "€uro ", truncated: true });
    await run(handle, { op: "evaluate", expression: "document.body.append('x'.repeat(20000))" });
    expect(new TextEncoder().encode((await run(handle, { op: "text" })).text).length).toBe(limits.text.bytesDefault);
    await browser.adapter.close(handle);
  });

  it("finds targets by selector, role, text, label, placeholder and test id, in open shadow roots too", async () => {
    const handle = await browser.open();
    await run(handle, { op: "navigate", url: browser.server.url("/targets.html") });
    const log = () => value(handle, "document.querySelector('#log').textContent");
    await run(handle, { op: "click", target: { by: "role", role: "button", name: "Save draft" } });
    expect(await log()).toBe("save-3");
    await run(handle, { op: "click", target: { by: "testId", value: "submit-order" } });
    expect(await log()).toBe("order");
    await run(handle, { op: "fill", target: { by: "label", value: "Email address" }, value: "a@b.c" });
    await run(handle, { op: "fill", target: { by: "placeholder", value: "you@example.com" }, value: "x@y.z" });
    expect(await value(handle, "document.querySelector('#email').value")).toBe("x@y.z");
    await run(handle, { op: "fill", target: { by: "label", value: "Code", exact: true }, value: "42" });
    expect(await value(handle, "document.querySelector('#code').value")).toBe("42");
    await run(handle, { op: "click", target: { by: "text", value: "Save draft", exact: true } });
    expect(await log()).toBe("save-3");
    await run(handle, { op: "click", target: { by: "role", role: "button", name: "Shadow action" } });
    expect(await log()).toBe("shadow");
    await run(handle, { op: "fill", target: { by: "label", value: "Shadow field" }, value: "deep" });
    expect(await value(handle, "document.querySelector('#host').shadowRoot.querySelector('input').value")).toBe("deep");
    await browser.adapter.close(handle);
  });

  it("fails on ambiguity with the count, honours nth, and reports a missing element", async () => {
    const handle = await browser.open();
    await run(handle, { op: "navigate", url: browser.server.url("/targets.html") });
    const error = await run(handle, { op: "click", target: { by: "role", role: "button", name: "Save", exact: true } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AmbiguousTargetError);
    expect((error as AmbiguousTargetError).count).toBe(2);
    expect(await value(handle, "document.querySelector('#log').textContent")).toBe("");
    await run(handle, { op: "click", target: { by: "role", role: "button", name: "Save", exact: true, nth: 1 } });
    expect(await value(handle, "document.querySelector('#log').textContent")).toBe("save-2");
    await expect(run(handle, { op: "click", target: { by: "role", role: "button", name: "Save", exact: true, nth: 5 } })).rejects.toThrow(/matched 2 elements; nth 5 is out of range/);
    const missing = await run(handle, { op: "click", target: { by: "role", role: "button", name: "Nope" }, timeoutMs: 200 }).catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as Error).message).toMatch(/No element matches role button named "Nope"/);
    await browser.adapter.close(handle);
  });

  it("fills, presses and submits a form; an unknown key is bad input; an unexpected dialog is dismissed", async () => {
    const handle = await browser.open();
    await run(handle, { op: "navigate", url: browser.server.url("/form.html") });
    await run(handle, { op: "fill", target: { by: "label", value: "User name" }, value: "adax" });
    await run(handle, { op: "press", selector: "#user", key: "Backspace" });
    expect(await value(handle, "document.querySelector('#user').value")).toBe("ada");
    expect(await value(handle, "document.querySelector('#keys').textContent")).toBe("Backspace,");
    await run(handle, { op: "press", key: "Enter" });
    expect(await value(handle, "document.querySelector('#submitted').textContent")).toBe("submitted:ada");
    const badKey = await run(handle, { op: "press", key: "Nonsense" }).catch((caught: unknown) => caught);
    expect((badKey as ValidationError).field).toBe("command.key");
    const dialog = await run(handle, { op: "click", selector: "#confirm-button" });
    expect(dialog.dialog).toEqual({ type: "confirm", message: "Proceed?", handled: "dismissed", unexpected: true });
    expect(await value(handle, "document.querySelector('#dialog-log').textContent")).toBe("confirm:false");
    await browser.adapter.close(handle);
  });

  it("takes agent and full accessibility snapshots, bounded and marked when cut", async () => {
    const handle = await browser.open();
    await run(handle, { op: "navigate", url: browser.server.url("/form.html") });
    const agent = await run(handle, { op: "accessibility" });
    expect(agent).toMatchObject({ mode: "agent", pageId: "p1", truncated: false });
    expect(agent.snapshot).toMatch(/button "Sign in" \[e\d+\]/);
    expect(agent.bytes).toBe(new TextEncoder().encode(agent.snapshot).length);
    const full = await run(handle, { op: "accessibility", mode: "full" });
    expect(full.snapshot).toMatch(/button "Sign in" \[ref=e\d+\]/);
    expect(agent.bytes).toBeLessThan(full.bytes);
    const cut = await run(handle, { op: "accessibility", mode: "full", maxBytes: 1024 });
    expect(cut.truncated).toBe(true);
    expect(cut.bytes).toBeLessThanOrEqual(1024);
    expect(cut.snapshot).toMatch(/truncated/);
    const interactive = await run(handle, { op: "accessibility", interactiveOnly: true });
    expect(interactive.snapshot).toMatch(/Sign in/);
    expect(interactive.bytes).toBeLessThanOrEqual(agent.bytes);
    const boxed = await run(handle, { op: "accessibility", boxes: true });
    expect(boxed.snapshot).toMatch(/button "Sign in" \[e\d+\] \[box=\d+,\d+,\d+,\d+\]/);
    await browser.adapter.close(handle);
  });

  it("waits for a document's body before taking a snapshot", async () => {
    const handle = await browser.open();
    await run(handle, { op: "navigate", url: browser.server.url("/form.html") });
    // The page takes its body away and gives it back later; the snapshot shows it once back.
    await run(handle, { op: "evaluate", expression: "const body = document.body; body.remove(); setTimeout(() => document.documentElement.append(body), 300); true" });
    expect((await run(handle, { op: "accessibility" })).snapshot).toMatch(/button "Sign in" \[e\d+\]/);
    await browser.adapter.close(handle);
  });

  it("never shows password values in either accessibility form", async () => {
    const handle = await browser.open();
    await run(handle, { op: "navigate", url: browser.server.url("/form.html") });
    await run(handle, { op: "fill", selector: "#user", value: "visible-user" });
    await run(handle, { op: "fill", selector: "#pass", value: "hunter2-secret" });
    for (const mode of ["agent", "full"] as const) {
      const { snapshot } = await run(handle, { op: "accessibility", mode });
      expect(snapshot).toContain("visible-user");
      expect(snapshot).toMatch(/textbox "Password" .*\(hidden\)/);
      expect(snapshot).not.toContain("hunter2-secret");
    }
    await browser.adapter.close(handle);
  });

  it("clicks and fills by ref; refs go stale after a newer snapshot, a navigation or when their element is removed; a ref never issued is not found", async () => {
    const handle = await browser.open();
    const load = () => run(handle, { op: "navigate", url: browser.server.url("/targets.html") });
    const log = () => value(handle, "document.querySelector('#log').textContent");
    await load();
    const first = await run(handle, { op: "accessibility" });
    const oldRef = refOf(first.snapshot, /button "Save draft"/);
    await run(handle, { op: "click", target: { by: "ref", ref: oldRef } });
    expect(await log()).toBe("save-3");
    await run(handle, { op: "fill", target: { by: "ref", ref: refOf(first.snapshot, /textbox "Email address"/) }, value: "by@ref.example" });
    expect(await value(handle, "document.querySelector('#email').value")).toBe("by@ref.example");
    // A newer snapshot: the old ref is stale, never re-matched; the new one acts.
    await run(handle, { op: "evaluate", expression: "document.querySelector('#log').textContent = ''" });
    const second = await run(handle, { op: "accessibility" });
    const newRef = refOf(second.snapshot, /button "Save draft"/);
    expect(newRef).not.toBe(oldRef);
    const stale = await run(handle, { op: "click", target: { by: "ref", ref: oldRef } }).catch((caught: unknown) => caught);
    expect(stale).toBeInstanceOf(StaleRefError);
    expect((stale as StaleRefError).ref).toBe(oldRef);
    expect((stale as Error).message).toMatch(/newer accessibility snapshot/);
    expect(await log()).toBe("");
    await run(handle, { op: "click", target: { by: "ref", ref: newRef } });
    expect(await log()).toBe("save-3");
    // Other commands issue no refs: the latest snapshot's refs still act after them.
    await run(handle, { op: "text" });
    await run(handle, { op: "click", target: { by: "ref", ref: newRef } });
    // Its element removed from the page, a ref is stale.
    const removed = await run(handle, { op: "accessibility" });
    const orderRef = refOf(removed.snapshot, /button "Order"/);
    await run(handle, { op: "evaluate", expression: "document.querySelector('[data-testid=submit-order]').remove()" });
    const detached = await run(handle, { op: "click", target: { by: "ref", ref: orderRef } }).catch((caught: unknown) => caught);
    expect(detached).toBeInstanceOf(StaleRefError);
    expect((detached as Error).message).toMatch(/no longer matches an element/);
    // After a navigation, every ref of the page is stale.
    const before = await run(handle, { op: "accessibility" });
    const ref = refOf(before.snapshot, /button "Save draft"/);
    await load();
    const navigated = await run(handle, { op: "click", target: { by: "ref", ref } }).catch((caught: unknown) => caught);
    expect(navigated).toBeInstanceOf(StaleRefError);
    expect((navigated as Error).message).toMatch(/navigated/);
    expect(await log()).toBe("");
    await expect(run(handle, { op: "click", target: { by: "ref", ref: "e999999" } })).rejects.toBeInstanceOf(NotFoundError);
    await browser.adapter.close(handle);
  });

  it("inspects bounded DOM metadata, in same-origin iframes too, and never shows password or file values", async () => {
    const handle = await browser.open();
    await run(handle, { op: "navigate", url: browser.server.url("/form.html") });
    await run(handle, { op: "fill", selector: "#user", value: "ada" });
    await run(handle, { op: "fill", selector: "#pass", value: "hunter2-secret" });
    const result = await run(handle, { op: "inspect" });
    expect(result.coordinateSpace).toBe("css-pixels-main-viewport");
    expect(result.viewport).toEqual({ width: 1280, height: 800 });
    expect(result.elements.find((element) => element.id === "user")).toMatchObject({ tag: "input", role: "textbox", name: "User name", value: "ada" });
    const password = result.elements.find((element) => element.id === "pass");
    expect(password).toMatchObject({ type: "password", name: "Password" });
    expect(password).not.toHaveProperty("value");
    expect(JSON.stringify(result)).not.toContain("hunter2-secret");
    expect(result.elements.find((element) => element.id === "avatar")).not.toHaveProperty("value");
    const bounded = await run(handle, { op: "inspect", maxElements: 3, maxTextLength: 5 });
    expect(bounded.elements).toHaveLength(3);
    expect(bounded.truncated).toBe(true);
    expect(bounded.elements.every((element) => (element.name ?? "").length <= 5)).toBe(true);
    await run(handle, { op: "navigate", url: browser.server.url("/targets.html") });
    await run(handle, { op: "evaluate", expression: "new Promise((resolve) => { const check = () => document.getElementById('outer')?.contentDocument?.getElementById('inner')?.contentDocument?.querySelector('button') ? resolve(true) : setTimeout(check, 20); check(); })" });
    const framed = await run(handle, { op: "inspect", maxElements: 500 });
    const pay = framed.elements.find((element) => element.name === "Pay" || element.text === "Pay");
    expect(pay?.frame).toEqual(["iframe#outer", "iframe#inner"]);
    const outer = framed.elements.find((element) => element.text === "Outer button");
    expect(pay!.box.y).toBeGreaterThan(outer!.box.y);
    await browser.adapter.close(handle);
  });

  it("returns page content, bounded", async () => {
    const handle = await browser.open();
    await run(handle, { op: "navigate", url: browser.server.url("/index.html?token=s3cret") });
    const content = await run(handle, { op: "content" });
    expect(content.html).toContain("<h1>Fixture home</h1>");
    expect(content).toMatchObject({ truncated: false, url: browser.server.url("/index.html") });
    expect(content.bytes).toBe(new TextEncoder().encode(content.html).length);
    const cut = await run(handle, { op: "content", maxBytes: 40 });
    expect(cut.truncated).toBe(true);
    expect(new TextEncoder().encode(cut.html).length).toBeLessThanOrEqual(40);
    await browser.adapter.close(handle);
  });

  it("keeps diagnostics: console text only when enabled, URLs sanitised, dialogs noted", async () => {
    const handle = await browser.open();
    await run(handle, { op: "navigate", url: browser.server.url("/form.html?secret=abc") });
    await run(handle, { op: "click", selector: "#console-button" });
    await run(handle, { op: "click", selector: "#confirm-button" });
    await run(handle, { op: "navigate", url: browser.server.url("/missing.html?token=xyz") });
    const quiet = await run(handle, { op: "diagnostics" });
    const consoleEvents = quiet.events.filter((event) => event.kind === "console");
    expect(consoleEvents.length).toBeGreaterThanOrEqual(2);
    expect(consoleEvents.every((event) => event.text === undefined)).toBe(true);
    expect(quiet.events.some((event) => event.kind === "response-error" && event.status === 404 && event.url === browser.server.url("/missing.html"))).toBe(true);
    expect(quiet.events.some((event) => event.kind === "dialog" && event.level === "confirm" && event.text === "dismissed")).toBe(true);
    expect(JSON.stringify(quiet)).not.toMatch(/secret=abc|token=xyz/);
    expect((await run(handle, { op: "diagnostics", since: quiet.nextSeq })).events).toEqual([]);
    await browser.adapter.close(handle);
    const chatty = await browser.adapter.open({ consoleText: true });
    await run(chatty, { op: "navigate", url: browser.server.url("/form.html") });
    await run(chatty, { op: "click", selector: "#console-button" });
    const loud = await run(chatty, { op: "diagnostics" });
    expect(loud.events.filter((event) => event.kind === "console").map((event) => event.text)).toEqual(["console says hi", "console error"]);
    // An inline script runs as it is added: its uncaught error is reported before the evaluate answers.
    await run(chatty, { op: "evaluate", expression: "document.body.append(Object.assign(document.createElement('script'), { textContent: \"throw new TypeError('late boom')\" })); true" });
    expect((await run(chatty, { op: "diagnostics" })).events.filter((event) => event.kind === "pageerror").map((event) => event.text)).toEqual(["late boom"]);
    await browser.adapter.close(chatty);
  });

  it("detects no challenge on a normal page, the synthetic interstitial by its header and by its DOM alone", async () => {
    const handle = await browser.open();
    await run(handle, { op: "navigate", url: browser.server.url("/form.html") });
    expect(await run(handle, { op: "challenge" })).toEqual({ state: "none", evidence: ["status 200"] });
    await run(handle, { op: "navigate", url: browser.server.url("/challenge") });
    const served = await run(handle, { op: "challenge" });
    expect(served).toMatchObject({ state: "challenge", vendor: "cloudflare" });
    expect(served.evidence).toEqual(["status 403", "header cf-mitigated: challenge"]);
    await run(handle, { op: "navigate", url: browser.server.url("/challenge-interstitial.html") });
    const plain = await run(handle, { op: "challenge" });
    expect(plain).toMatchObject({ state: "challenge", vendor: "cloudflare" });
    expect(plain.evidence).toEqual(expect.arrayContaining(["marker cf-challenge-form", "marker cf-chl-opt", 'title "Just a moment..."']));
    // Markers gone without a navigation: the document's status and header still say challenge.
    await run(handle, { op: "navigate", url: browser.server.url("/challenge?page=challenge-clears.html") });
    await run(handle, { op: "evaluate", expression: "document.title = 'Welcome'; document.querySelector('#challenge-form').remove(); 1" });
    const read = await run(handle, { op: "challenge" });
    expect(read).toMatchObject({ state: "challenge", solver: { provider: "browserbase", state: "solving" } });
    expect(read).not.toHaveProperty("solved");
    await browser.adapter.close(handle);
  });

  // Behaviour of the Playwright engine the CDP engine does not have yet (it refuses each with NotImplementedError).
  const notYetOnCdp: Array<[string, string]> = [
    ["frame-qualified refs and iframe content in accessibility snapshots (targets.test.ts, observation.test.ts)", "the CDP engine's snapshot is of the main document only; an iframe is a leaf"],
    ["iframe chains in targets (targets.test.ts)", "target.frame is not implemented yet"],
    ["pages: newPage, pages, selectPage, closePage, popups in newPages (navigation.test.ts)", "one page per session; pages a site opens are not tracked yet"],
    ["type, select, check, uncheck, hover, focus, scroll, waitFor, mouse, drag (interaction.test.ts)", "not implemented yet"],
    ["dialog policies (interaction.test.ts)", "unexpected dialogs are dismissed; the dialog command is not implemented yet"],
    ["inspect of cross-site (out-of-process) iframes (observation.test.ts)", "the CDP engine reaches the frames of the page's own process only"],
    ["challenge in action results, and the provider's solver state in challenge (challenge-detection.test.ts)", "actions do not classify the page yet; the CDP engine asks no provider solver API yet"],
    ["textChange and human typing (text-change.test.ts, human-typing.test.ts)", "not implemented yet"],
  ];
  for (const [behaviour, why] of notYetOnCdp) {
    it.skipIf(_name === "CDP engine")(`${behaviour}${_name === "CDP engine" ? ` — skipped: ${why}` : " — covered by the Playwright engine's own tests"}`, () => {
      expect(_name).toBe("Playwright engine");
    });
  }
});
