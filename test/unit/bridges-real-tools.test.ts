import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import type { ResponseCreateParamsNonStreaming } from "openai/resources/responses/responses";
import { afterAll, describe, expect, it } from "vitest";
import { anthropicTools } from "../../src/anthropic.js";
import { openAIChatTools, openAIResponsesTools, type OpenAIChatToolMessage } from "../../src/openai.js";
import { createBrowserAgentTools } from "../../src/agent-tools/index.js";
import { toAiSdkTools } from "../../src/ai-sdk.js";
import { createMcpServer } from "../../src/mcp.js";
import { BrowserSessionManager } from "../../src/lifecycle/manager.js";
import type { BrowserAdapter } from "../../src/protocol/adapter.js";

/**
 * The real tool definitions through every bridge. No browser: the adapter
 * refuses to open, and only input validation (which runs before the backend)
 * is exercised.
 */
const adapter = {
  open: () => Promise.reject(new Error("no browser in this test")),
} as unknown as BrowserAdapter;
const toolset = createBrowserAgentTools({ client: new BrowserSessionManager(adapter, 1), maxSessions: 1, groups: ["coordinates", "diagnostics", "downloads"] });
afterAll(async () => {
  await toolset.close();
});

describe("bridges with the real browser tools", () => {
  it("every bridge accepts every tool (names, schemas) and the declarations match the SDK types", () => {
    const chat = openAIChatTools(toolset.tools);
    const responses = openAIResponsesTools(toolset.tools);
    const anthropic = anthropicTools(toolset.tools);
    expect(Object.keys(toAiSdkTools(toolset.tools))).toEqual(toolset.tools.map((tool) => tool.name));
    expect(() => createMcpServer(toolset.tools)).not.toThrow();

    const chatRequest = { model: "m", messages: [], tools: chat.definitions } satisfies OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
    const responsesRequest = { model: "m", input: "x", tools: responses.definitions } satisfies ResponseCreateParamsNonStreaming;
    const anthropicRequest = { model: "m", max_tokens: 1, messages: [], tools: anthropic.definitions } satisfies Anthropic.MessageCreateParamsNonStreaming;
    for (const request of [chatRequest.tools, responsesRequest.tools, anthropicRequest.tools]) expect(request).toHaveLength(toolset.tools.length);

    for (const tool of responses.definitions) {
      expect(tool.parameters.type).toBe("object");
      expect(JSON.stringify(tool.parameters)).not.toContain("$schema");
      // A tool with an optional field must not be declared strict (Responses would make the field required).
      const optional = Object.keys(tool.parameters.properties).some((key) => !(tool.parameters.required ?? []).includes(key));
      if (optional) expect(tool.strict).toBe(false);
    }
  });

  it("a real tool's validation error names the field in every bridge's error shape", async () => {
    const chat = (await openAIChatTools(toolset.tools).handleToolCalls([
      { id: "call_1", type: "function", function: { name: "station_browser_screenshot", arguments: '{"session":5}' } },
    ])) as OpenAIChatToolMessage[];
    expect(chat).toHaveLength(1);
    expect(chat[0]!.content).toMatch(/input\.session/);

    const anthropic = await anthropicTools(toolset.tools).handleToolUses([{ type: "tool_use", id: "toolu_1", name: "station_browser_screenshot", input: { session: 5 } }]);
    expect(anthropic.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1", is_error: true });
    expect(anthropic.content[0]!.content[0]).toMatchObject({ type: "text", text: expect.stringMatching(/input\.session/) });
  });
});
