import path from "node:path";
import { describe, expect, it } from "vitest";
import { benchNames, benchmarks, readOptions, root } from "../../bench/report-options.js";

/** `npm run bench` (bench/report.ts): which benchmarks it runs, and with what arguments. */
describe("npm run bench options", () => {
  it("runs every benchmark on its own defaults, writing bench/RESULTS.md, when given nothing", () => {
    const options = readOptions([], {});
    expect(options.names).toEqual(["actions", "cdp", "edge", "observe", "agent", "bundle", "journal"]);
    expect(options.out).toBe(path.join(root, "bench/RESULTS.md"));
    expect(benchNames.map((name) => benchmarks[name].args(options))).toEqual([[], [], [], [], [], [], []]);
  });

  it("runs a subset in run order, with rounds, pages and built-in pages passed to the benchmarks that take them", () => {
    const options = readOptions(["journal", "cdp", "edge", "--rounds=5", "--pages", "3", "--builtin", "agent", "observe", "--out", "/tmp/x.md"], {});
    expect(options.names).toEqual(["cdp", "edge", "observe", "agent", "journal"]);
    expect(options.out).toBe("/tmp/x.md");
    expect(benchmarks.actions.args(options)).toEqual(["5"]);
    expect(benchmarks.cdp.args(options)).toEqual(["5", "3"]);
    expect(benchmarks.edge.args(options)).toEqual(["3"]);
    expect(benchmarks.journal.args(options)).toEqual(["5"]);
    expect(benchmarks.agent.args(options)).toEqual(["--pages", "3", "--builtin"]);
    expect(benchmarks.observe.args(options)).toEqual(["--builtin"]);
    expect(benchmarks.bundle.args(options)).toEqual([]);
  });

  it("takes rounds and pages from BENCH_ROUNDS and BENCH_PAGES, arguments winning", () => {
    expect(readOptions([], { BENCH_ROUNDS: "4", BENCH_PAGES: "2" })).toMatchObject({ rounds: 4, pages: 2 });
    expect(readOptions(["--rounds", "7"], { BENCH_ROUNDS: "4" }).rounds).toBe(7);
  });

  it("refuses what it does not understand, naming it", () => {
    expect(() => readOptions(["action"], {})).toThrow(/unknown argument "action"/);
    expect(() => readOptions(["--rounds", "0"], {})).toThrow(/--rounds expects a positive integer, got "0"/);
    expect(() => readOptions(["--pages"], {})).toThrow(/--pages expects a positive integer/);
    expect(() => readOptions([], { BENCH_ROUNDS: "many" })).toThrow(/BENCH_ROUNDS expects a positive integer, got "many"/);
  });
});
