import { describe, expect, it } from "vitest";
import { cdpNotImplementedOps, cdpSupportedOps } from "../../src/cdp/adapter/index.js";
import { CdpBrowserAdapter } from "../../src/cdp/adapter/index.js";
import { connectOverWs } from "../helpers/cdp-client.js";
import { nodeWebSocket } from "../../src/engine/node-websocket.js";
import { imageSize } from "../../src/protocol/image-size.js";
import { commandOps, type BrowserCommandInput } from "../../src/protocol/commands.js";
import { limits } from "../../src/protocol/limits.js";
import { createLocalCdpProvider } from "../../src/providers/local/cdp-chromium.js";
import { NotFoundError, NotImplementedError, OutcomeUnknownError, UrlPolicyError, isNotImplementedError, isUrlPolicyError } from "../../src/errors.js";
import { useCdpBrowser } from "../helpers/cdp-engine.js";

/**
 * The CDP engine's first slice (src/cdp/adapter) against a real local
 * Chromium: sessions by CDP URL, navigation with the URL policy, `text`,
 * `evaluate`, screenshots capped at 1280×800, and a clear refusal of every
 * command it does not implement yet. The assertions are the Playwright
 * engine's (navigation.test.ts, observation.test.ts) where the command is
 * the same.
 */
const browser = useCdpBrowser();

describe("CDP engine: sessions", () => {
  it("opens a page target of the provider's browser by its CDP URL, and closes it and the provider session", async () => {
    const targets = async () => {
      const connection = await connectOverWs(browser.chromium.wsUrl);
      const { targetInfos } = await connection.browser.send("Target.getTargets");
      await connection.close();
      return targetInfos.filter((info) => info.type === "page").length;
    };
    const before = await targets();
    const handle = await browser.open();
    expect(handle).toMatchObject({ provider: "shared-chromium", openTag: expect.any(String) });
    expect(await targets()).toBe(before + 1);
    const home = await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    expect(home.title).toBe("Fixture home");
    await browser.adapter.close(handle);
    expect(await targets()).toBe(before);
    expect(browser.provider.released).toContain(handle.id);
    await expect(browser.adapter.execute(handle, { op: "text" })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("drives local Chromium through its own provider, which ends the browser on close", async () => {
    const provider = createLocalCdpProvider();
    const adapter = new CdpBrowserAdapter({ provider, webSocket: nodeWebSocket });
    try {
      const handle = await adapter.open();
      expect(handle.provider).toBe("local");
      const result = await adapter.execute(handle, { op: "navigate", url: browser.server.url("/second.html") });
      expect(result).toMatchObject({ title: "Second page", navigated: true });
      expect(await provider.get(handle.id)).toMatchObject({ status: "RUNNING", cdpUrl: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//) });
      await adapter.close(handle);
      expect(await provider.get(handle.id)).toBeUndefined();
    } finally {
      await adapter.shutdown();
      await provider.shutdown();
    }
  });

  it("lists what it runs in capabilities() and refuses every other command with NotImplementedError naming it", async () => {
    const capabilities = browser.adapter.capabilities();
    expect(capabilities.ops).toEqual([...cdpSupportedOps]);
    expect(capabilities.ops).toEqual(expect.arrayContaining(["navigate", "back", "reload", "click", "fill", "press", "screenshot", "text", "evaluate"]));
    expect([...capabilities.ops, ...capabilities.notImplemented].sort()).toEqual([...commandOps].sort());
    expect(capabilities.notImplemented).toEqual(cdpNotImplementedOps());
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/targets.html") });
    const refused: BrowserCommandInput[] = [
      { op: "accessibility" },
      { op: "inspect" },
      { op: "content" },
      { op: "pages" },
      { op: "newPage" },
      { op: "hover", selector: "button" },
      { op: "type", text: "x" },
      { op: "check", selector: "#code" },
      { op: "dialog", action: "accept" },
      { op: "diagnostics" },
    ];
    for (const command of refused) {
      expect(capabilities.notImplemented).toContain(command.op);
      const error = await browser.adapter.execute(handle, command).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NotImplementedError);
      expect(isNotImplementedError(error)).toBe(true);
      expect((error as Error).message).toMatch(new RegExp(`^${command.op}: not implemented by the CDP engine`));
    }
    // Parts of a supported command it lacks are refused too, before anything is sent.
    const partial: Array<[BrowserCommandInput, RegExp]> = [
      [{ op: "click", target: { by: "ref", ref: "e1" } }, /ref targets are not implemented/],
      [{ op: "click", target: { by: "role", role: "button", name: "Pay", frame: ["#outer"] } }, /command\.target\.frame/],
      [{ op: "click", selector: "button[data-testid]", textChange: true }, /command\.textChange/],
      [{ op: "fill", selector: "#code", value: "1", keyDelaysMs: [1] }, /command\.keyDelaysMs/],
    ];
    for (const [command, message] of partial) {
      const error = await browser.adapter.execute(handle, command).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NotImplementedError);
      expect((error as Error).message).toMatch(message);
    }
    expect((await browser.adapter.execute(handle, { op: "evaluate", expression: "document.querySelector('#log').textContent + '|' + document.querySelector('#code').value" })).value).toBe("|");
    await browser.adapter.close(handle);
  });
});

describe("CDP engine: navigation (real Chromium)", () => {
  it("navigates, goes back and forward, reloads, and reports what happened", async () => {
    const handle = await browser.open();
    const home = await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    expect(home).toMatchObject({ ok: true, title: "Fixture home", navigated: true, newPages: [] });
    expect(home.url).toBe(browser.server.url("/index.html"));

    const clicked = await browser.adapter.execute(handle, { op: "click", target: { by: "role", role: "link", name: "Second page" } });
    expect(clicked).toMatchObject({ title: "Second page", navigated: true });

    const back = await browser.adapter.execute(handle, { op: "back" });
    expect(back).toMatchObject({ title: "Fixture home", navigated: true });
    const forward = await browser.adapter.execute(handle, { op: "forward" });
    expect(forward).toMatchObject({ title: "Second page", navigated: true });
    const reload = await browser.adapter.execute(handle, { op: "reload" });
    expect(reload).toMatchObject({ title: "Second page", navigated: true });
    // At the end of the history there is nowhere to go: nothing happens.
    expect(await browser.adapter.execute(handle, { op: "forward" })).toMatchObject({ title: "Second page", navigated: false });

    const press = await browser.adapter.execute(handle, { op: "press", key: "Shift" });
    expect(press.navigated).toBe(false);
    await browser.adapter.close(handle);
  });

  it("strips query and fragment from reported URLs", async () => {
    const handle = await browser.open();
    const result = await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html?token=s3cret#frag") });
    expect(result.url).toBe(browser.server.url("/index.html"));
    expect(JSON.stringify(result)).not.toContain("s3cret");
    await browser.adapter.close(handle);
  });

  it.each([
    "file:///etc/passwd",
    "data:text/html,<p>hi</p>",
    "javascript:alert(1)",
    "chrome://settings",
    "view-source:http://127.0.0.1/",
    "http://user:pass@127.0.0.1/",
  ])("refuses %s before any navigation", async (url) => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const before = browser.server.requests.length;
    const error = await browser.adapter.execute(handle, { op: "navigate", url }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UrlPolicyError);
    expect(isUrlPolicyError(error)).toBe(true);
    expect((error as Error).message).toMatch(/refused/);
    expect((error as Error).message).not.toContain("pass@");
    const { value } = await browser.adapter.execute(handle, { op: "evaluate", expression: "location.pathname" });
    expect(value).toBe("/index.html");
    expect(browser.server.requests.length).toBe(before);
    await browser.adapter.close(handle);
  });

  it("reports a failed navigation without the query string, as failed when no request left", async () => {
    const handle = await browser.open();
    const error = await browser.adapter.execute(handle, { op: "navigate", url: "http://127.0.0.1:1/nothing?key=s3cret" }).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/navigate to http:\/\/127\.0\.0\.1:1\/nothing failed: net::ERR_/);
    expect((error as Error).message).not.toContain("s3cret");
    // Connection refused: nothing reached a server, so it is a plain failure, not an unknown outcome.
    expect(error).not.toBeInstanceOf(OutcomeUnknownError);
    await browser.adapter.close(handle);
  });

  it("reports a navigation that timed out after its request left as an unknown outcome", async () => {
    const handle = await browser.open();
    const error = await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/slow?ms=5000"), timeoutMs: 300 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toMatch(/navigate to http:\/\/127\.0\.0\.1:\d+\/slow failed: Timeout 300ms exceeded — but its request may already have reached the server/);
    await browser.adapter.close(handle);
  });
});

describe("CDP engine: observation (real Chromium)", () => {
  it("takes PNG and JPEG viewport screenshots with their real size", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const png = await browser.adapter.execute(handle, { op: "screenshot" });
    expect(png).toMatchObject({ mimeType: "image/png", width: 1280, height: 800, scale: 1 });
    expect(imageSize(Buffer.from(png.base64, "base64"))).toEqual({ width: 1280, height: 800 });
    const jpeg = await browser.adapter.execute(handle, { op: "screenshot", format: "jpeg", quality: 50 });
    expect(jpeg).toMatchObject({ mimeType: "image/jpeg", width: 1280, height: 800 });
    expect(imageSize(Buffer.from(jpeg.base64, "base64"))).toEqual({ width: 1280, height: 800 });
    await browser.adapter.close(handle);
  });

  it("downscales a larger viewport to fit 1280×800 and reports the scale", async () => {
    const large = await browser.open({ viewport: { width: 1920, height: 1080 } });
    await browser.adapter.execute(large, { op: "navigate", url: browser.server.url("/form.html") });
    expect((await browser.adapter.execute(large, { op: "evaluate", expression: "[innerWidth, innerHeight]" })).value).toEqual([1920, 1080]);
    await browser.adapter.execute(large, { op: "evaluate", expression: "scrollBy(0, 300)" });
    const shot = await browser.adapter.execute(large, { op: "screenshot" });
    expect(shot.width).toBeLessThanOrEqual(1280);
    expect(shot.height).toBeLessThanOrEqual(800);
    expect(shot.width).toBe(1280);
    expect(shot.scale).toBeCloseTo(1280 / 1920, 2);
    expect(imageSize(Buffer.from(shot.base64, "base64"))).toEqual({ width: shot.width, height: shot.height });
    await browser.adapter.close(large);
  });

  it("evaluates to JSON values and refuses the rest", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    expect((await browser.adapter.execute(handle, { op: "evaluate", expression: "document.title" })).value).toBe("Fixture home");
    expect((await browser.adapter.execute(handle, { op: "evaluate", expression: "({ a: [1, 'two', null], b: { c: true } })" })).value).toEqual({
      a: [1, "two", null],
      b: { c: true },
    });
    expect((await browser.adapter.execute(handle, { op: "evaluate", expression: "Promise.resolve(7)" })).value).toBe(7);
    expect((await browser.adapter.execute(handle, { op: "evaluate", expression: "undefined" })).value).toBe(null);
    const date = await browser.adapter.execute(handle, { op: "evaluate", expression: "({ when: new Date() })" }).catch((caught: unknown) => caught);
    expect(date).toBeInstanceOf(OutcomeUnknownError);
    expect((date as Error).message).toMatch(/the expression ran, but its result cannot be returned: it is not JSON-compatible \(Date at \$\.when\)/);
    await expect(browser.adapter.execute(handle, { op: "evaluate", expression: "NaN" })).rejects.toThrow(/NaN at \$/);
    const thrown = await browser.adapter.execute(handle, { op: "evaluate", expression: "(() => { throw new Error('boom') })()" }).catch((caught: unknown) => caught);
    expect((thrown as Error).message).toMatch(/boom/);
    // It ran and threw: whatever it did before stands.
    expect(thrown).toBeInstanceOf(OutcomeUnknownError);
    // An expression that does not compile never ran: a plain failure.
    const broken = await browser.adapter.execute(handle, { op: "evaluate", expression: "({" }).catch((caught: unknown) => caught);
    expect((broken as Error).message).toMatch(/^evaluate: SyntaxError/);
    expect(broken).not.toBeInstanceOf(OutcomeUnknownError);
    await browser.adapter.close(handle);
  });

  it("checks what a page that tampered with its built-ins sends back", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    await browser.adapter.execute(handle, { op: "evaluate", expression: `JSON.stringify = () => '{"__proto__": {"polluted": true}}'; null` });
    await expect(browser.adapter.execute(handle, { op: "evaluate", expression: "'x'" })).rejects.toThrow(
      /the expression ran, but its result cannot be returned: it is not JSON-compatible \(a "__proto__" key\)/,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await browser.adapter.close(handle);
  });

  it("reads the visible text only: hidden elements, scripts, styles and field values are left out", async () => {
    const handle = await browser.open();
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
    await browser.adapter.close(handle);
  });

  it("reads the text and title past a page's own overrides of innerText and title", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/visible-text.html") });
    const forged = await browser.adapter.execute(handle, {
      op: "evaluate",
      expression:
        "Object.defineProperty(HTMLElement.prototype, 'innerText', { get: () => 'forged text' }); Object.defineProperty(Document.prototype, 'title', { get: () => 'forged title' }); document.body.innerText + ' / ' + document.title",
    });
    expect(forged).toEqual({ value: "forged text / forged title" });
    const result = await browser.adapter.execute(handle, { op: "text" });
    expect(result).toMatchObject({ title: "Visible text" });
    expect(result.text).toContain("Shown paragraph");
    expect(JSON.stringify(result)).not.toContain("forged");
    await browser.adapter.close(handle);
  });

  it("cuts the text on a UTF-8 character boundary and marks it", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/visible-text.html") });
    expect(await browser.adapter.execute(handle, { op: "text", maxBytes: 9 })).toMatchObject({ text: "€uro ", truncated: true });
    expect((await browser.adapter.execute(handle, { op: "text", maxBytes: 2 })).text).toBe("");
    await browser.adapter.execute(handle, { op: "evaluate", expression: "document.body.append('x'.repeat(20000))" });
    const bounded = await browser.adapter.execute(handle, { op: "text" });
    expect(bounded.truncated).toBe(true);
    expect(new TextEncoder().encode(bounded.text).length).toBe(limits.text.bytesDefault);
    await browser.adapter.close(handle);
  });
});
