import type { AgentTool, ToolInputSchema, ToolResult } from "../types.js";
import { modelInputSchema, resultText } from "./result-content.js";
import { checkArgumentsObject, createToolRunner, type BridgeCallOptions, type ToolCallOutcome } from "./tool-runner.js";

/** Anthropic tool names: `^[a-zA-Z0-9_-]{1,64}$`. */
export const anthropicToolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/** An Anthropic tool declaration (`Tool`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: ToolInputSchema;
}

/**
 * A block of the assistant's `content`. Only `tool_use` blocks are run; the
 * fields are loose so `response.content` can be passed as is.
 */
export interface AnthropicContentBlock {
  type: string;
  id?: unknown;
  name?: unknown;
  input?: unknown;
}

/** A text block inside a tool result. */
export interface AnthropicTextBlock {
  type: "text";
  text: string;
}

/** A base64 image block inside a tool result. */
export interface AnthropicImageBlock {
  type: "image";
  source: { type: "base64"; media_type: "image/png" | "image/jpeg"; data: string };
}

/** The answer to one tool use (`ToolResultBlockParam`); `is_error` is set only on failures. */
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: Array<AnthropicTextBlock | AnthropicImageBlock>;
  is_error?: true;
}

/** The user message answering a turn's tool uses: tool results only, so they come first. */
export interface AnthropicToolResultMessage {
  role: "user";
  content: AnthropicToolResultBlock[];
}

/** Browser tools in Anthropic Messages form. */
export interface AnthropicToolset {
  /** Pass as `tools` to `messages.create`. */
  definitions: AnthropicTool[];
  /** Whether a tool use names one of these tools (for apps that mix in their own tools). */
  has(name: string): boolean;
  /**
   * Runs every `tool_use` block of the assistant's content, one after
   * another, and returns the next user message: one `tool_result` per tool
   * use, in order, with screenshots as `image` blocks. Call it when
   * `stop_reason === "tool_use"`. Never throws.
   */
  handleToolUses(content: readonly AnthropicContentBlock[], options?: BridgeCallOptions): Promise<AnthropicToolResultMessage>;
}

/**
 * A `tool_result` block: a text block (left out when empty), then one `image`
 * block per image; `is_error: true` for a failure.
 *
 * @example
 * ```ts
 * const block = toAnthropicToolResult(toolUse.id, await tool.execute(toolUse.input));
 * ```
 */
export function toAnthropicToolResult(toolUseId: string, result: ToolResult): AnthropicToolResultBlock {
  const text = resultText(result);
  const block: AnthropicToolResultBlock = {
    type: "tool_result",
    tool_use_id: toolUseId,
    content: [
      ...(text === "" ? [] : [{ type: "text" as const, text }]),
      ...result.images.map((image) => ({ type: "image" as const, source: { type: "base64" as const, media_type: image.mimeType, data: image.base64 } })),
    ],
  };
  if (result.isError === true) block.is_error = true;
  return block;
}

/**
 * The user message for finished tool uses: their `tool_result` blocks, in order.
 *
 * @example
 * ```ts
 * messages.push(toAnthropicToolResultMessage([{ callId: toolUse.id, toolName: toolUse.name, result }]));
 * ```
 */
export function toAnthropicToolResultMessage(outcomes: readonly ToolCallOutcome[]): AnthropicToolResultMessage {
  return { role: "user", content: outcomes.map((outcome) => toAnthropicToolResult(outcome.callId, outcome.result)) };
}

/**
 * Browser tools for the Anthropic Messages API.
 *
 * @throws {ValidationError} when a tool name is not a valid Anthropic tool name or appears twice.
 * @example
 * ```ts
 * const browser = anthropicTools(tools.tools);
 * const response = await anthropic.messages.create({ model, max_tokens: 4096, messages, tools: browser.definitions });
 * messages.push({ role: "assistant", content: response.content });
 * if (response.stop_reason === "tool_use") messages.push(await browser.handleToolUses(response.content));
 * ```
 */
export function anthropicTools(tools: readonly AgentTool[]): AnthropicToolset {
  const runner = createToolRunner(tools, "Anthropic", anthropicToolNamePattern);
  const definitions = tools.map((tool): AnthropicTool => ({ name: tool.name, description: tool.description, input_schema: modelInputSchema(tool.inputSchema) }));
  return {
    definitions,
    has: runner.has,
    async handleToolUses(content, options = {}) {
      const outcomes: ToolCallOutcome[] = [];
      for (const block of content ?? []) {
        if (block === null || typeof block !== "object" || block.type !== "tool_use" || typeof block.id !== "string") continue;
        const toolName = typeof block.name === "string" ? block.name : "";
        const checked = checkArgumentsObject(toolName, block.input);
        const result = "error" in checked ? checked.error : await runner.run(toolName, checked.input, options);
        outcomes.push({ callId: block.id, toolName, result });
      }
      return toAnthropicToolResultMessage(outcomes);
    },
  };
}
