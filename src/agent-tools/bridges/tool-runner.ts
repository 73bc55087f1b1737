import { describeThrown } from "../thrown.js";
import { ValidationError } from "../../errors.js";
import type { AgentTool, ToolResult } from "../types.js";

/** Per-batch options of every bridge's `handle*` function. */
export interface BridgeCallOptions {
  /** Cancels the batch: the call in flight gets it, calls not yet started are answered as not run. */
  signal?: AbortSignal;
}

/** One finished tool call: what a bridge formats for its API. */
export interface ToolCallOutcome {
  /** The model's id for the call (`tool_call_id`, `call_id`, `tool_use_id`). */
  callId: string;
  /** The tool the model named (as sent, bounded). */
  toolName: string;
  result: ToolResult;
}

/** Runs tool calls by name; never throws for anything a model can send. */
export interface ToolRunner {
  /** Whether this toolset has a tool of that name. */
  has(name: string): boolean;
  /** Runs one call. Unknown tools, cancellations and (unexpected) throws become error results. */
  run(name: string, input: unknown, options?: BridgeCallOptions): Promise<ToolResult>;
}

const shownNameLength = 80;

/** A name as safe to echo in a message: bounded, quoted. */
export function quoteName(name: string): string {
  return JSON.stringify(name.length > shownNameLength ? `${name.slice(0, shownNameLength)}…` : name);
}

/** An error result with `text` only. */
export function errorResult(text: string): ToolResult {
  return { text, images: [], isError: true };
}

/**
 * Indexes `tools` by name for one API.
 *
 * @throws {ValidationError} when a name does not match the API's pattern or two tools share a name
 *   (a setup mistake, raised before any model call).
 */
export function createToolRunner(tools: readonly AgentTool[], api: string, namePattern: RegExp): ToolRunner {
  const byName = new Map<string, AgentTool>();
  tools.forEach((tool, index) => {
    if (!namePattern.test(tool.name)) {
      throw new ValidationError(`tools[${index}].name`, `${quoteName(tool.name)} is not a valid ${api} tool name (${namePattern.source})`);
    }
    if (byName.has(tool.name)) throw new ValidationError(`tools[${index}].name`, `${quoteName(tool.name)} appears twice`);
    byName.set(tool.name, tool);
  });
  const known = [...byName.keys()].join(", ");

  return {
    has: (name) => byName.has(name),
    async run(name, input, options = {}) {
      const tool = byName.get(name);
      if (tool === undefined) return errorResult(`Unknown tool ${quoteName(name)}. The browser tools are: ${known}.`);
      if (options.signal?.aborted) return errorResult(`${tool.name} was not run: the agent loop cancelled this batch of tool calls.`);
      try {
        return await tool.execute(input, options.signal === undefined ? {} : { signal: options.signal });
      } catch (error) {
        // Tools promise not to throw; a bridge still never lets one escape into the agent loop.
        return errorResult(`${tool.name} failed: ${describeThrown(error)}`);
      }
    },
  };
}

const shownErrorLength = 200;

/**
 * Reads a model's JSON arguments string. An empty string means no arguments
 * (`{}`); anything but one JSON object is an error result naming the problem.
 */
export function parseToolArguments(name: string, json: unknown): { input: Record<string, unknown> } | { error: ToolResult } {
  let value: unknown = json;
  if (typeof json === "string") {
    if (json.trim() === "") return { input: {} };
    try {
      value = JSON.parse(json);
    } catch (error) {
      const reason = describeThrown(error).slice(0, shownErrorLength);
      return {
        error: errorResult(
          `The arguments for ${quoteName(name)} are not valid JSON (${reason}). Call the tool again with one JSON object that matches its input schema.`,
        ),
      };
    }
  }
  return checkArgumentsObject(name, value);
}

/** Tool input must be one JSON object (every API sends one); anything else is an error result. */
export function checkArgumentsObject(name: string, value: unknown): { input: Record<string, unknown> } | { error: ToolResult } {
  if (value === undefined) return { input: {} };
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return { input: value as Record<string, unknown> };
  const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
  return { error: errorResult(`The arguments for ${quoteName(name)} must be a JSON object, not ${kind}. Call the tool again with one JSON object.`) };
}

