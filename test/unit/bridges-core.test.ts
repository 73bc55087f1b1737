import { describe, expect, it } from "vitest";
import { isStrictReady } from "../../src/agent-tools/bridges/strict-schema.js";
import { createToolRunner, parseToolArguments } from "../../src/agent-tools/bridges/tool-runner.js";
import { createFakeTools, looseSchema, strictSchema } from "../helpers/bridges-tools.js";

describe("bridge core", () => {
  it("calls a schema strict-ready only when every object is closed and fully required, with no unsupported keywords", () => {
    expect(isStrictReady(strictSchema)).toBe(true);
    expect(isStrictReady(looseSchema)).toBe(false);
    const nested = {
      type: "object",
      properties: {
        fields: {
          type: "array",
          items: { type: "object", properties: { ref: { type: "string" }, value: { type: ["string", "null"] } }, required: ["ref", "value"], additionalProperties: false },
        },
        mode: { anyOf: [{ type: "string", enum: ["a", "b"] }, { type: "null" }] },
      },
      required: ["fields", "mode"],
      additionalProperties: false,
    };
    expect(isStrictReady(nested)).toBe(true);
    const openInner = structuredClone(nested);
    delete (openInner.properties.fields.items as { additionalProperties?: boolean }).additionalProperties;
    expect(isStrictReady(openInner)).toBe(false);
    expect(isStrictReady({ ...strictSchema, properties: { text: { type: "string", maxLength: 10 } } })).toBe(false);
    expect(isStrictReady({ ...strictSchema, properties: { text: { type: "string", pattern: "^a" } } })).toBe(false);
    expect(isStrictReady({ type: "array", items: { type: "string" } })).toBe(false);
  });

  it("reads arguments: empty means {}, objects pass, anything else is an error result naming the problem", () => {
    expect(parseToolArguments("t", "")).toEqual({ input: {} });
    expect(parseToolArguments("t", '  {"a":1} ')).toEqual({ input: { a: 1 } });
    expect(parseToolArguments("t", { a: 1 })).toEqual({ input: { a: 1 } });
    const bad = parseToolArguments("t", "{'a':1}");
    expect("error" in bad && bad.error.isError).toBe(true);
    expect("error" in bad && bad.error.text).toMatch(/^The arguments for "t" are not valid JSON \(.+\)/);
    const nullInput = parseToolArguments("t", "null");
    expect("error" in nullInput && nullInput.error.text).toMatch(/must be a JSON object, not null/);
    const numberInput = parseToolArguments("t", "42");
    expect("error" in numberInput && numberInput.error.text).toMatch(/not a number/);
  });

  it("bounds a hostile tool name in the unknown-tool message", async () => {
    const runner = createToolRunner(createFakeTools().tools, "Test", /^.+$/);
    const result = await runner.run("x".repeat(10_000), {});
    expect(result.isError).toBe(true);
    expect(result.text.length).toBeLessThan(400);
    expect(result.text).toMatch(/^Unknown tool "x{80}…"/);
    expect(runner.has("station_browser_echo")).toBe(true);
    expect(runner.has("station_browser_nope")).toBe(false);
  });
});
