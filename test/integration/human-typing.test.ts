/**
 * Human typing in real Chromium: `fill`/`type` with a `keyDelaysMs` cadence
 * are typed key by key (a keydown per character, which Playwright's `fill`
 * never sends), and the manager fills the cadence in when the open asks for
 * human typing. Cadences are a few ms so nothing here waits long; no timing
 * is asserted.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { createSeededRandom } from "../../src/access/pacing/index.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import type { BrowserHandle } from "../../src/protocol/adapter.js";
import { useBrowser } from "../helpers/browser.js";

const browser = useBrowser();
let handle: BrowserHandle;

const read = async (expression: string) => (await browser.adapter.execute(handle, { op: "evaluate", expression })).value;

describe("typing key by key (real Chromium)", () => {
  beforeEach(async () => {
    handle ??= await browser.open();
    await browser.adapter.execute(handle, { op: "navigate", url: browser.server.url("/form.html") });
  });

  it("fill with keyDelaysMs clears the field (select all, Delete) and types the value, one keydown per character", async () => {
    await browser.adapter.execute(handle, { op: "fill", selector: "#user", value: "old" });
    expect(await read("document.querySelector('#keys').textContent")).toBe("");
    const value = "a b!é";
    const result = await browser.adapter.execute(handle, { op: "fill", selector: "#user", value, keyDelaysMs: [1, 2, 1, 3, 1] });
    expect(result).toMatchObject({ ok: true, sensitive: false });
    expect(await read("document.querySelector('#user').value")).toBe(value);
    // é is not on the US layout: Playwright inserts it as text, without a keydown.
    expect(await read("document.querySelector('#keys').textContent")).toBe("Delete,a, ,b,!,");
  });

  it("type with keyDelaysMs, with and without a target; a password field is reported sensitive", async () => {
    await browser.adapter.execute(handle, { op: "type", selector: "#user", text: "xy", keyDelaysMs: [2, 2] });
    expect(await read("document.querySelector('#keys').textContent")).toBe("x,y,");
    await browser.adapter.execute(handle, { op: "focus", selector: "#pass" });
    const typed = await browser.adapter.execute(handle, { op: "type", text: "s3cr", keyDelaysMs: [1, 1, 1, 1] });
    expect(typed.sensitive).toBe(true);
    expect(await read("document.querySelector('#pass').value")).toBe("s3cr");
    const filled = await browser.adapter.execute(handle, { op: "fill", selector: "#pass", value: "pw", keyDelaysMs: [1, 1] });
    expect(filled.sensitive).toBe(true);
    expect(await read("document.querySelector('#pass').value")).toBe("pw");
  });

  it("the manager types with the policy's cadence when the open asks for human typing, and says how long in pacedMs", async () => {
    const manager = new BrowserSessionManager(browser.adapter, 1, { random: createSeededRandom(11) });
    try {
      const { id } = await manager.open({ pacing: { humanTyping: true, minGapMs: 0, maxGapMs: 0, keyDelayMinMs: 1, keyDelayMaxMs: 3 } });
      await manager.execute(id, { op: "navigate", url: browser.server.url("/form.html") });
      const result = await manager.execute(id, { op: "fill", selector: "#user", value: "ok go" });
      // Five pauses of 1–3 ms, the one after the space 10–100 ms longer.
      expect(result.pacedMs).toBeGreaterThanOrEqual(5 + 10);
      expect(result.pacedMs).toBeLessThanOrEqual(15 + 100);
      const keys = await manager.execute(id, { op: "evaluate", expression: "document.querySelector('#keys').textContent" });
      expect(keys.value).toBe("Delete,o,k, ,g,o,");
    } finally {
      await manager.close();
    }
  });
});
