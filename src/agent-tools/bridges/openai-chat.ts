import type { AgentTool, ToolInputSchema } from "../types.js";
import { flaggedText, imageCount, imageDataUrl } from "./result-content.js";
import { openAIFunction } from "./strict-schema.js";
import { createToolRunner, parseToolArguments, quoteName, type BridgeCallOptions, type ToolCallOutcome } from "./tool-runner.js";

/** OpenAI function names: `^[a-zA-Z0-9_-]{1,64}$`. */
export const openAIToolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/** How much detail OpenAI should use for images (`image_url.detail`). */
export type OpenAIImageDetail = "auto" | "low" | "high";

/** Options of {@link openAIChatTools}. */
export interface OpenAIChatToolsOptions {
  /**
   * `"auto"` (default) declares `strict: true` only for schemas that are
   * strict-ready (closed objects, every property required); `false` never does.
   */
  strict?: "auto" | false;
  /** `image_url.detail` of screenshots. Default `"auto"`. */
  imageDetail?: OpenAIImageDetail;
}

/** A Chat Completions tool declaration (`ChatCompletionFunctionTool`). */
export interface OpenAIChatFunctionTool {
  type: "function";
  function: { name: string; description: string; parameters: ToolInputSchema; strict: boolean };
}

/**
 * A tool call as found in `message.tool_calls` (function and custom calls;
 * only function calls can name a browser tool).
 */
export interface OpenAIChatToolCall {
  id: string;
  type: string;
  function?: { name: string; arguments: string };
}

/** The answer to one tool call (`ChatCompletionToolMessageParam`). Tool messages cannot carry images. */
export interface OpenAIChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** A text part of a user message. */
export interface OpenAIChatTextPart {
  type: "text";
  text: string;
}

/** An image part of a user message, as a data URL. */
export interface OpenAIChatImagePart {
  type: "image_url";
  image_url: { url: string; detail: OpenAIImageDetail };
}

/** The user message that carries a turn's images, after all its tool messages. */
export interface OpenAIChatImageMessage {
  role: "user";
  content: Array<OpenAIChatTextPart | OpenAIChatImagePart>;
}

/** What {@link OpenAIChatToolset.handleToolCalls} returns, in order: push them onto `messages`. */
export type OpenAIChatResultMessage = OpenAIChatToolMessage | OpenAIChatImageMessage;

/** Browser tools in Chat Completions form. */
export interface OpenAIChatToolset {
  /** Pass as `tools` to `chat.completions.create`. */
  definitions: OpenAIChatFunctionTool[];
  /** Whether a tool call names one of these tools (for apps that mix in their own tools). */
  has(name: string): boolean;
  /**
   * Runs every call of an assistant message, one after another, and returns
   * one tool message per call (in the calls' order) followed, when any call
   * returned images, by one user message holding them. Never throws: bad JSON,
   * unknown tools and failures come back as tool messages saying so.
   */
  handleToolCalls(toolCalls: readonly OpenAIChatToolCall[] | null | undefined, options?: BridgeCallOptions): Promise<OpenAIChatResultMessage[]>;
}

/**
 * Turns finished tool calls into Chat Completions messages: a tool message per
 * call, then one user message with every image of the turn (labelled with its
 * call id), because a tool message cannot carry an image. For loops that run
 * the tools themselves.
 *
 * @example
 * ```ts
 * const result = await tool.execute(JSON.parse(call.function.arguments));
 * messages.push(...toOpenAIChatMessages([{ callId: call.id, toolName: tool.name, result }]));
 * ```
 */
export function toOpenAIChatMessages(outcomes: readonly ToolCallOutcome[], options: { imageDetail?: OpenAIImageDetail } = {}): OpenAIChatResultMessage[] {
  const detail = options.imageDetail ?? "auto";
  const messages: OpenAIChatResultMessage[] = [];
  const imageParts: Array<OpenAIChatTextPart | OpenAIChatImagePart> = [];
  for (const { callId, toolName, result } of outcomes) {
    let content = flaggedText(result);
    if (result.images.length > 0) {
      const note = `[${imageCount(result.images.length)} from this call ${result.images.length === 1 ? "follows" : "follow"} in the next user message, labelled ${callId}.]`;
      content = content === "" ? note : `${content}\n\n${note}`;
      imageParts.push({ type: "text", text: `${imageCount(result.images.length)} from tool call ${callId} (${toolName}):` });
      for (const image of result.images) imageParts.push({ type: "image_url", image_url: { url: imageDataUrl(image), detail } });
    }
    messages.push({ role: "tool", tool_call_id: callId, content });
  }
  if (imageParts.length > 0) messages.push({ role: "user", content: imageParts });
  return messages;
}

/**
 * Browser tools for the OpenAI Chat Completions API.
 *
 * @throws {ValidationError} when a tool name is not a valid OpenAI function name or appears twice.
 * @example
 * ```ts
 * const browser = openAIChatTools(tools.tools);
 * const completion = await openai.chat.completions.create({ model, messages, tools: browser.definitions });
 * const message = completion.choices[0]!.message;
 * messages.push(message);
 * if (message.tool_calls?.length) messages.push(...(await browser.handleToolCalls(message.tool_calls)));
 * ```
 */
export function openAIChatTools(tools: readonly AgentTool[], options: OpenAIChatToolsOptions = {}): OpenAIChatToolset {
  const runner = createToolRunner(tools, "OpenAI", openAIToolNamePattern);
  const definitions = tools.map((tool): OpenAIChatFunctionTool => ({ type: "function", function: openAIFunction(tool, options.strict) }));
  return {
    definitions,
    has: runner.has,
    async handleToolCalls(toolCalls, callOptions = {}) {
      const outcomes: ToolCallOutcome[] = [];
      for (const call of toolCalls ?? []) {
        // Whatever a server sends (no `type`, no `id`, a null entry) gets an answer, never a throw.
        if (call === null || typeof call !== "object") continue;
        const fn = typeof call.function === "object" && call.function !== null ? call.function : undefined;
        const toolName = typeof fn?.name === "string" ? fn.name : "";
        let result;
        if ((call.type !== undefined && call.type !== "function") || fn === undefined) {
          result = { text: `Tool call ${quoteName(String(call.id))} is a ${quoteName(String(call.type))} call; the browser tools are function tools.`, images: [], isError: true };
        } else {
          const parsed = parseToolArguments(toolName, fn.arguments);
          result = "error" in parsed ? parsed.error : await runner.run(toolName, parsed.input, callOptions);
        }
        outcomes.push({ callId: String(call.id ?? ""), toolName, result });
      }
      return toOpenAIChatMessages(outcomes, options.imageDetail === undefined ? {} : { imageDetail: options.imageDetail });
    },
  };
}
