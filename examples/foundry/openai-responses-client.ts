/**
 * The OpenAI Responses API through fetch, with the project's own Responses
 * bridge (`openAIResponsesTools`): `function_call_output` items carrying the
 * screenshots as `input_image` parts. Stateless (`store: false`): the whole
 * conversation is sent as `input` each time, so the loop's store holds it.
 */
import { type AgentTool } from "../../src/agent.js";
import { openAIResponsesTools, toOpenAIResponsesOutput, type OpenAIResponsesOutputItem } from "../../src/openai.js";
import { interruptedResult, ModelError, postJson, recordingTools, type ModelClient } from "./model-client.js";
import { systemPrompt } from "./task.js";

type Json = Record<string, any>;

/** Options of {@link createOpenAIResponsesClient}. */
export interface OpenAIResponsesClientOptions {
  /** E.g. `https://api.openai.com/v1` (no trailing `/responses`). */
  baseUrl: string;
  apiKey: string;
  model: string;
  tools: readonly AgentTool[];
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

const functionCalls = (items: readonly Json[]): OpenAIResponsesOutputItem[] => items.filter((item) => item?.type === "function_call") as OpenAIResponsesOutputItem[];

/** A Responses {@link ModelClient}. */
export function createOpenAIResponsesClient(options: OpenAIResponsesClientOptions): ModelClient<Json> {
  const recorder = recordingTools(options.tools);
  const browser = openAIResponsesTools(recorder.tools, { imageDetail: "high" });
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  const url = `${options.baseUrl.replace(/\/+$/, "")}/responses`;

  return {
    api: "openai-responses",
    model: options.model,
    startConversation: (task) => [{ role: "user", content: task }],
    async complete(messages, { maxOutputTokens, signal }) {
      const body = { model: options.model, instructions: systemPrompt, input: messages, tools: browser.definitions, max_output_tokens: maxOutputTokens, store: false };
      const response = await postJson(fetcher, url, options.apiKey, { authorization: `Bearer ${options.apiKey}`, ...options.headers }, body, signal);
      if (!Array.isArray(response?.output)) throw new ModelError("the response has no output array");
      // Reasoning items refer to server-side state that store: false does not keep: they are not sent back.
      const items = (response.output as Json[]).filter((item) => item?.type !== "reasoning");
      const text = items
        .filter((item) => item.type === "message")
        .flatMap((item) => (Array.isArray(item.content) ? item.content : []))
        .flatMap((part: Json) => (part?.type === "output_text" ? [String(part.text)] : []))
        .join("\n");
      return {
        messages: items,
        toolCalls: functionCalls(items).length,
        text,
        stopReason: String(response.status ?? "unknown"),
        ...(typeof response.usage?.output_tokens === "number" ? { outputTokens: response.usage.output_tokens } : {}),
      };
    },
    async runToolCalls(turn, signal, onCall) {
      const calls = functionCalls(turn.messages);
      const outputs = await browser.handleToolCalls(calls, { signal: recorder.startBatch(signal, onCall) });
      const records = recorder.take();
      return { messages: outputs, records, refused: calls.length - records.length };
    },
    answerInterrupted(messages) {
      // The calls after the last output: the items of the last model answer that no function_call_output answers.
      const answered = new Set(messages.filter((item) => item?.type === "function_call_output").map((item) => item.call_id));
      const pending = functionCalls(messages).filter((call) => !answered.has(call.call_id));
      if (pending.length === 0) return undefined;
      return pending.map((call) => toOpenAIResponsesOutput(String(call.call_id), interruptedResult));
    },
  };
}
