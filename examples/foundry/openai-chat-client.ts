/**
 * Any OpenAI-compatible Chat Completions endpoint (OpenRouter, OpenAI, a
 * local server) through fetch, with the project's own Chat bridge
 * (`openAIChatTools`): tool messages first, then one user message with the
 * turn's screenshots as `image_url` parts.
 */
import { type AgentTool } from "../../src/agent.js";
import { openAIChatTools, toOpenAIChatMessages, type OpenAIChatToolCall } from "../../src/openai.js";
import { interruptedResult, ModelError, postJson, recordingTools, type ModelClient } from "./model-client.js";
import { systemPrompt } from "./task.js";

type Json = Record<string, any>;

/** Options of {@link createOpenAIChatClient}. */
export interface OpenAIChatClientOptions {
  /** E.g. `https://openrouter.ai/api/v1` (no trailing `/chat/completions`). */
  baseUrl: string;
  apiKey: string;
  model: string;
  tools: readonly AgentTool[];
  fetch?: typeof fetch;
  /** Extra headers (OpenRouter reads `HTTP-Referer` and `X-Title`). */
  headers?: Record<string, string>;
}

/** A Chat Completions {@link ModelClient}. */
export function createOpenAIChatClient(options: OpenAIChatClientOptions): ModelClient<Json> {
  const recorder = recordingTools(options.tools);
  const browser = openAIChatTools(recorder.tools, { imageDetail: "high" });
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  const url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  // OpenAI's own API takes the output budget as max_completion_tokens; OpenRouter and most compatible servers as max_tokens.
  const budgetField = new URL(url).hostname === "api.openai.com" ? "max_completion_tokens" : "max_tokens";
  const pendingCalls = (message: Json | undefined): OpenAIChatToolCall[] => (message?.role === "assistant" && Array.isArray(message.tool_calls) ? message.tool_calls : []);

  return {
    api: "openai-chat",
    model: options.model,
    startConversation: (task) => [
      { role: "system", content: systemPrompt },
      { role: "user", content: task },
    ],
    async complete(messages, { maxOutputTokens, signal }) {
      const body = { model: options.model, messages, tools: browser.definitions, [budgetField]: maxOutputTokens };
      const completion = await postJson(fetcher, url, options.apiKey, { authorization: `Bearer ${options.apiKey}`, ...options.headers }, body, signal);
      const choice = completion?.choices?.[0];
      const message = choice?.message;
      if (message === undefined || message === null || typeof message !== "object") throw new ModelError("the completion has no choices[0].message");
      const calls = pendingCalls({ ...message, role: "assistant" });
      return {
        messages: [{ role: "assistant", content: message.content ?? null, ...(calls.length > 0 ? { tool_calls: calls } : {}) }],
        toolCalls: calls.length,
        text: typeof message.content === "string" ? message.content : "",
        stopReason: String(choice.finish_reason ?? "unknown"),
        ...(typeof completion.usage?.completion_tokens === "number" ? { outputTokens: completion.usage.completion_tokens } : {}),
      };
    },
    async runToolCalls(turn, signal, onCall) {
      const calls = pendingCalls(turn.messages[0]);
      const messages = await browser.handleToolCalls(calls, { signal: recorder.startBatch(signal, onCall) });
      const records = recorder.take();
      return { messages, records, refused: calls.length - records.length };
    },
    answerInterrupted(messages) {
      const last = messages.at(-1);
      const calls = pendingCalls(last);
      if (calls.length === 0) return undefined;
      return toOpenAIChatMessages(calls.map((call) => ({ callId: call.id, toolName: call.function?.name ?? "", result: interruptedResult })));
    },
  };
}
