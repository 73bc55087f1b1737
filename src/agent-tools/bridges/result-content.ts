import type { ToolImage, ToolInputSchema, ToolResult } from "../types.js";

/** What a model reads when a tool returned neither text nor images. */
export const emptyResultText = "(no output)";

/**
 * The text part of a result: the tool's text, or {@link emptyResultText} when
 * there is nothing else to send. `""` when the result has only images (APIs
 * such as Anthropic's refuse empty text blocks, so callers leave that part out).
 */
export function resultText(result: ToolResult): string {
  if (result.text !== "") return result.text;
  return result.images.length > 0 ? "" : emptyResultText;
}

/**
 * For APIs without an error flag (OpenAI's): a failed result's text starts
 * with `Error:` unless the tool already said so.
 */
export function flaggedText(result: ToolResult): string {
  const text = resultText(result);
  return result.isError === true && !/^\s*error\b/i.test(text) ? `Error: ${text}` : text;
}

/** `data:image/png;base64,…` */
export function imageDataUrl(image: ToolImage): string {
  return `data:${image.mimeType};base64,${image.base64}`;
}

/** "1 image" / "2 images" */
export function imageCount(count: number): string {
  return count === 1 ? "1 image" : `${count} images`;
}

/**
 * A tool's input schema as sent to a model API: the JSON Schema itself,
 * without the `$schema` dialect marker (metadata the model does not need).
 */
export function modelInputSchema(schema: ToolInputSchema): ToolInputSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest as ToolInputSchema;
}
