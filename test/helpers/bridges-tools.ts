import type { AgentTool, ToolAnnotations, ToolCallOptions, ToolInputSchema, ToolResult } from "../../src/agent-tools/types.js";

/** A real 1×1 PNG. */
export const pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
/** A tiny JPEG header (the bridges never decode it). */
export const jpegBase64 = "/9j/4AAQSkZJRgABAQAAAQABAAD/2w==";

const readOnly: ToolAnnotations = { title: "", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

/** A call a fake tool saw. */
export interface SeenCall {
  tool: string;
  input: unknown;
  signal: AbortSignal | undefined;
}

function fakeTool(
  name: string,
  title: string,
  inputSchema: ToolInputSchema,
  run: (input: unknown, options: ToolCallOptions) => Promise<ToolResult> | ToolResult,
  seen: SeenCall[],
  annotations: Partial<ToolAnnotations> = {},
): AgentTool {
  return {
    name,
    description: `${title}. A hand-made test tool.`,
    inputSchema,
    annotations: { ...readOnly, title, ...annotations },
    async execute(input, options = {}) {
      seen.push({ tool: name, input, signal: options.signal });
      return run(input, options);
    },
  };
}

/** A schema with one optional field: not strict-ready. */
export const looseSchema: ToolInputSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    session: { type: "string", description: "Session alias, e.g. s1." },
    format: { type: "string", enum: ["png", "jpeg"], description: "Image format." },
  },
  required: ["session"],
  additionalProperties: false,
};

/** A closed schema whose every property is required: strict-ready. */
export const strictSchema: ToolInputSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: { text: { type: "string", description: "What to echo." } },
  required: ["text"],
  additionalProperties: false,
};

/** Hand-made browser-like tools, and the calls they saw. */
export function createFakeTools(): { tools: AgentTool[]; seen: SeenCall[]; waitStarted: Promise<AbortSignal> } {
  const seen: SeenCall[] = [];
  let started!: (signal: AbortSignal) => void;
  const waitStarted = new Promise<AbortSignal>((resolve) => (started = resolve));
  const tools = [
    fakeTool("station_browser_echo", "Echo", strictSchema, (input) => ({ text: `echo: ${JSON.stringify(input)}`, images: [] }), seen),
    fakeTool(
      "station_browser_screenshot",
      "Screenshot",
      looseSchema,
      () => ({ text: "Screenshot of s1 (1×1, png).", images: [{ mimeType: "image/png", base64: pngBase64 }] }),
      seen,
    ),
    fakeTool(
      "station_browser_two_images",
      "Two images",
      looseSchema,
      () => ({ text: "", images: [{ mimeType: "image/png", base64: pngBase64 }, { mimeType: "image/jpeg", base64: jpegBase64 }] }),
      seen,
    ),
    fakeTool(
      "station_browser_click",
      "Click",
      looseSchema,
      () => ({ text: "session: s9 is not open in this toolset. Open one with station_browser_open.", images: [], isError: true }),
      seen,
      { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    ),
    fakeTool(
      "station_browser_throws",
      "Throws",
      looseSchema,
      () => {
        throw new Error("tool bug");
      },
      seen,
    ),
    fakeTool(
      "station_browser_wait",
      "Wait",
      looseSchema,
      (_input, options) =>
        new Promise<ToolResult>((resolve) => {
          const signal = options.signal;
          if (signal === undefined) return resolve({ text: "no signal", images: [], isError: true });
          started(signal);
          const done = () => resolve({ text: "Error: the wait was cancelled.", images: [], isError: true });
          if (signal.aborted) done();
          else signal.addEventListener("abort", done, { once: true });
        }),
      seen,
    ),
  ];
  return { tools, seen, waitStarted };
}

/** Every string anywhere in a value. */
export function allStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(allStrings);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(allStrings);
  return [];
}

/**
 * A fetch that answers model API calls from a script, recording each request
 * body (what the official SDK actually sends). No network.
 */
export function scriptedFetch(answers: unknown[]): { fetch: typeof globalThis.fetch; bodies: unknown[]; urls: string[] } {
  const bodies: unknown[] = [];
  const urls: string[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    urls.push(String(input instanceof Request ? input.url : input));
    bodies.push(JSON.parse(String(init?.body)));
    const answer = answers.shift();
    if (answer === undefined) return new Response(JSON.stringify({ error: { message: "script exhausted" } }), { status: 500 });
    return new Response(JSON.stringify(answer), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { fetch: fetch as typeof globalThis.fetch, bodies, urls };
}
