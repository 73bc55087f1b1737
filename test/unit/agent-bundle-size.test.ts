import { describe, expect, it } from "vitest";
import { formatBundleSize, measureAgentBundle } from "../../bench/bundle-size.js";

/**
 * Issue 11 "Fast and lean": the `/agent` entry, bundled with every dependency
 * and minified, within 60 KB (20 KB gzipped). Not reached yet: until it is,
 * `ceiling` holds the size reached plus a small margin, so the bundle cannot
 * grow back; lower it as the bundle shrinks, and replace it with
 * `agentBundleBudget` once under budget.
 */
// Issue 12 raised it by what checking every command result against its schema measured (+1,778 B minified, +806 B gzipped) and by the error table with details on the wire (+288 B / +157 B); issue 11 trims took 1,663 B / 420 B back.
// Issue 16 raised it by a definitive not-found freeing a toolset's slot (+291 B / +96 B).
const ceiling = { minified: 90_301, gzipped: 31_086 };

describe("/agent bundle size", () => {
  it("stays under its ceiling (minified and gzipped), printing the figures", async () => {
    const size = await measureAgentBundle();
    console.log(formatBundleSize(size, 10));
    expect(size.packages.map(({ name }) => name).sort()).toEqual(["src", "valibot"]);
    expect(size.minified).toBeLessThanOrEqual(ceiling.minified);
    expect(size.gzipped).toBeLessThanOrEqual(ceiling.gzipped);
  });
});
