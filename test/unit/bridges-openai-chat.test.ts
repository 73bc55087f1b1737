import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { openAIChatTools, type OpenAIChatImageMessage, type OpenAIChatToolMessage } from "../../src/openai.js";
import { isValidationError } from "../../src/errors.js";
import { allStrings, createFakeTools, jpegBase64, pngBase64, scriptedFetch } from "../helpers/bridges-tools.js";

type ChatParams = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;

function toolCall(id: string, name: string, args: string): OpenAI.Chat.ChatCompletionMessageFunctionToolCall {
  return { id, type: "function", function: { name, arguments: args } };
}

function completion(message: Partial<OpenAI.Chat.ChatCompletionMessage>, finishReason: "tool_calls" | "stop"): OpenAI.Chat.ChatCompletion {
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1,
    model: "gpt-test",
    choices: [{ index: 0, finish_reason: finishReason, logprobs: null, message: { role: "assistant", content: null, refusal: null, ...message } }],
  };
}

describe("OpenAI Chat Completions bridge", () => {
  it("declares function tools the SDK accepts: name, description, parameters without $schema, strict only when strict-ready", () => {
    const { tools } = createFakeTools();
    const browser = openAIChatTools(tools);
    const request = { model: "gpt-test", messages: [{ role: "user", content: "hi" }], tools: browser.definitions } satisfies ChatParams;

    expect(request.tools).toHaveLength(tools.length);
    const echo = request.tools.find((tool) => tool.function.name === "station_browser_echo")!;
    const screenshot = request.tools.find((tool) => tool.function.name === "station_browser_screenshot")!;
    expect(echo).toEqual({
      type: "function",
      function: { name: "station_browser_echo", description: tools[0]!.description, parameters: expect.any(Object), strict: true },
    });
    expect(screenshot.function.strict).toBe(false);
    for (const tool of request.tools) expect(tool.function.parameters).not.toHaveProperty("$schema");
    expect(screenshot.function.parameters).toMatchObject({ type: "object", required: ["session"], additionalProperties: false });
    expect(openAIChatTools(tools, { strict: false }).definitions.every((tool) => tool.function.strict === false)).toBe(true);
  });

  it("answers every call with a tool message, in order, then one user message with every image of the turn as data URLs", async () => {
    const { tools } = createFakeTools();
    const browser = openAIChatTools(tools);
    const messages = await browser.handleToolCalls([
      toolCall("call_a", "station_browser_screenshot", '{"session":"s1"}'),
      toolCall("call_b", "station_browser_echo", '{"text":"hello"}'),
      toolCall("call_c", "station_browser_two_images", '{"session":"s1"}'),
    ]);

    expect(messages.map((message) => message.role)).toEqual(["tool", "tool", "tool", "user"]);
    const [a, b, c] = messages as OpenAIChatToolMessage[];
    expect([a!.tool_call_id, b!.tool_call_id, c!.tool_call_id]).toEqual(["call_a", "call_b", "call_c"]);
    expect(a!.content).toBe("Screenshot of s1 (1×1, png).\n\n[1 image from this call follows in the next user message, labelled call_a.]");
    expect(b!.content).toBe('echo: {"text":"hello"}');
    expect(c!.content).toBe("[2 images from this call follow in the next user message, labelled call_c.]");

    const user = messages[3] as OpenAIChatImageMessage;
    expect(user.content).toEqual([
      { type: "text", text: "1 image from tool call call_a (station_browser_screenshot):" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${pngBase64}`, detail: "auto" } },
      { type: "text", text: "2 images from tool call call_c (station_browser_two_images):" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${pngBase64}`, detail: "auto" } },
      { type: "image_url", image_url: { url: `data:image/jpeg;base64,${jpegBase64}`, detail: "auto" } },
    ]);

    // Base64 only inside image parts: never in a tool message, never in a text part.
    const textStrings = [...messages.filter((message) => message.role === "tool").flatMap(allStrings), ...user.content.flatMap((part) => (part.type === "text" ? [part.text] : []))];
    for (const text of textStrings) {
      expect(text).not.toContain(pngBase64);
      expect(text).not.toContain(jpegBase64);
    }

    // The whole turn is a valid request to the SDK's types.
    const request = { model: "gpt-test", messages: [{ role: "user", content: "look" }, ...messages], tools: browser.definitions } satisfies ChatParams;
    expect(request.messages).toHaveLength(5);
  });

  it("sends no user message when no call returned images, and honours imageDetail", async () => {
    const { tools } = createFakeTools();
    const plain = await openAIChatTools(tools).handleToolCalls([toolCall("call_1", "station_browser_echo", '{"text":"x"}')]);
    expect(plain).toEqual([{ role: "tool", tool_call_id: "call_1", content: 'echo: {"text":"x"}' }]);
    expect(await openAIChatTools(tools).handleToolCalls(undefined)).toEqual([]);

    const low = await openAIChatTools(tools, { imageDetail: "low" }).handleToolCalls([toolCall("call_2", "station_browser_screenshot", "{}")]);
    expect((low[1] as OpenAIChatImageMessage).content[1]).toEqual({ type: "image_url", image_url: { url: `data:image/png;base64,${pngBase64}`, detail: "low" } });
  });

  it("turns malformed JSON, non-object arguments, unknown tools, custom calls, tool errors and throws into error tool messages", async () => {
    const { tools, seen } = createFakeTools();
    const browser = openAIChatTools(tools);
    const messages = (await browser.handleToolCalls([
      toolCall("call_1", "station_browser_echo", '{"text": "unterminated'),
      toolCall("call_2", "station_browser_echo", "[1,2]"),
      toolCall("call_3", "station_browser_nope", "{}"),
      { id: "call_4", type: "custom", custom: { name: "grammar", input: "x" } } as OpenAI.Chat.ChatCompletionMessageCustomToolCall,
      toolCall("call_5", "station_browser_click", '{"session":"s9"}'),
      toolCall("call_6", "station_browser_throws", ""),
    ])) as OpenAIChatToolMessage[];

    expect(messages.map((message) => message.tool_call_id)).toEqual(["call_1", "call_2", "call_3", "call_4", "call_5", "call_6"]);
    expect(messages[0]!.content).toMatch(/^Error: The arguments for "station_browser_echo" are not valid JSON \(.+\)\. Call the tool again with one JSON object/);
    expect(messages[1]!.content).toMatch(/must be a JSON object, not an array/);
    expect(messages[2]!.content).toMatch(/^Error: Unknown tool "station_browser_nope"\. The browser tools are: station_browser_echo, station_browser_screenshot/);
    expect(messages[3]!.content).toMatch(/"call_4" is a "custom" call; the browser tools are function tools/);
    expect(messages[4]!.content).toBe("Error: session: s9 is not open in this toolset. Open one with station_browser_open.");
    expect(messages[5]!.content).toBe("Error: station_browser_throws failed: tool bug");
    // Only the well-formed calls reached a tool; an empty arguments string is `{}`.
    expect(seen.map((call) => [call.tool, call.input])).toEqual([
      ["station_browser_click", { session: "s9" }],
      ["station_browser_throws", {}],
    ]);
  });

  it("on cancellation answers every call: the running one sees the abort, the rest are not run", async () => {
    const { tools, seen, waitStarted } = createFakeTools();
    const controller = new AbortController();
    const pending = openAIChatTools(tools).handleToolCalls(
      [toolCall("call_1", "station_browser_wait", "{}"), toolCall("call_2", "station_browser_echo", '{"text":"late"}')],
      { signal: controller.signal },
    );
    const signal = await waitStarted;
    controller.abort();
    const messages = (await pending) as OpenAIChatToolMessage[];
    expect(signal.aborted).toBe(true);
    expect(messages).toEqual([
      { role: "tool", tool_call_id: "call_1", content: "Error: the wait was cancelled." },
      { role: "tool", tool_call_id: "call_2", content: expect.stringMatching(/^Error: station_browser_echo was not run: the agent loop cancelled/) },
    ]);
    expect(seen.map((call) => call.tool)).toEqual(["station_browser_wait"]);
  });

  it("refuses bad or duplicate tool names when the toolset is made", () => {
    const { tools } = createFakeTools();
    const bad = { ...tools[0]!, name: "station browser echo" };
    expect(() => openAIChatTools([bad])).toThrow(/tools\[0\]\.name: "station browser echo" is not a valid OpenAI tool name/);
    expect(() => openAIChatTools([tools[0]!, tools[0]!])).toThrow(/tools\[1\]\.name: "station_browser_echo" appears twice/);
    try {
      openAIChatTools([{ ...tools[0]!, name: "x".repeat(65) }]);
      expect.unreachable();
    } catch (error) {
      expect(isValidationError(error)).toBe(true);
    }
  });

  it("runs a complete agent loop through the official SDK (scripted fetch): the SDK's tool calls in, the next request carries tool messages then images", async () => {
    const { tools } = createFakeTools();
    const script = scriptedFetch([
      completion(
        {
          tool_calls: [toolCall("call_1", "station_browser_screenshot", '{"session":"s1"}'), toolCall("call_2", "station_browser_echo", '{"text":"hi"}')],
        },
        "tool_calls",
      ),
      completion({ content: "The page shows a single pixel." }, "stop"),
    ]);
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: "http://127.0.0.1:9/v1", fetch: script.fetch, maxRetries: 0 });
    const browser = openAIChatTools(tools);

    const messages: ChatMessage[] = [{ role: "user", content: "What does the page show?" }];
    let answer: string | null = null;
    for (let step = 0; step < 5; step++) {
      const response = await openai.chat.completions.create({ model: "gpt-test", messages, tools: browser.definitions });
      const message = response.choices[0]!.message;
      messages.push(message);
      if (!message.tool_calls?.length) {
        answer = message.content;
        break;
      }
      messages.push(...(await browser.handleToolCalls(message.tool_calls)));
    }

    expect(answer).toBe("The page shows a single pixel.");
    expect(script.urls).toEqual(["http://127.0.0.1:9/v1/chat/completions", "http://127.0.0.1:9/v1/chat/completions"]);
    const second = script.bodies[1] as { messages: Array<{ role: string; tool_call_id?: string; content: unknown }>; tools: unknown[] };
    expect(second.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "user"]);
    expect(second.messages.slice(2, 4).map((message) => message.tool_call_id)).toEqual(["call_1", "call_2"]);
    expect(second.messages[4]!.content).toEqual([
      { type: "text", text: "1 image from tool call call_1 (station_browser_screenshot):" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${pngBase64}`, detail: "auto" } },
    ]);
    expect(second.tools).toEqual(browser.definitions);
  });
});

describe("malformed tool calls from a server", () => {
  it("never throws: a call without `type` still runs, a null entry or a missing list is skipped", async () => {
    const { tools } = createFakeTools();
    const browser = openAIChatTools(tools);
    const untyped = { id: "call_x", function: { name: "station_browser_echo", arguments: '{"text":"hi"}' } } as never;
    const messages = await browser.handleToolCalls([untyped, null as never]);
    expect(messages).toEqual([{ role: "tool", tool_call_id: "call_x", content: 'echo: {"text":"hi"}' }]);
    await expect(browser.handleToolCalls(undefined)).resolves.toEqual([]);
    const noFunction = await browser.handleToolCalls([{ id: "call_y", type: "custom" } as never]);
    expect(noFunction).toEqual([{ role: "tool", tool_call_id: "call_y", content: expect.stringMatching(/^Error: Tool call "call_y" is a "custom" call/) }]);
  });
});
