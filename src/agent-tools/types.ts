/**
 * The shapes shared by the agent tools and the model bridges. Neutral code:
 * web standards only.
 */

import type { TakeoverNotice } from "./takeover.js";

/** An image for the model's image channel; never copied into `text`. */
export interface ToolImage {
  mimeType: "image/png" | "image/jpeg";
  /** Base64 of the image bytes, no `data:` prefix. */
  base64: string;
}

/** What every tool call returns. Tools never throw into the agent loop. */
export interface ToolResult {
  /** Bounded text for the model; website content is fenced as untrusted. */
  text: string;
  /** Screenshots and other images, for the model's image channel. */
  images: ToolImage[];
  /** True when the call failed (bad input, browser failure, refused). */
  isError?: boolean;
  /**
   * For the host, never the model (bridges leave it out): the call found the
   * session needing a human — a challenge, a block, a throttle — with its
   * live view URL when the host's `liveView` option gives one.
   */
  takeover?: TakeoverNotice;
}

/** Per-call options of {@link AgentTool.execute}. */
export interface ToolCallOptions {
  /** Cancels the in-flight call. */
  signal?: AbortSignal;
}

/** A JSON Schema object (draft-07 compatible) describing a tool's input. */
export interface ToolInputSchema {
  type: "object";
  properties: Record<string, unknown>;
  required?: string[];
  additionalProperties?: boolean;
  [keyword: string]: unknown;
}

/** Hints a bridge may pass on (MCP tool annotations). */
export interface ToolAnnotations {
  /** A short human title. */
  title: string;
  /** The tool only reads (observe, screenshot, list). */
  readOnlyHint: boolean;
  /** The tool may change or destroy state the user cares about (submit, close, upload). */
  destructiveHint: boolean;
  /** Calling it twice with the same input has no extra effect. */
  idempotentHint: boolean;
  /** It reaches the open web. */
  openWorldHint: boolean;
}

/** One browser tool as a model sees it. */
export interface AgentTool {
  /** Starts with `station_browser_`. */
  name: string;
  /** When to use it and when not to. */
  description: string;
  /** JSON Schema generated from the tool's valibot schema; every field described. */
  inputSchema: ToolInputSchema;
  annotations: ToolAnnotations;
  /** Runs the tool. Never throws for bad input or browser failures: returns `isError`. */
  execute(input: unknown, options?: ToolCallOptions): Promise<ToolResult>;
}
