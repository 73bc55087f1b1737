import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { accessCodeLength, blockGap, blockSize, digitColours, readAccessCode, type RgbaImage } from "../../examples/foundry/access-code.js";
import { runAgent, type AgentEvent } from "../../examples/foundry/agent-loop.js";
import { createInMemoryConversationStore } from "../../examples/foundry/conversation-store.js";
import { chooseModel, DemoUsageError } from "../../examples/foundry/model-config.js";
import { createOpenAIChatClient } from "../../examples/foundry/openai-chat-client.js";
import { createFakeTools } from "../helpers/bridges-tools.js";

/**
 * The Foundry loop without a browser: the real Chat Completions client and
 * bridge over hand-made tools, with a fetch that answers from a script and
 * notes what each request carried and what the store held at that moment.
 */
type Json = Record<string, any>;
type Call = { name: string; arguments: Json };
type Reply = { toolCall: Call } | { toolCalls: Call[] } | { text: string } | { status: number; message?: string };

function scriptedFetch(replies: Reply[]) {
  const bodies: Json[] = [];
  const fetcher = (async (_url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body));
    bodies.push(body);
    const reply = replies.shift() ?? { text: "out of script" };
    if ("status" in reply) return new Response(JSON.stringify({ error: { message: reply.message ?? "overloaded" } }), { status: reply.status });
    const calls = "toolCalls" in reply ? reply.toolCalls : "toolCall" in reply ? [reply.toolCall] : [];
    const message =
      "text" in reply
        ? { role: "assistant", content: reply.text }
        : {
            role: "assistant",
            content: null,
            tool_calls: calls.map((call, index) => ({ id: `call_${bodies.length}_${index}`, type: "function", function: { name: call.name, arguments: JSON.stringify(call.arguments) } })),
          };
    return Response.json({ choices: [{ index: 0, message, finish_reason: "text" in reply ? "stop" : "tool_calls" }], usage: { completion_tokens: 7 } });
  }) as typeof fetch;
  return { fetcher, bodies };
}

function setup(replies: Reply[]) {
  const { tools, seen } = createFakeTools();
  const { fetcher, bodies } = scriptedFetch(replies);
  const model = createOpenAIChatClient({ baseUrl: "http://model.test/v1", apiKey: "key-not-shown", model: "m", tools, fetch: fetcher });
  const store = createInMemoryConversationStore();
  return { model, store, seen, bodies };
}

const echo = (text: string): Reply => ({ toolCall: { name: "station_browser_echo", arguments: { text } } });

describe("the Foundry agent loop", () => {
  it("commits the model's answer before its tools run, and the tool results before the next call; sends the output budget", async () => {
    const { model, store, bodies } = setup([echo("a"), { toolCall: { name: "station_browser_screenshot", arguments: { session: "s1" } } }, { text: "REFERENCE: X" }]);
    const storedWhenToolsRan: number[] = [];
    const wrapped = { ...model, runToolCalls: async (...args: Parameters<typeof model.runToolCalls>) => {
      storedWhenToolsRan.push((await store.load("c1"))!.messages.length);
      return model.runToolCalls(...args);
    } };
    const result = await runAgent({ model: wrapped, store, conversationId: "c1", task: "do it" });
    expect(result.ending).toEqual({ reason: "done", detail: "REFERENCE: X" });
    expect(storedWhenToolsRan).toEqual([3, 5]); // system, task, answer; then + tool result, + answer
    expect(bodies.map((body) => body.max_tokens)).toEqual([600, 600, 600]);
    // The screenshot's tool message, then the user message with its image: both in the store before the third call.
    const third = bodies[2]!.messages as Json[];
    expect(third.slice(-2).map((message) => message.role)).toEqual(["tool", "user"]);
    expect(third.at(-1)!.content[1].type).toBe("image_url");
    expect((await store.load("c1"))!).toMatchObject({ turns: 3, ending: { reason: "done" } });
  });

  it("stops at maxTurns with reason budget, counting the turns of a resumed conversation", async () => {
    const { model, store, bodies } = setup(Array.from({ length: 20 }, (_, index) => echo(String(index))));
    const events: AgentEvent[] = [];
    const first = await runAgent({ model, store, conversationId: "c1", task: "loop", budget: { maxTurns: 3 }, onEvent: (event) => events.push(event) });
    expect(first).toMatchObject({ ending: { reason: "budget" }, turns: 3 });
    expect(events.filter((event) => event.type === "turn").map((event) => event.type === "turn" && `${event.turn}/${event.maxTurns}`)).toEqual(["1/3", "2/3", "3/3"]);
    const resumed = await runAgent({ model, store, conversationId: "c1", budget: { maxTurns: 5 } });
    expect(resumed).toMatchObject({ ending: { reason: "budget" }, turns: 5 });
    expect(bodies).toHaveLength(5);
  });

  it("a failed tool ends the run with tool-error after its result is committed; the tool ran once", async () => {
    const { model, store, seen, bodies } = setup([{ toolCall: { name: "station_browser_click", arguments: { session: "s9" } } }, echo("never")]);
    const result = await runAgent({ model, store, conversationId: "c1", task: "click" });
    expect(result.ending).toEqual({ reason: "tool-error", detail: "station_browser_click: session: s9 is not open in this toolset. Open one with station_browser_open." });
    expect(seen.map((call) => call.tool)).toEqual(["station_browser_click"]);
    expect(bodies).toHaveLength(1);
    expect((await store.load("c1"))!.messages.at(-1)).toMatchObject({ role: "tool", content: expect.stringMatching(/^Error: session: s9/) });
  });

  it("a failed call stops its batch: the calls after it are answered as not run, never run", async () => {
    const click = { name: "station_browser_click", arguments: { session: "s9" } };
    const { model, store, seen, bodies } = setup([{ toolCalls: [click, { name: "station_browser_echo", arguments: { text: "after" } }] }]);
    const result = await runAgent({ model, store, conversationId: "c1", task: "two" });
    expect(result.ending.detail).toMatch(/^station_browser_click: /);
    expect(seen.map((call) => call.tool)).toEqual(["station_browser_click"]);
    expect(bodies).toHaveLength(1);
    const answers = (await store.load("c1"))!.messages.slice(-2) as Json[];
    expect(answers.map((message) => message.content)).toEqual([expect.stringMatching(/^Error: session: s9/), expect.stringMatching(/was not run: the agent loop cancelled this batch/)]);
  });

  it("never puts the API key in a model-error, even when the API quotes it", async () => {
    const { model, store } = setup([{ status: 401, message: "Incorrect API key provided: key-not-shown." }]);
    const result = await runAgent({ model, store, conversationId: "c1", task: "t" });
    expect(result.ending).toEqual({ reason: "model-error", detail: "/v1/chat/completions answered 401: Incorrect API key provided: [api key]." });
  });

  it("a call the bridge refuses (an unknown tool) is a tool-error too", async () => {
    const { model, store, seen } = setup([{ toolCall: { name: "station_browser_nope", arguments: {} } }]);
    const result = await runAgent({ model, store, conversationId: "c1", task: "x" });
    expect(result.ending.reason).toBe("tool-error");
    expect(result.ending.detail).toMatch(/1 tool call\(s\) refused by the bridge/);
    expect(seen).toEqual([]);
  });

  it("a failed model call ends with model-error (no retry); the conversation resumes from the store and finishes", async () => {
    const { model, store, bodies } = setup([echo("a"), { status: 503 }, { text: "REFERENCE: R-1" }]);
    const first = await runAgent({ model, store, conversationId: "c1", task: "t" });
    expect(first.ending).toEqual({ reason: "model-error", detail: "/v1/chat/completions answered 503: overloaded" });
    expect(bodies).toHaveLength(2);
    expect(JSON.stringify(first)).not.toContain("key-not-shown");
    const resumed = await runAgent({ model, store, conversationId: "c1" });
    expect(resumed).toMatchObject({ ending: { reason: "done" }, turns: 3, finalText: "REFERENCE: R-1" });
    expect(bodies[2]!.messages).toEqual(bodies[1]!.messages); // the same conversation, nothing lost or repeated
    // A finished conversation is not run again.
    expect(await runAgent({ model, store, conversationId: "c1" })).toMatchObject({ ending: { reason: "done" } });
    expect(bodies).toHaveLength(3);
  });

  it("on resume, tool calls committed without results are answered as unknown, never run again", async () => {
    const { model, store, seen, bodies } = setup([{ text: "done" }]);
    await store.append("c1", {
      api: "openai-chat",
      turns: 1,
      messages: [
        { role: "user", content: "t" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_9", type: "function", function: { name: "station_browser_echo", arguments: '{"text":"x"}' } }] },
      ],
    });
    const result = await runAgent({ model, store, conversationId: "c1" });
    expect(result.ending.reason).toBe("done");
    expect(seen).toEqual([]);
    expect(bodies[0]!.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_9", content: expect.stringMatching(/^Error: outcome: unknown — the agent stopped while this call ran/) });
  });

  it("refuses to resume a conversation with another API's client, or to start one without a task", async () => {
    const { model, store } = setup([]);
    await store.append("c1", { api: "anthropic", turns: 0, messages: [] });
    await expect(runAgent({ model, store, conversationId: "c1" })).rejects.toThrow("conversation c1 holds anthropic messages; resume it with a anthropic model client, not openai-chat");
    await expect(runAgent({ model, store, conversationId: "c2" })).rejects.toThrow("conversation c2 is not in the store, and no task was given to start it");
  });
});

describe("the access code decoder", () => {
  /** An image of `code` as the scenario draws it, at `scale`, with noise around it. */
  function drawn(code: string, scale: number): RgbaImage {
    const width = Math.ceil((accessCodeLength * (blockSize + blockGap) + 40) * scale);
    const height = Math.ceil((blockSize + 40) * scale);
    const data = new Uint8Array(width * height * 4).fill(255);
    [...code].forEach((digit, index) => {
      const left = Math.round((20 + index * (blockSize + blockGap)) * scale);
      for (let y = Math.round(20 * scale); y < Math.round((20 + blockSize) * scale); y++) {
        for (let x = left; x < left + Math.round(blockSize * scale); x++) data.set([...digitColours[Number(digit)]!, 255], (y * width + x) * 4);
      }
    });
    return { width, height, data };
  }

  it("reads the digits left to right at full and half scale, and nothing from a blank image", () => {
    expect(readAccessCode(drawn("907152", 1))).toBe("907152");
    expect(readAccessCode(drawn("000123", 0.5))).toBe("000123");
    expect(readAccessCode({ width: 4, height: 4, data: new Uint8Array(64).fill(255) })).toBeUndefined();
    expect(readAccessCode(drawn("12345", 1))).toBeUndefined(); // too few digits
  });
});

describe("the demo's model choice", () => {
  it("runs protocol-only without a key or with --protocol-only, on every API shape unless --api names one", () => {
    expect(chooseModel([], {})).toEqual({ kind: "protocol-only", apis: ["openai-chat", "anthropic", "openai-responses"], why: "no OPENROUTER_API_KEY or OPENAI_API_KEY is set" });
    expect(chooseModel(["--protocol-only", "--api", "anthropic"], { OPENROUTER_API_KEY: "k" })).toEqual({ kind: "protocol-only", apis: ["anthropic"], why: "--protocol-only" });
  });

  it("uses OpenRouter by default, OpenAI with OPENAI_API_KEY, and FOUNDRY_MODEL / FOUNDRY_BASE_URL / FOUNDRY_API", () => {
    expect(chooseModel([], { OPENROUTER_API_KEY: "or", OPENAI_API_KEY: "oa" })).toMatchObject({
      kind: "real", api: "openai-chat", keyName: "OPENROUTER_API_KEY", endpoint: { apiKey: "or", baseUrl: "https://openrouter.ai/api/v1" },
    });
    expect(chooseModel([], { OPENAI_API_KEY: "oa", FOUNDRY_MODEL: "m1", FOUNDRY_BASE_URL: "http://127.0.0.1:9/v1" })).toMatchObject({
      kind: "real", keyName: "OPENAI_API_KEY", endpoint: { apiKey: "oa", model: "m1", baseUrl: "http://127.0.0.1:9/v1" },
    });
    expect(chooseModel([], { OPENAI_API_KEY: "oa", FOUNDRY_API: "openai-responses" })).toMatchObject({ kind: "real", api: "openai-responses" });
    expect(chooseModel([], { FOUNDRY_API: "anthropic", ANTHROPIC_API_KEY: "an" })).toMatchObject({ kind: "real", api: "anthropic", keyName: "ANTHROPIC_API_KEY" });
    expect(chooseModel([], { FOUNDRY_API: "anthropic", OPENAI_API_KEY: "oa" })).toMatchObject({ kind: "protocol-only", why: "FOUNDRY_API=anthropic but no ANTHROPIC_API_KEY is set" });
  });

  it("refuses unknown arguments and API names, naming them", () => {
    expect(() => chooseModel(["--fast"], {})).toThrow(DemoUsageError);
    expect(() => chooseModel(["--fast"], {})).toThrow(/unknown argument "--fast"/);
    expect(() => chooseModel(["--api", "gemini"], {})).toThrow('--api: expected one of openai-chat, anthropic, openai-responses, got "gemini"');
    expect(() => chooseModel([], { OPENAI_API_KEY: "k", FOUNDRY_BASE_URL: "openrouter.ai" })).toThrow('FOUNDRY_BASE_URL: expected an http(s) URL such as https://openrouter.ai/api/v1, got "openrouter.ai"');
    expect(() => chooseModel([], { FOUNDRY_API: "x" })).toThrow('FOUNDRY_API: expected one of openai-chat, anthropic, openai-responses, got "x"');
  });
});

describe("the Foundry agent side is web standards only", () => {
  const neutral = ["agent-loop", "conversation-store", "model-client", "openai-chat-client", "anthropic-client", "openai-responses-client", "task"];
  const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

  it.each(neutral)("examples/foundry/%s.ts bundles for a neutral platform without Node or Playwright", async (name) => {
    const found: string[] = [];
    await build({
      entryPoints: [fileURLToPath(new URL(`../../examples/foundry/${name}.ts`, import.meta.url))],
      bundle: true,
      platform: "neutral",
      format: "esm",
      write: false,
      conditions: ["workerd", "worker", "browser"],
      mainFields: ["browser", "module", "main"],
      logLevel: "silent",
      plugins: [
        {
          name: "watch-imports",
          setup(builder) {
            builder.onResolve({ filter: /.*/ }, (args) => {
              if (!builtins.has(args.path) && !args.path.startsWith("node:") && !args.path.startsWith("playwright")) return undefined;
              found.push(`${args.path} (imported by ${args.importer})`);
              return { path: args.path, external: true };
            });
          },
        },
      ],
    });
    expect(found).toEqual([]);
  });
});
