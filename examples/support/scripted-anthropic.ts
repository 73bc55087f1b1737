/**
 * A scripted stand-in for the Anthropic Messages API on 127.0.0.1, so that
 * the Anthropic example runs without a key. It answers `POST /v1/messages` in
 * its wire format with a fixed script:
 *
 * 1. `tool_use` of `station_browser_open` on the URL of the task, then of `station_browser_screenshot`;
 * 2. check that the page title came back in the open call's `tool_result`
 *    and the screenshot as an `image` block inside the screenshot's
 *    `tool_result`, and end the turn with a text saying so.
 *
 * A request without what the script checks gets a 400, which the SDK throws.
 */
import { describeImage, firstUrl, ScriptCheckError, scriptedFinalText, startJsonServer } from "./scripted-model-server.js";

/** A running stand-in; give `baseURL` to the `Anthropic` client. */
export interface ScriptedAnthropic {
  /** `http://127.0.0.1:<port>` (the SDK adds `/v1/messages`). */
  baseURL: string;
  close(): Promise<void>;
}

type Json = Record<string, any>;

const openUse = { id: "toolu_open", name: "station_browser_open" };
const screenshotUse = { id: "toolu_screenshot", name: "station_browser_screenshot" };

function blocks(content: unknown): Json[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
}

function message(body: Json, pageTitle: string): Json {
  const declared = (body.tools ?? []).map((tool: Json) => tool.name);
  for (const use of [openUse, screenshotUse]) {
    if (!declared.includes(use.name)) throw new ScriptCheckError(`the request does not declare the tool ${use.name}`);
  }
  const messages: Json[] = body.messages ?? [];
  const reply = (content: Json[], stopReason: string): Json => ({
    id: `msg_scripted_${messages.length}`,
    type: "message",
    role: "assistant",
    model: body.model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  });
  const last = messages.at(-1);
  const results = blocks(last?.content).filter((block) => block.type === "tool_result");
  if (results.length === 0) {
    const url = firstUrl(blocks(messages[0]?.content).map((block) => block.text ?? "").join("\n"));
    return reply(
      [
        { type: "tool_use", id: openUse.id, name: openUse.name, input: { url } },
        { type: "tool_use", id: screenshotUse.id, name: screenshotUse.name, input: {} },
      ],
      "tool_use",
    );
  }
  if (blocks(last?.content)[0]?.type !== "tool_result") throw new ScriptCheckError("tool_result blocks must come first in the user message");
  const result = (id: string) => results.find((block) => block.tool_use_id === id);
  const openText = blocks(result(openUse.id)?.content).map((block) => block.text ?? "").join("\n");
  if (!openText.includes(pageTitle)) throw new ScriptCheckError(`the tool_result of station_browser_open does not name the page title "${pageTitle}"`);
  const image = blocks(result(screenshotUse.id)?.content).find((block) => block.type === "image");
  if (image?.source?.type !== "base64" || !["image/png", "image/jpeg"].includes(image.source.media_type)) {
    throw new ScriptCheckError("no base64 image block inside the tool_result of station_browser_screenshot");
  }
  const channel = `an image block inside the tool_result (${image.source.media_type}, ${describeImage(image.source.data)})`;
  return reply([{ type: "text", text: scriptedFinalText(pageTitle, channel) }], "end_turn");
}

/** Starts the stand-in; it expects `pageTitle` in the result of opening the task's URL. */
export async function startScriptedAnthropic(pageTitle: string): Promise<ScriptedAnthropic> {
  const server = await startJsonServer((path, body) =>
    path === "/v1/messages"
      ? { status: 200, body: message(body as Json, pageTitle) }
      : { status: 404, body: { type: "error", error: { type: "not_found_error", message: `scripted model: no route ${path}` } } },
  );
  return { baseURL: server.origin, close: server.close };
}
