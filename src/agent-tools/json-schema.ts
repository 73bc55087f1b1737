import type * as v from "valibot";
import { refSchema, targetJsonSchema, toolTargetOptions } from "./fields.js";
import type { ToolInputSchema } from "./types.js";

/**
 * valibot → JSON Schema (draft-07) for the schema kinds the tools use. It
 * gives what `toJsonSchema` of `@valibot/to-json-schema` gives for them
 * (test/unit/agent-tools-json-schema.test.ts compares the two for every tool)
 * at a fraction of its bundle size; a kind it does not know throws, so a new
 * one is caught by that test rather than rendered wrong.
 */

type Json = Record<string, unknown>;
/** The parts of a valibot schema or action this converter reads. */
interface Node {
  kind: string;
  type: string;
  pipe?: Node[];
  entries?: Record<string, Node>;
  item?: Node;
  wrapped?: Node;
  options?: unknown[];
  literal?: unknown;
  default?: unknown;
  requirement?: unknown;
  description?: string;
}

const flatten = (pipe: Node[]): Node[] => pipe.flatMap((item) => (item.pipe ? flatten(item.pipe) : [item]));
const lower = (current: unknown, value: number) => (typeof current === "number" ? Math.max(current, value) : value);
const upper = (current: unknown, value: number) => (typeof current === "number" ? Math.min(current, value) : value);

/** Actions that render; others (finite, checks, transforms) add nothing, as in `toJsonSchema`. */
function applyAction(json: Json, action: Node): void {
  const requirement = action.requirement as number;
  const items = json.type === "array";
  switch (action.type) {
    case "description":
      json.description = action.description;
      break;
    case "regex":
      json.pattern = (action.requirement as RegExp).source;
      break;
    case "integer":
      json.type = "integer";
      break;
    case "min_length":
      if (items) json.minItems = lower(json.minItems, requirement);
      else json.minLength = lower(json.minLength, requirement);
      break;
    case "max_length":
      if (items) json.maxItems = upper(json.maxItems, requirement);
      else json.maxLength = upper(json.maxLength, requirement);
      break;
    case "min_value":
      json.minimum = lower(json.minimum, requirement);
      break;
    case "max_value":
      json.maximum = upper(json.maximum, requirement);
      break;
  }
}

function convert(node: Node, lazy: () => Json): Json {
  if (node.pipe) {
    const [schema, ...actions] = flatten(node.pipe);
    const json = convert(schema!, lazy);
    for (const action of actions) {
      if (action.kind === "schema") throw new Error("a pipe with more than one schema has no JSON Schema here");
      applyAction(json, action);
    }
    return json;
  }
  const json: Json = {};
  switch (node.type) {
    case "boolean":
    case "number":
    case "string":
      json.type = node.type;
      break;
    case "array":
      json.type = "array";
      json.items = convert(node.item!, lazy);
      break;
    case "object":
    case "strict_object": {
      const properties: Json = {};
      const required: string[] = [];
      for (const [key, entry] of Object.entries(node.entries!)) {
        properties[key] = convert(entry, lazy);
        if (entry.type !== "optional" && entry.type !== "exact_optional") required.push(key);
      }
      Object.assign(json, { type: "object", properties, required });
      if (node.type === "strict_object") json.additionalProperties = false;
      break;
    }
    case "optional":
    case "exact_optional": {
      const wrapped = convert(node.wrapped!, lazy);
      if (node.default !== undefined) wrapped.default = typeof node.default === "function" ? node.default() : node.default;
      return wrapped;
    }
    case "literal":
      json.const = node.literal;
      break;
    case "picklist": {
      const options = node.options!;
      json.enum = options;
      if (options.every((option) => typeof option === "string")) json.type = "string";
      else if (options.every((option) => typeof option === "number")) json.type = "number";
      else json.type = ["string", "number"];
      break;
    }
    case "union":
      json.anyOf = (node.options as Node[]).map((option) => convert(option, lazy));
      break;
    case "lazy":
      return { ...lazy() };
    default:
      throw new Error(`the "${node.type}" schema has no JSON Schema here`);
  }
  return json;
}

const noLazy = (): Json => {
  throw new Error("a lazy schema has no JSON Schema here");
};

/** JSON Schema of a target field (the tools' only lazy schema). */
const targetSchema = (): Json =>
  targetJsonSchema(convert(refSchema() as unknown as Node, noLazy), { oneOf: toolTargetOptions.map((option) => convert(option as unknown as Node, noLazy)) });

/**
 * The JSON Schema (draft-07) of a tool's valibot input schema, as models and
 * bridges read it: no `$schema` header, target fields as "ref string or
 * locator object".
 */
export function toInputSchema(schema: v.GenericSchema): ToolInputSchema {
  let target: Json | undefined;
  return convert(schema as unknown as Node, () => (target ??= targetSchema())) as ToolInputSchema;
}
