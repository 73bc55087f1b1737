import { describe, expect, it } from "vitest";
import { passed, renderTable, runScenario, type Row } from "../faults/table.js";

describe("the fault suite's table", () => {
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
    const table = renderTable(rows);
    expect(table).toContain("| held | x | 2 | same ×2 | pass 2/2 |");
    expect(table).toContain("FAIL 0/1: same (expected 2, got 1)");
    expect(table).toContain("FAIL (no fault fired)");
    expect(table).toContain("FAIL (crashed: Error: boom)");
  });
});
