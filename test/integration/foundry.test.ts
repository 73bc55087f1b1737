import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentTool } from "../../src/agent.js";
import { runFoundry, type FoundryApi, type FoundryReport, type FoundryRunOptions } from "../../examples/foundry/run-foundry.js";
import { chromiumBelow, spawnTsx, stillRunning, type ProcessInfo } from "../helpers/processes.js";

/**
 * The Foundry example end to end in protocol-only mode: real Chromium behind
 * an in-process worker on real HTTP, the agent tools, the project's bridges,
 * fetch clients, and the scripted model on 127.0.0.1 in each API's wire
 * format. The scripted model reads the access code from the screenshot
 * pixels of its own request, so every pass here went through the image path.
 */
type Json = Record<string, any>;
const root = fileURLToPath(new URL("../..", import.meta.url));
/** A bound that only ends a run that hangs; not a measure of speed. */
const runBoundMs = 120_000;

/** Runs the scenario and notes the Chromium processes seen while the agent held its browser. */
async function run(options: FoundryRunOptions): Promise<{ report: FoundryReport; chromium: ProcessInfo[] }> {
  let chromium: ProcessInfo[] = [];
  const report = await runFoundry({
    ...options,
    onEvent(event) {
      if (event.type === "tool" && chromium.length === 0) chromium = chromiumBelow(process.pid);
    },
  });
  return { report, chromium };
}

/** The browser was closed: no session left in the worker, and the Chromium seen during the run is gone. */
function expectBrowserClosed({ report, chromium }: { report: FoundryReport; chromium: ProcessInfo[] }): void {
  expect(chromium.length).toBeGreaterThan(0);
  expect(report.sessionsAtEnd).toBe(0);
  expect(chromium.filter(stillRunning)).toEqual([]);
}

/** Every text a request carried (message and tool-result text), to prove no image and no code went as text. */
function requestTexts(request: Json): string[] {
  const texts: string[] = [];
  const walk = (value: unknown, key?: string) => {
    if (typeof value === "string") {
      if (key === "text" || key === "content" || key === "output" || key === "arguments") texts.push(value);
    } else if (Array.isArray(value)) value.forEach((each) => walk(each, key));
    else if (value !== null && typeof value === "object") for (const [name, each] of Object.entries(value)) walk(each, name);
  };
  walk(request.messages ?? request.input);
  return texts;
}

function expectVerified(report: FoundryReport): void {
  expect(report.ending.reason).toBe("done");
  expect(report.issuedReferences).toHaveLength(1);
  expect(report.reference).toBe(report.issuedReferences[0]);
  expect(report.verified).toBe(true);
  expect(report.sessionsAfterAgent).toBe(0); // the agent closed its own browser
  expect(report.toolCalls.map((call) => call.name.replace("station_browser_", ""))).toEqual([
    "open", "screenshot", "observe", "click", "observe", "fill", "click", "observe", "close",
  ]);
  expect(report.screenshots).toHaveLength(1);
  // The code reached the model only as pixels: no request carried it as text before the model typed it into the form.
  const beforeFill = report.requests.slice(0, 6) as Json[];
  for (const request of beforeFill) for (const text of requestTexts(request)) expect(text.replace(/nonce="[0-9a-f]+"/g, "")).not.toContain(report.accessCode);
  for (const request of report.requests as Json[]) for (const text of requestTexts(request)) expect(text).not.toMatch(/data:image\/|iVBORw0KGgo/);
  expect((report.requests.at(-1) as Json)[report.api === "openai-responses" ? "max_output_tokens" : "max_tokens"]).toBe(600);
}

describe("the Foundry agent, protocol-only", () => {
  it("Chat Completions: reports the reference the server issued; the screenshot follows its tool result as an image_url part", async () => {
    const result = await run({ api: "openai-chat" });
    expectVerified(result.report);
    expectBrowserClosed(result);
    // The request after the screenshot: the screenshot's tool message, then a user message with the PNG as an image part.
    const request = result.report.requests[2] as Json;
    const messages: Json[] = request.messages;
    const call = messages.filter((message) => message.role === "assistant").at(-1)!.tool_calls[0];
    expect(call.function.name).toBe("station_browser_screenshot");
    const toolIndex = messages.findIndex((message) => message.role === "tool" && message.tool_call_id === call.id);
    expect(toolIndex).toBeGreaterThan(0);
    expect(messages[toolIndex]!.content).toMatch(/^screenshot of s1: \d+×\d+ image\/png/);
    const next = messages[toolIndex + 1]!;
    expect(next.role).toBe("user");
    expect(next.content.map((part: Json) => part.type)).toEqual(["text", "image_url"]);
    expect(next.content[1].image_url.url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(messages).toHaveLength(toolIndex + 2);
  }, runBoundMs);

  it("Anthropic Messages: the same scenario; the screenshot is an image block inside its tool_result", async () => {
    const result = await run({ api: "anthropic" });
    expectVerified(result.report);
    expectBrowserClosed(result);
    const messages: Json[] = (result.report.requests[2] as Json).messages;
    const toolResult = messages.at(-1)!;
    expect(toolResult.role).toBe("user");
    expect(toolResult.content[0].type).toBe("tool_result");
    expect(toolResult.content[0].content.map((part: Json) => part.type)).toEqual(["text", "image"]);
    expect(toolResult.content[0].content[1].source).toMatchObject({ type: "base64", media_type: "image/png", data: expect.stringMatching(/^iVBORw0KGgo/) });
  }, runBoundMs);

  it("OpenAI Responses: the same scenario; the screenshot is an input_image of its function_call_output", async () => {
    const result = await run({ api: "openai-responses" });
    expectVerified(result.report);
    expectBrowserClosed(result);
    const output = (result.report.requests[2] as Json).input.at(-1);
    expect(output.type).toBe("function_call_output");
    expect(output.output.map((part: Json) => part.type)).toEqual(["input_text", "input_image"]);
    expect(output.output[1].image_url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
  }, runBoundMs);

  it("a model that never finishes stops at 14 turns with reason budget, and its browser is closed", async () => {
    const result = await run({ api: "openai-chat", script: "never-finish" });
    expect(result.report.ending).toEqual({ reason: "budget", detail: "14 turns used without a final answer" });
    expect(result.report.turns).toBe(14);
    expect(result.report.requests).toHaveLength(14);
    expect(result.report.verified).toBe(false);
    expect(result.report.sessionsAfterAgent).toBe(1); // the agent left it open; the run closed it
    expectBrowserClosed(result);
  }, runBoundMs);

  it("a failing tool call ends the run with reason tool-error, without retrying it or asking the model again", async () => {
    const result = await run({ api: "anthropic", script: "tool-error" });
    expect(result.report.ending.reason).toBe("tool-error");
    expect(result.report.ending.detail).toMatch(/^station_browser_click: /);
    expect(result.report.toolCalls.map((call) => [call.name, call.result.isError === true])).toEqual([
      ["station_browser_open", false],
      ["station_browser_click", true],
    ]);
    expect(result.report.requests).toHaveLength(2);
    // The failed result was committed before the run ended.
    const last = result.report.transcript.at(-1) as Json;
    expect(last.content[0]).toMatchObject({ type: "tool_result", is_error: true });
    expectBrowserClosed(result);
  }, runBoundMs);

  it("a failing model API ends the run with reason model-error, and the browser it opened is closed", async () => {
    const result = await run({ api: "openai-chat", script: "model-error" });
    expect(result.report.ending.reason).toBe("model-error");
    expect(result.report.ending.detail).toMatch(/answered 500: scripted outage/);
    expect(result.report.requests).toHaveLength(2);
    expect(result.report.sessionsAfterAgent).toBe(1);
    expectBrowserClosed(result);
  }, runBoundMs);
});

describe("a broken image path fails the run", () => {
  const dropImages = (tools: AgentTool[]): AgentTool[] =>
    tools.map((tool) => ({ ...tool, execute: async (input, options) => ({ ...(await tool.execute(input, options)), images: [] }) }));
  const imagesAsText = (tools: AgentTool[]): AgentTool[] =>
    tools.map((tool) => ({
      ...tool,
      async execute(input, options) {
        const result = await tool.execute(input, options);
        return { ...result, text: [result.text, ...result.images.map((image) => `data:${image.mimeType};base64,${image.base64}`)].join("\n"), images: [] };
      },
    }));
  const blankImages = (tools: AgentTool[]): AgentTool[] =>
    tools.map((tool) => ({
      ...tool,
      async execute(input, options) {
        const result = await tool.execute(input, options);
        // A valid 1×1 white PNG instead of the screenshot: it reaches the model, but shows no code.
        const white = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC";
        return { ...result, images: result.images.map((image) => ({ ...image, base64: white })) };
      },
    }));

  it.each([
    ["openai-chat", "no images", dropImages, /the screenshot did not reach the model as an image part/],
    ["anthropic", "the image as base64 text", imagesAsText, /carries image data inside its text/],
    ["openai-chat", "an image without the code", blankImages, /the access code cannot be read from the screenshot/],
  ] as const)("%s with %s: model-error, nothing submitted", async (api: FoundryApi, _what, wrapTools, message) => {
    const result = await run({ api, wrapTools });
    expect(result.report.ending.reason).toBe("model-error");
    expect(result.report.ending.detail).toMatch(message);
    expect(result.report.issuedReferences).toEqual([]);
    expect(result.report.verified).toBe(false);
    expectBrowserClosed(result);
  }, runBoundMs);
});

describe("npm run demo", () => {
  const directory = mkdtempSync(join(tmpdir(), "foundry-demo-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  /** Runs the demo in the scratch directory; its exit code and output. */
  async function demo(args: string[], environment: Record<string, string> = {}, onOutput?: (output: string, pid: number) => void) {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(OPENAI|OPENROUTER|ANTHROPIC|FOUNDRY)_/.test(name)));
    const child = spawnTsx(join(root, "examples/foundry/demo.ts"), args, { cwd: directory, env: { ...inherited, ...environment }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      onOutput?.(output, child.pid!);
    });
    const killer = setTimeout(() => child.kill("SIGKILL"), runBoundMs);
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    clearTimeout(killer);
    return { code, output };
  }

  it("without a usable Chromium exits 1 and says how to install one; an unknown argument exits 2", async () => {
    const missing = await demo([], { CHROMIUM_PATH: join(directory, "no-chromium") });
    expect(missing.code).toBe(1);
    expect(missing.output).toContain(`The demo needs a Chromium. CHROMIUM_PATH is set to ${join(directory, "no-chromium")}, which is not an executable file.`);
    expect(missing.output).toContain("`npx playwright-core install chromium`");
    const usage = await demo(["--fast"]);
    expect(usage.code).toBe(2);
    expect(usage.output).toMatch(/unknown argument "--fast"[\s\S]*Usage: npm run demo/);
  }, runBoundMs);

  it("with no key runs protocol-only, prints progress, writes demo-output/, leaves no Chromium and exits 0", async () => {
    let chromium: ProcessInfo[] = [];
    const { code, output } = await demo(["--api", "openai-chat"], {}, (output, pid) => {
      // The screenshot line is printed while the agent's browser is open.
      if (chromium.length === 0 && /screenshot \{\} → ok/.test(output)) chromium = chromiumBelow(pid);
    });
    expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining("Demo passed: every confirmation was verified.") });
    expect(output).toMatch(/protocol-only \(no OPENROUTER_API_KEY or OPENAI_API_KEY is set\)/);
    expect(output).toMatch(/\[openai-chat\] turn 1\/14 {2}\(\d+\.\d s\)/);
    expect(output).toMatch(/screenshot \{\} → ok: screenshot of s1: .* \[\+1 image → the model's image input\]/);
    expect(output).toMatch(/\[openai-chat\] verified: the agent reported NW-[A-Z0-9]{6}, the reference the server issued/);
    expect(chromium.length).toBeGreaterThan(0);
    expect(chromium.filter(stillRunning)).toEqual([]);
    const files = readdirSync(join(directory, "demo-output")).sort();
    expect(files).toEqual(["screenshot-01.png", "transcript.json"]);
    const transcript = JSON.parse(readFileSync(join(directory, "demo-output/transcript.json"), "utf8"));
    expect(transcript).toMatchObject({ api: "openai-chat", ending: { reason: "done" }, verified: true });
    const text = JSON.stringify(transcript.messages);
    expect(text).toContain("[image: screenshot-01.png]");
    expect(text).not.toMatch(/iVBORw0KGgo/);
    expect(readFileSync(join(directory, "demo-output/screenshot-01.png")).subarray(1, 4).toString()).toBe("PNG");
  }, runBoundMs + 10_000);
});
