import { generateText, stepCountIs, type ModelMessage, type ToolSet } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { toAiSdkToolOutput, toAiSdkTools } from "../../src/ai-sdk.js";
import type { AgentTool, ToolResult } from "../../src/agent-tools/types.js";
import { allStrings, createFakeTools, jpegBase64, looseSchema, pngBase64 } from "../helpers/bridges-tools.js";

/** A mock model whose first turn makes `calls` and whose second answers `text`. */
function toolCallsThenText(calls: { type: "tool-call"; toolCallId: string; toolName: string; input: string }[], text: string): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: [
      { content: calls, finishReason: { unified: "tool-calls", raw: "tool_use" }, usage, warnings: [] },
      { content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "end_turn" }, usage, warnings: [] },
    ],
  });
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const executionOptions = { toolCallId: "call_1", messages: [] as ModelMessage[] };

describe("Vercel AI SDK bridge", () => {
  it("makes one tool per browser tool, keyed by name, with the JSON Schema and description as given", async () => {
    const { tools } = createFakeTools();
    const toolSet = toAiSdkTools(tools) satisfies ToolSet;
    expect(Object.keys(toolSet)).toEqual(tools.map((tool) => tool.name));
    const screenshot = toolSet.station_browser_screenshot!;
    expect(screenshot.description).toBe(tools[1]!.description);
    // jsonSchema(...) keeps the schema it wraps.
    const schema = screenshot.inputSchema as { jsonSchema: unknown };
    expect(await schema.jsonSchema).toEqual(tools[1]!.inputSchema);
  });

  it("execute passes input and abortSignal to the tool; toModelOutput sends image-data parts (v6/v7 call shape)", async () => {
    const { tools, seen } = createFakeTools();
    const screenshot = toAiSdkTools(tools).station_browser_screenshot!;
    const controller = new AbortController();
    const output = (await screenshot.execute!({ session: "s1" }, { ...executionOptions, abortSignal: controller.signal })) as ToolResult;
    expect(seen).toEqual([{ tool: "station_browser_screenshot", input: { session: "s1" }, signal: controller.signal }]);
    expect(output.images).toHaveLength(1);

    const modelOutput = await screenshot.toModelOutput!({ toolCallId: "call_1", input: { session: "s1" }, output });
    expect(modelOutput).toEqual({
      type: "content",
      value: [
        { type: "text", text: "Screenshot of s1 (1×1, png)." },
        { type: "image-data", data: pngBase64, mediaType: "image/png" },
      ],
    });
  });

  it("accepts the AI SDK 5 call shape (the output itself) and answers with media parts", async () => {
    const { tools } = createFakeTools();
    const twoImages = toAiSdkTools(tools).station_browser_two_images!;
    const output = (await twoImages.execute!({}, executionOptions)) as ToolResult;
    const toModelOutput = twoImages.toModelOutput as unknown as (output: unknown) => unknown;
    expect(await toModelOutput(output)).toEqual({
      type: "content",
      value: [
        { type: "media", data: pngBase64, mediaType: "image/png" },
        { type: "media", data: jpegBase64, mediaType: "image/jpeg" },
      ],
    });
  });

  it("sends text results as text and failures as error-text", () => {
    expect(toAiSdkToolOutput({ text: "ok", images: [] })).toEqual({ type: "text", value: "ok" });
    expect(toAiSdkToolOutput({ text: "session: s9 is not open", images: [], isError: true })).toEqual({ type: "error-text", value: "session: s9 is not open" });
  });

  it("a throwing tool still yields a result, never an exception", async () => {
    const { tools } = createFakeTools();
    const output = (await toAiSdkTools(tools).station_browser_throws!.execute!({}, executionOptions)) as ToolResult;
    expect(output).toEqual({ text: "station_browser_throws failed: tool bug", images: [], isError: true });
  });

  it("runs inside generateText with a mock model: the SDK validates the tools and passes the image part to the model", async () => {
    const { tools, seen } = createFakeTools();
    const model = toolCallsThenText(
      [
        { type: "tool-call", toolCallId: "call_1", toolName: "station_browser_screenshot", input: '{"session":"s1"}' },
        { type: "tool-call", toolCallId: "call_2", toolName: "station_browser_click", input: '{"session":"s9"}' },
      ],
      "One pixel.",
    );

    const result = await generateText({ model, tools: toAiSdkTools(tools), stopWhen: stepCountIs(5), prompt: "What does the page show?" });

    expect(result.text).toBe("One pixel.");
    expect(seen.map((call) => [call.tool, call.input])).toEqual([
      ["station_browser_screenshot", { session: "s1" }],
      ["station_browser_click", { session: "s9" }],
    ]);

    // What the model was given: the tools as function tools with our JSON Schema…
    const first = model.doGenerateCalls[0]!;
    const declared = first.tools!.find((tool) => tool.name === "station_browser_screenshot");
    expect(declared).toMatchObject({ type: "function", name: "station_browser_screenshot", inputSchema: { type: "object", required: ["session"] } });

    // …and, on the next step, tool results whose image travels as an image part, not as text.
    const second = model.doGenerateCalls[1]!;
    const toolMessage = second.prompt.find((message) => message.role === "tool")!;
    expect(toolMessage.content).toEqual([
      {
        type: "tool-result",
        toolCallId: "call_1",
        toolName: "station_browser_screenshot",
        output: {
          type: "content",
          value: [
            { type: "text", text: "Screenshot of s1 (1×1, png)." },
            { type: "image-data", data: pngBase64, mediaType: "image/png" },
          ],
        },
      },
      {
        type: "tool-result",
        toolCallId: "call_2",
        toolName: "station_browser_click",
        output: { type: "error-text", value: "session: s9 is not open in this toolset. Open one with station_browser_open." },
      },
    ]);
    const texts = allStrings(second.prompt).filter((text) => text !== pngBase64);
    for (const text of texts) expect(text).not.toContain(pngBase64);
  });

  it("runs the tool calls of one step one after another, in the model's order, though the SDK starts them together", async () => {
    const events: string[] = [];
    const recordingTool = (name: string, run: () => Promise<void>): AgentTool => ({
      name,
      description: `${name}. A hand-made test tool.`,
      inputSchema: looseSchema,
      annotations: { title: name, readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      async execute() {
        events.push(`${name} start`);
        await run();
        events.push(`${name} end`);
        return { text: `${name} done`, images: [] };
      },
    });
    // The first call yields to the event loop before it ends: a second call started alongside it would start first.
    const tools = [
      recordingTool("station_browser_open", () => new Promise<void>((resolve) => setImmediate(resolve))),
      recordingTool("station_browser_screenshot", async () => undefined),
    ];
    const model = toolCallsThenText(
      [
        { type: "tool-call", toolCallId: "call_1", toolName: "station_browser_open", input: '{"session":"s1"}' },
        { type: "tool-call", toolCallId: "call_2", toolName: "station_browser_screenshot", input: '{"session":"s1"}' },
      ],
      "Done.",
    );

    await generateText({ model, tools: toAiSdkTools(tools), stopWhen: stepCountIs(5), prompt: "Open, then look." });

    expect(events).toEqual(["station_browser_open start", "station_browser_open end", "station_browser_screenshot start", "station_browser_screenshot end"]);
  });
});
