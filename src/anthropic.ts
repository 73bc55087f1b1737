/**
 * station-browser-use/anthropic: the browser tools in the native shapes of
 * the Anthropic Messages API. Neutral code (web standards only, every
 * runtime); no Anthropic SDK is imported at run time. The tools themselves
 * come from `station-browser-use/agent`.
 */
export {
  anthropicTools,
  toAnthropicToolResult,
  toAnthropicToolResultMessage,
  anthropicToolNamePattern,
  type AnthropicToolset,
  type AnthropicTool,
  type AnthropicContentBlock,
  type AnthropicToolResultBlock,
  type AnthropicToolResultMessage,
  type AnthropicTextBlock,
  type AnthropicImageBlock,
} from "./agent-tools/bridges/anthropic.js";
export { type BridgeCallOptions, type ToolCallOutcome } from "./agent-tools/bridges/tool-runner.js";
