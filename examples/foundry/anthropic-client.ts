/**
 * The Anthropic Messages API through fetch, with the project's own Anthropic
 * bridge (`anthropicTools`): `tool_result` blocks carrying the screenshots as
 * `image` blocks.
 */
import { type AgentTool } from "../../src/agent.js";
import { anthropicTools, toAnthropicToolResultMessage, type AnthropicContentBlock } from "../../src/anthropic.js";
import { interruptedResult, ModelError, postJson, recordingTools, type ModelClient } from "./model-client.js";
import { systemPrompt } from "./task.js";

type Json = Record<string, any>;

/** Options of {@link createAnthropicClient}. */
export interface AnthropicClientOptions {
  /** Default `https://api.anthropic.com/v1`. */
  baseUrl?: string;
  apiKey: string;
  model: string;
  tools: readonly AgentTool[];
  fetch?: typeof fetch;
}

/** An Anthropic Messages {@link ModelClient}. */
export function createAnthropicClient(options: AnthropicClientOptions): ModelClient<Json> {
  const recorder = recordingTools(options.tools);
  const browser = anthropicTools(recorder.tools);
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  const url = `${(options.baseUrl ?? "https://api.anthropic.com/v1").replace(/\/+$/, "")}/messages`;
  const toolUses = (message: Json | undefined): AnthropicContentBlock[] =>
    message?.role === "assistant" && Array.isArray(message.content) ? message.content.filter((block: Json) => block?.type === "tool_use") : [];

  return {
    api: "anthropic",
    model: options.model,
    // The system prompt is a request field here, not a message.
    startConversation: (task) => [{ role: "user", content: task }],
    async complete(messages, { maxOutputTokens, signal }) {
      const body = { model: options.model, system: systemPrompt, max_tokens: maxOutputTokens, messages, tools: browser.definitions };
      const response = await postJson(fetcher, url, options.apiKey, { "x-api-key": options.apiKey, "anthropic-version": "2023-06-01" }, body, signal);
      if (!Array.isArray(response?.content)) throw new ModelError("the response has no content array");
      const message = { role: "assistant", content: response.content };
      return {
        messages: [message],
        toolCalls: toolUses(message).length,
        text: response.content.flatMap((block: Json) => (block?.type === "text" ? [String(block.text)] : [])).join("\n"),
        stopReason: String(response.stop_reason ?? "unknown"),
        ...(typeof response.usage?.output_tokens === "number" ? { outputTokens: response.usage.output_tokens } : {}),
      };
    },
    async runToolCalls(turn, signal, onCall) {
      const uses = toolUses(turn.messages[0]);
      const message = await browser.handleToolUses(uses, { signal: recorder.startBatch(signal, onCall) });
      const records = recorder.take();
      return { messages: [message], records, refused: uses.length - records.length };
    },
    answerInterrupted(messages) {
      const uses = toolUses(messages.at(-1));
      if (uses.length === 0) return undefined;
      return [toAnthropicToolResultMessage(uses.map((use) => ({ callId: String(use.id), toolName: String(use.name ?? ""), result: interruptedResult })))];
    },
  };
}
