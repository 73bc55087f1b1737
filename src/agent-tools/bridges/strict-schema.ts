import type { AgentTool, ToolInputSchema } from "../types.js";
import { modelInputSchema } from "./result-content.js";
/**
 * Whether a JSON Schema can be sent with `strict: true` to OpenAI (Structured
 * Outputs). Conservative: only the subset every strict-mode model accepts —
 * closed objects whose every property is required, arrays, enums, consts and
 * `anyOf` — with no length, range, pattern or format keywords. A schema that
 * is not strict-ready is sent with `strict: false`, never rewritten.
 */
const allowedKeywords = new Set(["type", "properties", "required", "additionalProperties", "items", "enum", "const", "description", "title", "anyOf"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function strictNode(node: unknown, depth: number): boolean {
  if (!isRecord(node) || depth > 32) return false;
  for (const keyword of Object.keys(node)) if (!allowedKeywords.has(keyword)) return false;
  if (node.anyOf !== undefined) {
    if (!Array.isArray(node.anyOf) || node.anyOf.length === 0) return false;
    if (!node.anyOf.every((branch) => strictNode(branch, depth + 1))) return false;
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes("object") || node.properties !== undefined) {
    if (node.additionalProperties !== false || !isRecord(node.properties)) return false;
    const keys = Object.keys(node.properties);
    const required = Array.isArray(node.required) ? node.required : [];
    if (keys.length !== required.length || !keys.every((key) => required.includes(key))) return false;
    if (!keys.every((key) => strictNode((node.properties as Record<string, unknown>)[key], depth + 1))) return false;
  } else if (node.additionalProperties !== undefined || node.required !== undefined) {
    return false;
  }
  if (types.includes("array") || node.items !== undefined) {
    if (!strictNode(node.items, depth + 1)) return false;
  }
  return true;
}

/** True when `schema` (an object schema) may be declared with `strict: true`. */
export function isStrictReady(schema: Record<string, unknown>): boolean {
  const { $schema: _dialect, ...rest } = schema;
  return rest.type === "object" && strictNode(rest, 0);
}

/**
 * The function part of an OpenAI tool declaration (Chat nests it under
 * `function`, Responses spreads it): strict only when the schema is ready
 * for it, unless `strict: false` turns strict off.
 */
export function openAIFunction(
  tool: AgentTool,
  strict: "auto" | false | undefined,
): { name: string; description: string; parameters: ToolInputSchema; strict: boolean } {
  return {
    name: tool.name,
    description: tool.description,
    parameters: modelInputSchema(tool.inputSchema),
    strict: strict !== false && isStrictReady(tool.inputSchema),
  };
}
