/**
 * A scripted AI SDK language model (the SDK's own `MockLanguageModelV3` from
 * `ai/test`), so that the AI SDK example runs without a key. Turn 1 calls
 * `station_browser_open` on the URL of the prompt, then
 * `station_browser_screenshot`; turn 2 checks that the page title came back in
 * the open call's tool result and the screenshot as an `image-data` part of
 * the screenshot's tool result (what providers turn into their image
 * channel), and answers with a text saying so. A missing piece throws, which
 * `generateText` raises.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describeImage, firstUrl, ScriptCheckError, scriptedFinalText } from "./scripted-model-server.js";

type Json = Record<string, any>;

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

function answer(options: LanguageModelV3CallOptions, pageTitle: string): LanguageModelV3GenerateResult {
  const declared = (options.tools ?? []).map((tool) => tool.name);
  for (const name of ["station_browser_open", "station_browser_screenshot"]) {
    if (!declared.includes(name)) throw new ScriptCheckError(`the call does not declare the tool ${name}`);
  }
  const results = options.prompt.flatMap((message) => (message.role === "tool" ? (message.content as Json[]) : [])).filter((part) => part.type === "tool-result");
  if (results.length === 0) {
    const prompt = options.prompt.flatMap((message) => (message.role === "user" ? (message.content as Json[]) : [])).map((part) => part.text ?? "").join("\n");
    return {
      content: [
        { type: "tool-call", toolCallId: "call_open", toolName: "station_browser_open", input: JSON.stringify({ url: firstUrl(prompt) }) },
        { type: "tool-call", toolCallId: "call_screenshot", toolName: "station_browser_screenshot", input: "{}" },
      ],
      finishReason: { unified: "tool-calls", raw: undefined },
      usage,
      warnings: [],
    };
  }
  const output = (id: string): Json | undefined => results.find((part) => part.toolCallId === id)?.output;
  const opened = output("call_open");
  const openText = opened?.type === "text" ? String(opened.value) : JSON.stringify(opened?.value ?? "");
  if (!openText.includes(pageTitle)) throw new ScriptCheckError(`the tool result of station_browser_open does not name the page title "${pageTitle}"`);
  const shot = output("call_screenshot");
  const image = shot?.type === "content" ? (shot.value as Json[]).find((part) => part.type === "image-data") : undefined;
  if (image === undefined) throw new ScriptCheckError("no image-data part in the tool result of station_browser_screenshot");
  const channel = `an image-data part of the tool result (${image.mediaType}, ${describeImage(image.data)})`;
  return { content: [{ type: "text", text: scriptedFinalText(pageTitle, channel) }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
}

/** A `MockLanguageModelV3` that plays the script; it expects `pageTitle` in the result of opening the prompt's URL. */
export function scriptedLanguageModel(pageTitle: string): MockLanguageModelV3 {
  return new MockLanguageModelV3({ modelId: "scripted-model", doGenerate: async (options) => answer(options, pageTitle) });
}
