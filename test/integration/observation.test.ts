import { beforeAll, describe, expect, it } from "vitest";
import { OutcomeUnknownError } from "../../src/errors.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { imageSize } from "../../src/engine/screenshot.js";
import { limits } from "../../src/protocol/limits.js";
import { useBrowser } from "../helpers/browser.js";

const browser = useBrowser();
let handle: BrowserHandle;

describe("observation (real Chromium)", () => {
  beforeAll(async () => {
    handle = await browser.open();
  });

  it("inspects bounded DOM metadata and never shows password or file values", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });
    await browser.adapter.execute(handle, { op: "fill", selector: "#user", value: "ada" });
    await browser.adapter.execute(handle, { op: "fill", selector: "#pass", value: "hunter2-secret" });
    const result = await browser.adapter.execute(handle, { op: "inspect" });
    expect(result.coordinateSpace).toBe("css-pixels-main-viewport");
    expect(result.viewport).toEqual({ width: 1280, height: 800 });
    const user = result.elements.find((element) => element.id === "user");
    expect(user).toMatchObject({ tag: "input", role: "textbox", name: "User name", value: "ada" });
    const password = result.elements.find((element) => element.id === "pass");
    expect(password).toMatchObject({ type: "password", name: "Password" });
    expect(password).not.toHaveProperty("value");
    expect(JSON.stringify(result)).not.toContain("hunter2-secret");
    expect(result.elements.find((element) => element.id === "avatar")).not.toHaveProperty("value");

    const bounded = await browser.adapter.execute(handle, { op: "inspect", maxElements: 3, maxTextLength: 5 });
    expect(bounded.elements).toHaveLength(3);
    expect(bounded.truncated).toBe(true);
    expect(bounded.elements.every((element) => (element.name ?? "").length <= 5)).toBe(true);
  });

  it("inspects inside iframes with frame chains and main-viewport boxes", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/targets.html") });
    await browser.adapter.execute(handle, { op: "waitFor", text: "Pay", timeoutMs: 5000 }).catch(() => undefined);
    const result = await browser.adapter.execute(handle, { op: "inspect", maxElements: 500 });
    const pay = result.elements.find((element) => element.name === "Pay" || element.text === "Pay");
    expect(pay?.frame).toEqual(["iframe#outer", "iframe#inner"]);
    const outer = result.elements.find((element) => element.text === "Outer button");
    expect(pay!.box.y).toBeGreaterThan(outer!.box.y);
  });

  it("takes PNG and JPEG viewport screenshots with their real size", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const png = await browser.adapter.execute(handle, { op: "screenshot" });
    expect(png).toMatchObject({ mimeType: "image/png", width: 1280, height: 800, scale: 1 });
    expect(imageSize(Buffer.from(png.base64, "base64"))).toEqual({ width: 1280, height: 800 });
    const jpeg = await browser.adapter.execute(handle, { op: "screenshot", format: "jpeg", quality: 50 });
    expect(jpeg).toMatchObject({ mimeType: "image/jpeg", width: 1280, height: 800 });
    expect(imageSize(Buffer.from(jpeg.base64, "base64"))).toEqual({ width: 1280, height: 800 });
  });

  it("downscales a larger viewport to fit 1280×800 and reports the scale", async () => {
    const large = await browser.adapter.open({ viewport: { width: 1920, height: 1080 } });
    await browser.adapter.execute(large, { op: "navigate", url: browser.server.url("/form.html") });
    await browser.adapter.execute(large, { op: "scroll", deltaY: 300 });
    const shot = await browser.adapter.execute(large, { op: "screenshot" });
    expect(shot.width).toBeLessThanOrEqual(1280);
    expect(shot.height).toBeLessThanOrEqual(800);
    expect(shot.width).toBe(1280);
    expect(shot.scale).toBeCloseTo(1280 / 1920, 2);
    expect(imageSize(Buffer.from(shot.base64, "base64"))).toEqual({ width: shot.width, height: shot.height });
    await browser.adapter.close(large);
  });

  it("returns page content, bounded", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const content = await browser.adapter.execute(handle, { op: "content" });
    expect(content.html).toContain("<h1>Fixture home</h1>");
    expect(content.truncated).toBe(false);
    const cut = await browser.adapter.execute(handle, { op: "content", maxBytes: 40 });
    expect(cut.truncated).toBe(true);
    expect(new TextEncoder().encode(cut.html).length).toBeLessThanOrEqual(40);
  });

  it("evaluates to JSON values and refuses the rest", async () => {
    expect((await browser.adapter.execute(handle, { op: "evaluate", expression: "document.title" })).value).toBe("Fixture home");
    expect((await browser.adapter.execute(handle, { op: "evaluate", expression: "({ a: [1, 'two', null], b: { c: true } })" })).value).toEqual({
      a: [1, "two", null],
      b: { c: true },
    });
    expect((await browser.adapter.execute(handle, { op: "evaluate", expression: "Promise.resolve(7)" })).value).toBe(7);
    expect((await browser.adapter.execute(handle, { op: "evaluate", expression: "undefined" })).value).toBe(null);
    const date = await browser.adapter.execute(handle, { op: "evaluate", expression: "({ when: new Date() })" }).catch((caught: unknown) => caught);
    // The expression ran: its result is refused, and the outcome is not "failed" (its effects stand).
    expect(date).toBeInstanceOf(OutcomeUnknownError);
    expect((date as Error).message).toMatch(/the expression ran, but its result cannot be returned: it is not JSON-compatible \(Date at \$\.when\)/);
    await expect(browser.adapter.execute(handle, { op: "evaluate", expression: "NaN" })).rejects.toThrow(/NaN at \$/);
    await expect(browser.adapter.execute(handle, { op: "evaluate", expression: "(() => { throw new Error('boom') })()" })).rejects.toThrow(/boom/);
  });

  it("refuses a result nested too deep or holding a __proto__ key, saying the expression ran", async () => {
    const deep = "(() => { let value = 1; for (let i = 0; i < 10000; i++) value = { a: value }; return value; })()";
    await expect(browser.adapter.execute(handle, { op: "evaluate", expression: deep })).rejects.toThrow(
      /^evaluate: the expression ran, but its result cannot be returned: it is not JSON-compatible \(nesting deeper than 100 levels at \$\.a\.a/,
    );
    const proto = await browser.adapter.execute(handle, { op: "evaluate", expression: `({ ok: JSON.parse('{"__proto__": {"polluted": 1}}') })` }).catch((caught: unknown) => caught);
    expect(proto).toBeInstanceOf(OutcomeUnknownError);
    expect((proto as Error).message).toMatch(/the expression ran, but its result cannot be returned: it is not JSON-compatible \(a "__proto__" key at \$\.ok\)/);
    await expect(browser.adapter.execute(handle, { op: "evaluate", expression: "(() => { const cycle = {}; cycle.self = cycle; return cycle; })()" })).rejects.toThrow(/a cycle at \$\.self/);
    await expect(browser.adapter.execute(handle, { op: "evaluate", expression: `"x".repeat(${limits.evaluateResultBytes + 1})` })).rejects.toThrow(
      `it is more than ${limits.evaluateResultBytes} bytes of JSON, the limit`,
    );
    // A plain object of another realm (an iframe's) is plain data too.
    const framed = "(() => { const frame = document.body.appendChild(document.createElement('iframe')); const value = new frame.contentWindow.Object(); value.n = 1; return { value }; })()";
    expect((await browser.adapter.execute(handle, { op: "evaluate", expression: framed })).value).toEqual({ value: { n: 1 } });
    const flat = { a: [1, { b: "c" }], d: null };
    expect((await browser.adapter.execute(handle, { op: "evaluate", expression: `(${JSON.stringify(flat)})` })).value).toEqual(flat);
  });

  it("checks in Node what a page that tampered with its built-ins sends back", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    // The page's own walk is fooled (its JSON.stringify forged); Node still refuses the text.
    await browser.adapter.execute(handle, { op: "evaluate", expression: `JSON.stringify = () => '{"__proto__": {"polluted": true}}'; null` });
    await expect(browser.adapter.execute(handle, { op: "evaluate", expression: "'x'" })).rejects.toThrow(
      /the expression ran, but its result cannot be returned: it is not JSON-compatible \(a "__proto__" key\)/,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await browser.adapter.execute(handle, { op: "evaluate", expression: `JSON.stringify = () => '${"[".repeat(5000)}${"]".repeat(5000)}'; null` });
    await expect(browser.adapter.execute(handle, { op: "evaluate", expression: "'x'" })).rejects.toThrow(/nesting deeper than 100 levels\)/);
    await browser.adapter.execute(handle, { op: "reload" });
  });

  it("reads the visible text only: hidden elements, scripts, styles and field values are left out", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: `${browser.server.url("/visible-text.html")}?token=abc123#frag` });
    await browser.adapter.execute(handle, { op: "fill", selector: "#name", value: "typed-field-text" });
    const result = await browser.adapter.execute(handle, { op: "text" });
    expect(result).toMatchObject({ truncated: false, url: browser.server.url("/visible-text.html"), title: "Visible text" });
    expect(result.text).toMatch(/^€uro 😀 Grüße\n/);
    expect(result.text).toContain("Shown paragraph");
    expect(result.text).toContain("Press me");
    for (const hidden of ["display-none-text", "visibility-hidden-text", "hidden-attribute-text", "script-body-text", "secret-style", "field-value-text", "typed-field-text", "abc123"]) {
      expect(JSON.stringify(result)).not.toContain(hidden);
    }
  });

  it("reads the text and title past a page's own overrides of innerText and title", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/visible-text.html") });
    const forged = await browser.adapter.execute(handle, {
      op: "evaluate",
      expression:
        "Object.defineProperty(HTMLElement.prototype, 'innerText', { get: () => 'forged text' }); Object.defineProperty(Document.prototype, 'title', { get: () => 'forged title' }); document.body.innerText + ' / ' + document.title",
    });
    // The page's own scripts now see the forgeries.
    expect(forged).toEqual({ value: "forged text / forged title" });
    const result = await browser.adapter.execute(handle, { op: "text" });
    expect(result).toMatchObject({ title: "Visible text" });
    expect(result.text).toContain("Shown paragraph");
    expect(JSON.stringify(result)).not.toContain("forged");
  });

  it("cuts the text on a UTF-8 character boundary and marks it", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/visible-text.html") });
    const full = (await browser.adapter.execute(handle, { op: "text" })).text;
    const encoder = new TextEncoder();
    // "€" is 3 bytes and "😀" 4: 9 bytes end inside the emoji, so only "€uro " (7 bytes) fits.
    expect(await browser.adapter.execute(handle, { op: "text", maxBytes: 9 })).toMatchObject({ text: "€uro ", truncated: true });
    expect((await browser.adapter.execute(handle, { op: "text", maxBytes: 2 })).text).toBe("");
    for (let maxBytes = 1; maxBytes <= 24; maxBytes++) {
      const cut = await browser.adapter.execute(handle, { op: "text", maxBytes });
      // The longest prefix of whole characters (code points) that fits.
      let longest = "";
      for (const char of full) {
        if (encoder.encode(longest + char).length > maxBytes) break;
        longest += char;
      }
      expect(cut).toMatchObject({ text: longest, truncated: true });
      expect(cut.text).not.toContain("\uFFFD");
    }

    await browser.adapter.execute(handle, { op: "evaluate", expression: "document.body.append('x'.repeat(20000))" });
    const bounded = await browser.adapter.execute(handle, { op: "text" });
    expect(bounded.truncated).toBe(true);
    expect(encoder.encode(bounded.text).length).toBe(limits.text.bytesDefault);
    const whole = await browser.adapter.execute(handle, { op: "text", maxBytes: limits.text.bytesMax });
    expect(whole.truncated).toBe(false);
    expect(whole.text.endsWith("x".repeat(20000))).toBe(true);
  });

  it("keeps diagnostics: console text only when enabled, URLs sanitised", async () => {
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html?secret=abc") });
    await browser.adapter.execute(handle, { op: "click", selector: "#console-button" });
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/missing.html?token=xyz") });
    const quiet = await browser.adapter.execute(handle, { op: "diagnostics" });
    const consoleEvents = quiet.events.filter((event) => event.kind === "console");
    expect(consoleEvents.length).toBeGreaterThanOrEqual(2);
    expect(consoleEvents.every((event) => event.text === undefined)).toBe(true);
    expect(quiet.events.some((event) => event.kind === "response-error" && event.status === 404 && event.url === browser.server.url("/missing.html"))).toBe(true);
    expect(JSON.stringify(quiet)).not.toMatch(/secret=abc|token=xyz/);
    const later = await browser.adapter.execute(handle, { op: "diagnostics", since: quiet.nextSeq });
    expect(later.events).toEqual([]);

    const chatty = await browser.adapter.open({ consoleText: true });
    await browser.adapter.execute(chatty, { op: "navigate", url: browser.server.url("/form.html") });
    await browser.adapter.execute(chatty, { op: "click", selector: "#console-button" });
    const loud = await browser.adapter.execute(chatty, { op: "diagnostics" });
    expect(loud.events.filter((event) => event.kind === "console").map((event) => event.text)).toEqual(["console says hi", "console error"]);
    await browser.adapter.close(chatty);
  });

  it("detects no challenge on a normal page, and the synthetic interstitial by its header and by its DOM alone", async () => {
    expect(browser.adapter.capabilities().notImplemented).toEqual([]);
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });
    expect(await browser.adapter.execute(handle, { op: "challenge" })).toEqual({ state: "none", evidence: ["status 200"] });

    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/challenge") });
    const served = await browser.adapter.execute(handle, { op: "challenge" });
    expect(served).toMatchObject({ state: "challenge", vendor: "cloudflare" });
    expect(served.evidence).toEqual(["status 403", "header cf-mitigated: challenge"]);

    // The same page as a plain 200: the marker and the interstitial's shape, read in the page.
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/challenge-interstitial.html") });
    const plain = await browser.adapter.execute(handle, { op: "challenge" });
    expect(plain).toMatchObject({ state: "challenge", vendor: "cloudflare" });
    expect(plain.evidence).toEqual(expect.arrayContaining(["marker cf-challenge-form", "marker cf-chl-opt", 'title "Just a moment..."']));
  });
});
