import { beforeEach, describe, expect, it } from "vitest";
import { ValidationError } from "../../src/errors.js";
import { limits } from "../../src/protocol/limits.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { useBrowser } from "../helpers/browser.js";

const browser = useBrowser({ downloadMaxBytes: 1024 * 1024 });
let handle: BrowserHandle;

const read = async (expression: string) => (await browser.adapter.execute(handle, { op: "evaluate", expression })).value;
const chosenFiles = (selector: string) =>
  read(`Array.from(document.querySelector(${JSON.stringify(selector)}).files, (file) => file.name + ':' + file.size)`);
const file = (name: string, content: string) => ({ name, mimeType: "text/plain", base64: Buffer.from(content).toString("base64") });

describe("upload (real Chromium)", () => {
  beforeEach(async () => {
    handle ??= await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });
  });

  it("sets one file, and several on a multiple input", async () => {
    const single = await browser.adapter.execute(handle, { op: "upload", target: { by: "label", value: "Avatar" }, files: [file("me.txt", "hello")] });
    expect(single.files).toEqual([{ name: "me.txt", bytes: 5 }]);
    expect(await chosenFiles("#avatar")).toEqual(["me.txt:5"]);
    await browser.adapter.execute(handle, { op: "upload", selector: "#attachments", files: [file("a.txt", "a"), file("b.txt", "bb")] });
    expect(await chosenFiles("#attachments")).toEqual(["a.txt:1", "b.txt:2"]);
  });

  it("refuses more than 16 files, and nothing is uploaded", async () => {
    const files = Array.from({ length: limits.upload.files + 1 }, (_, index) => file(`f${index}.txt`, "x"));
    const error = await browser.adapter.execute(handle, { op: "upload", selector: "#attachments", files }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toBe("command.files: at most 16 files per upload");
    expect(await chosenFiles("#attachments")).toEqual([]);
  });

  it("refuses more than 4 MiB decoded, and nothing is uploaded", async () => {
    const big = Buffer.alloc(limits.upload.decodedBytes / 2 + 1, 0x62).toString("base64");
    const files = [
      { name: "one.bin", base64: big },
      { name: "two.bin", base64: big },
    ];
    const error = await browser.adapter.execute(handle, { op: "upload", selector: "#attachments", files }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(/^command\.files: 4194306 bytes in total; at most 4194304/);
    expect(await chosenFiles("#attachments")).toEqual([]);
  });

  it("refuses several files on a single-file input, and sets none", async () => {
    const error = await browser.adapter
      .execute(handle, { op: "upload", selector: "#avatar", files: [file("a.txt", "a"), file("b.txt", "b")] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toMatch(/accepts one/);
    expect(await chosenFiles("#avatar")).toEqual([]);
  });

  it("refuses a target that is not a file input", async () => {
    await expect(browser.adapter.execute(handle, { op: "upload", selector: "#user", files: [file("a.txt", "a")] })).rejects.toThrow(
      /not an <input type=file>/,
    );
  });
});

describe("downloads (real Chromium)", () => {
  beforeEach(async () => {
    handle ??= await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });
  });

  it("keeps a download and reads it back in bounded chunks, then deletes it", async () => {
    await browser.adapter.execute(handle, { op: "click", selector: "#download-link" });
    await expect
      .poll(async () => (await browser.adapter.execute(handle, { op: "downloads" })).downloads.find((entry) => entry.fileName === "report.txt")?.state)
      .toBe("completed");
    const { downloads } = await browser.adapter.execute(handle, { op: "downloads" });
    const report = downloads.find((entry) => entry.fileName === "report.txt")!;
    expect(report).toMatchObject({ bytes: 2048, url: browser.server.url("/download") });
    const first = await browser.adapter.execute(handle, { op: "downloadRead", downloadId: report.downloadId, length: 1000 });
    expect(first).toMatchObject({ offset: 0, bytes: 1000, totalBytes: 2048, more: true });
    expect(Buffer.from(first.base64, "base64").toString()).toBe("a".repeat(1000));
    const last = await browser.adapter.execute(handle, { op: "downloadRead", downloadId: report.downloadId, offset: 2000 });
    expect(last).toMatchObject({ bytes: 48, more: false });
    await browser.adapter.execute(handle, { op: "downloadDelete", downloadId: report.downloadId });
    await expect(browser.adapter.execute(handle, { op: "downloadRead", downloadId: report.downloadId })).rejects.toThrow(/does not exist/);
  });

  it("bounds a download: one above the limit is deleted and reported too_large", async () => {
    await browser.adapter.execute(handle, { op: "click", selector: "#big-download-link" });
    await expect
      .poll(async () => (await browser.adapter.execute(handle, { op: "downloads" })).downloads.find((entry) => entry.fileName === "big.bin")?.state, {
        timeout: 15_000,
      })
      .toBe("too_large");
    const { downloads } = await browser.adapter.execute(handle, { op: "downloads" });
    const big = downloads.find((entry) => entry.fileName === "big.bin")!;
    expect(big.error).toMatch(/larger than the 1048576-byte download limit/);
    await expect(browser.adapter.execute(handle, { op: "downloadRead", downloadId: big.downloadId })).rejects.toThrow(/too_large, not completed/);
  });
});

describe("tracing (real Chromium)", () => {
  it("records a bounded, explicit trace and returns the archive", async () => {
    handle ??= await browser.open();
    await expect(browser.adapter.execute(handle, { op: "traceStop" })).rejects.toThrow(/no trace is recording/);
    const started = await browser.adapter.execute(handle, { op: "traceStart", screenshots: false });
    expect(started.maxDurationMs).toBe(limits.trace.maxDurationMs);
    await expect(browser.adapter.execute(handle, { op: "traceStart" })).rejects.toThrow(/already recording/);
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/index.html") });
    const trace = await browser.adapter.execute(handle, { op: "traceStop" });
    const bytes = Buffer.from(trace.base64, "base64");
    expect(trace.bytes).toBe(bytes.length);
    expect(bytes.subarray(0, 2).toString()).toBe("PK");
    expect(trace.bytes).toBeLessThan(limits.trace.maxBytes);
  });
});
