import { describe, expect, it } from "vitest";
import { CdpBrowserAdapter } from "../../src/cdp/adapter/index.js";
import { ValidationError } from "../../src/errors.js";
import type { BrowserProvider } from "../../src/providers/types.js";

/** A provider never asked anything: the options are checked when the adapter is made. */
const provider: BrowserProvider = {
  name: "unused",
  create: () => Promise.reject(new Error("not used")),
  get: () => Promise.resolve(undefined),
  release: () => Promise.resolve(),
  find: () => Promise.resolve([]),
};

describe("CdpBrowserAdapter options", () => {
  it.each([0, -5, 1.5, Number.NaN])("refuses inputSeenFallbackMs %s, naming the field", (inputSeenFallbackMs) => {
    const error = (() => {
      try {
        return new CdpBrowserAdapter({ provider, inputSeenFallbackMs });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("options.inputSeenFallbackMs");
  });

  it("takes a positive whole inputSeenFallbackMs", () => {
    expect(new CdpBrowserAdapter({ provider, inputSeenFallbackMs: 600_000 }).capabilities().ops).toContain("press");
  });
});
