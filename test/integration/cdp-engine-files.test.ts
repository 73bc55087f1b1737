import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { CdpBrowserAdapter } from "../../src/cdp/adapter/index.js";
import { nodeWebSocket } from "../../src/engine/node-websocket.js";
import { OutcomeUnknownError } from "../../src/errors.js";
import { createLocalCdpProvider } from "../../src/providers/local/cdp-chromium.js";
import { useCdpBrowser } from "../helpers/cdp-engine.js";

/**
 * The CDP engine's own side of uploads (the shared behaviour is in
 * engine-contract-files.test.ts): the outcome rule once files may have been
 * set, and the download limit while the bytes arrive (local Chromium
 * through its own provider, which keeps downloads in the browser's profile
 * directory), against a real local Chromium.
 */
const browser = useCdpBrowser();

describe("CDP engine: upload outcomes (real Chromium)", () => {
  it("reports an upload whose files were set but whose answer never came as unknown, inline and staged", async () => {
    const hung = await browser.open();
    await browser.adapter.execute(hung, { op: "navigate", url: browser.server.url("/media-upload.html") });
    // The page's change handler never returns once files arrive: the upload may have happened.
    await browser.adapter.execute(hung, { op: "evaluate", expression: "document.querySelector('#gallery').addEventListener('change', () => { for (;;) {} }), true" });
    const inline = await browser.adapter.execute(hung, { op: "upload", selector: "#gallery", files: [{ name: "a.txt", base64: "YQ==" }], timeoutMs: 500 }).catch((caught: unknown) => caught);
    expect(inline).toBeInstanceOf(OutcomeUnknownError);
    await browser.adapter.close(hung);

    const stuck = await browser.open();
    await browser.adapter.execute(stuck, { op: "navigate", url: browser.server.url("/media-upload.html") });
    const staged = await browser.adapter.stageFile(stuck, { name: "clip.mp4", bytes: new Uint8Array(16) });
    await browser.adapter.execute(stuck, { op: "evaluate", expression: "document.querySelector('#media').addEventListener('change', () => { for (;;) {} }), true" });
    const set = await browser.adapter.execute(stuck, { op: "upload", selector: "#media", files: [{ staged: staged.fileId }], timeoutMs: 500 }).catch((caught: unknown) => caught);
    expect(set).toBeInstanceOf(OutcomeUnknownError);
    expect((set as Error).message).toMatch(/DOM\.setFileInputFiles/);
    await browser.adapter.close(stuck);
  });

  it("fails, without an unknown outcome, when no file input appears in time", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/media-upload.html") });
    const staged = await browser.adapter.stageFile(handle, { name: "a.txt", bytes: new Uint8Array(1) });
    for (const files of [[{ name: "a.txt", base64: "YQ==" }], [{ staged: staged.fileId }]]) {
      const missing = await browser.adapter.execute(handle, { op: "upload", selector: "#nowhere", files, timeoutMs: 300 }).catch((caught: unknown) => caught);
      expect((missing as Error).name).toBe("NotFoundError");
      expect(missing).not.toBeInstanceOf(OutcomeUnknownError);
    }
    await browser.adapter.close(handle);
  });
});

describe("CDP engine: download limit while the bytes arrive (local Chromium)", () => {
  it("cancels a download that streams past the limit and never ends, leaves nothing in the download folder and reports too_large", async () => {
    const maxBytes = 256 * 1024;
    const provider = createLocalCdpProvider();
    const adapter = new CdpBrowserAdapter({ provider, webSocket: nodeWebSocket, downloadMaxBytes: maxBytes });
    try {
      const handle = await adapter.open();
      await adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
      const folder = await provider.downloads!.folder(handle.id);
      const closedBefore = browser.server.endlessDownloadsClosed;
      await adapter.execute(handle, {
        op: "evaluate",
        expression: `(() => { const link = Object.assign(document.createElement("a"), { href: "/endless-download", download: "" }); document.body.append(link); link.click(); return true; })()`,
      });
      await expect.poll(async () => (await adapter.execute(handle, { op: "downloads" })).downloads[0]?.state, { timeout: 20_000 }).toBe("too_large");
      const [endless] = (await adapter.execute(handle, { op: "downloads" })).downloads;
      expect(endless).toMatchObject({ fileName: "endless.bin", state: "too_large" });
      expect(endless!.bytes).toBeGreaterThan(maxBytes);
      expect(endless!.error).toMatch(new RegExp(`^larger than the ${maxBytes}-byte download limit \\(cancelled at \\d+ bytes\\); deleted$`));
      // The browser closed the connection: the server stops sending.
      await expect.poll(() => browser.server.endlessDownloadsClosed, { timeout: 20_000 }).toBe(closedBefore + 1);
      // Nothing of it is left in the download folder (neither the partial file nor the file).
      await expect.poll(() => readdir(folder), { timeout: 5_000 }).toEqual([]);
      await adapter.close(handle);
    } finally {
      await adapter.shutdown();
      await provider.shutdown();
    }
  });
});
