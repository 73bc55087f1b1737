import { describe, expect, it } from "vitest";
import { pairedRatio, quantile } from "../../bench/paired-ratio.js";

/** bench/actions.ts: the ratio of each path to raw playwright-core, round by round. */
describe("bench:actions statistics", () => {
  it("takes quantiles by nearest rank below", () => {
    expect(quantile([5, 1, 4, 2, 3], 0.5)).toBe(3);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it("pairs each time with the raw time of its own round, so a slow phase of the machine cancels out", () => {
    // The machine slows down threefold halfway through; the path is 1.1× raw throughout.
    const raw = [10, 10, 10, 30, 30, 30, 30];
    const path = raw.map((time) => time * 1.1);
    expect(pairedRatio(path, raw)).toBeCloseTo(1.1, 10);
    // The slow phase starts one action later for raw than for the path (round 3): the medians fall in different
    // phases and their ratio says 3.3×, while round by round the path is still 1.1× raw but for that one round.
    const rawShifted = [10, 10, 10, 10, 30, 30, 30];
    const pathShifted = [11, 11, 11, 33, 33, 33, 33];
    expect(quantile(pathShifted, 0.5) / quantile(rawShifted, 0.5)).toBeCloseTo(3.3, 10);
    expect(pairedRatio(pathShifted, rawShifted)).toBeCloseTo(1.1, 10);
  });

  it("refuses lists of different lengths", () => {
    expect(() => pairedRatio([1, 2], [1])).toThrow(/2 times against 1 raw times/);
  });
});
