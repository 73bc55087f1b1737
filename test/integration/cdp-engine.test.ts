import { describe, expect, it } from "vitest";
import { cdpNotImplementedOps, cdpSupportedOps } from "../../src/cdp/adapter/index.js";
import { CdpBrowserAdapter } from "../../src/cdp/adapter/index.js";
import { connectOverWs } from "../helpers/cdp-client.js";
import { nodeWebSocket } from "../../src/engine/node-websocket.js";
import { imageSize } from "../../src/protocol/image-size.js";
import { limits } from "../../src/protocol/limits.js";
import { commandOps, type BrowserCommandInput } from "../../src/protocol/commands.js";
import { createLocalCdpProvider } from "../../src/providers/local/cdp-chromium.js";
import { NotFoundError, NotImplementedError, OutcomeUnknownError, StaleRefError, ValidationError, isNotImplementedError } from "../../src/errors.js";
import { useCdpBrowser } from "../helpers/cdp-engine.js";
import { refOf } from "../helpers/snapshot-refs.js";

/**
 * The CDP engine's first slice (src/cdp/adapter) against a real local
 * Chromium: sessions by CDP URL, navigation with the URL policy, `text`,
 * `evaluate`, screenshots capped at 1280×800, and a clear refusal of every
 * command it does not implement yet. What both engines do alike is in the
 * engine contract suite (engine-contract.test.ts); this file holds what is
 * the CDP engine's own.
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
    expect(capabilities.ops).toEqual(expect.arrayContaining(["navigate", "back", "reload", "click", "fill", "press", "screenshot", "text", "evaluate", "accessibility", "inspect", "content", "diagnostics", "challenge"]));
    expect([...capabilities.ops, ...capabilities.notImplemented].sort()).toEqual([...commandOps].sort());
    expect(capabilities.notImplemented).toEqual(cdpNotImplementedOps());
    // Besides tracing, what is still refused is cross-origin iframes (below) and what a provider lacks (next test).
    expect(capabilities.notImplemented).toEqual(["traceStart", "traceStop"]);
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/targets.html") });
    const refused: BrowserCommandInput[] = [{ op: "traceStart" }, { op: "traceStop" }];
    for (const command of refused) {
      const error = await browser.adapter.execute(handle, command).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NotImplementedError);
      expect(isNotImplementedError(error)).toBe(true);
      expect((error as Error).message).toMatch(new RegExp(`^${command.op}: not implemented by the CDP engine`));
    }
    await browser.adapter.close(handle);
  });
});

describe("CDP engine: a provider without a downloads API", () => {
  it("lists the download ops as not implemented and refuses each with NotImplementedError naming the provider; uploads still run", async () => {
    const { downloads: _downloads, ...rest } = browser.provider;
    const provider = { ...rest, name: "no-downloads" };
    const adapter = new CdpBrowserAdapter({ provider, webSocket: nodeWebSocket });
    try {
      expect(adapter.capabilities().notImplemented).toEqual(["downloads", "downloadRead", "downloadDelete", "traceStart", "traceStop"]);
      expect(adapter.capabilities().ops).toContain("upload");
      const handle = await adapter.open();
      await adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });
      const refused: BrowserCommandInput[] = [{ op: "downloads" }, { op: "downloadRead", downloadId: "d1" }, { op: "downloadDelete", downloadId: "d1" }];
      for (const command of refused) {
        const error = await adapter.execute(handle, command).catch((caught: unknown) => caught);
        expect(isNotImplementedError(error)).toBe(true);
        expect((error as Error).message).toMatch(new RegExp(`^${command.op}: the no-downloads provider has no downloads API`));
      }
      // A download the page starts is left to the browser's own behaviour: the session goes on.
      await adapter.execute(handle, { op: "click", selector: "#download-link" });
      await adapter.execute(handle, { op: "upload", selector: "#avatar", files: [{ name: "a.txt", base64: "YQ==" }] });
      expect((await adapter.execute(handle, { op: "evaluate", expression: "document.querySelector('#avatar').files[0].name" })).value).toBe("a.txt");
      await adapter.close(handle);
    } finally {
      await adapter.shutdown();
    }
  });
});

describe("CDP engine: cross-origin iframes going away (real Chromium)", () => {
  it("answers a ref of a removed cross-site frame (or of one nested in it) as stale, and a chain into it as not found, with nothing clicked", async () => {
    const handle = await browser.open();
    const inner = browser.server.url("/frame-password.html");
    const middle = browser.server.url(`/hostile-top.html?frame=${encodeURIComponent(inner)}`).replace("127.0.0.1", "localhost");
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url(`/hostile-top.html?frame=${encodeURIComponent(middle)}`) });
    await browser.adapter.execute(handle, { op: "waitFor", target: { by: "selector", selector: "#fpw", frame: ["#login", "#login"] } });
    const { snapshot } = await browser.adapter.execute(handle, { op: "accessibility" });
    const refs = [refOf(snapshot, /textbox "Frame password"/), refOf(snapshot, /textbox "Decoy" .*\[f\d+e\d+\]/)];
    await browser.adapter.execute(handle, { op: "evaluate", expression: `document.addEventListener("mousedown", () => { document.title = "clicked"; }), document.getElementById("login").remove(), true` });
    for (const ref of refs) {
      const stale = await browser.adapter.execute(handle, { op: "click", target: { by: "ref", ref } }).catch((caught: unknown) => caught);
      expect(stale).toBeInstanceOf(StaleRefError);
    }
    const missing = await browser.adapter.execute(handle, { op: "click", target: { by: "selector", selector: "#fpw", frame: ["#login", "#login"] }, timeoutMs: 300 }).catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((await browser.adapter.execute(handle, { op: "evaluate", expression: "document.title" })).value).toBe("Hostile");
    await browser.adapter.close(handle);
  });
});

describe("CDP engine: cross-origin iframes three deep (real Chromium)", () => {
  it("fills through three cross-site iframes by frame chain, and names the chain's entry a frame error is about", async () => {
    const handle = await browser.open();
    const other = (url: string) => url.replace("127.0.0.1", "localhost");
    const embed = (url: string) => `/hostile-top.html?frame=${encodeURIComponent(url)}`;
    const third = other(browser.server.url("/frame-password.html"));
    const second = browser.server.url(embed(third));
    const first = other(browser.server.url(embed(second)));
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url(embed(first)) });
    const chain = ["#login", "#login", "#login"];
    expect(await browser.adapter.execute(handle, { op: "fill", target: { by: "selector", selector: "#fpw", frame: chain }, value: "three-deep" })).toMatchObject({ ok: true, title: "Hostile" });
    expect((await browser.adapter.execute(handle, { op: "accessibility" })).snapshot).toContain("frame got three-deep");
    const bad = await browser.adapter.execute(handle, { op: "click", target: { by: "selector", selector: "#fpw", frame: ["#login", "#login", "[["] } }).catch((caught: unknown) => caught);
    expect(bad).toBeInstanceOf(ValidationError);
    expect((bad as ValidationError).field).toBe("command.target.frame[2]");
    await browser.adapter.close(handle);
  });
});

describe("CDP engine: navigation (real Chromium)", () => {
  it("does nothing at either end of the history, and a key press does not navigate", async () => {
    const handle = await browser.open();
    expect(await browser.adapter.execute(handle, { op: "back" })).toMatchObject({ url: "about:blank", navigated: false });
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/second.html") });
    expect(await browser.adapter.execute(handle, { op: "forward" })).toMatchObject({ title: "Second page", navigated: false });
    expect((await browser.adapter.execute(handle, { op: "press", key: "Shift" })).navigated).toBe(false);
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

describe("CDP engine: pages a site opens (real Chromium)", () => {
  /** The page targets of the shared Chromium, asked on a connection of the test's own. */
  const pageTargets = async () => {
    const connection = await connectOverWs(browser.chromium.wsUrl);
    const { targetInfos } = await connection.browser.send("Target.getTargets");
    await connection.close();
    return targetInfos.filter((info) => info.type === "page").map((info) => info.targetId).sort();
  };

  it("caps a flood of popups, and a session closed mid-flood leaves no target behind", async () => {
    const before = await pageTargets();
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const evaluate = async (expression: string) => (await browser.adapter.execute(handle, { op: "evaluate", expression })).value;
    // The browser opens every window; the engine closes those past the limit as they appear.
    const flood = "(window.opened ??= []).push(...Array.from({ length: 40 }, () => window.open('/second.html'))), window.opened.every(Boolean)";
    expect(await evaluate(flood)).toBe(true);
    await expect.poll(() => evaluate("window.opened.filter((opened) => opened.closed).length"), { timeout: 20_000 }).toBe(40 - (limits.pagesPerSession - 1));
    // The windows kept may still be being set up (attached, not yet listed) when the others have closed.
    await expect.poll(async () => (await browser.adapter.execute(handle, { op: "pages" })).pages.length, { timeout: 20_000 }).toBe(limits.pagesPerSession);
    // At the limit, a second flood is closed as it appears; the session closes while it is.
    expect(await evaluate(flood)).toBe(true);
    await browser.adapter.close(handle);
    expect(await pageTargets()).toEqual(before);
  });

  it("closes the windows still being set up when the session closes, one waiting for its first response too", async () => {
    const before = await pageTargets();
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const flood = "[window.open('/slow?ms=60000'), ...Array.from({ length: 30 }, () => window.open('/second.html'))].every(Boolean)";
    expect((await browser.adapter.execute(handle, { op: "evaluate", expression: flood })).value).toBe(true);
    await browser.adapter.close(handle);
    expect(await pageTargets()).toEqual(before);
  });

  it("takes only the windows its own pages open when sessions share a browser", async () => {
    const [first, second] = [await browser.open(), await browser.open()];
    await browser.adapter.execute(first, { op: "navigate", url: browser.server.url("/index.html") });
    await browser.adapter.execute(second, { op: "navigate", url: browser.server.url("/form.html") });
    const opened = await browser.adapter.execute(second, { op: "click", selector: "#window-open" });
    expect(opened.newPages).toMatchObject([{ pageId: "p2", url: browser.server.url("/second.html"), title: "Second page", selected: false }]);
    expect((await browser.adapter.execute(first, { op: "press", key: "Shift" })).newPages).toEqual([]);
    expect((await browser.adapter.execute(first, { op: "pages" })).pages.map((page) => page.pageId)).toEqual(["p1"]);
    await browser.adapter.close(second);
    expect((await browser.adapter.execute(first, { op: "pages" })).pages).toHaveLength(1);
    await browser.adapter.close(first);
  });
});

describe("CDP engine: observation (real Chromium)", () => {
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

});
