import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { notRun, passed, renderTable, runScenario, scenarioOn, type Row } from "../faults/table.js";

describe("the fault suite's table", () => {
  // Each scenario prints a progress line to stderr; here they are caught (the deliberately failing rows would read as failures in the test log) and checked.
  let progress: MockInstance<typeof process.stderr.write>;
  beforeEach(() => {
    progress = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  });
  afterEach(() => progress.mockRestore());
  const printed = () => progress.mock.calls.map(([line]) => String(line));

  it("passes a row only when a fault fired and every check held; a throw is a crash", async () => {
    const rows: Row[] = [];
    await runScenario(rows, "held", "x", async (s) => {
      s.injected(2);
      s.equal("round 0: same", 1, 1);
      s.equal("round 1: same", 2, 2);
    });
    await runScenario(rows, "broken", "x", async (s) => {
      s.injected();
      s.equal("same", 1, 2);
    });
    await runScenario(rows, "idle", "x", async (s) => void s.check("ran", true));
    await runScenario(rows, "crashed", "x", async () => {
      throw new Error("boom");
    });
    expect(rows.map(passed)).toEqual([true, false, false, false]);
    expect(printed()).toEqual(["ok   held\n", "FAIL broken\n", "FAIL idle\n", "FAIL crashed\n"]);
    const table = renderTable(rows);
    expect(table).toContain("| held | Playwright | x | 2 | same ×2 | pass 2/2 |");
    expect(table).toContain("FAIL 0/1: same (expected 2, got 1)");
    expect(table).toContain("FAIL (no fault fired)");
    expect(table).toContain("FAIL (crashed: Error: boom)");
  });

  it("labels rows by engine, and lists a scenario not run on an engine without counting it as passed", async () => {
    const rows: Row[] = [];
    await runScenario(rows, "lost answer", "x", async (s) => void (s.injected(), s.check("ran once", true)), undefined, "CDP");
    notRun(rows, "popups", "y", "needs pages, not implemented by the CDP engine yet", "CDP");
    expect(rows.map(passed)).toEqual([true, false]);
    const table = renderTable(rows);
    expect(table).toContain("| lost answer | CDP | x | 1 | ran once | pass 1/1 |");
    expect(table).toContain("| popups | CDP | y | 0 |  | not run: needs pages, not implemented by the CDP engine yet |");
  });

  it("runs a scenario only when the engine implements every op it needs and is not named unsupported", async () => {
    const rows: Row[] = [];
    const stack = { engine: "CDP", missing: (ops: readonly string[]) => ops.filter((op) => op === "pages" || op === "diagnostics") } as Parameters<typeof scenarioOn>[0];
    const scenario = scenarioOn(stack, rows);
    let ran = 0;
    const body = async (s: Parameters<Parameters<typeof scenario>[3]>[0]) => void (ran++, s.injected(), s.check("ran", true));
    await scenario("clicks", "x", { ops: ["navigate", "click"] }, body);
    await scenario("popups", "x", { ops: ["click", "pages", "diagnostics"] }, body);
    await scenario("silent drop", "x", { ops: ["evaluate"], unsupported: { CDP: "no liveness check yet" } }, body);
    await scenario("silent drop elsewhere", "x", { ops: ["evaluate"], unsupported: { Playwright: "covered by the provider group" } }, body);
    expect(ran).toBe(2);
    expect(rows.map((row) => [row.scenario, row.engine, row.notRun])).toEqual([
      ["clicks", "CDP", undefined],
      ["popups", "CDP", "needs pages, diagnostics, not implemented by the CDP engine yet"],
      ["silent drop", "CDP", "no liveness check yet"],
      ["silent drop elsewhere", "CDP", undefined],
    ]);
  });
});
