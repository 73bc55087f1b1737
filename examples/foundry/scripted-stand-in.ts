/**
 * The scripted model behind real HTTP on 127.0.0.1, in the wire formats of
 * Chat Completions (`POST /v1/chat/completions`), Anthropic Messages
 * (`POST /v1/messages`) and Responses (`POST /v1/responses`), so protocol-only runs go through the same fetch
 * clients and bridges as a real model. Each request is read back into the
 * script's view, checking the image channel on the way: a screenshot must
 * arrive as an image part after its tool result (Chat: an `image_url` part
 * of a user message after the tool messages; Anthropic: an `image` block of
 * the `tool_result`; Responses: an `input_image` of the `function_call_output`), never as base64 inside text. A request that breaks a
 * rule gets a 400 saying which.
 */
import { ScriptCheckError, startJsonServer, type JsonAnswer } from "../support/scripted-model-server.js";
import { scriptedMove, ScriptedOutageError, type ScriptMove, type ScriptName, type ScriptStep, type ScriptView } from "./scripted-model.js";

type Json = Record<string, any>;

/** A running stand-in. */
export interface ScriptedStandIn {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  /** Every request body received, in order. */
  requests: Json[];
  close(): Promise<void>;
}

/** Base64 image data or a data URL inside text: the image went the wrong way. */
const base64InText = /data:image\/|iVBORw0KGgo|\/9j\/4/;

function checkText(text: string, where: string): string {
  if (base64InText.test(text)) throw new ScriptCheckError(`${where} carries image data inside its text`);
  return text;
}

function checkBudget(value: unknown): void {
  if (typeof value !== "number" || value < 1 || value > 600) throw new ScriptCheckError(`the request's output budget is ${JSON.stringify(value)}, not 1–600 tokens`);
}

function pngFromDataUrl(url: unknown, where: string): string {
  const match = typeof url === "string" ? /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(url) : null;
  if (match === null) throw new ScriptCheckError(`${where} is not a data:image/png;base64 URL`);
  return match[1]!;
}

/** Chat Completions: tool calls of assistant messages, their tool messages, and the images of the user message after them. */
function chatView(body: Json): ScriptView {
  checkBudget(body.max_tokens ?? body.max_completion_tokens);
  const messages: Json[] = Array.isArray(body.messages) ? body.messages : [];
  const task = messages.find((message) => message.role === "user" && typeof message.content === "string")?.content;
  if (typeof task !== "string") throw new ScriptCheckError("no user message with the task");
  const steps: ScriptStep[] = [];
  const byId = new Map<string, ScriptStep>();
  for (const [index, message] of messages.entries()) {
    if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) {
        const step: ScriptStep = { name: call.function?.name, input: JSON.parse(call.function?.arguments || "{}"), text: "", images: [] };
        steps.push(step);
        byId.set(call.id, step);
      }
    } else if (message.role === "tool") {
      if (typeof message.content !== "string") throw new ScriptCheckError(`tool message ${index} has no text content`);
      const step = byId.get(message.tool_call_id);
      if (step === undefined) throw new ScriptCheckError(`tool message ${index} answers an unknown call`);
      step.text = checkText(message.content, `tool message ${index}`);
    } else if (message.role === "user" && Array.isArray(message.content)) {
      // "1 image from tool call <id> (…):" labels the image parts after it.
      let owner: ScriptStep | undefined;
      for (const part of message.content as Json[]) {
        if (part.type === "text") {
          const id = /from tool call (\S+) /.exec(checkText(String(part.text), `user message ${index}`))?.[1];
          owner = id === undefined ? undefined : byId.get(id);
          if (owner !== undefined && owner.text === "") throw new ScriptCheckError(`user message ${index} carries images of a call before its tool message`);
        } else if (part.type === "image_url") {
          if (owner === undefined) throw new ScriptCheckError(`an image part of user message ${index} names no tool call`);
          owner.images.push(pngFromDataUrl(part.image_url?.url, `an image part of user message ${index}`));
        }
      }
    }
  }
  return { task, steps };
}

function chatAnswer(body: Json, move: ScriptMove, turn: number): Json {
  const message =
    "final" in move
      ? { role: "assistant", content: move.final }
      : {
          role: "assistant",
          content: null,
          tool_calls: [{ id: `call_${turn}`, type: "function", function: { name: move.call.name, arguments: JSON.stringify(move.call.input) } }],
        };
  return {
    id: `chatcmpl-scripted-${turn}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, message: { refusal: null, ...message }, finish_reason: "final" in move ? "stop" : "tool_calls", logprobs: null }],
    usage: { prompt_tokens: 0, completion_tokens: 20, total_tokens: 20 },
  };
}

/** Anthropic Messages: tool_use blocks of assistant messages and the tool_result blocks answering them. */
function anthropicView(body: Json): ScriptView {
  checkBudget(body.max_tokens);
  const messages: Json[] = Array.isArray(body.messages) ? body.messages : [];
  const task = messages[0]?.role === "user" && typeof messages[0].content === "string" ? messages[0].content : undefined;
  if (task === undefined) throw new ScriptCheckError("the first message is not the user's task");
  const steps: ScriptStep[] = [];
  const byId = new Map<string, ScriptStep>();
  for (const [index, message] of messages.entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Json[]) {
      if (message.role === "assistant" && block.type === "tool_use") {
        const step: ScriptStep = { name: block.name, input: block.input ?? {}, text: "", images: [] };
        steps.push(step);
        byId.set(block.id, step);
      } else if (message.role === "user" && block.type === "tool_result") {
        const step = byId.get(block.tool_use_id);
        if (step === undefined) throw new ScriptCheckError(`a tool_result of message ${index} answers an unknown tool use`);
        for (const part of block.content ?? []) {
          if (part.type === "text") step.text += checkText(String(part.text), `a tool_result of message ${index}`);
          else if (part.type === "image") {
            if (part.source?.type !== "base64" || part.source.media_type !== "image/png") throw new ScriptCheckError(`an image block of message ${index} is not base64 PNG`);
            step.images.push(String(part.source.data));
          }
        }
      } else if (block.type === "text") checkText(String(block.text), `message ${index}`);
    }
  }
  return { task, steps };
}

function anthropicAnswer(body: Json, move: ScriptMove, turn: number): Json {
  const content = "final" in move ? [{ type: "text", text: move.final }] : [{ type: "tool_use", id: `toolu_${turn}`, name: move.call.name, input: move.call.input }];
  return {
    id: `msg_scripted_${turn}`,
    type: "message",
    role: "assistant",
    model: body.model,
    content,
    stop_reason: "final" in move ? "end_turn" : "tool_use",
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 20 },
  };
}

/** Responses: function_call items and the function_call_output items answering them (text and input_image parts). */
function responsesView(body: Json): ScriptView {
  checkBudget(body.max_output_tokens);
  const items: Json[] = Array.isArray(body.input) ? body.input : [];
  const task = items[0]?.role === "user" && typeof items[0].content === "string" ? items[0].content : undefined;
  if (task === undefined) throw new ScriptCheckError("the first input item is not the user's task");
  const steps: ScriptStep[] = [];
  const byId = new Map<string, ScriptStep>();
  for (const [index, item] of items.entries()) {
    if (item.type === "function_call") {
      const step: ScriptStep = { name: item.name, input: JSON.parse(item.arguments || "{}"), text: "", images: [] };
      steps.push(step);
      byId.set(item.call_id, step);
    } else if (item.type === "function_call_output") {
      const step = byId.get(item.call_id);
      if (step === undefined) throw new ScriptCheckError(`input item ${index} answers an unknown call`);
      const parts: Json[] = typeof item.output === "string" ? [{ type: "input_text", text: item.output }] : (item.output ?? []);
      for (const part of parts) {
        if (part.type === "input_text") step.text += checkText(String(part.text), `input item ${index}`);
        else if (part.type === "input_image") step.images.push(pngFromDataUrl(part.image_url, `an input_image of input item ${index}`));
      }
    }
  }
  return { task, steps };
}

function responsesAnswer(body: Json, move: ScriptMove, turn: number): Json {
  const output =
    "final" in move
      ? [{ type: "message", id: `msg_${turn}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: move.final, annotations: [] }] }]
      : [{ type: "function_call", id: `fc_${turn}`, call_id: `call_${turn}`, name: move.call.name, arguments: JSON.stringify(move.call.input), status: "completed" }];
  return { id: `resp_scripted_${turn}`, object: "response", status: "completed", model: body.model, output, usage: { input_tokens: 0, output_tokens: 20, total_tokens: 20 } };
}

/** Starts the stand-in, playing `script` on both APIs. */
export async function startScriptedStandIn(script: ScriptName = "scenario"): Promise<ScriptedStandIn> {
  const requests: Json[] = [];
  const server = await startJsonServer((path, body): JsonAnswer => {
    const request = body as Json;
    requests.push(request);
    const turn = requests.length;
    const shapes = {
      "/v1/chat/completions": [chatView, chatAnswer],
      "/v1/messages": [anthropicView, anthropicAnswer],
      "/v1/responses": [responsesView, responsesAnswer],
    } as const;
    const shape = shapes[path as keyof typeof shapes];
    if (shape === undefined) return { status: 404, body: { error: { type: "not_found_error", message: `scripted model: no route ${path}` } } };
    try {
      return { status: 200, body: shape[1](request, scriptedMove(script, shape[0](request)), turn) };
    } catch (error) {
      if (error instanceof ScriptedOutageError) return { status: 500, body: { error: { type: "api_error", message: error.message } } };
      throw error;
    }
  });
  return { baseUrl: `${server.origin}/v1`, requests, close: server.close };
}
