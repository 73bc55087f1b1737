import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CdpBrowserAdapter as CdpBrowserAdapterClass } from "../../src/cdp/adapter/index.js";
import { nodeWebSocket } from "../../src/engine/node-websocket.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { startCdpChromium, type CdpChromium } from "../helpers/cdp-chromium.js";
import { sharedChromiumProvider, type SharedChromiumProvider } from "../helpers/cdp-engine.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";
import { refOf } from "../helpers/snapshot-refs.js";

/**
 * The CDP engine built by a bundler that keeps function names (esbuild
 * `keepNames`, as tsx runs the sources and as an app's bundler may be set
 * to): esbuild then puts `__name(…)` calls into the sources the engine
 * sends to the page. Each source must bind `__name` itself, also the ones an
 * iframe compiles with its own `eval`, where nothing around them binds it.
 * Before that held, the snapshot left every same-origin iframe empty.
 */
describe("the CDP engine built with keepNames, in same-origin iframes", () => {
  let directory: string;
  let chromium: CdpChromium;
  let server: FixtureServer;
  let provider: SharedChromiumProvider;
  let adapter: CdpBrowserAdapterClass;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "cdp-kept-names-"));
    const outfile = join(directory, "cdp.mjs");
    await build({ entryPoints: [join(import.meta.dirname, "../../src/cdp/adapter/index.ts")], bundle: true, keepNames: true, format: "esm", platform: "neutral", outfile, logLevel: "silent" });
    const { CdpBrowserAdapter } = (await import(pathToFileURL(outfile).href)) as { CdpBrowserAdapter: typeof CdpBrowserAdapterClass };
    [chromium, server] = await Promise.all([startCdpChromium(), startFixtureServer()]);
    provider = sharedChromiumProvider(chromium.wsUrl);
    adapter = new CdpBrowserAdapter({ provider, webSocket: nodeWebSocket });
  });
  afterAll(async () => {
    await adapter?.shutdown();
    await chromium?.close();
    await provider?.cleanup();
    await server?.close();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it("the bundle's page sources do carry __name calls (else this file tests nothing)", async () => {
    const { readFile } = await import("node:fs/promises");
    expect(await readFile(join(directory, "cdp.mjs"), "utf8")).toMatch(/__name\(\s*\w+,\s*"createAriaRoles"\)/);
  });

  it("shows the frames' content, and acts and reads through them", async () => {
    const handle: BrowserHandle = await adapter.open();
    const value = async (expression: string) => ((await adapter.execute(handle, { op: "evaluate", expression })) as { value: unknown }).value;
    await adapter.execute(handle, { op: "navigate", url: server.url("/targets.html") });
    const { snapshot } = await adapter.execute(handle, { op: "accessibility" });
    expect(snapshot).toMatch(/^iframe:\n button "Outer button" \[f\d+e\d+\]\n iframe:\n  textbox "Card code" \[f\d+e\d+\]$/m);
    await adapter.execute(handle, { op: "fill", target: { by: "ref", ref: refOf(snapshot, /textbox "Card code"/) }, value: "77" });
    await adapter.execute(handle, { op: "click", target: { by: "ref", ref: refOf(snapshot, /button "Pay"/) } });
    const innerLog = "document.querySelector('#outer').contentDocument.querySelector('#inner').contentDocument.querySelector('#inner-log').textContent";
    expect(await value(innerLog)).toBe("inner:77");
    await adapter.execute(handle, { op: "click", target: { by: "role", role: "button", name: "Outer button", frame: ["#outer"] } });
    expect(await value("document.querySelector('#outer').contentDocument.querySelector('#outer-log').textContent")).toBe("outer");
    const inspected = await adapter.execute(handle, { op: "inspect", maxElements: 500 });
    expect(inspected.elements.map((element) => element.text)).toEqual(expect.arrayContaining(["Outer button", "Pay"]));
    await adapter.close(handle);
  });
});
