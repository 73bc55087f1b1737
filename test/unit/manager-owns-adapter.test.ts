import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/errors.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import type { BrowserAdapter } from "../../src/protocol/adapter.js";

/** An adapter that opens nothing and counts its shutdowns. */
function countingAdapter() {
  const counts = { shutdown: 0 };
  const adapter: BrowserAdapter = {
    open: () => Promise.reject(new Error("not used")),
    execute: () => Promise.reject(new Error("not used")),
    close: async () => undefined,
    capabilities: () => ({ provider: "none", ops: [], notImplemented: [], persistentProfiles: false }),
    shutdown: async () => {
      counts.shutdown++;
    },
  };
  return { adapter, counts };
}

describe("who shuts the adapter down", () => {
  it("leaves an adapter it was handed running by default: it is the caller's (several managers may share it)", async () => {
    const { adapter, counts } = countingAdapter();
    await new BrowserSessionManager(adapter, 1).close();
    await new BrowserSessionManager(adapter, 1, { ownsAdapter: false }).close();
    expect(counts.shutdown).toBe(0);
  });

  it("with ownsAdapter, close() shuts it down, once", async () => {
    const { adapter, counts } = countingAdapter();
    const manager = new BrowserSessionManager(adapter, 1, { ownsAdapter: true });
    await manager.close();
    await manager.close();
    expect(counts.shutdown).toBe(1);
  });

  it("refuses an ownsAdapter that is not a boolean, naming the field", () => {
    const { adapter } = countingAdapter();
    expect(() => new BrowserSessionManager(adapter, 1, { ownsAdapter: "yes" as never })).toThrow(ValidationError);
    expect(() => new BrowserSessionManager(adapter, 1, { ownsAdapter: "yes" as never })).toThrow(/^options\.ownsAdapter: expected a boolean/);
  });
});
