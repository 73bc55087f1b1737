import type { AgentTool, ToolInputSchema, ToolResult } from "../types.js";
import { resultText } from "./result-content.js";

/** MCP tool names: `^[A-Za-z0-9._-]{1,128}$`. */
export const mcpToolNamePattern = /^[A-Za-z0-9._-]{1,128}$/;

/** A tool as listed by `tools/list`. */
export interface McpToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: ToolInputSchema;
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

/** MCP text content. */
export interface McpTextContent {
  type: "text";
  text: string;
}

/** MCP image content: plain base64, no `data:` prefix. */
export interface McpImageContent {
  type: "image";
  data: string;
  mimeType: "image/png" | "image/jpeg";
}

/** A `tools/call` result; tool failures are results with `isError: true`, not protocol errors. */
export interface McpCallToolResult {
  [key: string]: unknown;
  content: Array<McpTextContent | McpImageContent>;
  isError?: true;
}

/**
 * The `tools/list` entry of a tool: its JSON Schema as is, its title and its hints.
 *
 * @example
 * ```ts
 * server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(toMcpTool) }));
 * ```
 */
export function toMcpTool(tool: AgentTool): McpToolDefinition {
  const { title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations;
  return {
    name: tool.name,
    title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: { title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint },
  };
}

/**
 * A `tools/call` result: a text item (left out when empty), then one image
 * item per image (plain base64); `isError: true` for a failure.
 *
 * @example
 * ```ts
 * return toMcpCallToolResult(await tool.execute(request.params.arguments ?? {}, { signal: extra.signal }));
 * ```
 */
export function toMcpCallToolResult(result: ToolResult): McpCallToolResult {
  const text = resultText(result);
  const content: McpCallToolResult["content"] = [
    ...(text === "" ? [] : [{ type: "text" as const, text }]),
    ...result.images.map((image) => ({ type: "image" as const, data: image.base64, mimeType: image.mimeType })),
  ];
  return result.isError === true ? { content, isError: true } : { content };
}
