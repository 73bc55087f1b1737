import OpenAI from "openai";
import type { ResponseCreateParamsNonStreaming, ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { openAIResponsesTools, toOpenAIResponsesOutput } from "../../src/openai.js";
import { allStrings, createFakeTools, jpegBase64, pngBase64, scriptedFetch } from "../helpers/bridges-tools.js";

function functionCall(callId: string, name: string, args: string): OpenAI.Responses.ResponseFunctionToolCall {
  return { type: "function_call", id: `fc_${callId}`, call_id: callId, name, arguments: args, status: "completed" };
}

function response(id: string, output: OpenAI.Responses.ResponseOutputItem[]): object {
  return {
    id,
    object: "response",
    created_at: 1,
    status: "completed",
    model: "gpt-test",
    output,
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    parallel_tool_calls: true,
    temperature: 1,
    tool_choice: "auto",
    tools: [],
    top_p: 1,
  };
}

describe("OpenAI Responses bridge", () => {
  it("declares function tools with an explicit strict: false unless the schema is strict-ready", () => {
    const { tools } = createFakeTools();
    const browser = openAIResponsesTools(tools);
    const request = { model: "gpt-test", input: "hi", tools: browser.definitions } satisfies ResponseCreateParamsNonStreaming;
    const echo = request.tools.find((tool) => tool.name === "station_browser_echo")!;
    const screenshot = request.tools.find((tool) => tool.name === "station_browser_screenshot")!;
    expect(echo).toEqual({ type: "function", name: "station_browser_echo", description: tools[0]!.description, parameters: expect.any(Object), strict: true });
    expect(screenshot.strict).toBe(false);
    expect(screenshot.parameters).not.toHaveProperty("$schema");
    expect(openAIResponsesTools(tools, { strict: false }).definitions.map((tool) => tool.strict)).toEqual(tools.map(() => false));
  });

  it("answers each function_call with a function_call_output: input_text then input_image data URLs; plain text without images", async () => {
    const { tools, seen } = createFakeTools();
    const browser = openAIResponsesTools(tools);
    // Output items that are also input items (all but computer_call_output and additional_tools), so they can be replayed.
    const output: Array<OpenAI.Responses.ResponseReasoningItem | OpenAI.Responses.ResponseFunctionToolCall | OpenAI.Responses.ResponseOutputMessage> = [
      { type: "reasoning", id: "rs_1", summary: [] },
      functionCall("call_a", "station_browser_screenshot", '{"session":"s1"}'),
      { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Looking.", annotations: [] }] },
      functionCall("call_b", "station_browser_echo", '{"text":"hi"}'),
      functionCall("call_c", "station_browser_two_images", "{}"),
      functionCall("call_d", "station_browser_click", "{not json"),
    ];
    const outputs = await browser.handleToolCalls(output);

    expect(outputs).toEqual([
      {
        type: "function_call_output",
        call_id: "call_a",
        output: [
          { type: "input_text", text: "Screenshot of s1 (1×1, png)." },
          { type: "input_image", image_url: `data:image/png;base64,${pngBase64}`, detail: "auto" },
        ],
      },
      { type: "function_call_output", call_id: "call_b", output: 'echo: {"text":"hi"}' },
      {
        type: "function_call_output",
        call_id: "call_c",
        output: [
          { type: "input_image", image_url: `data:image/png;base64,${pngBase64}`, detail: "auto" },
          { type: "input_image", image_url: `data:image/jpeg;base64,${jpegBase64}`, detail: "auto" },
        ],
      },
      { type: "function_call_output", call_id: "call_d", output: expect.stringMatching(/^Error: The arguments for "station_browser_click" are not valid JSON/) },
    ]);
    expect(seen.map((call) => call.tool)).toEqual(["station_browser_screenshot", "station_browser_echo", "station_browser_two_images"]);
    const texts = outputs.flatMap((item) => (typeof item.output === "string" ? [item.output] : item.output.flatMap((part) => (part.type === "input_text" ? [part.text] : []))));
    for (const text of texts) expect(text).not.toContain(pngBase64);

    // Both ways of sending them back type-check: after the response's own items, or with previous_response_id.
    const replay = { model: "gpt-test", input: [{ role: "user", content: "look" }, ...output, ...outputs] satisfies ResponseInputItem[] } satisfies ResponseCreateParamsNonStreaming;
    const chained = { model: "gpt-test", previous_response_id: "resp_1", input: outputs } satisfies ResponseCreateParamsNonStreaming;
    expect(replay.input).toHaveLength(11);
    expect(chained.input).toHaveLength(4);
  });

  it("marks failures with Error: (Responses has no error flag) and returns nothing when the model called no tool", async () => {
    expect(toOpenAIResponsesOutput("call_1", { text: "boom", images: [], isError: true })).toEqual({ type: "function_call_output", call_id: "call_1", output: "Error: boom" });
    expect(toOpenAIResponsesOutput("call_1", { text: "Error: already said", images: [], isError: true }).output).toBe("Error: already said");
    expect(toOpenAIResponsesOutput("call_1", { text: "", images: [] }).output).toBe("(no output)");
    const { tools } = createFakeTools();
    expect(await openAIResponsesTools(tools).handleToolCalls([{ type: "message" }])).toEqual([]);
  });

  it("runs a complete agent loop through the official SDK (scripted fetch) with previous_response_id", async () => {
    const { tools } = createFakeTools();
    const script = scriptedFetch([
      response("resp_1", [functionCall("call_1", "station_browser_screenshot", '{"session":"s1"}')]),
      response("resp_2", [{ type: "message", id: "msg_2", role: "assistant", status: "completed", content: [{ type: "output_text", text: "One pixel.", annotations: [] }] }]),
    ]);
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: "http://127.0.0.1:9/v1", fetch: script.fetch, maxRetries: 0 });
    const browser = openAIResponsesTools(tools);

    let result = await openai.responses.create({ model: "gpt-test", input: "What does the page show?", tools: browser.definitions });
    let outputs;
    while ((outputs = await browser.handleToolCalls(result.output)).length > 0) {
      result = await openai.responses.create({ model: "gpt-test", previous_response_id: result.id, input: outputs, tools: browser.definitions });
    }

    expect(result.output_text).toBe("One pixel.");
    expect(script.urls).toEqual(["http://127.0.0.1:9/v1/responses", "http://127.0.0.1:9/v1/responses"]);
    const second = script.bodies[1] as { previous_response_id: string; input: unknown[] };
    expect(second.previous_response_id).toBe("resp_1");
    expect(second.input).toEqual([
      {
        type: "function_call_output",
        call_id: "call_1",
        output: [
          { type: "input_text", text: "Screenshot of s1 (1×1, png)." },
          { type: "input_image", image_url: `data:image/png;base64,${pngBase64}`, detail: "auto" },
        ],
      },
    ]);
    expect(allStrings((script.bodies[0] as { tools: unknown }).tools).join(" ")).toContain("station_browser_screenshot");
  });
});
