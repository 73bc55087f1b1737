import { describe, expect, it } from "vitest";
import { callInPage } from "../../src/engine/evaluate-result.js";

describe("callInPage", () => {
  it("runs a function whose source a name-keeping transpiler (tsx) filled with __name calls", () => {
    // What esbuild's keepNames makes of `(argument) => { const inner = () => argument.x + 1; return inner(); }`.
    const transpiled = { toString: () => '(argument) => { const inner = /* @__PURE__ */ __name(() => argument.x + 1, "inner"); return inner(); }' };
    const expression = callInPage(transpiled as unknown as (argument: { x: number }) => number, { x: 41 });
    expect((0, eval)(expression)).toBe(42);
    expect("__name" in globalThis).toBe(false);
  });
});
