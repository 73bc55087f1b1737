import { readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLocalProvider } from "../../src/providers/local/index.js";
import { useBrowser } from "../helpers/browser.js";

const tempRootDir = join(tmpdir(), `station-download-limit-${crypto.randomUUID()}`);
const maxBytes = 256 * 1024;
const browser = useBrowser({ downloadMaxBytes: maxBytes, provider: createLocalProvider({ tempRootDir }) });
afterAll(async () => {
  await rm(tempRootDir, { recursive: true, force: true });
});

/** Every file under `directory`, relative to it. */
async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(directory.length + 1));
}

describe("download limit while the bytes arrive (real Chromium)", () => {
  it("cancels a download that streams past the limit and never ends, deletes its partial file and reports too_large", async () => {
    const handle = await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const downloadsBefore = (await filesUnder(tempRootDir)).filter((path) => /artifacts-\d+\//.test(path));
    expect(downloadsBefore).toEqual([]);
    await browser.adapter.execute(handle, {
      op: "evaluate",
      expression: `(() => { const link = Object.assign(document.createElement("a"), { href: "/endless-download", download: "" }); document.body.append(link); link.click(); return true; })()`,
    });
    await expect
      .poll(async () => (await browser.adapter.execute(handle, { op: "downloads" })).downloads[0]?.state, { timeout: 20_000 })
      .toBe("too_large");
    const [endless] = (await browser.adapter.execute(handle, { op: "downloads" })).downloads;
    expect(endless).toMatchObject({ fileName: "endless.bin", state: "too_large" });
    expect(endless!.bytes).toBeGreaterThan(maxBytes);
    expect(endless!.error).toMatch(new RegExp(`^larger than the ${maxBytes}-byte download limit \\(cancelled at \\d+ bytes\\); deleted$`));
    // The browser closed the connection: the server stops sending.
    await expect.poll(() => browser.server.endlessDownloadsClosed, { timeout: 20_000 }).toBe(1);
    // Nothing of it is left in the browser's downloads directory (neither the partial .crdownload nor the file).
    expect((await filesUnder(tempRootDir)).filter((path) => /artifacts-\d+\//.test(path))).toEqual([]);
    await browser.adapter.close(handle);
  });
});
