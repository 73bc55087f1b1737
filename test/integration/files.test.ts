import { describe, expect, it } from "vitest";
import { limits } from "../../src/protocol/limits.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { useBrowser } from "../helpers/browser.js";

const browser = useBrowser({ downloadMaxBytes: 1024 * 1024 });
let handle: BrowserHandle;

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
