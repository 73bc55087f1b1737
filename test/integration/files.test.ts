import { beforeEach, describe, expect, it } from "vitest";
import { limits } from "../../src/protocol/limits.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { useBrowser } from "../helpers/browser.js";

const browser = useBrowser({ downloadMaxBytes: 1024 * 1024 });
let handle: BrowserHandle;

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
