import type { ToolResult } from "../types.js";
import { resultText } from "./result-content.js";

/** The image part type: `media` for AI SDK 5, `image-data` for 6 and 7. */
export type AiSdkImagePartType = "media" | "image-data";

/** What `toModelOutput` returns (a subset of the AI SDK's `ToolResultOutput`, valid in v5, v6 and v7). */
export type AiSdkToolOutput =
  | { type: "text"; value: string }
  | { type: "error-text"; value: string }
  | {
      type: "content";
      value: Array<{ type: "text"; text: string } | { type: AiSdkImagePartType; data: string; mediaType: string }>;
    };

/** Whether a value is a {@link ToolResult} (what the browser tools' `execute` returns). */
export function isToolResult(value: unknown): value is ToolResult {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<ToolResult>;
  return typeof candidate.text === "string" && Array.isArray(candidate.images);
}

/**
 * A tool result as the AI SDK's model output: plain text (`error-text` for a
 * failure) when there are no images, else a `content` list of the text and
 * one image part per image, which providers turn into their image channel
 * (Anthropic `image` blocks, Responses `input_image`).
 *
 * @example
 * ```ts
 * tool({ description, inputSchema, execute, toModelOutput: ({ output }) => toAiSdkToolOutput(output) });
 * ```
 */
export function toAiSdkToolOutput(result: ToolResult, imagePart: AiSdkImagePartType = "image-data"): AiSdkToolOutput {
  const text = resultText(result);
  if (result.images.length === 0) return { type: result.isError === true ? "error-text" : "text", value: text };
  return {
    type: "content",
    value: [
      ...(text === "" ? [] : [{ type: "text" as const, text }]),
      ...result.images.map((image) => ({ type: imagePart, data: image.base64, mediaType: image.mimeType })),
    ],
  };
}

/**
 * A `toModelOutput` that works with every AI SDK major: v5 calls it with the
 * tool's output itself (and wants `media` parts); v6 and v7 call it with
 * `{ toolCallId, input, output }` (and take `image-data`).
 */
export function aiSdkModelOutput(options: unknown): AiSdkToolOutput {
  if (isToolResult(options)) return toAiSdkToolOutput(options, "media");
  const output = typeof options === "object" && options !== null ? (options as { output?: unknown }).output : undefined;
  if (isToolResult(output)) return toAiSdkToolOutput(output, "image-data");
  return { type: "error-text", value: "The browser tool returned no result." };
}
