import { toJsonSchema, type ConversionConfig } from "@valibot/to-json-schema";
import type * as v from "valibot";
import { TargetSchema } from "../protocol/target.js";
import { refSchema, targetJsonSchema } from "./fields.js";
import type { ToolInputSchema } from "./types.js";

const plain = { errorMode: "ignore" } as const satisfies ConversionConfig;

/** JSON Schema of a target field (the tools' only lazy schema). */
function targetSchema(): Record<string, unknown> {
  const strip = ({ $schema: _schema, ...rest }: Record<string, unknown>) => rest;
  const convert = (schema: v.GenericSchema) => strip(toJsonSchema(schema, plain) as Record<string, unknown>);
  return targetJsonSchema(convert(refSchema()), convert(TargetSchema));
}

/**
 * The JSON Schema (draft-07) of a tool's valibot input schema, as models and
 * bridges read it: no `$schema` header, target fields as "ref string or
 * locator object".
 */
export function toInputSchema(schema: v.GenericSchema): ToolInputSchema {
  let target: Record<string, unknown> | undefined;
  const json = toJsonSchema(schema, {
    ...plain,
    overrideSchema: (context) => (context.valibotSchema.type === "lazy" ? (target ??= targetSchema()) : undefined),
  }) as Record<string, unknown>;
  const { $schema: _schema, $defs: definitions, ...rest } = json;
  // The converter pre-registers lazy schemas as definitions; keep them only if something refers to them.
  const keep = definitions !== undefined && JSON.stringify(rest).includes('"$ref"');
  return { ...(rest as ToolInputSchema), ...(keep ? { $defs: definitions } : {}) };
}
