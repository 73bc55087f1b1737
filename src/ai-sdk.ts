/**
 * station-browser-use/ai-sdk: the browser tools for the Vercel AI SDK
 * (`ai` 5, 6 or 7, an optional peer dependency). Runtime-neutral.
 */
import { jsonSchema, tool, type JSONSchema7, type Tool } from "ai";
import { aiSdkModelOutput } from "./agent-tools/bridges/ai-sdk-output.js";
import { mcpToolNamePattern } from "./agent-tools/bridges/mcp-content.js";
import { createToolRunner } from "./agent-tools/bridges/tool-runner.js";
import type { AgentTool, ToolResult } from "./agent-tools/types.js";

export { toAiSdkToolOutput, type AiSdkToolOutput, type AiSdkImagePartType } from "./agent-tools/bridges/ai-sdk-output.js";

/** One browser tool as an AI SDK tool: its output is the {@link ToolResult}, sent to the model through `toModelOutput`. */
export type AiSdkBrowserTool = Tool<unknown, ToolResult>;

/**
 * The browser tools as an AI SDK tool set, keyed by tool name, for
 * `generateText`, `streamText` or an `Agent`. Each is `tool({ description,
 * inputSchema: jsonSchema(…), execute, toModelOutput })`: `execute` passes
 * the SDK's `abortSignal` on, and `toModelOutput` sends screenshots as image
 * parts, so providers that carry images in tool results (Anthropic; OpenAI
 * Responses, i.e. `openai(...)`) show them to the model. `openai.chat(...)`
 * turns such parts into text, so do not use it with screenshots.
 *
 * The SDK starts every tool call of a step at once; the tool set runs them
 * one after another, in the order they were started (the model's order), as
 * a browser session does one action at a time.
 *
 * @throws {ValidationError} when two tools share a name.
 * @example
 * ```ts
 * import { generateText, stepCountIs } from "ai";
 * import { toAiSdkTools } from "station-browser-use/ai-sdk";
 * const result = await generateText({ model, tools: toAiSdkTools(tools.tools), stopWhen: stepCountIs(30), prompt: task });
 * ```
 */
export function toAiSdkTools(tools: readonly AgentTool[]): Record<string, AiSdkBrowserTool> {
  const runner = createToolRunner(tools, "AI SDK", mcpToolNamePattern);
  const toolSet: Record<string, AiSdkBrowserTool> = {};
  // The tail of the calls started so far: each call waits for the one before it.
  let previous: Promise<unknown> = Promise.resolve();
  const inTurn = (run: () => Promise<ToolResult>): Promise<ToolResult> => {
    const result = previous.then(run);
    previous = result.catch(() => undefined);
    return result;
  };
  for (const browserTool of tools) {
    toolSet[browserTool.name] = tool<unknown, ToolResult>({
      description: browserTool.description,
      inputSchema: jsonSchema<unknown>(browserTool.inputSchema as JSONSchema7),
      execute: (input, options) =>
        inTurn(() => runner.run(browserTool.name, input, options.abortSignal === undefined ? {} : { signal: options.abortSignal })),
      toModelOutput: (options: unknown) => aiSdkModelOutput(options),
    });
  }
  return toolSet;
}
