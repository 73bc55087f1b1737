import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { browserToolDefinitions } from "../../src/agent-tools/tool-list.js";
import { toInputSchema } from "../../src/agent-tools/json-schema.js";
import { refSchema, targetJsonSchema } from "../../src/agent-tools/fields.js";
import { TargetSchema } from "../../src/protocol/target.js";

/** What the tools rendered through `@valibot/to-json-schema` before the small converter (the reference). */
function reference(schema: v.GenericSchema): Record<string, unknown> {
  const plain = { errorMode: "ignore" } as const;
  const strip = ({ $schema: _schema, ...rest }: Record<string, unknown>) => rest;
  const convert = (inner: v.GenericSchema) => strip(toJsonSchema(inner, plain) as Record<string, unknown>);
  let target: Record<string, unknown> | undefined;
  const json = toJsonSchema(schema, {
    ...plain,
    overrideSchema: (context) =>
      context.valibotSchema.type === "lazy" ? (target ??= targetJsonSchema(convert(refSchema()), convert(TargetSchema))) : undefined,
  }) as Record<string, unknown>;
  const { $schema: _schema, $defs: definitions, ...rest } = json;
  const keep = definitions !== undefined && JSON.stringify(rest).includes('"$ref"');
  return { ...rest, ...(keep ? { $defs: definitions } : {}) };
}

describe("tool input JSON Schema", () => {
  it("equals @valibot/to-json-schema's output for every tool", () => {
    const definitions = browserToolDefinitions();
    expect(definitions.length).toBeGreaterThan(15);
    for (const definition of definitions) {
      expect(toInputSchema(definition.input), definition.name).toStrictEqual(reference(definition.input));
    }
  });

  it("renders the kinds the tools use like @valibot/to-json-schema", () => {
    const schema = v.strictObject({
      text: v.pipe(v.string(), v.minLength(1), v.maxLength(9), v.regex(/^a+$/), v.description("some a")),
      count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(5), v.finite()), 2),
      kind: v.picklist(["x", "y"]),
      list: v.pipe(v.array(v.boolean()), v.minLength(1), v.maxLength(3)),
      either: v.union([v.literal("a"), v.number()]),
      loose: v.object({ by: v.literal(1) }),
    });
    expect(toInputSchema(schema)).toStrictEqual(reference(schema));
  });

  it("refuses a schema kind it does not render instead of rendering it wrong", () => {
    expect(() => toInputSchema(v.strictObject({ when: v.date() }) as v.GenericSchema)).toThrow(/"date" schema/);
  });
});
