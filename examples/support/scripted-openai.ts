/**
 * A scripted stand-in for the OpenAI API on 127.0.0.1, so that the OpenAI
 * examples run without a key. It answers `POST /v1/chat/completions` and
 * `POST /v1/responses` in their wire format with a fixed script:
 *
 * 1. call `station_browser_open` on the URL of the task, then `station_browser_screenshot`;
 * 2. check that the page title came back in the open call's result and that the
 *    screenshot came back in that API's image channel, and answer with a final
 *    text saying so.
 *
 * A request without what the script checks gets a 400, which the SDK throws.
 */
import { describeImage, firstUrl, ScriptCheckError, scriptedFinalText, startJsonServer, type JsonAnswer } from "./scripted-model-server.js";

/** A running stand-in; give `baseURL` to the `OpenAI` client. */
export interface ScriptedOpenAI {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string;
  close(): Promise<void>;
}

type Json = Record<string, any>;

const openCall = { id: "call_open", name: "station_browser_open" };
const screenshotCall = { id: "call_screenshot", name: "station_browser_screenshot" };

function checkDeclared(names: unknown[]): void {
  for (const call of [openCall, screenshotCall]) {
    if (!names.includes(call.name)) throw new ScriptCheckError(`the request does not declare the tool ${call.name}`);
  }
}

/** The text of a content that is a string or a list of text parts. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part: Json) => (typeof part.text === "string" ? part.text : "")).join("\n");
  return "";
}

function checkTitle(text: string, pageTitle: string): void {
  if (!text.includes(pageTitle)) throw new ScriptCheckError(`the result of station_browser_open does not name the page title "${pageTitle}"`);
}

function imageFromDataUrl(url: unknown): string {
  const match = typeof url === "string" ? /^data:(image\/(?:png|jpeg));base64,(.+)$/.exec(url) : null;
  if (match === null) throw new ScriptCheckError("the screenshot is not a data:image/png or data:image/jpeg base64 URL");
  return `${match[1]}, ${describeImage(match[2]!)}`;
}

function chatCompletion(body: Json, pageTitle: string): Json {
  checkDeclared((body.tools ?? []).map((tool: Json) => tool.function?.name));
  const messages: Json[] = body.messages ?? [];
  let lastTool = -1;
  messages.forEach((message, index) => {
    if (message.role === "tool") lastTool = index;
  });
  const reply = (message: Json, finishReason: string): Json => ({
    id: `chatcmpl-scripted-${messages.length}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, message: { refusal: null, ...message }, finish_reason: finishReason, logprobs: null }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  });
  if (lastTool === -1) {
    const url = firstUrl(contentText(messages.find((message) => message.role === "user")?.content));
    return reply(
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: openCall.id, type: "function", function: { name: openCall.name, arguments: JSON.stringify({ url }) } },
          { id: screenshotCall.id, type: "function", function: { name: screenshotCall.name, arguments: "{}" } },
        ],
      },
      "tool_calls",
    );
  }
  const opened = messages.find((message) => message.role === "tool" && message.tool_call_id === openCall.id);
  checkTitle(contentText(opened?.content), pageTitle);
  // A tool message holds text only: the image must come in a user message after the turn's tool messages.
  const image = messages
    .slice(lastTool + 1)
    .filter((message) => message.role === "user" && Array.isArray(message.content))
    .flatMap((message) => message.content as Json[])
    .find((part) => part.type === "image_url");
  if (image === undefined) throw new ScriptCheckError("no image_url part in a user message after the tool messages");
  const described = imageFromDataUrl(image.image_url?.url);
  return reply({ role: "assistant", content: scriptedFinalText(pageTitle, `an image_url data URL in a user message (${described})`) }, "stop");
}

function response(body: Json, pageTitle: string): Json {
  checkDeclared((body.tools ?? []).map((tool: Json) => tool.name));
  const reply = (id: string, output: Json[]): Json => ({
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "completed",
    model: body.model,
    output,
    usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
  });
  if (body.previous_response_id === undefined) {
    const url = firstUrl(typeof body.input === "string" ? body.input : JSON.stringify(body.input));
    return reply("resp_scripted_1", [
      { type: "function_call", id: "fc_open", call_id: openCall.id, name: openCall.name, arguments: JSON.stringify({ url }), status: "completed" },
      { type: "function_call", id: "fc_screenshot", call_id: screenshotCall.id, name: screenshotCall.name, arguments: "{}", status: "completed" },
    ]);
  }
  if (body.previous_response_id !== "resp_scripted_1") throw new ScriptCheckError(`unknown previous_response_id ${JSON.stringify(body.previous_response_id)}`);
  const outputs: Json[] = Array.isArray(body.input) ? body.input.filter((item: Json) => item.type === "function_call_output") : [];
  const output = (callId: string) => outputs.find((item) => item.call_id === callId)?.output;
  checkTitle(contentText(output(openCall.id)), pageTitle);
  const shot = output(screenshotCall.id);
  const image = Array.isArray(shot) ? shot.find((part: Json) => part.type === "input_image") : undefined;
  if (image === undefined) throw new ScriptCheckError("no input_image in the function_call_output of station_browser_screenshot");
  const described = imageFromDataUrl(image.image_url);
  return reply("resp_scripted_2", [
    {
      type: "message",
      id: "msg_scripted",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: scriptedFinalText(pageTitle, `an input_image inside the function_call_output (${described})`), annotations: [] }],
    },
  ]);
}

/** Starts the stand-in; it expects `pageTitle` in the result of opening the task's URL. */
export async function startScriptedOpenAI(pageTitle: string): Promise<ScriptedOpenAI> {
  const server = await startJsonServer((path, body): JsonAnswer => {
    if (path === "/v1/chat/completions") return { status: 200, body: chatCompletion(body as Json, pageTitle) };
    if (path === "/v1/responses") return { status: 200, body: response(body as Json, pageTitle) };
    return { status: 404, body: { error: { type: "invalid_request_error", message: `scripted model: no route ${path}` } } };
  });
  return { baseURL: `${server.origin}/v1`, close: server.close };
}
