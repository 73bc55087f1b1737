import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { anthropicTools, toAnthropicToolResult } from "../../src/anthropic.js";
import { allStrings, createFakeTools, jpegBase64, pngBase64, scriptedFetch } from "../helpers/bridges-tools.js";

function toolUse(id: string, name: string, input: unknown): Anthropic.ToolUseBlock {
  return { type: "tool_use", id, name, input, caller: { type: "direct" } };
}

function message(content: Anthropic.ContentBlock[], stopReason: Anthropic.StopReason): object {
  return {
    id: "msg_test",
    type: "message",
    role: "assistant",
    model: "claude-test",
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}

describe("Anthropic Messages bridge", () => {
  it("declares tools with input_schema (no $schema) that the SDK accepts", () => {
    const { tools } = createFakeTools();
    const browser = anthropicTools(tools);
    const request = { model: "claude-test", max_tokens: 1024, messages: [{ role: "user", content: "hi" }], tools: browser.definitions } satisfies Anthropic.MessageCreateParamsNonStreaming;
    expect(request.tools[1]).toEqual({
      name: "station_browser_screenshot",
      description: tools[1]!.description,
      input_schema: { type: "object", properties: tools[1]!.inputSchema.properties, required: ["session"], additionalProperties: false },
    });
  });

  it("answers the turn's tool uses with one user message of tool_result blocks, images as base64 image blocks, is_error only on failures", async () => {
    const { tools, seen } = createFakeTools();
    const browser = anthropicTools(tools);
    const content: Anthropic.ContentBlock[] = [
      { type: "text", text: "Let me look.", citations: null },
      toolUse("toolu_a", "station_browser_screenshot", { session: "s1" }),
      toolUse("toolu_b", "station_browser_click", { session: "s9" }),
      toolUse("toolu_c", "station_browser_two_images", {}),
      toolUse("toolu_d", "station_browser_echo", "not an object"),
    ];
    const reply = await browser.handleToolUses(content);

    expect(reply).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_a",
          content: [
            { type: "text", text: "Screenshot of s1 (1×1, png)." },
            { type: "image", source: { type: "base64", media_type: "image/png", data: pngBase64 } },
          ],
        },
        {
          type: "tool_result",
          tool_use_id: "toolu_b",
          is_error: true,
          content: [{ type: "text", text: "session: s9 is not open in this toolset. Open one with station_browser_open." }],
        },
        {
          type: "tool_result",
          tool_use_id: "toolu_c",
          content: [
            { type: "image", source: { type: "base64", media_type: "image/png", data: pngBase64 } },
            { type: "image", source: { type: "base64", media_type: "image/jpeg", data: jpegBase64 } },
          ],
        },
        {
          type: "tool_result",
          tool_use_id: "toolu_d",
          is_error: true,
          content: [{ type: "text", text: expect.stringMatching(/arguments for "station_browser_echo" must be a JSON object, not a string/) }],
        },
      ],
    });
    expect(reply.content[0]).not.toHaveProperty("is_error");
    expect(seen.map((call) => call.tool)).toEqual(["station_browser_screenshot", "station_browser_click", "station_browser_two_images"]);
    const texts = reply.content.flatMap((block) => block.content.flatMap((part) => (part.type === "text" ? [part.text] : [])));
    for (const text of texts) expect(text).not.toContain(pngBase64);

    // The assistant turn and the reply form a valid request.
    const request = {
      model: "claude-test",
      max_tokens: 1024,
      tools: browser.definitions,
      messages: [{ role: "user", content: "look" }, { role: "assistant", content }, reply],
    } satisfies Anthropic.MessageCreateParamsNonStreaming;
    expect(request.messages[2]).toBe(reply);
  });

  it("formats a failure without images as a text block with is_error, and never sends an empty text block", () => {
    expect(toAnthropicToolResult("toolu_1", { text: "", images: [], isError: true })).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_1",
      is_error: true,
      content: [{ type: "text", text: "(no output)" }],
    });
  });

  it("runs a complete agent loop through the official SDK (scripted fetch): tool_result first in the next user message", async () => {
    const { tools } = createFakeTools();
    const script = scriptedFetch([
      message([{ type: "text", text: "Taking a screenshot.", citations: null }, toolUse("toolu_1", "station_browser_screenshot", { session: "s1" })], "tool_use"),
      message([{ type: "text", text: "One pixel.", citations: null }], "end_turn"),
    ]);
    const anthropic = new Anthropic({ apiKey: "test-key", baseURL: "http://127.0.0.1:9", fetch: script.fetch, maxRetries: 0 });
    const browser = anthropicTools(tools);

    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "What does the page show?" }];
    let final: Anthropic.Message | undefined;
    for (let step = 0; step < 5; step++) {
      const response = await anthropic.messages.create({ model: "claude-test", max_tokens: 1024, messages, tools: browser.definitions });
      messages.push({ role: "assistant", content: response.content });
      if (response.stop_reason !== "tool_use") {
        final = response;
        break;
      }
      messages.push(await browser.handleToolUses(response.content));
    }

    expect(final?.content).toEqual([{ type: "text", text: "One pixel.", citations: null }]);
    expect(script.urls).toEqual(["http://127.0.0.1:9/v1/messages", "http://127.0.0.1:9/v1/messages"]);
    const second = script.bodies[1] as { messages: Array<{ role: string; content: unknown }> };
    expect(second.messages.map((entry) => entry.role)).toEqual(["user", "assistant", "user"]);
    expect(second.messages[2]!.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_1",
        content: [
          { type: "text", text: "Screenshot of s1 (1×1, png)." },
          { type: "image", source: { type: "base64", media_type: "image/png", data: pngBase64 } },
        ],
      },
    ]);
    expect(allStrings(script.bodies[0]).filter((text) => text.includes(pngBase64))).toEqual([]);
  });
});
