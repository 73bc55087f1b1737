import type { AgentTool, ToolInputSchema, ToolResult } from "../types.js";
import { openAIToolNamePattern, type OpenAIImageDetail } from "./openai-chat.js";
import { flaggedText, imageDataUrl } from "./result-content.js";
import { openAIFunction } from "./strict-schema.js";
import { createToolRunner, parseToolArguments, type BridgeCallOptions } from "./tool-runner.js";

/** Options of {@link openAIResponsesTools}. */
export interface OpenAIResponsesToolsOptions {
  /**
   * `"auto"` (default) declares `strict: true` only for strict-ready schemas
   * and `strict: false` otherwise (left out, Responses would make every
   * optional field required); `false` always sends `strict: false`.
   */
  strict?: "auto" | false;
  /** `detail` of screenshots. Default `"auto"`. */
  imageDetail?: OpenAIImageDetail;
}

/** A Responses function tool declaration (`FunctionTool`). */
export interface OpenAIResponsesFunctionTool {
  type: "function";
  name: string;
  description: string;
  parameters: ToolInputSchema;
  strict: boolean;
}

/**
 * An item of `response.output`. Only `function_call` items are run; the
 * fields are loose so the whole `response.output` array can be passed as is.
 */
export interface OpenAIResponsesOutputItem {
  type: string;
  call_id?: unknown;
  name?: unknown;
  arguments?: unknown;
}

/** `input_text` inside a function call output. */
export interface OpenAIResponsesInputText {
  type: "input_text";
  text: string;
}

/** `input_image` inside a function call output, as a data URL. */
export interface OpenAIResponsesInputImage {
  type: "input_image";
  image_url: string;
  detail: OpenAIImageDetail;
}

/** The answer to one function call (`ResponseInputItem.FunctionCallOutput`): a string, or text and images. */
export interface OpenAIResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string | Array<OpenAIResponsesInputText | OpenAIResponsesInputImage>;
}

/** Browser tools in Responses form. */
export interface OpenAIResponsesToolset {
  /** Pass as `tools` to `responses.create`. */
  definitions: OpenAIResponsesFunctionTool[];
  /** Whether a function call names one of these tools (for apps that mix in their own tools). */
  has(name: string): boolean;
  /**
   * Runs every `function_call` item of `response.output`, one after another,
   * and returns one `function_call_output` per call, images included. An
   * empty array means the model called no tool. Never throws.
   *
   * Send the outputs with `previous_response_id: response.id`, or, without
   * it, after the response's own output items (each `function_call` must come
   * before its output).
   */
  handleToolCalls(output: readonly OpenAIResponsesOutputItem[], options?: BridgeCallOptions): Promise<OpenAIResponsesFunctionCallOutput[]>;
}

/**
 * A `function_call_output` item: the text alone when there are no images,
 * else `input_text` followed by one `input_image` (data URL) per image.
 *
 * @example
 * ```ts
 * input.push(toOpenAIResponsesOutput(call.call_id, await tool.execute(JSON.parse(call.arguments))));
 * ```
 */
export function toOpenAIResponsesOutput(callId: string, result: ToolResult, options: { imageDetail?: OpenAIImageDetail } = {}): OpenAIResponsesFunctionCallOutput {
  const text = flaggedText(result);
  if (result.images.length === 0) return { type: "function_call_output", call_id: callId, output: text };
  const detail = options.imageDetail ?? "auto";
  return {
    type: "function_call_output",
    call_id: callId,
    output: [
      ...(text === "" ? [] : [{ type: "input_text" as const, text }]),
      ...result.images.map((image) => ({ type: "input_image" as const, image_url: imageDataUrl(image), detail })),
    ],
  };
}

/**
 * Browser tools for the OpenAI Responses API.
 *
 * @throws {ValidationError} when a tool name is not a valid OpenAI function name or appears twice.
 * @example
 * ```ts
 * const browser = openAIResponsesTools(tools.tools);
 * let response = await openai.responses.create({ model, input: task, tools: browser.definitions });
 * let outputs;
 * while ((outputs = await browser.handleToolCalls(response.output)).length > 0) {
 *   response = await openai.responses.create({ model, previous_response_id: response.id, input: outputs, tools: browser.definitions });
 * }
 * console.log(response.output_text);
 * ```
 */
export function openAIResponsesTools(tools: readonly AgentTool[], options: OpenAIResponsesToolsOptions = {}): OpenAIResponsesToolset {
  const runner = createToolRunner(tools, "OpenAI", openAIToolNamePattern);
  const formatOptions = options.imageDetail === undefined ? {} : { imageDetail: options.imageDetail };
  const definitions = tools.map((tool): OpenAIResponsesFunctionTool => ({ type: "function", ...openAIFunction(tool, options.strict) }));
  return {
    definitions,
    has: runner.has,
    async handleToolCalls(output, callOptions = {}) {
      const outputs: OpenAIResponsesFunctionCallOutput[] = [];
      for (const item of output ?? []) {
        if (item === null || typeof item !== "object" || item.type !== "function_call" || typeof item.call_id !== "string") continue;
        const name = typeof item.name === "string" ? item.name : "";
        const parsed = parseToolArguments(name, item.arguments);
        const result = "error" in parsed ? parsed.error : await runner.run(name, parsed.input, callOptions);
        outputs.push(toOpenAIResponsesOutput(item.call_id, result, formatOptions));
      }
      return outputs;
    },
  };
}
