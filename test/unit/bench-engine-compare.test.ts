import { describe, expect, it } from "vitest";
import { compareEngines, summarizeEngines } from "../../bench/engine-compare.js";

/** bench:observe's CDP side: one page's comparison with the Playwright engine, and the summary over pages. */
describe("bench:observe, the CDP engine against the Playwright engine", () => {
  const playwright = 'main:\n h1 "Sign in"\n textbox "Email" [e1]\n button "Go" [e2]';

  it("calls a page the same only when the text is the same, refs included, and names the first differing line", () => {
    expect(compareEngines(playwright, { snapshot: playwright, bytes: 50 }, 0, 7)).toEqual({ bytes: 50, identical: true, frames: 0, milliseconds: 7 });
    const renamed = compareEngines(playwright, { snapshot: playwright.replace("[e2]", "[e3]"), bytes: 50 }, 0, 7);
    expect(renamed.identical).toBe(false);
    expect(renamed.firstDifference).toEqual({ line: 4, playwright: ' button "Go" [e2]', cdp: ' button "Go" [e3]' });
    const shorter = compareEngines(playwright, { snapshot: 'main:\n h1 "Sign in"', bytes: 20 }, 1, 7);
    expect(shorter.firstDifference).toEqual({ line: 3, playwright: ' textbox "Email" [e1]', cdp: "(no line)" });
    const long = compareEngines("x".repeat(200), { snapshot: "y".repeat(200), bytes: 200 }, 0, 1);
    expect(long.firstDifference?.cdp).toBe(`${"y".repeat(70)}…`);
  });

  it("counts same and differing pages with and without frames, failures, totals, coverage where the text is the same and the pages where the CDP engine is larger", () => {
    const same = { engineBytes: 50, coverage: { covered: 3, total: 3 }, cdp: compareEngines(playwright, { snapshot: playwright, bytes: 50 }, 0, 1) };
    const framed = { engineBytes: 60, cdp: compareEngines(playwright, { snapshot: "other", bytes: 40 }, 2, 1) };
    const larger = { engineBytes: 30, coverage: { covered: 2, total: 3 }, cdp: compareEngines(playwright, { snapshot: "larger", bytes: 35 }, 0, 1) };
    const failed = { engineBytes: 10, cdp: { bytes: 0, identical: false, frames: 0, milliseconds: 1, error: "page timed out" } };
    const notRun = { engineBytes: 99 };
    expect(Object.fromEntries(summarizeEngines([same, framed, larger, failed, notRun]))).toEqual({
      "CDP engine pages measured": "3 of 4 (1 failed)",
      "CDP = Playwright engine (text)": "1 of 3",
      "  differing, without frames": "1 of 2",
      "  differing, with frames": "1 of 1",
      "bytes total   pw engine / CDP": "140 / 125",
      "coverage CDP (same text)": "3/6 (1 differing login page not scored)",
      "CDP larger on": "1 of 3 pages (0 with frames)",
    });
  });
});
