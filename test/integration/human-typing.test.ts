/**
 * Human typing in real Chromium: `fill`/`type` with a `keyDelaysMs` cadence
 * are typed key by key (a keydown per character, which Playwright's `fill`
 * never sends), and the manager fills the cadence in when the open asks for
 * human typing. Cadences are a few ms so nothing here waits long; no timing
 * is asserted. What `fill`/`type` with `keyDelaysMs` type is in the engine
 * contract suite (engine-contract.test.ts), run against both engines.
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
