import { describe, expect, it } from "vitest";
import { OutcomeUnknownError } from "../../src/errors.js";
import { useCdpBrowser } from "../helpers/cdp-engine.js";

/**
 * The CDP engine's own side of uploads (the shared behaviour is in
 * engine-contract-files.test.ts): the outcome rule once files may have been
 * set, against a real local Chromium.
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
